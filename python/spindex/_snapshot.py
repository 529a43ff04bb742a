#
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0
#
"""Private snapshots of index files, which ``spindex.open`` maps instead of the files themselves.

A mapping shares the file's pages: a file truncated or written over in place (``cp new.spx
live.spx``) under a reader drops or changes them, and the next read of a dropped page kills the
process with SIGBUS (or SIGSEGV). No check in Python can catch that. So a reader maps a copy that
only Spindex writes, under a temporary name renamed into place, named after the original's path,
inode, size and modification time: whatever happens to the original afterwards, the reader answers
from the version it copied. Every process on the host that opens the same version maps the same
snapshot (one copy, one page cache); a new version deletes the older snapshots of the same path, and
snapshots no one has opened for a day go too. The versions ``spindex update`` keeps
(``OUT.spx.versions/``) are never written after they are published: they are mapped as they are.

The directory is ``SPINDEX_SNAPSHOT_DIR``, else ``spindex-snapshots-py-USER`` in the system's
temporary directory, readable by its owner only (the Java loaders keep their own, with the same
rules).
"""

import hashlib
import os
import re
import tempfile
import time

from spindex._errors import CorruptIndexError

_KEPT = re.compile(r"\d{8}T\d{6}Z-[0-9a-f]{8}\.spx")
_UNUSED_SECONDS = 24 * 3600
_CHUNK = 1 << 20


def directory():
    configured = os.environ.get("SPINDEX_SNAPSHOT_DIR")
    if configured:
        d = configured
    else:
        try:
            user = os.getlogin()
        except OSError:
            user = str(os.getuid()) if hasattr(os, "getuid") else "user"
        d = os.path.join(tempfile.gettempdir(), "spindex-snapshots-py-" + user)
    os.makedirs(d, mode=0o700, exist_ok=True)
    return d


def of(path):
    """The file to map for ``path``: a kept version as it is, else a private snapshot of it.

    Raises CorruptIndexError naming ``path`` when it was written in place while it was copied."""
    if _KEPT.fullmatch(os.path.basename(path)) and os.path.dirname(
            os.path.abspath(path)).endswith(".versions"):
        return path
    d = directory()
    key = hashlib.sha1(os.path.abspath(path).encode("utf-8", "surrogateescape")).hexdigest()[:16]
    with open(path, "rb") as src:
        before = os.fstat(src.fileno())
        name = "%s-%d-%d-%d.spx" % (key, before.st_ino, before.st_size, before.st_mtime_ns)
        snapshot = os.path.join(d, name)
        try:
            if os.path.getsize(snapshot) == before.st_size:
                os.utime(snapshot)  # used: the sweep of unused snapshots leaves it
                return snapshot
        except OSError:
            pass
        fd, tmp = tempfile.mkstemp(dir=d, prefix="." + key + "-", suffix=".tmp")
        try:
            copied = 0
            with os.fdopen(fd, "wb") as out:
                # Plain reads, never a mapping: a file cut short meanwhile makes a short copy.
                while True:
                    chunk = src.read(_CHUNK)
                    if not chunk:
                        break
                    out.write(chunk)
                    copied += len(chunk)
            after = os.stat(path)
            in_place = (after.st_ino == before.st_ino
                        and (after.st_size, after.st_mtime_ns)
                        != (before.st_size, before.st_mtime_ns))
            if in_place or copied != before.st_size:
                raise CorruptIndexError(
                    "%s: changed while in use: it was written while it was read (%d of %d bytes); "
                    "replace indexes by renaming (spindex update does)"
                    % (path, copied, before.st_size))
            os.replace(tmp, snapshot)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    _sweep(d, key, name)
    return snapshot


def _sweep(d, key, keep):
    """Deletes the other versions' snapshots of the same file, and every snapshot no one has opened
    for a day. Best effort: a process that maps a deleted snapshot keeps its pages."""
    unused_since = time.time() - _UNUSED_SECONDS
    for n in os.listdir(d):
        if n == keep:
            continue
        p = os.path.join(d, n)
        try:
            if n.startswith(key + "-") or os.path.getmtime(p) < unused_since:
                os.unlink(p)
        except OSError:
            pass
