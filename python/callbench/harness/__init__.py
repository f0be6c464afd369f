"""The harness: start drivers, time them in interleaved rounds, verify outputs, write records.

Three rooms. Here, at the top, what runs one driver (or a group of them, round by round):
options (what a run asks for), launch (a driver's process started and pinned), processes
(one kept-alive driver process) and copies (N of them spoken to as one driver, for
``--processes N``: the session starts them like any other), session (a group timed
together), round_policy and planning (calibration, round order, flagging), warmup,
expected and verification (the reference and the checks before a time counts), traces
(a TorchScript trace per batch), contention_probe and machine (the host's state),
environment (env.json), console, signals, and run (a whole run: the main group, then each
sweep point). ``count/`` counts instructions under callgrind; ``load/`` plans and generates
load (sweeps, callers, the ways of the cores, serving at a rate). The top imports neither
room; each room imports the top and never the other. Every kit is driven through the
contract (its options and dialogue), never through one kit's code.
"""
