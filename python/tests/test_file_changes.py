#
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0
#
"""Nothing done to an open index's file kills the reader: truncated, a smaller or a bigger file
copied over it (the same inode), in a loop, under concurrent lookups. The reader maps a private
snapshot, so it goes on answering from the version it opened. Each case runs in a child process:
a fault (SIGBUS, SIGSEGV) would end the child, not the test run, and show as its exit status."""

import os
import shutil
import subprocess
import sys
import textwrap

import pytest

from conftest import ROOT, cli_jar_built, spindex

pytestmark = pytest.mark.skipif(not cli_jar_built(), reason="the CLI jar is not built")


def build(tmp_path, name, ranges, label):
    text = tmp_path / (name + ".txt")
    with open(text, "w") as f:
        for i in range(ranges):
            f.write("10.%d.%d.0|10.%d.%d.255|%s%d\n" % (i >> 8, i & 255, i >> 8, i & 255, label, i))
    out = tmp_path / (name + ".spx")
    spindex("build", "ranges", str(text), "-o", str(out))
    return out


CHILD = textwrap.dedent("""
    import os, shutil, sys, threading
    sys.path.insert(0, sys.argv[1])
    import spindex
    live, small, big, snapdir = sys.argv[2:6]
    os.environ["SPINDEX_SNAPSHOT_DIR"] = snapdir
    index = spindex.open(live)
    queries = ["10.0.%d.7" % (i % 256) for i in range(5000)]
    expected = ["v%d" % (i % 256) for i in range(5000)]
    failures = []

    def lookups():
        for _ in range(40):
            if index.label(queries).to_pylist() != expected:
                failures.append("a lookup answered from another version")
                return

    threads = [threading.Thread(target=lookups) for _ in range(3)]
    for t in threads:
        t.start()
    for _ in range(20):
        with open(live, "r+b") as f:
            f.truncate(0)                   # truncated in place
        shutil.copyfile(small, live)       # a smaller file copied over (same inode)
        shutil.copyfile(big, live)         # a bigger one
    for t in threads:
        t.join()
    assert not failures, failures
    assert index.label(queries).to_pylist() == expected
    print("ok")
""")


def test_truncating_or_copying_over_an_open_index_kills_nothing(tmp_path):
    live = build(tmp_path, "live", 256, "v")
    small = build(tmp_path, "small", 3, "s")
    big = build(tmp_path, "big", 20000, "b")
    child = subprocess.run(
        [sys.executable, "-c", CHILD, os.path.join(ROOT, "python"), str(live), str(small),
         str(big), str(tmp_path / "snapshots")],
        capture_output=True, text=True, timeout=300)
    assert child.returncode == 0, "exit %d (a signal is negative): %s" % (
        child.returncode, child.stderr[-2000:])
    assert child.stdout.strip() == "ok"


def test_a_new_version_replaces_the_old_snapshot(tmp_path, monkeypatch):
    import spindex

    monkeypatch.setenv("SPINDEX_SNAPSHOT_DIR", str(tmp_path / "snapshots"))
    live = build(tmp_path, "live", 4, "v")
    first = spindex.open(str(live))
    os.replace(build(tmp_path, "next", 4, "n"), live)
    second = spindex.open(str(live))
    assert first.label(["10.0.1.7"]).to_pylist() == ["v1"]
    assert second.label(["10.0.1.7"]).to_pylist() == ["n1"]
    # One snapshot of the path on disk: the newest (the old one's pages stay with its mapping).
    assert len(os.listdir(tmp_path / "snapshots")) == 1


def test_kept_versions_are_mapped_in_place(tmp_path, monkeypatch):
    import spindex

    monkeypatch.setenv("SPINDEX_SNAPSHOT_DIR", str(tmp_path / "snapshots"))
    built = build(tmp_path, "v", 4, "k")
    kept_dir = tmp_path / "geo.spx.versions"
    kept_dir.mkdir()
    kept = kept_dir / "20261129T030000Z-0000abcd.spx"
    shutil.copyfile(built, kept)
    assert spindex.open(str(kept)).label(["10.0.2.1"]).to_pylist() == ["k2"]
    assert not os.path.exists(tmp_path / "snapshots") or not os.listdir(tmp_path / "snapshots")
