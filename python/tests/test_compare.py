"""`callbench compare` and the report's verdicts on the compiled PyTorch paths, from
synthetic runs (chosen per-round figures): each test knows what must be said."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import jsonschema
import pytest

from callbench.cli.compare import compare_runs
from callbench.cli.main import main
from callbench.harness.options import RunOptions
from callbench.harness.run import write_env
from callbench.paths import DOCS
from tests.test_report import ENV, counted, driver, make_run, not_ok, report


def lines_of(text: str, driver_id: str) -> str:
    return next(line for line in text.splitlines() if line.startswith(driver_id + " "))


def test_compare_marks_changes_beyond_the_noise_and_ratios_between_drivers(
    tmp_path: Path,
) -> None:
    a = make_run(tmp_path / "a", [driver("python-numpy", [5000, 5010, 4990, 5005, 4995]),
                                  driver("python-eager", [20000, 20100, 19900, 20050, 19950]),
                                  driver("python-cffi", [200, 201, 199, 200, 200])])  # fmt: skip
    # B: the whole machine 20% slower, and python-cffi 30% slower on top of that.
    b = make_run(tmp_path / "b", [driver("python-numpy", [6000, 6012, 5988, 6006, 5994]),
                                  driver("python-eager", [24000, 24120, 23880, 24060, 23940]),
                                  driver("python-cffi", [312, 313, 310, 312, 312])])  # fmt: skip
    text, status = compare_runs(a, b)
    assert status == 0
    assert "slower by 20%" in lines_of(text, "python-numpy")
    assert "slower by 56%" in lines_of(text, "python-cffi")
    between = next(line for line in text.splitlines() if line.startswith("ratios between"))
    assert between.startswith("ratios between drivers")
    assert "2 of 3 within ±5%" in between
    assert between.index("python-cffi") < between.index("python-numpy")  # widest first


def test_compare_says_which_run_lacks_a_driver(tmp_path: Path) -> None:
    a = make_run(tmp_path / "a", [
        driver("python-numpy", [5000] * 3),
        replace(not_ok("python-eager", "failed", "timed out"), artifact="mlp_state_dict.pt"),
    ])  # fmt: skip
    b = make_run(tmp_path / "b", [driver("python-numpy", [5000] * 3),
                                  driver("python-eager", [20000] * 3),
                                  driver("python-cffi", [200] * 3)])  # fmt: skip
    text, status = compare_runs(a, b)
    assert status == 0
    assert lines_of(text, "python-eager").endswith("not ok in A")
    assert lines_of(text.split("listed apart")[1], "python-cffi").endswith("only in B")
    assert "no change beyond the noise" in lines_of(text, "python-numpy")
    assert "1 of 1" not in text and "fewer than two drivers in common" in text


def test_the_report_says_whether_the_compiled_paths_beat_onnxruntime_in_cpp(
    tmp_path: Path,
) -> None:
    cpp = {"language": "C++"}
    run = make_run(tmp_path / "run", [
        driver("cpp-onnxruntime-iobinding", [1800, 1810, 1790, 1805, 1795], runtime="onnxruntime",
               **cpp),
        driver("cpp-torchscript", [6800, 6810, 6790, 6805, 6795], runtime="libtorch", **cpp),
        driver("cpp-aoti", [1800, 1900, 1700, 1850, 1750], runtime="aotinductor", **cpp),
        driver("cpp-executorch-method", [600, 610, 590, 605, 595], runtime="executorch", **cpp),
    ])  # fmt: skip
    text = report(tmp_path, run)
    aoti = next(line for line in text.splitlines() if line.startswith("- **AOTInductor"))
    executorch = next(line for line in text.splitlines() if line.startswith("- **ExecuTorch"))
    assert "it ties with it" in aoti and "at most half of its cost" in aoti
    assert "it beats it" in executorch and "at most half of its cost" in executorch
    assert "prototype status" in text


def test_compare_says_whether_two_counts_agree(tmp_path: Path) -> None:
    a = make_run(tmp_path / "a", [
        driver("cpp-handwritten", [28] * 3, count=counted([300_000] * 3, [586_000] * 3)),
        driver("python-numpy", [5000] * 3, count=counted([1_000_000] * 3, [33_000_000] * 3)),
    ])  # fmt: skip
    # B: the same work for the floor, 3% more for python-numpy; the times moved alike.
    b = make_run(tmp_path / "b", [
        driver("cpp-handwritten", [40] * 3, count=counted([300_500] * 3, [586_600] * 3)),
        driver("python-numpy", [7000] * 3, count=counted([1_000_000] * 3, [33_960_000] * 3)),
    ])  # fmt: skip
    text, status = compare_runs(a, b)
    assert status == 0
    counts = text.split("ratios between drivers", 1)[1]
    assert "same work" in lines_of(counts, "cpp-handwritten")
    assert "+3.00%" in lines_of(counts, "python-numpy")
    assert counts.splitlines()[-1].startswith("instructions per call: 1 of 2 the same work as A")


# ---------------------------------------------------------------- the gate

STEADY = [5000, 5010, 4990, 5005, 4995, 5002, 4998]


def scaled(values: list[int], by: float) -> list[float]:
    return [v * by for v in values]


def three_drivers(folder: Path, cffi_by: float, *, env: dict | None = None) -> Path:
    return make_run(folder, [
        driver("python-numpy", scaled(STEADY, 1.0)),
        driver("python-eager", scaled(STEADY, 4.0)),
        driver("python-cffi", scaled(STEADY, 0.04 * cffi_by)),
    ], env=env)  # fmt: skip


def gate(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    status = main(["compare", *map(str, args)])
    out, err = capsys.readouterr()
    return status, out, err


def valid(path: Path) -> dict:
    data = json.loads(path.read_text())
    jsonschema.validate(data, json.loads((DOCS / "comparison.schema.json").read_text()))
    return data


def test_the_gate_fails_on_a_driver_slower_beyond_the_threshold(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = three_drivers(tmp_path / "a", 1.0)
    b = three_drivers(tmp_path / "b", 1.3)  # python-cffi 30% slower, the rest the same
    status, out, _ = gate(capsys, a, b, "--fail-above", "5", "--json", tmp_path / "c.json")
    assert status == 1
    block = out.split("gate: ", 1)[1].splitlines()
    assert block[0].startswith("exit 1, 1 row(s) moved")
    assert block[1].strip().startswith("python-cffi: wall time slower, B/A 1.300")
    data = valid(tmp_path / "c.json")
    verdicts = {d["id"]: d["verdict"] for d in data["drivers"]}
    assert verdicts == {"python-cffi": "slower", "python-numpy": "unchanged",
                        "python-eager": "unchanged"}  # fmt: skip
    assert data["gate"]["exit"] == 1 and len(data["gate"]["failures"]) == 1


def test_the_gate_passes_a_change_within_the_threshold(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = three_drivers(tmp_path / "a", 1.0)
    b = three_drivers(tmp_path / "b", 1.03)  # 3%: beyond the interval, within the gate's 5%
    status, out, _ = gate(capsys, a, b, "--fail-above", "5%", "--json", "-")
    assert status == 0
    data = json.loads(out)
    jsonschema.validate(data, json.loads((DOCS / "comparison.schema.json").read_text()))
    assert data["gate"] == {"fail_above": 0.05, "fail_above_count": 0.01, "failures": [],
                            "exit": 0}  # fmt: skip
    assert data["claims"]["made"] == data["claims"]["kept"] == 2


def test_counts_alone_fail_the_gate_when_the_work_changed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    same_time = [28.0] * 5
    a = make_run(tmp_path / "a", [
        driver("cpp-handwritten", same_time, count=counted([300_000] * 3, [586_000] * 3)),
        driver("rust-handwritten", same_time, count=counted([300_000] * 3, [586_000] * 3)),
    ])  # fmt: skip
    b = make_run(tmp_path / "b", [  # the floor does 3% more work; Rust 0.5% (under 1%)
        driver("cpp-handwritten", same_time, count=counted([300_000] * 3, [594_580] * 3)),
        driver("rust-handwritten", same_time, count=counted([300_000] * 3, [587_430] * 3)),
    ])  # fmt: skip
    status, _out, _ = gate(capsys, a, b, "--fail-above", "5", "--json", tmp_path / "c.json")
    assert status == 1
    failures = valid(tmp_path / "c.json")["gate"]["failures"]
    assert failures == ["cpp-handwritten: instructions per call +3.00%"]
    # A looser count threshold lets the same pair through.
    assert gate(capsys, a, b, "--fail-above-count", "5")[0] == 0


def test_a_driver_that_fails_in_b_fails_the_gate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = three_drivers(tmp_path / "a", 1.0)
    b = make_run(tmp_path / "b", [
        driver("python-numpy", STEADY), driver("python-eager", scaled(STEADY, 4.0)),
        replace(not_ok("python-cffi", "failed", "output 3 differs from the reference"),
                artifact="mlp_state_dict.pt"),
    ])  # fmt: skip
    status, out, _ = gate(capsys, a, b, "--fail-above", "5")
    assert status == 1 and "python-cffi: verified in A, not in B" in out


def test_a_damaged_or_mismatched_run_exits_2_naming_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = three_drivers(tmp_path / "a", 1.0)
    b = three_drivers(tmp_path / "b", 1.0)
    (b / "python-cffi.json").write_text('{"schema": 3, "id": ')
    status, out, err = gate(capsys, a, b, "--fail-above", "5")
    assert status == 2 and not out
    assert err.count("\n") == 1 and str(b / "python-cffi.json") in err
    other = three_drivers(tmp_path / "other", 1.0, env=with_files({"inputs.f32": "f" * 64}))
    status, _, err = gate(capsys, a, other)
    assert status == 2 and str(other / "env.json") in err and "another model" in err
    status, _, err = gate(capsys, a, tmp_path / "missing")
    assert status == 2 and "no such run" in err


def test_claims_kept_counts_the_orderings_that_b_reverses(tmp_path: Path) -> None:
    a = make_run(tmp_path / "a", [
        driver("python-cffi", [200, 201, 199, 200, 200]),
        driver("python-ctypes", [300, 301, 299, 300, 300]),
        driver("python-numpy", [5000, 5010, 4990, 5005, 4995]),
    ])  # fmt: skip
    b = make_run(tmp_path / "b", [  # ctypes now beats cffi; numpy still last
        driver("python-cffi", [300, 301, 299, 300, 300]),
        driver("python-ctypes", [200, 201, 199, 200, 200]),
        driver("python-numpy", [5000, 5010, 4990, 5005, 4995]),
    ])  # fmt: skip
    text, _ = compare_runs(a, b)
    line = next(line for line in text.splitlines() if line.startswith("claims kept"))
    assert line.startswith("claims kept: 1 of 2")
    assert line.endswith("reversed: python-cffi < python-ctypes")


def test_compare_help_names_the_gate(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["compare", "--help"])
    assert stop.value.code == 0
    assert "--fail-above-count PCT" in capsys.readouterr().out


# ------------------------------------------- what each row measured, in both runs

FILES = ENV["files_sha256"]


def with_files(changed: dict[str, str]) -> dict:
    """ENV with some files' sha256 changed or added (and so another manifest)."""
    return {**ENV, "manifest_sha256": "9" * 64, "files_sha256": {**FILES, **changed}}


