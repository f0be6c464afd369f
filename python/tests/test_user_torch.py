"""`--torch PATH.pt2`: a user's torch.export program, checked before torch reads it, made
into its artifacts, and run verified down the PyTorch rows and every ONNX driver.

The two programs (tests/torch_programs.py) are not our MLP: a convolutional
policy-value network (one input of rank 4, two outputs) and a LayerNorm + GELU MLP.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import torch

from callbench.errors import UsageError
from callbench.model import artifacts as art
from callbench.model import tensors as tn
from callbench.model import user_onnx, user_torch, user_torch_artifacts
from tests import torch_programs as programs
from tests.conftest import HarnessRun
from tests.test_user_onnx import CPP_ONNX, OTHER_ONNX, PYTHON_ONNX, RUST_ONNX, run_users_model


def program_rows(*languages: str, on_gpu: bool = False) -> list[str]:
    """The registry's drivers of ``languages`` given the torch_program role, on the CPU or
    on a CUDA device, that run at one caller: a new one joins its list by its registry line
    (a callers-only twin is its row at one caller)."""
    from callbench.registry import DRIVERS, language_key
    from callbench.roles import CALLERS_ONLY, GPU, TORCH_PROGRAM

    return [d.id for d in DRIVERS if TORCH_PROGRAM in d.roles and (GPU in d.roles) == on_gpu
            and CALLERS_ONLY not in d.roles
            and (not languages or language_key(d) in languages)]  # fmt: skip


TORCH_ROWS = program_rows("python")
CPP_TORCH_ROWS = program_rows("cpp")
# On a CUDA device (skipped, saying why, without one: tests/test_user_torch_gpu.py).
GPU_TORCH_ROWS = program_rows(on_gpu=True)
# The traced TorchScript's rows in Java and Rust: the signature is the file's extra file.
JAVA_RUST_TORCH_ROWS = program_rows("java", "rust")


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("programs")
    return {name: make(folder / f"{name}.pt2") for name, make in programs.PROGRAMS.items()}


def test_a_program_is_prepared_with_its_names_shapes_and_eager_reference(
    exported: dict[str, Path],
) -> None:
    path = exported["policy_value"]
    folder = user_torch.prepare(path, needed={art.ONNX})  # only what the chosen drivers load
    manifest = json.loads((folder / art.MANIFEST).read_text())
    signature = tn.read_signature(folder / art.MANIFEST, manifest)
    assert [(t.name, t.shape) for t in signature.inputs] == [("board", (8, 8, 8))]
    assert [(t.name, t.shape) for t in signature.outputs] == [("linear", (64,)), ("tanh", (1,))]
    brought = manifest[user_onnx.ORIGIN]
    assert brought["kind"] == user_torch.KIND and brought["file"] == "policy_value.pt2"
    assert (
        list(brought["artifacts"]) == [art.ONNX]
        and brought["artifacts"][art.ONNX]["status"] == "ok"
    )
    assert (folder / user_torch.PROGRAM).read_bytes() == path.read_bytes()
    board = np.fromfile(folder / signature.inputs[0].file, np.float32).reshape(-1, 8, 8, 8)
    policy = np.fromfile(folder / signature.outputs[0].file, np.float32).reshape(-1, 64)
    value = np.fromfile(folder / signature.outputs[1].file, np.float32).reshape(-1, 1)
    module = torch.export.load(path).module()
    with torch.inference_mode():
        want_policy, want_value = module(torch.from_numpy(board[:5]))
    # The reference ran in batches of thousands: the kernels' sums may round otherwise.
    np.testing.assert_allclose(policy[:5], want_policy.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(value[:5], want_value.numpy(), rtol=1e-5, atol=1e-5)
    assert len(board) == len(policy) == len(value) > 1000


def test_a_program_whose_onnx_export_fails_keeps_the_rest(
    exported: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """One artifact that cannot be made is recorded with the exporter's first line."""

    def refuse(_: object) -> bytes:
        raise RuntimeError("an operator the exporter lacks\nmore detail")

    monkeypatch.setattr(user_torch_artifacts, "onnx_of", refuse)
    folder = user_torch.prepare(exported["norm_gelu_mlp"], needed={art.ONNX})
    made = json.loads((folder / art.MANIFEST).read_text())[user_onnx.ORIGIN]["artifacts"]
    assert made[art.ONNX]["status"] == "failed"
    assert made[art.ONNX]["error"] == "an operator the exporter lacks"
    assert not (folder / art.ONNX).exists() and (folder / user_torch.PROGRAM).is_file()


