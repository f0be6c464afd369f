"""Every driver, declared once: id, runtime, artifact, and where its code is.

One line per driver. The language's constructor (``callbench.languages.*``)
knows how its programs start and whether they are built; the marks around it
(``swept``, ``callers``, ``program``, ...: ``callbench.languages.marks``) set its roles;
``DriverSpec.source``
names the file that holds the driver. A driver echoes its id, calls, batch and
threads in its result line, and the harness fails the record when they differ
from what it asked for. See docs/adding-a-driver.md.
"""

from __future__ import annotations

from collections.abc import Sequence

from callbench.drivers.cuda_common import cupy_unavailable
from callbench.languages import cpp, go, java, node, python, rust
from callbench.languages.marks import (
    batch_one,
    callers,
    callers_only,
    floor,
    gathered,
    gpu,
    gpu_floor,
    mlp_only,
    program,
    runtime_default,
    seed_row,
    swept,
)
from callbench.languages.spec import DriverSpec
from callbench.model.artifacts import ONNX, STATE_DICT, TORCHSCRIPT, WEIGHTS
from callbench.model.exported_programs import (
    AOTI_CUDA_PACKAGE,
    AOTI_PACKAGE,
    EXECUTORCH_PORTABLE,
    EXECUTORCH_XNNPACK,
)
from callbench.model.iree_model import VMFB
from callbench.model.litert_model import TFLITE
from callbench.roles import (
    CPP_API,
    FLOOR,
    PER_CALLER,
    PYTHON_MODULE,
    SHARED,
    SWEEP,
    TORCHSCRIPT_FROM_CPP,
    TORCHSCRIPT_FROM_JAVA,
    TORCHSCRIPT_FROM_PYTHON,
    Call,
    SeedRow,
)

