"""Independent plain callers: the loop a user would write, outside callbench's protocol.

They share nothing with the drivers but the command line and the files, so a
run can show that the drivers' harness adds no cost of its own: each Python
runtime's best driver variant should be at least as fast as these.
Run as ``python -m callbench.independent.<name> <contract options>``.
"""
