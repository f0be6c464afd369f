"""The runtime a row calls, whatever its binding: a user's large model is decided by it.

``onnxruntime-node`` and ``onnxruntime-ffm`` call ONNX Runtime's native library, as the C++,
Python, Rust and Go rows do; ``onnxruntime-web`` is ONNX Runtime built to WebAssembly,
without the native kernels, so a runtime of its own.
"""

from __future__ import annotations

NATIVE_BINDINGS = {"onnxruntime-node": "onnxruntime", "onnxruntime-ffm": "onnxruntime"}


def engine(runtime: str) -> str:
    return NATIVE_BINDINGS.get(runtime, runtime)