DRIVERS: tuple[DriverSpec, ...] = (
    # Python: callbench/drivers/<module>.py, function named after the colon.
    seed_row(PYTHON_MODULE, Call.OURS,
             "our module (`torch.relu`, no module built per call) on [1, 2] views",
             program(python.driver("python-eager", "torch", STATE_DICT, "eager:plain"))),
    program(swept(callers(python.driver("python-eager-inference", "torch", STATE_DICT,
                                        "eager:inference"), SHARED))),
    seed_row(PYTHON_MODULE, Call.AS_WRITTEN,
             "the seed's loop as written: `for x in X` over [N, 2], two `nn.ReLU()` built per call",
             python.driver("python-eager-seed", "torch", STATE_DICT, "eager_seed:setup")),
    seed_row(TORCHSCRIPT_FROM_PYTHON, Call.OURS, "`torch.jit.load`, one call a sample",
             program(python.driver("python-torchscript", "torch.jit", TORCHSCRIPT,
                                   "torchscript:plain"))),
    program(swept(callers(python.driver("python-torchscript-frozen", "torch.jit", TORCHSCRIPT,
                                        "torchscript:frozen"), SHARED))),
    callers(python.driver("python-onnxruntime", "onnxruntime", ONNX, "onnxruntime_driver:plain"),
            SHARED),
    gathered(swept(callers(python.driver("python-onnxruntime-iobinding", "onnxruntime", ONNX,
                                         "onnxruntime_driver:iobinding"), SHARED))),
    callers_only(python.driver("python-onnxruntime-iobinding-sessions", "onnxruntime", ONNX,
                               "onnxruntime_driver:iobinding_sessions")),
    swept(python.driver("python-numpy", "numpy", WEIGHTS, "numpy_forward:setup")),
    program(python.driver("python-torch-compile", "torch.compile", STATE_DICT, "torch_compile:setup")),
    program(callers(python.driver("python-aoti", "aotinductor", AOTI_PACKAGE, "aoti:plain"),
                    SHARED)),
    program(callers(python.driver("python-aoti-loader", "aotinductor", AOTI_PACKAGE,
                                  "aoti:loader"), PER_CALLER)),
    program(callers(python.driver("python-executorch", "executorch", EXECUTORCH_XNNPACK,
                                  "executorch_driver:setup"), PER_CALLER)),
    python.driver("python-openvino", "openvino", ONNX, "openvino_driver:plain"),
    callers(python.driver("python-openvino-reuse", "openvino", ONNX, "openvino_driver:reuse"),
            SHARED),
    swept(callers(python.driver("python-openvino-static", "openvino", ONNX,
                                "openvino_driver:static"), SHARED)),
    callers_only(python.driver("python-openvino-static-models", "openvino", ONNX,
                               "openvino_driver:static_models")),
    runtime_default(python.driver("python-openvino-static-pinned", "openvino", ONNX,
                                  "openvino_driver:static_pinned"), "python-openvino-static",
                    SHARED),
    python.driver("python-litert", "litert", TFLITE, "litert_driver:plain"),
    swept(python.driver("python-litert-reuse", "litert", TFLITE, "litert_driver:reuse")),
    python.driver("python-iree", "iree", VMFB, "iree_driver:plain"),
    swept(python.driver("python-iree-invoke", "iree", VMFB, "iree_driver:invoke")),
    # Python's compiled floors: the forward pass out of the interpreter (callbench build python).
    python.driver("python-cython", "cython", WEIGHTS, "cython_forward:per_call", native="cython"),
    swept(python.driver("python-cython-loop", "cython", WEIGHTS, "cython_forward:whole_loop", native="cython")),
    python.driver("python-cffi", "cffi", WEIGHTS, "cffi_forward:setup", native="cffi"),
    python.driver("python-ctypes", "ctypes", WEIGHTS, "ctypes_forward:setup", native="ctypes"),
    python.driver("python-numba", "numba", WEIGHTS, "numba_forward:setup"),
    python.driver("python-jax", "jax", WEIGHTS, "jax_forward:device"),
    python.driver("python-jax-numpy", "jax", WEIGHTS, "jax_forward:numpy_fed"),
    # On a CUDA device: skipped, saying why, where torch sees none (or CuPy is missing).
    program(gpu(python.driver("python-eager-cuda", "torch-cuda", STATE_DICT, "cuda_eager:setup"))),
    program(gpu(python.driver("python-cuda-graph", "torch-cuda", STATE_DICT, "cuda_graph:setup"))),
    program(batch_one(gpu(python.driver("python-torch-compile-cuda", "torch.compile-cuda",
                                        STATE_DICT, "torch_compile_cuda:setup")))),
    program(gpu(python.driver("python-aoti-cuda", "aotinductor-cuda", AOTI_CUDA_PACKAGE,
                              "aoti_cuda:setup"))),
    gpu(python.driver("python-cupy-kernel", "cupy", WEIGHTS, "cupy_kernel:setup"),
        needs=cupy_unavailable),
    # Plain standalone callers sharing no code with the drivers: the harness adds nothing.
    python.independent("independent-python-eager", "torch", STATE_DICT, "eager_caller"),
    python.independent("independent-python-torchscript", "torch.jit", TORCHSCRIPT, "torchscript_caller"),
    python.independent("independent-python-onnxruntime", "onnxruntime", ONNX, "onnxruntime_caller"),
    mlp_only(callers(python.independent("independent-python-onnxruntime-threads", "onnxruntime",
                                        ONNX, "onnxruntime_threads_caller"), SHARED)),
    # C++: cpp/drivers/<id with underscores>.cpp -> build/cpp/bin/<id>.
    seed_row(TORCHSCRIPT_FROM_CPP, Call.OURS,
             "the same call under InferenceMode, on a [1, 2] tensor",
             program(cpp.driver("cpp-torchscript", "libtorch", TORCHSCRIPT))),
    seed_row(TORCHSCRIPT_FROM_CPP, Call.FAST_PATH, "frozen module, reused input and stack",
             program(swept(callers(cpp.driver("cpp-torchscript-reuse", "libtorch", TORCHSCRIPT),
                                   SHARED)))),
    seed_row(TORCHSCRIPT_FROM_CPP, Call.AS_WRITTEN,
             "the seed's call as written: no InferenceMode, a new `std::vector<IValue>` around a "
             "{2} tensor",
             cpp.driver("cpp-torchscript-seed", "libtorch", TORCHSCRIPT)),
    seed_row(CPP_API, Call.OURS, "`torch::nn::Linear` modules under InferenceMode, as the seed",
             cpp.driver("cpp-libtorch", "libtorch", WEIGHTS)),
    swept(cpp.driver("cpp-libtorch-out", "libtorch", WEIGHTS)),
    callers(cpp.driver("cpp-onnxruntime", "onnxruntime", ONNX), SHARED),
    swept(callers(cpp.driver("cpp-onnxruntime-reuse", "onnxruntime", ONNX), SHARED)),
    callers_only(cpp.driver("cpp-onnxruntime-reuse-sessions", "onnxruntime", ONNX)),
    gathered(cpp.driver("cpp-onnxruntime-iobinding", "onnxruntime", ONNX)),
    program(cpp.driver("cpp-aoti", "aotinductor", AOTI_PACKAGE)),
    program(swept(callers(cpp.driver("cpp-aoti-reuse", "aotinductor", AOTI_PACKAGE), PER_CALLER))),
    program(cpp.driver("cpp-executorch", "executorch", EXECUTORCH_XNNPACK)),
    program(swept(callers(cpp.driver("cpp-executorch-method", "executorch", EXECUTORCH_XNNPACK),
                          PER_CALLER))),
    program(runtime_default(cpp.driver("cpp-executorch-method-shared-workspace", "executorch",
                                       EXECUTORCH_XNNPACK), "cpp-executorch-method", PER_CALLER)),
    program(callers(cpp.driver("cpp-executorch-portable", "executorch", EXECUTORCH_PORTABLE),
                    PER_CALLER)),
    cpp.driver("cpp-openvino", "openvino", ONNX),
    callers(cpp.driver("cpp-openvino-reuse", "openvino", ONNX), SHARED),
    swept(callers(cpp.driver("cpp-openvino-static", "openvino", ONNX), SHARED)),
    callers_only(cpp.driver("cpp-openvino-static-models", "openvino", ONNX)),
    runtime_default(cpp.driver("cpp-openvino-static-pinned", "openvino", ONNX),
                    "cpp-openvino-static", SHARED),
    floor(swept(cpp.driver("cpp-handwritten", "handwritten", WEIGHTS))),
    # On a CUDA device: the CUDA driver API, the kernel python-cupy-kernel compiles (NVRTC).
    gpu_floor(gpu(cpp.driver("cpp-cuda-floor", "cuda", WEIGHTS))),
    gpu(cpp.driver("cpp-cuda-kernel", "cuda", WEIGHTS)),
    gpu(cpp.driver("cpp-cuda-graph", "cuda", WEIGHTS)),
    # A plain program's threads sharing one session, beside the kit's callers (contract 4).
    mlp_only(callers(cpp.independent("independent-cpp-onnxruntime-threads", "onnxruntime", ONNX,
                                     "onnxruntime_threads_caller.cpp"), SHARED)),
    # python-aoti-cuda's package (AOTInductor for the device), from C++.
    program(gpu(cpp.driver("cpp-aoti-cuda", "aotinductor-cuda", AOTI_CUDA_PACKAGE))),
    # Java: java/src/main/java/dev/callbench/drivers/<Class>.java, hosted by JPype. ONNX Runtime's
    # session shared, DJL's model shared with a Predictor per caller, org.pytorch a Module each.
    callers(java.driver("java-onnxruntime", "onnxruntime", ONNX, "OnnxRuntimeDriver"), SHARED),
    gathered(swept(callers(java.driver("java-onnxruntime-reuse", "onnxruntime", ONNX,
                                       "OnnxRuntimeReuseDriver"), SHARED))),
    callers_only(java.driver("java-onnxruntime-reuse-sessions", "onnxruntime", ONNX,
                             "OnnxRuntimeReuseSessionsDriver")),
    # java/ffm/...: the C API through java.lang.foreign, in its own JVM of a JDK >= 22.
    swept(java.ffm_driver("java-onnxruntime-ffm", "onnxruntime-ffm", ONNX, "OnnxRuntimeFfmDriver")),
    program(swept(callers(java.driver("java-djl", "djl-pytorch", TORCHSCRIPT, "DjlDriver"), SHARED))),
    program(callers(java.driver("java-djl-reuse", "djl-pytorch", TORCHSCRIPT, "DjlReuseDriver"),
                    SHARED)),
    seed_row(TORCHSCRIPT_FROM_JAVA, Call.OURS,
             "the seed's `Tensor.fromBlob` + `IValue.from` + `forward`",
             program(callers(java.driver("java-pytorch", "libtorch", TORCHSCRIPT,
                                         "PytorchJavaDriver", native=True), PER_CALLER))),
    program(swept(callers(java.driver("java-pytorch-reuse", "libtorch", TORCHSCRIPT,
                                      "PytorchJavaReuseDriver", native=True), PER_CALLER))),
    # Rust: rust/drivers/src/bin/<id with underscores>.rs -> build/rust/release/<id>. The ort
    # rows' callers each hold a session (Session::run takes &mut self), tch's own layers
    # (its Tensor is not Sync); the others share one model.
    swept(rust.driver("rust-handwritten", "handwritten", WEIGHTS)),
    callers(rust.driver("rust-tch", "libtorch", WEIGHTS), PER_CALLER),
    program(callers(rust.driver("rust-tch-torchscript", "libtorch", TORCHSCRIPT), SHARED)),
    callers(rust.driver("rust-ort", "onnxruntime", ONNX), PER_CALLER),
    gathered(swept(callers(rust.driver("rust-ort-iobinding", "onnxruntime", ONNX), PER_CALLER))),
    callers(rust.driver("rust-tract", "tract", ONNX), SHARED),
    swept(callers(rust.driver("rust-tract-state", "tract", ONNX), SHARED)),
    swept(callers(rust.driver("rust-candle", "candle", WEIGHTS), SHARED)),
    # rust/burn/src/bin/rust_burn.rs: burn in its own Cargo workspace.
    swept(callers(rust.driver("rust-burn", "burn", WEIGHTS, crate=rust.BURN_CRATE), SHARED)),
    # Go: go/cmd/<id>/main.go -> build/go/bin/<id>. An AdvancedSession's tensors are bound
    # when it is made (one per caller); a DynamicAdvancedSession is shared, a binding each.
    callers(go.driver("go-onnxruntime", "onnxruntime", ONNX), PER_CALLER),
    gathered(swept(callers(go.driver("go-onnxruntime-iobinding", "onnxruntime", ONNX), SHARED))),
    callers_only(go.driver("go-onnxruntime-iobinding-sessions", "onnxruntime", ONNX)),
    go.driver("go-handwritten", "handwritten", WEIGHTS),
    # Node.js: node/drivers/<id>.js, run by node. Callers in flight on one event loop share
    # the session (an async server's handlers); -workers: a worker_thread per caller.
    callers(node.driver("node-onnxruntime", "onnxruntime-node", ONNX, "onnxruntime-node"), SHARED),
    swept(callers(node.driver("node-onnxruntime-reuse", "onnxruntime-node", ONNX,
                              "onnxruntime-node"), SHARED)),
    callers_only(node.driver("node-onnxruntime-reuse-workers", "onnxruntime-node", ONNX,
                             "onnxruntime-node")),
    gathered(callers(node.driver("node-onnxruntime-web", "onnxruntime-web", ONNX,
                                 "onnxruntime-web"), SHARED)),
    callers_only(node.driver("node-onnxruntime-web-workers", "onnxruntime-web", ONNX,
                             "onnxruntime-web")),
)  # fmt: skip

