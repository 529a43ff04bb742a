#
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0
#
"""Build step only (pyproject.toml holds the rest of the metadata):

- the version is Spindex's, the root pom.xml's revision (spindex/_version.py reads it; the built
  package gets it as a constant). From a source distribution, without the pom, it is PKG-INFO's.
- the wheel carries the Spark job jars of that version found at build time in
  ../jobs/spark/*/target/ as package data spindex/jars/*.jar, so that spindex.configure() can put
  the right one on spark.jars. No jars built: the package still builds, without them (configure()
  then says so). SPINDEX_JARS_FROM=DIR takes the jars from DIR instead.
"""

import email.parser
import glob
import os
import runpy
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
VERSION_PY = os.path.join(HERE, "spindex", "_version.py")


def versions():
    """(Maven version, Python version) of the package being built."""
    version = runpy.run_path(VERSION_PY)
    maven = version["maven_version"]()
    if maven:
        return maven, version["python_version"](maven)
    pkg_info = os.path.join(HERE, "PKG-INFO")  # an unpacked source distribution
    if os.path.exists(pkg_info):
        with open(pkg_info, encoding="utf-8") as f:
            python = email.parser.Parser().parse(f)["Version"]
        return None, python
    raise SystemExit("spindex: no version: neither ../pom.xml (a Spindex checkout) nor PKG-INFO")


MAVEN_VERSION, VERSION = versions()


def job_jars():
    if MAVEN_VERSION is None:
        return []
    pattern = "spindex-spark-*-%s-job.jar" % MAVEN_VERSION
    source = os.environ.get("SPINDEX_JARS_FROM")
    if source:
        return sorted(glob.glob(os.path.join(source, pattern)))
    return sorted(glob.glob(os.path.join(HERE, "..", "jobs", "spark", "*", "target", pattern)))


class BuildPyWithJars(build_py):
    def run(self):
        super().run()
        version_py = os.path.join(self.build_lib, "spindex", "_version.py")
        os.remove(version_py)  # a copy, but never write through a link to the source
        with open(version_py, "w", encoding="utf-8") as f:
            f.write('"""Spindex\'s version (the root pom.xml\'s revision when built)."""\n\n'
                    '__version__ = "%s"\n' % VERSION)
        target = os.path.join(self.build_lib, "spindex", "jars")
        shutil.rmtree(target, ignore_errors=True)  # build/ outlives a build: no stale jars
        os.makedirs(target)
        jars = job_jars()
        for jar in jars:
            shutil.copyfile(jar, os.path.join(target, os.path.basename(jar)))
        print("spindex %s: %d job jar(s) packaged%s" % (
            VERSION, len(jars), "".join("\n  " + os.path.basename(j) for j in jars)
            or " (none of version %s built: run ./mvnw -B package first to carry them)"
            % MAVEN_VERSION))


setup(version=VERSION, cmdclass={"build_py": BuildPyWithJars})
