#
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0
#
"""The one error type of the package."""


class SpindexUnavailableError(RuntimeError):
    """The session (or the installed pyspark) cannot run the Spindex functions.

    The message is one line saying what is missing and how to provide it; it is raised without a
    chained cause (the cause is a lookup that came back empty, not a failure worth a trace).
    """
