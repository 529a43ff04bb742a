#
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0
#
"""The package's API: each public module's ``__all__`` is the table of python/README.md "API",
and the module has no other public name of its own (a function, class or constant defined there
or taken from a private ``spindex._*`` module; imported modules and other packages' names aside)."""

import importlib
import os
import re
import types

import pytest

README = os.path.join(os.path.dirname(__file__), "..", "README.md")


def documented():
    """The README's API table: module -> its names, sorted."""
    with open(README, encoding="utf-8") as f:
        text = f.read()
    section = text.split("\n## API\n", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(spindex[\w.]*)` \| (.+) \|$", section, re.M)
    assert rows, "no API table in python/README.md"
    return {module: sorted(re.findall(r"`(\w+)`", names)) for module, names in rows}


def own_public_names(module):
    """The public names ``module`` offers: not ``_``-prefixed, not a module, and defined in it or
    in a private module of the package (not imported from elsewhere, as ``namedtuple``)."""
    names = []
    for name, value in vars(module).items():
        if name.startswith("_") or isinstance(value, types.ModuleType):
            continue
        origin = getattr(value, "__module__", None)  # functions and classes; None for constants
        if origin is not None and origin != module.__name__ and not origin.startswith("spindex._"):
            continue
        names.append(name)
    return sorted(names)


def test_the_table_names_the_public_modules():
    assert sorted(documented()) == ["spindex", "spindex.rejects", "spindex.udf"]


@pytest.mark.parametrize("name", ["spindex", "spindex.rejects", "spindex.udf"])
def test_all_is_the_documented_api_and_nothing_else_is_public(name):
    if name == "spindex.udf":
        pytest.importorskip("pyarrow")  # spindex.udf imports it
    module = importlib.import_module(name)
    want = documented()[name]
    assert sorted(module.__all__) == want, "%s.__all__ against python/README.md" % name
    assert len(set(module.__all__)) == len(module.__all__), "%s.__all__ repeats a name" % name
    assert own_public_names(module) == want, "%s: public names not in __all__" % name
    for n in module.__all__:
        assert hasattr(module, n), "%s.__all__ names %s, which it does not have" % (name, n)
