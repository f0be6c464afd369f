"""Load generation: which rows run again, at which batches, callers, threads or rates, and
how (perf_analyzer's load managers and MLPerf LoadGen, apart from the measurement).

sweep_plan (the batch and thread sweeps a user's model affords), gpu_sweep (the GPU batch
sweep beside the best CPU rows), callers_plan (the callers sweep), cores_plan (how best to
use the cores), serving (a row served at a rate) and rate_search (the highest rate within
a p99 bound). It imports the harness's top (run, session's parts, launch), never
``harness.count``.
"""
