#
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0
#
"""Build step only (pyproject.toml holds the metadata): the wheel carries the Spark job jars
found at build time in ../jobs/spark/*/target/ as package data spindex/jars/*.jar, so that
spindex.configure() can put the right one on spark.jars. No jars built: the package still builds,
without them (configure() then says so). SPINDEX_JARS_FROM=DIR takes the jars from DIR instead.
"""

import glob
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
PATTERN = "spindex-spark-*-job.jar"


def job_jars():
    source = os.environ.get("SPINDEX_JARS_FROM")
    if source:
        return sorted(glob.glob(os.path.join(source, PATTERN)))
    return sorted(glob.glob(os.path.join(HERE, "..", "jobs", "spark", "*", "target", PATTERN)))


class BuildPyWithJars(build_py):
    def run(self):
        super().run()
        target = os.path.join(self.build_lib, "spindex", "jars")
        shutil.rmtree(target, ignore_errors=True)  # build/ outlives a build: no stale jars
        os.makedirs(target)
        jars = job_jars()
        for jar in jars:
            shutil.copyfile(jar, os.path.join(target, os.path.basename(jar)))
        print("spindex: %d job jar(s) packaged%s" % (
            len(jars), "".join("\n  " + os.path.basename(j) for j in jars)
            or " (none built: run ./mvnw -B package first to carry them)"))


setup(cmdclass={"build_py": BuildPyWithJars})