BAD: dict[str, tuple[Callable[[Path], Path], str, str]] = {
    "not_a_pt2": (lambda p: p.with_suffix(".onnx"), "x.onnx", "is not a .pt2 file"),
    "not_a_zip": (programs.not_a_program, "x.pt2", "is not a .pt2 archive (not a zip"),
    "another_version": (
        programs.another_version, "x.pt2",
        "cannot load it (Saved archive version 99 does not match our current archive version",
    ),
    "no_inputs": (programs.no_inputs, "x.pt2", "the program takes no inputs"),
    "non_tensor_input": (programs.non_tensor_input, "x.pt2",
                         "input 'scale' is not a tensor (ConstantArgument)"),
    "pickled_weight": (programs.pickled_weight, "x.pt2",
                       "its weight 'a.weight' is stored as a pickled object"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_program_is_one_line_exit_2_and_no_run(
    case: str, run_harness: Callable[..., HarnessRun], tmp_path: Path
) -> None:
    make, name, message = BAD[case]
    path = make(tmp_path / name)
    run = run_harness("--torch", str(path), "--only", "python-eager")
    assert run.returncode == 2, run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"callbench: usage: {path}: "), lines
    assert message in lines[0]
    assert run.run_dir is None and not (tmp_path / "runs").exists()


def test_an_aotinductor_package_is_told_apart(small_models: Path) -> None:
    package = small_models / "mlp.pt2"
    if not package.is_file():
        pytest.skip("the small models have no AOTInductor package")
    with pytest.raises(UsageError, match=r"is an AOTInductor .* package, not an ExportedProgram"):
        user_torch.prepare(package)


@pytest.mark.parametrize("program", sorted(programs.PROGRAMS))
def test_python_rows_run_a_users_program_verified(
    program: str, exported: dict[str, Path], run_harness: Callable[..., HarnessRun],
    tmp_path: Path,
) -> None:  # fmt: skip
    run = run_users_model(exported[program], [*TORCH_ROWS, *PYTHON_ONNX], run_harness,
                          flag="--torch")  # fmt: skip
    assert run.run_dir is not None
    assert run.records["python-eager"].artifact == user_torch.PROGRAM
    from callbench.records.store import load_run
    from callbench.report.document import render

    text = render([load_run(run.run_dir)], tmp_path / "report")
    assert text.startswith(f"# callbench report: `{program}.pt2`")
    assert "a torch.export program" in text
    question = text.split("## The seed's question for this model")[1].split("\n## ")[0]
    assert "| Python | eager | `python-eager" in question
    assert "| Python | AOTInductor | `python-aoti" in question
    # Python's fastest ONNX Runtime row may be the independent caller on a busy machine.
    assert "| Python | ONNX Runtime (from torch.onnx.export) | `" in question
    for made in (art.ONNX, "mlp.pt2", "mlp.pte", art.TORCHSCRIPT):
        assert f"| `{made}` | made" in text
    assert "| `mlp.pte` | made, planned for batches up to " in text


@pytest.mark.parametrize(
    "drivers", [CPP_ONNX, RUST_ONNX, OTHER_ONNX], ids=["cpp", "rust", "go_java_node"]
)
def test_every_language_runs_a_users_program_through_its_onnx_export(
    drivers: list[str], exported: dict[str, Path], run_harness: Callable[..., HarnessRun]
) -> None:
    """The policy-value net, rank 4 in and two outputs, at batch 3."""
    run_users_model(exported["policy_value"], drivers, run_harness, "--batch", "3",
                    flag="--torch")  # fmt: skip


@pytest.mark.parametrize(("program", "batch"), [("policy_value", "3"), ("norm_gelu_mlp", "1")])
def test_cpp_rows_run_a_users_program_verified(
    program: str, batch: str, exported: dict[str, Path], run_harness: Callable[..., HarnessRun]
) -> None:
    """C++ AOTInductor and ExecuTorch read the signature from what they load (the package's
    metadata, the method's): rank 4 in and two outputs, and a rank-2 MLP."""
    run = run_users_model(exported[program], CPP_TORCH_ROWS, run_harness, "--batch", batch,
                          flag="--torch")  # fmt: skip
    assert run.records["cpp-aoti"].artifact == "mlp.pt2"


@pytest.mark.parametrize(("program", "batch"), [("policy_value", "3"), ("norm_gelu_mlp", "1")])
def test_java_and_rust_rows_run_a_users_traced_program_verified(
    program: str, batch: str, exported: dict[str, Path], run_harness: Callable[..., HarnessRun]
) -> None:
    """org.pytorch, DJL and tch read the signature from the traced file's extra file."""
    run = run_users_model(exported[program], JAVA_RUST_TORCH_ROWS, run_harness, "--batch", batch,
                          flag="--torch")  # fmt: skip
    assert run.records["java-pytorch"].artifact == art.TORCHSCRIPT


def test_a_traced_program_carries_its_signature(exported: dict[str, Path]) -> None:
    import zipfile

    folder = user_torch.prepare(exported["policy_value"], needed={art.TORCHSCRIPT}, batches=(1, 10))
    # A trace that does not bake its batch in is one file, run at every batch.
    assert not list(folder.glob(art.trace_at_batch(art.TORCHSCRIPT, "*")))
    with zipfile.ZipFile(folder / art.TORCHSCRIPT) as archive:
        (name,) = [n for n in archive.namelist() if n.endswith(user_torch_artifacts.SIGNATURE_FILE)]
        lines = archive.read(name).decode().splitlines()
    assert lines == ["callbench.input.0 board float32 8 8 8",
                     "callbench.output.0 linear float32 64",
                     "callbench.output.1 tanh float32 1"]  # fmt: skip


def test_a_driver_of_an_artifact_not_made_is_skipped_saying_why(
    exported: dict[str, Path], run_harness: Callable[..., HarnessRun], tmp_path: Path
) -> None:
    """The ONNX export fails in the harness's process (a patched exporter); the eager row
    still runs, the ONNX row is skipped with the exporter's line."""
    script = tmp_path / "patched.py"
    script.write_text(
        "import sys\n"
        "from callbench.model import user_torch_artifacts\n"
        "def refuse(_):\n"
        "    raise RuntimeError('no ONNX for this program')\n"
        "user_torch_artifacts.onnx_of = refuse\n"
        "from callbench.cli.main import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    import subprocess
    import sys

    runs = tmp_path / "runs"
    done = subprocess.run(
        [sys.executable, str(script), "run", "--torch", str(exported["norm_gelu_mlp"]),
         "--only", "python-eager", "--only", "python-onnxruntime", "--only", "python-numpy",
         "--rounds", "2",
         "--round-time", "0.01", "--warmup", "10", "--runs-dir", str(runs)],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    from callbench.records.store import load_run

    (run_dir,) = runs.iterdir()
    records = {r.id: r for r in load_run(run_dir).drivers}
    assert records["python-eager"].status == "ok"
    assert records["python-onnxruntime"].status == "skipped"
    assert records["python-onnxruntime"].error == (
        "mlp.onnx could not be made from the program (no ONNX for this program)"
    )
    # Our MLP's own row is recorded too, as left out.
    assert records["python-numpy"].status == "skipped"
    assert (records["python-numpy"].error or "").startswith("runs our MLP only: ")


def test_every_driver_of_our_mlp_alone_is_recorded_as_left_out_saying_why(
    exported: dict[str, Path],
) -> None:
    """The default selection of a --torch run: each chosen driver that neither runs the
    program nor loads ONNX is kept, to be recorded as skipped with its artifact's reason."""
    from callbench.cli.main import build_parser
    from callbench.cli.phases.user_model import user_specs
    from callbench.model import left_out
    from callbench.registry import DRIVERS

    args = build_parser().parse_args(["run", "--torch", str(exported["norm_gelu_mlp"])])
    specs, others = user_specs(args)
    ran = {s.id for s in specs}
    assert {s.id for s in others} == {s.id for s in DRIVERS} - ran
    why = {s.id: s.available() for s in others}
    weights = next(s for s in others if s.id == "python-numpy")
    assert why["cpp-libtorch"] == why["rust-candle"] == left_out.reason(weights.artifact)
    assert "mlp_weights.f32" in why["cpp-libtorch"]
    assert why["python-eager-seed"].startswith("runs our MLP only: builds our MLP's torch.nn")
    assert why["cpp-torchscript-seed"].startswith("runs our MLP only: calls our MLP's TorchScript")
    assert all(w.startswith("runs our MLP only: ") and "mlp_weights.f32" not in w
               for i, w in why.items() if i.endswith(("litert", "iree")))  # fmt: skip


def test_every_driver_that_runs_a_program_is_in_one_list() -> None:
    """The lists cover every program driver that runs at one caller: no language is left
    out of them (a callers-only twin is its row there)."""
    from callbench.registry import DRIVERS
    from callbench.roles import CALLERS_ONLY, TORCH_PROGRAM

    listed = [*TORCH_ROWS, *CPP_TORCH_ROWS, *JAVA_RUST_TORCH_ROWS, *GPU_TORCH_ROWS]
    assert sorted(listed) == sorted(s.id for s in DRIVERS if TORCH_PROGRAM in s.roles
                                    and CALLERS_ONLY not in s.roles)  # fmt: skip


def test_torch_and_onnx_together_are_a_usage_error(
    exported: dict[str, Path], run_harness: Callable[..., HarnessRun], tmp_path: Path
) -> None:
    run = run_harness("--torch", str(exported["policy_value"]), "--onnx", str(tmp_path / "m.onnx"))
    assert run.returncode == 2 and "not allowed with argument" in run.stderr
    run = run_harness("--torch", str(exported["policy_value"]), "--widths", "8")
    assert run.returncode == 2
    assert "--torch runs the user's model as it is: no --widths or --sweep" in run.stderr


def test_the_seed_question_counts_every_onnx_runtime_binding() -> None:
    """Java's FFM row and Node.js's rows call ONNX Runtime too: the fastest of each
    language is its row of that path, whatever the binding's runtime name."""
    from callbench.report.sections.user_model import seed_question
    from tests.test_report import driver

    rounds = [100_000.0] * 5
    records = [
        driver("python-eager", rounds),
        driver("java-onnxruntime-reuse", [8_000.0] * 5, language="Java", runtime="onnxruntime"),
        driver("java-onnxruntime-ffm", [6_000.0] * 5, language="Java", runtime="onnxruntime-ffm"),
        driver("node-onnxruntime", [18_000.0] * 5, language="Node.js", runtime="onnxruntime-node"),
    ]
    text = seed_question(records)
    assert "| Java | ONNX Runtime (from torch.onnx.export) | `java-onnxruntime-ffm` |" in text
    assert "| Node.js | ONNX Runtime (from torch.onnx.export) | `node-onnxruntime` |" in text


# A row of each ExecuTorch loader: Python's runtime, C++'s Module and its Method.
EXECUTORCH_ROWS = ["python-executorch", "cpp-executorch", "cpp-executorch-method"]


def test_an_executorch_row_past_its_programs_planned_batch_is_skipped_saying_why(
    exported: dict[str, Path], run_harness: Callable[..., HarnessRun]
) -> None:
    """ExecuTorch plans a program's memory at its batch's upper bound and refuses a larger
    batch at load: the manifest says the largest batch the .pte was planned for, read from
    the program, and a row asked past it is skipped saying why; at that batch it runs."""
    from callbench.registry import lookup
    from tests.conftest import require_available

    for driver_id in EXECUTORCH_ROWS:
        require_available(lookup(driver_id))
    folder = user_torch.prepare(exported["policy_value"], needed={"mlp.pte"})
    made = json.loads((folder / art.MANIFEST).read_text())[user_onnx.ORIGIN]["artifacts"]
    largest = made["mlp.pte"]["largest_batch"]
    assert isinstance(largest, int) and largest >= 1
    only = [a for d in EXECUTORCH_ROWS for a in ("--only", d)]
    past = run_harness("--torch", str(exported["policy_value"]), *only, "--rounds", "2",
                       "--round-time", "0.01", "--warmup", "10",
                       "--batch", str(largest + 1))  # fmt: skip
    assert past.returncode == 0, past.stderr
    for driver_id in EXECUTORCH_ROWS:
        record = past.records[driver_id]
        assert record.status == "skipped", (driver_id, record.status, record.error)
        assert record.error == (
            f"batch {largest + 1:,} is above the largest batch {largest:,} that mlp.pte was "
            "planned for (ExecuTorch plans its memory at the program's upper bound of the batch)"
        )
    run_users_model(exported["policy_value"], EXECUTORCH_ROWS, run_harness, "--batch",
                    str(largest), flag="--torch")  # fmt: skip
