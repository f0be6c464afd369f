"""``python -m callbench.harness.count.no_io_uring COMMAND...``: COMMAND with io_uring turned off.

IREE's runtime starts a proactor thread that waits in ``io_uring_enter``. Valgrind
3.19 does not treat that system call as one that blocks, so the waiting thread keeps
Valgrind's thread lock and the whole process stops (asleep, at 0% CPU, forever). With
``io_uring_setup`` answering ENOSYS, as on a kernel without io_uring, IREE uses its
POSIX backend instead. A seccomp filter (libseccomp, the system's) is inherited across
``exec``, so it holds for Valgrind and the driver it runs.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import os
import sys

LIBRARY = "seccomp"
BLOCKED = ("io_uring_setup",)
# libseccomp's actions (seccomp.h): allow, or fail with an errno.
ALLOW = 0x7FFF0000
ERRNO_ACTION = 0x00050000


def unavailable() -> str | None:
    """Why io_uring cannot be turned off here, or None."""
    if not sys.platform.startswith("linux"):
        return "io_uring can be turned off on Linux only"
    if ctypes.util.find_library(LIBRARY) is None:
        return "libseccomp is not installed (Debian: apt-get install libseccomp2)"
    return None


def turn_off() -> None:
    """Make io_uring_setup fail with ENOSYS in this process and what it executes."""
    name = ctypes.util.find_library(LIBRARY)
    if name is None:
        raise OSError(unavailable())
    lib = ctypes.CDLL(name, use_errno=True)
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = [ctypes.c_uint32]
    lib.seccomp_rule_add.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint]
    lib.seccomp_load.argtypes = [ctypes.c_void_p]
    lib.seccomp_release.argtypes = [ctypes.c_void_p]
    lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    context = lib.seccomp_init(ALLOW)
    if not context:
        raise OSError("seccomp_init failed")
    try:
        for call in BLOCKED:
            number = lib.seccomp_syscall_resolve_name(call.encode())
            if lib.seccomp_rule_add(context, ERRNO_ACTION | errno.ENOSYS, number, 0) != 0:
                raise OSError(f"seccomp_rule_add({call}) failed")
        if lib.seccomp_load(context) != 0:
            raise OSError("seccomp_load failed")
    finally:
        lib.seccomp_release(context)


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: python -m callbench.harness.count.no_io_uring COMMAND...", file=sys.stderr)
        return 2
    try:
        turn_off()
    except OSError as exc:
        print(f"no_io_uring: cannot turn io_uring off: {exc}", file=sys.stderr)
        return 2
    os.execvp(argv[0], argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