LANGUAGES = ("python", "cpp", "java", "rust", "go", "node")

# The sweeps take each runtime's fastest way of being called, one driver each:
# the lines marked swept(...) above.
SWEEP_DRIVERS = tuple(d.id for d in DRIVERS if SWEEP in d.roles)


def with_role(role: str) -> tuple[DriverSpec, ...]:
    """The drivers whose registry line sets ``role`` (``callbench.roles``), in registry order."""
    return tuple(d for d in DRIVERS if role in d.roles)


def the_floor() -> str:
    """The id of the one driver marked floor(...)."""
    (found,) = with_role(FLOOR)
    return found.id


def seed_drivers(row: SeedRow) -> tuple[DriverSpec, ...]:
    """``row``'s drivers in the order the seed's table lists them: as written, ours, fast."""
    mine = [d for d in DRIVERS if d.seed is not None and d.seed.row == row]
    return tuple(sorted(mine, key=lambda d: d.seed.call if d.seed else 0))


def seed_driver(row: SeedRow, call: Call) -> str:
    """The id of the one driver that makes ``call`` for ``row``."""
    (found,) = [d for d in seed_drivers(row) if d.seed is not None and d.seed.call == call]
    return found.id


def language_key(spec: DriverSpec) -> str:
    """The short name of a driver's language, as --language takes it (the id's prefix; an
    independent caller's is the word after ``independent-``, Python's when none is named)."""
    prefix, _, rest = spec.id.partition("-")
    if prefix != "independent":
        return prefix
    named = rest.split("-", 1)[0]
    return named if named in LANGUAGES and named != "python" else "python"


def lookup(driver_id: str) -> DriverSpec:
    for spec in DRIVERS:
        if spec.id == driver_id:
            return spec
    raise KeyError(driver_id)


def select(
    only: Sequence[str] | None = None, languages: Sequence[str] | None = None
) -> list[DriverSpec]:
    """Drivers of ``languages`` whose id equals, or starts with, one of ``only``."""
    chosen = [d for d in DRIVERS if not languages or language_key(d) in languages]
    if only:
        chosen = [d for d in chosen if any(d.id == o or d.id.startswith(o + "-") for o in only)]
    return chosen
