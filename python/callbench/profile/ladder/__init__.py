"""The overhead ladder: a call's steps timed one loop each (``callbench profile ladder``).

measure.py times the loops, interleaved; torch_path.py and onnxruntime_path.py
build each runtime's loops. The record is callbench.records.ladder; its table
and chart are the report's (report/blocks/ladder_table.py, report/sections/ladder.py).
"""