def onnx_and_torch(folder: Path, onnx_by: float, *, env: dict) -> Path:
    return make_run(folder, [
        driver("python-onnxruntime", scaled(STEADY, 0.5 * onnx_by), runtime="onnxruntime",
               artifact="mlp.onnx"),
        driver("python-eager", scaled(STEADY, 4.0)),
        driver("python-torchscript", scaled(STEADY, 2.0)),
    ], env=env)  # fmt: skip


def comparability(path: Path) -> dict[str, str]:
    return {d["id"]: d["comparability"] for d in valid(path)["drivers"]}


def test_an_added_artifact_leaves_every_row_compared(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = onnx_and_torch(tmp_path / "a", 1.0, env=ENV)
    # B's models folder also holds mlp.vmfb: another manifest, the same files for every row.
    b = onnx_and_torch(tmp_path / "b", 1.3, env=with_files({"mlp.vmfb": "5" * 64}))
    status, out, _ = gate(capsys, a, b, "--fail-above", "5", "--json", tmp_path / "c.json")
    assert status == 1, out  # compared, so python-onnxruntime's 30% fails the gate
    assert "python-onnxruntime: wall time slower" in out
    assert set(comparability(tmp_path / "c.json").values()) == {"same"}
    assert valid(tmp_path / "c.json")["basis"] == "sha256"
    assert valid(tmp_path / "c.json")["files_differ"] == ["mlp.vmfb"]
    assert out.splitlines()[0].endswith("files that differ: mlp.vmfb")


def test_an_artifact_compiled_for_its_host_says_so_not_artifact_changed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    aoti = [driver("python-aoti", scaled(STEADY, 1.0), runtime="aotinductor",
                   artifact="mlp.pt2"), driver("python-eager", scaled(STEADY, 4.0))]  # fmt: skip
    a = make_run(tmp_path / "a", aoti, env=ENV)  # made before runs kept the mark
    marked = {**with_files({"mlp.pt2": "7" * 64}), "files_compiled_for_host": ["mlp.pt2"]}
    b = make_run(tmp_path / "b", aoti, env=marked)
    status, out, _ = gate(capsys, a, b, "--fail-above", "5", "--json", tmp_path / "c.json")
    assert status == 0, out
    assert comparability(tmp_path / "c.json") == {
        "python-aoti": "compiled for this host",
        "python-eager": "same",
    }
    assert lines_of(out.split("listed apart", 1)[1], "python-aoti").endswith(
        "compiled for this host"
    )
    # Without the mark, the same difference is a changed artifact.
    c = make_run(tmp_path / "c", aoti, env=with_files({"mlp.pt2": "7" * 64}))
    gate(capsys, a, c, "--json", tmp_path / "d.json")
    assert comparability(tmp_path / "d.json")["python-aoti"] == "artifact changed"


def test_a_changed_artifact_is_listed_apart_and_not_gated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = onnx_and_torch(tmp_path / "a", 1.0, env=ENV)
    b = onnx_and_torch(tmp_path / "b", 1.3, env=with_files({"mlp.onnx": "6" * 64}))
    status, out, _ = gate(capsys, a, b, "--fail-above", "5", "--json", tmp_path / "c.json")
    assert status == 0, out
    assert comparability(tmp_path / "c.json") == {
        "python-onnxruntime": "artifact changed", "python-eager": "same",
        "python-torchscript": "same",
    }  # fmt: skip
    apart = out.split("listed apart", 1)[1]
    assert "1.300" in lines_of(apart, "python-onnxruntime")
    assert lines_of(apart, "python-onnxruntime").endswith("artifact changed")
    assert "python-onnxruntime" not in out.split("listed apart", 1)[0].split("\n", 1)[1]
    # The rows still compared are gated: python-eager 30% slower fails.
    c = make_run(tmp_path / "c", [
        driver("python-onnxruntime", scaled(STEADY, 0.5), runtime="onnxruntime",
               artifact="mlp.onnx"),
        driver("python-eager", scaled(STEADY, 4.0 * 1.3)),
        driver("python-torchscript", scaled(STEADY, 2.0)),
    ], env=with_files({"mlp.onnx": "6" * 64}))  # fmt: skip
    status, out, _ = gate(capsys, a, c, "--fail-above", "5")
    assert status == 1 and "python-eager: wall time slower" in out


def test_a_driver_in_one_run_only_is_listed_and_not_gated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = three_drivers(tmp_path / "a", 1.0)
    b = make_run(tmp_path / "b", [driver("python-numpy", STEADY),
                                  driver("python-eager", scaled(STEADY, 4.0)),
                                  driver("python-jax", scaled(STEADY, 2.0))])  # fmt: skip
    status, out, _ = gate(capsys, a, b, "--fail-above", "5", "--json", tmp_path / "c.json")
    assert status == 0, out
    apart = out.split("listed apart", 1)[1]
    assert lines_of(apart, "python-cffi").endswith("only in A")
    assert lines_of(apart, "python-jax").endswith("only in B")
    assert comparability(tmp_path / "c.json") == {
        "python-cffi": "only in A", "python-eager": "same", "python-jax": "only in B",
        "python-numpy": "same",
    }  # fmt: skip


def test_other_inputs_or_reference_are_another_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = three_drivers(tmp_path / "a", 1.0)
    for name in ("inputs.f32", "reference.f32", "inputs1.i64", "reference1.f32"):
        b = three_drivers(tmp_path / name, 1.0, env=with_files({name: "7" * 64}))
        status, out, err = gate(capsys, a, b, "--fail-above", "5")
        assert status == 2 and not out
        assert err == (f"callbench compare: error: {b / 'env.json'}: another model than run A's "
                       f"({name} sha256 differs)\n")  # fmt: skip


def legacy(env: dict, **fields: object) -> dict:
    """A run made before files_sha256 was kept: the manifest's own sha256 only."""
    return {**{k: v for k, v in env.items() if k != "files_sha256"}, **fields}


def test_a_run_without_per_file_hashes_is_matched_by_artifact_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = onnx_and_torch(tmp_path / "old", 1.0, env=legacy(ENV, manifest_sha256="8" * 64))
    new = onnx_and_torch(tmp_path / "new", 1.3, env=ENV)
    status, out, _ = gate(capsys, old, new, "--fail-above", "5", "--json", tmp_path / "c.json")
    assert status == 1, out  # matched by name, so compared and gated
    assert set(comparability(tmp_path / "c.json").values()) == {"same name"}
    assert valid(tmp_path / "c.json")["basis"] == "artifact name"
    assert "rows matched by artifact name only" in out.splitlines()[0]
    # By name, a driver that loads another file is still apart.
    renamed = make_run(tmp_path / "renamed", [
        driver("python-onnxruntime", scaled(STEADY, 0.5), artifact="mlp.vmfb"),
        driver("python-eager", scaled(STEADY, 4.0)),
    ], env=legacy(ENV, manifest_sha256="8" * 64))  # fmt: skip
    gate(capsys, renamed, new, "--json", tmp_path / "r.json")
    assert comparability(tmp_path / "r.json") == {
        "python-onnxruntime": "artifact changed", "python-eager": "same name",
        "python-torchscript": "only in B",
    }  # fmt: skip
    # The same manifest file: every artifact is the same, whichever run kept the hashes.
    same = onnx_and_torch(tmp_path / "same", 1.0, env=legacy(ENV))
    status, _, _ = gate(capsys, same, new, "--json", tmp_path / "d.json")
    assert valid(tmp_path / "d.json")["basis"] == "manifest"
    assert set(comparability(tmp_path / "d.json").values()) == {"same"}
    # Another fit, or a user's model, and nothing says which files are shared.
    for fields in ({"fit_rmse": 0.5}, {"user_model": {"file": "m.onnx"}}):
        other = onnx_and_torch(tmp_path / str(len(fields)) / next(iter(fields)), 1.0,
                               env=legacy(ENV, manifest_sha256="8" * 64, **fields))  # fmt: skip
        status, out, err = gate(capsys, other, new)
        assert status == 2 and not out and err.count("\n") == 1
        assert f"{new / 'env.json'}: another model than run A's" in err


def test_a_run_keeps_each_models_files_sha256(tmp_path: Path) -> None:
    models = tmp_path / "models"
    models.mkdir()
    files = {"inputs.f32": {"sha256": "1" * 64}, "mlp.onnx": {"sha256": "4" * 64}}
    (models / "manifest.json").write_text(json.dumps({"files": files, "fit_rmse": 0.003}))
    write_env(tmp_path, RunOptions(models=models), models)
    env = json.loads((tmp_path / "env.json").read_text())
    assert env["files_sha256"] == {"inputs.f32": "1" * 64, "mlp.onnx": "4" * 64}
    assert env["fit_rmse"] == 0.003
