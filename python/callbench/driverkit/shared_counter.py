"""The next-arrival counter that N copies of a driver share: ``paced FILE START COUNTER``.

A service's workers in N processes take the next request as they come free (gunicorn's and
uvicorn's workers accept on one listening socket). N copies serving one schedule do the
same through COUNTER, a file of one int64 (little-endian) that every copy maps: a free
caller takes arrival j = the count and leaves j + 1. Python has no atomic add on shared
memory, so the count is read and written under an exclusive lock of the file (``flock``:
two system calls an arrival, charged to the copy that takes it, as a worker's ``accept``
is). ``flock`` locks belong to an open file, not a thread: the callers of one copy also
take the copy's own lock around it.
"""

from __future__ import annotations

import fcntl
import mmap
import os
from pathlib import Path

from callbench.errors import DataError

COUNT_BYTES = 8


class SharedCounter:
    """COUNTER mapped, its count taken under the file's lock."""

    def __init__(self, path: Path) -> None:
        try:
            self._fd = os.open(path, os.O_RDWR)
        except OSError as exc:
            why = exc.strerror or exc
            raise DataError(path, f"cannot open the shared counter ({why})") from None
        size = os.fstat(self._fd).st_size
        if size != COUNT_BYTES:
            os.close(self._fd)
            raise DataError(path, f"a shared counter is one int64; {size} bytes is not")
        self._map = mmap.mmap(self._fd, COUNT_BYTES)

    def take(self) -> int:
        """The count before this take, the count one more after it."""
        fcntl.flock(self._fd, fcntl.LOCK_EX)
        try:
            j = int.from_bytes(self._map[:COUNT_BYTES], "little")
            self._map[:COUNT_BYTES] = (j + 1).to_bytes(COUNT_BYTES, "little")
        finally:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
        return j

    def close(self) -> None:
        self._map.close()
        os.close(self._fd)
