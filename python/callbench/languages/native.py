"""Native libraries that several languages' drivers load from the Python wheels."""

from __future__ import annotations

from pathlib import Path

ONNXRUNTIME_LIB_VAR = "CALLBENCH_ONNXRUNTIME_LIB"


def onnxruntime_library() -> Path | None:
    """The onnxruntime wheel's ``libonnxruntime.so.<version>`` (Rust, Go and C++ load it)."""
    try:
        import onnxruntime
    except ImportError:
        return None
    capi = Path(onnxruntime.__file__).resolve().parent / "capi"
    found = sorted(capi.glob("libonnxruntime.so.*"))
    return found[-1] if found else None


def onnxruntime_env() -> dict[str, str]:
    library = onnxruntime_library()
    return {ONNXRUNTIME_LIB_VAR: str(library)} if library else {}
