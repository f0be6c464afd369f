"""The environment variables through which libraries take their thread count, named once."""

from __future__ import annotations

# BLAS and OpenMP read them when first loaded; numexpr and rayon (candle) too.
THREAD_VARIABLES = (
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "NUMEXPR_NUM_THREADS",
    "RAYON_NUM_THREADS",
)
