"""The phases of ``callbench bench`` (and of ``run`` on a user's model), one module each:
measure, sweeps, callers, ways_of_the_cores, widths, kernels, ladder, report, and
user_model (a model the user brought, its own run). ``cli/bench.py`` turns the options into
a plan and runs the phases in order, each timed into the run's env.json.
"""
