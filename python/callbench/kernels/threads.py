"""One thread count for every library the kernels use (default 1).

NumPy's BLAS and OpenMP read their counts from the environment when they are
first loaded, so ``thread_env`` must be applied before NumPy is imported
(``__main__`` does it first thing); torch and numexpr are set at run time.
"""

from __future__ import annotations

import os

from callbench.threads import THREAD_VARIABLES


def thread_env(threads: int) -> None:
    """Set the thread variables of BLAS, OpenMP and numexpr in this process."""
    for name in THREAD_VARIABLES:
        os.environ[name] = str(threads)


def set_runtime_threads(threads: int) -> None:
    """Give torch and numexpr ``threads`` intra-op threads."""
    import numexpr
    import torch

    torch.set_num_threads(threads)
    numexpr.set_num_threads(threads)
