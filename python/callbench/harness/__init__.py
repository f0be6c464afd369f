"""The harness: start drivers, time them in interleaved rounds, verify outputs, write records.

Parts: options (what a run asks for), processes (one kept-alive driver
process), machine (pinning, steal time, the machine's state), planning
(calibration, round order, flagging), verification (outputs and echoes),
console (what the user sees), session (a group of drivers run together),
signals (ending cleanly).
"""
