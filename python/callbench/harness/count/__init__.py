"""Instructions per call: each driver served under Valgrind's callgrind, its rounds counted,
not timed (``callbench count``).

run (every chosen driver's count), counter (one driver's), options (limits, K, warm-up),
calibration (K from short counted rounds), settling (a JIT row's rounds until warm), pairs
(rounds of 1, K and 2K calls), rounds (a driver serving counted rounds), callgrind (the
tool driven from outside), builds (what a count runs where the timed row cannot run under
Valgrind) and no_io_uring (a command with io_uring off). It imports the harness's top
(launch, processes, expected, verification, warmup), never ``harness.load``.
"""
