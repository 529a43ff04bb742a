#
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0
#
"""spindex.udf's worker side when the index is replaced (spindex update, a rename): a task answers
from one version throughout, the next task from the new one, and a worker holds one version of
each index. Tasks are played by setting the task key the UDF asks Spark for."""

import os

import pytest

from conftest import cli_jar_built, spindex

pytestmark = pytest.mark.skipif(not cli_jar_built(), reason="the CLI jar is not built")


def build(tmp_path, name, label):
    text = tmp_path / (name + ".txt")
    text.write_text("10.0.0.0|10.0.0.255|%s\n" % label)
    out = tmp_path / (name + ".spx")
    spindex("build", "ranges", str(text), "-o", str(out))
    return out


def test_a_task_keeps_its_version_and_the_next_task_sees_the_new_one(tmp_path, monkeypatch):
    import spindex.udf as udf

    live = build(tmp_path, "live", "v1")
    task = ["stage 1, task 0"]
    monkeypatch.setattr(udf, "_task_key", lambda: task[0])
    first = udf.index(str(live))
    assert first.label(["10.0.0.7"]).to_pylist() == ["v1"]

    os.replace(build(tmp_path, "next", "v2"), live)  # published mid-task
    assert udf.index(str(live)) is first, "the rest of the task answers from its version"
    assert udf.index(str(live)).label(["10.0.0.7"]).to_pylist() == ["v1"]

    task[0] = "stage 2, task 0"
    second = udf.index(str(live))
    assert second is not first
    assert second.label(["10.0.0.7"]).to_pylist() == ["v2"]
    assert udf._open[str(live)][1] is second, "a worker holds one version of each index"


def test_outside_a_task_every_call_sees_the_file_as_it_is(tmp_path, monkeypatch):
    import spindex.udf as udf

    monkeypatch.setattr(udf, "_task_key", lambda: None)
    live = build(tmp_path, "live", "v1")
    assert udf.index(str(live)).label(["10.0.0.7"]).to_pylist() == ["v1"]
    os.replace(build(tmp_path, "next", "v2"), live)
    assert udf.index(str(live)).label(["10.0.0.7"]).to_pylist() == ["v2"]
