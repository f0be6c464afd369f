"""The ``callbench`` command: each subcommand a thin layer over the library (see main)."""

# Before any command imports numpy: the harness's arrays without huge pages (numpy_pages).
from callbench.harness import numpy_pages as numpy_pages
