#
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0
#
"""Fixtures of the Python reader's tests: indexes built by the CLI jar (scripts/spindex), with the
Java side's answers (``spindex lookup --json``), made once per session in SPINDEX_READER_FIXTURES
(scripts/it-python-reader sets it) or a temporary directory."""

import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
if not os.environ.get("SPINDEX_TEST_INSTALLED"):  # scripts/it-python-reader: the installed one
    sys.path.insert(0, os.path.join(ROOT, "python"))
CLI = os.path.join(ROOT, "scripts", "spindex")
RESOURCES = os.path.join(ROOT, "core", "src", "test", "resources")


def cli_jar_built():
    target = os.path.join(ROOT, "cli", "target")
    return os.path.isdir(target) and any(
        n.startswith("spindex-cli-") and n.endswith(".jar") for n in os.listdir(target))


def spindex(*args, stdin=None, ok=(0,)):
    done = subprocess.run([CLI, *args], input=stdin, capture_output=True, text=True)
    if done.returncode not in ok:
        raise AssertionError("spindex %s: exit %d: %s" % (" ".join(args), done.returncode,
                                                          done.stderr[-2000:]))
    return done.stdout


def java_answers(index, queries):
    """ip text -> the label (a dict of fields, or None) or the set's answer, from the Java CLI."""
    out = spindex("lookup", "--json", index, stdin="\n".join(queries) + "\n",
                  ok=(0, 1))  # 1: some lines did not parse (said on stderr)
    answers = {}
    for line in out.splitlines():
        o = json.loads(line)
        answers[o["ip"]] = o["contains"] if "contains" in o else o["label"]
    return answers


TYPED = [
    ("1.0.0.0", "1.0.0.255", 'AU|-33.5|13335'),
    ("1.0.1.0", "1.0.3.255", '"Sydney| NSW"|1.0E-5|-42'),
    ("1.0.4.0", "1.0.4.0", 'NZ|\\N|'),
    ("10.0.0.0", "10.255.255.255", '|0|9223372036854775807'),
    ("2001:db8::", "2001:db8::ffff", 'DE|52.5|3320'),
    ("2a00::", "2a00:0:0:ffff:ffff:ffff:ffff:ffff", '"say ""hi"""|.5|7'),
]


@pytest.fixture(scope="session")
def fixtures(tmp_path_factory):
    if not cli_jar_built():
        pytest.skip("the CLI jar is not built (./mvnw -B -o -q package -DskipTests -pl cli -am)")
    d = os.environ.get("SPINDEX_READER_FIXTURES") or str(tmp_path_factory.mktemp("reader"))
    os.makedirs(d, exist_ok=True)
    f = {k: os.path.join(d, v) for k, v in {
        "ranges_txt": "ranges.txt", "ranges": "ranges.spx", "v4": "v4.spx", "v4_txt": "v4.txt",
        "typed_txt": "typed.txt", "typed": "typed.spx", "set_txt": "set.txt", "set": "set.spx",
        "queries": "queries.txt", "dense_txt": "dense.txt", "dense": "dense.spx"}.items()}
    done = os.path.join(d, ".done")
    if not os.path.exists(done):
        spindex("gen", "ranges", "--count", "20000", "--seed", "3", "--family", "both",
                "--shape", "real", "-o", f["ranges_txt"])
        spindex("build", "ranges", f["ranges_txt"], "-o", f["ranges"])
        spindex("gen", "ranges", "--count", "30000", "--seed", "5", "-o", f["v4_txt"])
        spindex("build", "ranges", f["v4_txt"], "-o", f["v4"])
        # Real-shaped: dense /16 blocks, so the index has /24 sub-tables (prefix24).
        spindex("gen", "ranges", "--count", "100000", "--seed", "8", "--shape", "real",
                "-o", f["dense_txt"])
        spindex("build", "ranges", f["dense_txt"], "-o", f["dense"])
        with open(f["typed_txt"], "w") as out:
            out.write("".join("%s|%s|%s\n" % r for r in TYPED))
        spindex("build", "ranges", f["typed_txt"], "-o", f["typed"],
                "--label-fields", "country,lat:double,asn:bigint")
        spindex("gen", "ips", "--count", "3000", "--seed", "9", "--family", "both",
                "-o", f["set_txt"])
        spindex("build", "ips", f["set_txt"], "-o", f["set"])
        weighted = spindex("gen", "ips", "--count", "3000", "--seed", "7", "--weighted-by",
                           f["ranges"])
        mixed = spindex("gen", "ips", "--count", "3000", "--seed", "6", "--family", "both",
                        "--malformed", "0.03")
        edges = []
        with open(f["ranges_txt"]) as lines:
            for i, line in enumerate(lines):
                if i % 7 == 0:
                    start, end = line.split("|")[:2]
                    edges += [start, end]
        with open(f["queries"], "w") as out:
            out.write(weighted + mixed + "\n".join(edges) + "\n")
        open(done, "w").close()
    return f


@pytest.fixture(scope="session")
def queries(fixtures):
    with open(fixtures["queries"]) as f:
        return [line.rstrip("\n") for line in f]
