#
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0
#
"""The error types of the package."""


class SpindexUnavailableError(RuntimeError):
    """The session (or the installed pyspark) cannot run the Spindex functions.

    The message is one line saying what is missing and how to provide it; it is raised without a
    chained cause (the cause is a lookup that came back empty, not a failure worth a trace).
    """


class CorruptIndexError(ValueError):
    """A file that is not a valid Spindex index (truncated, damaged, another kind of file, or of a
    pre-release or newer format): one line naming the file and what is wrong (the section, or
    ``header``/``directory``, the byte offset, what was expected and what was found), as the Java
    loaders' ``CorruptIndexException`` says it."""

    @classmethod
    def at(cls, file, section, offset, expected, found):
        return cls("%s: %s at offset %d: expected %s, found %s"
                   % (file, section, offset, expected, found))
