#
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0
#
"""The package's version, which is Spindex's: the root pom.xml's ``revision`` property, the one
place the version is set. In the source tree it is read from the pom; a built package has this
file replaced by setup.py with the number itself.

Runs on its own too: setup.py executes this file (runpy) without importing the package."""

import os
import xml.etree.ElementTree as ElementTree

POM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "pom.xml")
_NS = "{http://maven.apache.org/POM/4.0.0}"


def maven_version(pom=POM):
    """The root pom's revision (e.g. '1.0.0', '1.1.0-SNAPSHOT'), or None without a pom."""
    try:
        root = ElementTree.parse(pom).getroot()
    except (OSError, ElementTree.ParseError):
        return None
    revision = root.find(_NS + "properties/" + _NS + "revision")
    return revision.text.strip() if revision is not None and revision.text else None


def python_version(maven):
    """A Maven version as a Python one (PEP 440): '1.0.0' stays, '1.1.0-SNAPSHOT' is
    '1.1.0.dev0'."""
    if maven.endswith("-SNAPSHOT"):
        return maven[: -len("-SNAPSHOT")] + ".dev0"
    return maven


_maven = maven_version()
__version__ = python_version(_maven) if _maven else "unknown"
