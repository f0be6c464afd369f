"""The seeds' micro-benchmarks: elementwise math, batched dot products, CUDA.

Each kernel becomes a record of the drivers' own type (``kind: "kernel"``):
it times a single kernel call (e.g. ``np.exp`` on a 10000 x 10000 array) in
repeats, keeps every repeat as a raw round, and checks the last result
against the reference implementation. Run with ``python -m callbench.kernels``.

This package's ``__init__`` imports nothing heavy on purpose: ``__main__``
must set the thread environment variables before NumPy is first imported.
"""
