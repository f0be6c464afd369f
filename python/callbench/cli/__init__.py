"""The ``callbench`` command: each subcommand a thin layer over the library (see main)."""
