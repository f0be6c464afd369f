"""Where a Python call's time goes: ``callbench profile``.

- ``callbench profile driver DRIVER``: a Python driver's own loop under cProfile
  (Python frames) and py-spy (native frames too, where it can run), as a
  table of the top frames with their share of a call; a flame graph on request.
- ``callbench profile ladder``: the overhead ladder of the torch and ONNX
  Runtime paths, measured per call in one process, written as ``ladder.json``.
"""
