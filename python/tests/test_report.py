"""The report, built from run folders written with the records' own writer.

The runs are synthetic (chosen per-round figures), so each test knows what
the report must say; no test asserts a measured time.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from callbench.cli.main import main as callbench_main
from callbench.records.record import Record, Round, Status
from callbench.records.store import load_run, write_json, write_record
from callbench.report.blocks import claims
from callbench.report.blocks.ratios import ratio
from callbench.report.sections import peers

ENV: dict[str, Any] = {
    "host": "test-host",
    "cpu": "Test CPU",
    "cores": 2,
    "git": {"commit": "abc123", "dirty": False},
    "options": {"reruns": 2},
    "protocol": {"name": "calibrated", "round_time_s": 0.1, "rounds": 5},
    "manifest_sha256": "0" * 64,
    "files_sha256": {
        "inputs.f32": "1" * 64,
        "reference.f32": "2" * 64,
        "mlp_state_dict.pt": "3" * 64,
        "mlp.onnx": "4" * 64,
    },
    "fit_rmse": 0.0032,
    "machine": {
        "governor": "performance",
        "start": {"loadavg": [0.5, 0.4, 0.3], "steal_ns": 1_000_000_000},
        "end": {"loadavg": [1.5, 1.0, 0.5], "steal_ns": 1_250_000_000},
    },
}
CALLS = 1000
DRIVER_CELL = re.compile(r"^`([a-z0-9][a-z0-9._-]*)`$")


def driver(
    driver_id: str,
    per_call_ns: Sequence[float],
    *,
    language: str = "Python",
    flagged: Sequence[int] = (),
    **fields: Any,
) -> Record:
    """An ok driver record whose round i takes ``per_call_ns[i]`` per call."""
    rounds = []
    for i, ns in enumerate(per_call_ns):
        if i in flagged:  # a flagged round, then its clean re-run
            rounds.append(Round(i, CALLS, int(ns * CALLS * 3), flagged="cpu time 30% of wall"))
        rounds.append(Round(i, CALLS, int(ns * CALLS)))
    values: dict[str, Any] = {
        "kind": "driver", "id": driver_id, "language": language, "runtime": "torch",
        "status": "ok", "runtime_version": "2.15.0", "artifact": "mlp_state_dict.pt",
        "rounds": rounds, "load_ns": 5_000_000, "peak_rss_bytes": 100_000_000,
        "max_abs_error": 1e-6, "tolerance": 1e-4,
    }  # fmt: skip
    values.update(fields)
    return Record(**values)


def not_ok(driver_id: str, status: Status, error: str) -> Record:
    return Record(kind="driver", id=driver_id, language="C++", runtime="libtorch",
                  status=status, error=error)  # fmt: skip


def make_run(
    folder: Path,
    records: Sequence[Record],
    env: dict[str, Any] | None = None,
    latencies: dict[str, np.ndarray] | None = None,
) -> Path:
    write_json(folder / "env.json", env or ENV)
    for record in records:
        write_record(folder, record, (latencies or {}).get(record.id))
    return folder


def report(tmp_path: Path, *runs: Path) -> str:
    out = tmp_path / "out"
    assert callbench_main(["report", *map(str, runs), "--out", str(out)]) == 0
    return (out / "report.md").read_text()


def rows(text: str) -> dict[str, list[str]]:
    """Driver id -> the cells of its first table row in ``text``."""
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        if not line.startswith("| "):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        ids = [m.group(1) for c in cells[:4] if (m := DRIVER_CELL.match(c))]
        if ids:
            found.setdefault(ids[0], cells)
    return found


def test_ok_failed_and_skipped_rows_and_charts(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run", [
        driver("python-numpy", [5000, 5100, 5050]),
        not_ok("cpp-onnxruntime", "failed", "models/mlp.onnx: truncated"),
        not_ok("cpp-handwritten", "skipped", "not built: run `callbench build cpp`"),
    ])  # fmt: skip
    text = report(tmp_path, run)
    table = rows(text)
    assert table["python-numpy"][-1] == "ok"
    assert (
        "**failed**" in table["cpp-onnxruntime"][-1] and "mlp.onnx" in table["cpp-onnxruntime"][-1]
    )
    assert "**skipped**" in table["cpp-handwritten"][-1]
    assert "not built" in table["cpp-handwritten"][-1]
    assert "124 s" in text and "`python-eager-seed`" in text  # the seed's table
    assert run.name in text and "git commit" in text
    charts = sorted((tmp_path / "out" / "charts").glob("*.png"))
    assert [c.name for c in charts] == ["run-per-call.png"]
    assert charts[0].read_bytes().startswith(b"\x89PNG")


def test_medians_intervals_ties_and_paired_ratios(tmp_path: Path) -> None:
    drift = [1.0, 1.3, 1.1, 1.6, 1.2]  # the machine's drift, shared by every round
    run = make_run(tmp_path / "run", [
        driver("cpp-handwritten", [20 * d for d in drift], language="C++"),
        driver("python-numpy", [2000 * d for d in drift]),
        driver("python-onnxruntime", [2080 * d for d in drift]),  # 4%: within the noise
        driver("python-eager", [9000, 9000, 9050, 9100, 9000]),  # narrow, no overlap
    ])  # fmt: skip
    table = rows(report(tmp_path, run))
    header = "× cpp-handwritten (95% interval)"
    assert table["cpp-handwritten"][0] == "1"
    assert table["python-numpy"][0] == "2"
    assert table["python-onnxruntime"][0] == "≈"  # a tie with the row above
    assert table["python-eager"][0] == "4"
    # Round by round the drift cancels: exactly 100× with no spread.
    assert table["python-numpy"][5] == "100× (100–100)"
    assert table["python-numpy"][4].endswith("⚠")  # the drift makes its interval wide
    assert not table["python-eager"][4].endswith("⚠")
    assert len(table["python-eager"]) <= 9  # the main table's columns
    assert header in report(tmp_path, run)


def test_latency_percentiles_memory_and_torchscript_cells(tmp_path: Path) -> None:
    samples = np.arange(1, 1001, dtype=np.int64) * 100  # 0.1 .. 100 µs
    run = make_run(tmp_path / "run", [
        driver("python-torchscript", [5000, 5000, 5000], runtime="torch.jit",
               artifact="mlp_torchscript.pt"),
        driver("java-pytorch", [3000, 3000, 3000], language="Java", runtime="libtorch",
               artifact="mlp_torchscript.pt", peak_rss_bytes=512_000_000,
               notes={"host_rss_bytes": 60_000_000}, warmup=19, warmup_ns=2_070_000_000),
        driver("cpp-handwritten", [20, 20, 20], language="C++"),
    ], latencies={"python-torchscript": samples, "cpp-handwritten": samples})  # fmt: skip
    text = report(tmp_path, run)
    table = rows(text)
    details = rows(text.split("### Each row's other figures")[1])
    p50, p90, p99 = np.percentile(samples, [50, 90, 99]) / 1e3
    assert details["python-torchscript"][2] == f"{p50:.2f} / {p90:.2f} / {p99:.2f}"
    assert details["cpp-handwritten"][2] == "–"  # a call under 1 µs: no percentiles
    assert details["java-pytorch"][4] == "19 (2.07)"  # the warm-up's calls and seconds
    assert details["java-pytorch"][5] == "512 (host 60)"
    assert "deprecated" in table["python-torchscript"][2]
    assert "deprecated" in table["java-pytorch"][2]
    assert "deprecated" not in table["cpp-handwritten"][2]
    assert "torch.jit.load is deprecated. Please switch to torch.export." in text


@pytest.mark.parametrize(
    ("protocol", "said"),
    [
        ({"name": "fixed", "calls": 1_000_000, "rounds": 9}, "(the seed's protocol)"),
        ({"name": "calibrated", "round_time_s": 0.1, "rounds": 9}, "rounds of ~0.1 s"),
    ],
)
def test_protocol_flagged_rounds_and_machine_are_said(
    tmp_path: Path, protocol: dict[str, Any], said: str
) -> None:
    run = make_run(tmp_path / "run", [
        driver("python-numpy", [5000, 5000, 5000, 5000], flagged=[1, 3]),
        driver("python-eager", [9000, 9000, 9000, 9000]),
    ], env={**ENV, "protocol": protocol})  # fmt: skip
    text = report(tmp_path, run)
    assert said in text
    assert "2 of 10 timed rounds were flagged" in text
    assert rows(text)["python-numpy"][-1] == "ok, 2 flagged round(s) re-run"
    assert "governor: performance" in text
    assert "0.50 / 0.40 / 0.30 at start, 1.50 / 1.00 / 0.50 at end" in text
    assert "steal time during the run: 0.25 s" in text
    assert "contention probe: not recorded in this run" in text


def test_a_core_contended_in_some_rounds_is_said_noisy(tmp_path: Path) -> None:
    record = driver("python-numpy", [5000] * 12)
    for r, probe in zip(record.rounds, [1_000_000] * 8 + [1_600_000] * 4, strict=True):
        r.probe_ns = probe
    text = report(tmp_path, make_run(tmp_path / "run", [record]))
    assert "1.00 ms median, x1.00 to x1.60 of it" in text
    assert "a noisy machine" in text


def seed_run(folder: Path, cpp_seed_ns: float) -> Path:
    return make_run(folder, [
        driver("python-eager-seed", [60_000] * 5),
        driver("python-eager", [40_000] * 5),
        driver("python-torchscript", [20_000] * 5, artifact="mlp_torchscript.pt"),
        driver("java-pytorch", [10_000] * 5, language="Java", artifact="mlp_torchscript.pt"),
        driver("cpp-torchscript-seed", [cpp_seed_ns] * 5, language="C++",
               artifact="mlp_torchscript.pt"),
        driver("cpp-torchscript", [7_000] * 5, language="C++", artifact="mlp_torchscript.pt"),
        driver("cpp-libtorch", [5_000] * 5, language="C++", artifact="mlp_weights.f32"),
    ])  # fmt: skip


def test_seed_section_explains_the_orderings_from_the_figures(tmp_path: Path) -> None:
    text = report(tmp_path, seed_run(tmp_path / "run", cpp_seed_ns=12_000))
    section = text.split("## The seed's table beside ours")[1].split("\n## ")[0]
    table = rows(section)
    assert table["python-eager-seed"][-1] == "1.00× (1.00–1.00)"
    assert table["python-torchscript"][-1] == "3.00× (3.00–3.00)"
    assert table["cpp-torchscript-seed"][-2] == "12.00 s"
    assert table["cpp-torchscript-reuse"][-2] == "not measured"
    assert "| ours: median call × 10⁶ |" in section  # calibrated rounds: not a measured million
    assert "it is not a measured million" in section
    # C++ as written (12 µs) is slower than Java (10 µs), our C++ call (7 µs) is faster.
    assert "C++ is slower than Java only with the seed's call as written" in section
    assert "with our call it is faster" in section
    assert "Not measured here: `cpp-torchscript-reuse`" in section
    # Eager -> TorchScript: 3× with the seed's loop, 2× with ours; 1.5× is the seed's forward.
    assert "A factor of 1.50 of it is the seed's forward" in section
    assert "TorchScript itself gains 2.00×" in section
    assert "`cpp-torchscript-seed` / `cpp-libtorch` 2.40× (2.40–2.40)" in section
    assert ("The gap is 2.40× with the seed's call as written and 1.40× with ours: "
            "both smaller than the seed's 4.89×") in section  # fmt: skip


def test_seed_section_says_when_the_ordering_is_not_seen(tmp_path: Path) -> None:
    text = report(tmp_path, seed_run(tmp_path / "run", cpp_seed_ns=8_000))
    assert "we do not see the seed's ordering" in text


def test_sweeps_per_sample_and_per_call(tmp_path: Path) -> None:
    records = [driver("python-numpy", [5000, 5000, 5000])]
    for batch, per_call in ((1, 5000), (100, 60_000), (10_000, 5_800_000)):
        records.append(driver("python-numpy", [per_call] * 3, batch=batch,
                              sweep={"kind": "batch", "value": batch}))  # fmt: skip
    for threads in (1, 2):
        records.append(driver("python-numpy", [50_000 / threads] * 3, batch=1000, threads=threads,
                              sweep={"kind": "threads", "value": threads}))  # fmt: skip
    text = report(tmp_path, make_run(tmp_path / "run", records))
    batch_section = text.split("## Batch-size sweep")[1].split("\n## ")[0]
    assert "µs per sample" in batch_section and "batching stops paying at" in batch_section
    # 5 µs -> 0.6 µs per sample pays; 0.6 -> 0.58 does not: it stops paying at 100.
    assert "| `python-numpy` | 5.00 | 0.600 | 0.580 | 100 |" in batch_section
    thread_section = text.split("## Thread sweep")[1].split("\n## ")[0]
    assert "µs per call of batch 1,000" in thread_section
    assert "| 50.00 | 25.00 |" in thread_section
    charts = {c.name for c in (tmp_path / "out" / "charts").glob("*.png")}
    assert charts == {"run-per-call.png", "run-batch-sweep.png", "run-threads-sweep.png"}


def test_model_size_section_finds_each_languages_crossover(tmp_path: Path) -> None:
    """Synthetic widths: C++'s floor leads at 8 and falls behind; Python's driver catches up
    from 512 and stays; Go never comes within 10%. The section says each, in plain words."""
    per_call = {  # width -> {driver: (language, ns)}
        8: {"cpp-handwritten": ("C++", 20), "python-numpy": ("Python", 3000),
            "go-handwritten": ("Go", 50)},
        512: {"cpp-handwritten": ("C++", 24_000), "python-numpy": ("Python", 21_000),
              "go-handwritten": ("Go", 100_000)},
        2048: {"cpp-handwritten": ("C++", 700_000), "python-numpy": ("Python", 330_000),
               "go-handwritten": ("Go", 2_000_000)},
    }  # fmt: skip
    records = [
        driver(d, [ns] * 3, language=lang, sweep={"kind": "width", "value": w})
        for w, drivers in per_call.items() for d, (lang, ns) in drivers.items()
    ]  # fmt: skip
    records.append(Record(kind="driver", id="cpp-aoti-reuse", language="C++", runtime="aoti",
                          status="skipped", error="width 512 has no mlp.pt2 (not exported)",
                          sweep={"kind": "width", "value": 512}))  # fmt: skip
    text = report(tmp_path, make_run(tmp_path / "run", records))
    section = text.split("## Model size")[1].split("\n## ")[0]
    assert "| C++ | 1.00× `cpp-handwritten` | 1.14× `cpp-handwritten` | 2.12× `cpp-handwritten` " \
           "| not within 10% up to 2,048 |" in section  # fmt: skip
    assert "| Python | 150.00× `python-numpy` | 1.00× `python-numpy` | 1.00× `python-numpy` " \
           "| from 512 |" in section  # fmt: skip
    assert "| Go | 2.50× `go-handwritten` | 4.76× `go-handwritten` | 6.06× `go-handwritten` " \
           "| not within 10% up to 2,048 |" in section  # fmt: skip
    assert "stays: Python from 512; C++, Go not up to width 2,048" in section
    assert "At width 2,048 the fastest row runs 330 µs a call" in section
    assert "the rows within 10% of it are `python-numpy` (torch):" in section
    assert "| `cpp-aoti-reuse` | C++ | – | skipped | – |" in section
    assert (tmp_path / "out" / "charts" / "run-width-sweep.png").is_file()


def test_two_runs_from_hosts_of_one_name_are_told_apart(tmp_path: Path) -> None:
    first = make_run(tmp_path / "20261125T010000Z-vm-aaaaaa", [driver("python-numpy", [5000] * 3)],
                     env={**ENV, "host": "vm"})  # fmt: skip
    second = make_run(
        tmp_path / "20261125T020000Z-vm-bbbbbb",
        [driver("python-numpy", [7000] * 3, runtime_version="2.16.0")],
        env={**ENV, "host": "vm", "git": {"commit": "def456", "dirty": True}},
    )
    text = report(tmp_path, first, second)
    side = text.split("## Hosts side by side", 1)[1]
    header = next(line for line in side.splitlines() if line.startswith("| driver | "))
    assert "`20261125T010000Z-vm-aaaaaa`" in header and "`20261125T020000Z-vm-bbbbbb`" in header
    made = [line for line in text.splitlines() if line.startswith("- `20261125T0")]
    assert "commit `abc123`" in made[0] and "commit `def456` with uncommitted changes" in made[1]
    versions = [line for line in side.splitlines() if line.startswith("- `20261125T0")]
    assert "torch 2.15.0" in versions[0] and "torch 2.16.0" in versions[1]
    titles = [line for line in text.splitlines() if line.startswith("## Cost per call")]
    assert len(set(titles)) == 2


def test_bindings_of_one_engine_at_other_versions_are_marked(tmp_path: Path) -> None:
    ort = {"runtime": "onnxruntime", "runtime_version": "1.31.1"}
    run = make_run(tmp_path / "run", [
        driver("cpp-onnxruntime", [2000] * 3, language="C++", **ort),
        driver("python-onnxruntime", [4000] * 3, **ort),
        driver("java-onnxruntime", [3000] * 3, language="Java", runtime="onnxruntime",
               runtime_version="1.29.0"),
        driver("node-onnxruntime", [5000] * 3, language="Node.js", runtime="onnxruntime-node",
               runtime_version="1.30.0"),
        driver("cpp-openvino", [1000] * 3, language="C++", runtime="openvino",
               runtime_version="2026.4.1"),
    ])  # fmt: skip
    section = report(tmp_path, run).split("## ONNX Runtime and OpenVINO bindings", 1)[1]
    table = rows(section.split("\n## ", 1)[0])
    assert table["java-onnxruntime"][4] == "1.50× †"
    assert table["node-onnxruntime"][4] == "2.50× †"
    assert table["python-onnxruntime"][4] == "2.00×" and table["cpp-openvino"][4] == "0.50×"
    assert "1.29.0: `java-onnxruntime`; 1.30.0: `node-onnxruntime`" in section


def test_runs_from_two_hosts_side_by_side(tmp_path: Path) -> None:
    first = make_run(tmp_path / "first", [driver("python-numpy", [5000] * 3)])
    second = make_run(tmp_path / "second", [driver("python-numpy", [7000] * 3)],
                      env={**ENV, "host": "second-host", "cpu": "Another CPU"})  # fmt: skip
    text = report(tmp_path, first, second)
    assert "## Hosts side by side" in text
    side = text.split("## Hosts side by side", 1)[1]
    header = next(line for line in side.splitlines() if line.startswith("| driver | "))
    assert "test-host · Test CPU · `first`" in header
    assert "second-host · Another CPU · `second`" in header
    assert "| `python-numpy` | 5.00 (1.00× python-numpy) | 7.00 (1.00× python-numpy) |" in text
    assert text.count("## Cost per call") == 2


def test_the_report_leads_with_the_answer_and_sets_hosts_side_by_side_after(
    tmp_path: Path,
) -> None:
    first = make_run(tmp_path / "first", [
        driver("python-numpy", [5000] * 3, runtime="numpy"),
        driver("python-onnxruntime", [4000] * 3, runtime="onnxruntime"),
    ])  # fmt: skip
    second = make_run(tmp_path / "second", [driver("python-numpy", [7000] * 3, runtime="numpy")],
                      env={**ENV, "host": "second-host", "cpu": "Another CPU"})  # fmt: skip
    lines = report(tmp_path, first, second).splitlines()
    answer = next(i for i, line in enumerate(lines) if line.startswith("## The answer"))
    assert answer < 40 and "`python-onnxruntime`" in "\n".join(lines[answer : answer + 8])
    side = lines.index("## Hosts side by side")
    assert side > answer
    table = [line for line in lines[side:] if line.startswith("| `")]
    assert [line.split(" | ")[0] for line in table] == ["| `python-numpy`"]
    assert "1 other driver ran on one host only: see that host's sections." in lines[side:]


def test_kernel_records_get_their_section(tmp_path: Path) -> None:
    kernel = Record(kind="kernel", id="kernel-exp-numpy", language="Python", runtime="numpy",
                    status="ok", rounds=[Round(i, 10, 10_000_000) for i in range(3)],
                    max_abs_error=0.0, tolerance=1e-12,
                    kernel={"family": "elementwise", "op": "exp", "impl": "numpy",
                            "shape": [100, 100], "dtype": "float64", "device": "cpu",
                            "reference": "kernel-exp-numpy"})  # fmt: skip
    text = report(tmp_path, make_run(tmp_path / "run", [driver("python-numpy", [5000] * 3),
                                                        kernel]))  # fmt: skip
    assert "## Appendix: kernels" in text and "| `kernel-exp-numpy` |" in text
    assert "`kernel-exp-numpy`" not in text.split("## Appendix")[0]  # not a driver row


def test_a_record_of_another_schema_version_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = make_run(tmp_path / "run", [driver("python-numpy", [5000] * 3)])
    old = run / "python-eager.json"
    old.write_text(json.dumps({"driver": "python-eager", "per_call_ns": [1.0], "schema": 1}))
    assert callbench_main(["report", str(run), "--out", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith("callbench: error: ") and str(old) in err[0]
    assert "schema version" in err[0]
    assert not (tmp_path / "out" / "report.md").exists()


def test_a_missing_run_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert callbench_main(["report", str(tmp_path / "nothing"), "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "nothing" in err[0]


def counted(singles: Sequence[int], doubles: Sequence[int], calls: int = 1000) -> dict[str, Any]:
    """A count block of pairs with these instruction totals (rounds of K and 2K calls)."""
    return {
        "status": "ok", "error": None, "tool": "callgrind", "valgrind": "valgrind-3.19.0",
        "calls": calls, "events": ["Ir"], "isa": "AVX2 at most (Valgrind emulates no AVX-512)",
        "pairs": [{"single": [s], "double": [d]} for s, d in zip(singles, doubles, strict=True)],
    }  # fmt: skip


def test_counts_get_their_section_with_varying_rows_marked(tmp_path: Path) -> None:
    steady = counted([300_000, 300_100, 300_050], [586_000, 586_100, 586_050])  # 286 a call
    varying = counted([1_000_000] * 3, [41_000_000, 41_500_000, 42_000_000])  # 40,000-41,000
    skipped = {**counted([], []), "status": "skipped", "error": "did not load within 180 s"}
    run = make_run(tmp_path / "run", [
        driver("cpp-handwritten", [28, 29, 28], count=steady),
        driver("rust-tract", [9000, 9100, 9050], count=varying),
        Record(
            kind="driver", id="python-jax", language="Python", runtime="jax", status="skipped",
            error="not timed in this run", count=skipped,
        ),
        driver("python-numpy", [5000, 5100, 5050]),
    ])  # fmt: skip
    text = report(tmp_path, run)
    section = text.split("## Instructions per call under callgrind", 1)[1].split("\n## ", 1)[0]
    table = rows(section)
    assert table["cpp-handwritten"][1:4] == ["286", "0.00%", "1,000"]
    assert table["rust-tract"][1] == "40,500" and table["rust-tract"][2] == "2.47% varying"
    assert "skipped: did not load within 180 s" in table["python-jax"][1]
    assert "python-numpy" not in table  # timed, never counted
    assert "AVX-512" in section and "(I(2K) - I(K)) / K" in section


def test_a_jit_row_counted_warm_is_named_with_its_warm_up(tmp_path: Path) -> None:
    warm = {**counted([79_000_000] * 3, [158_000_000] * 3), "threads_apart": True,
            "counted_thread": 1, "settle": {"figures": [80_100.0, 79_500.0], "settled": True,
                                            "calls_before_pairs": 12_000}}  # fmt: skip
    run = make_run(tmp_path / "run", [
        driver("node-onnxruntime", [11_000, 11_100, 11_050], language="Node.js", count=warm),
        driver("cpp-handwritten", [28, 29, 28], count=counted([300_000] * 3, [586_000] * 3)),
    ])  # fmt: skip
    section = report(tmp_path, run).split("## Instructions per call under callgrind", 1)[1]
    assert rows(section)["node-onnxruntime"][1] == "79,000"
    assert "Counted, JIT warm" in section
    assert "`node-onnxruntime` (JIT warm after 12,000 calls)" in section
    assert "`cpp-handwritten` (JIT warm" not in section


def test_a_row_counted_on_its_avx2_build_says_so(tmp_path: Path) -> None:
    avx2 = {
        **counted([30_000_000] * 3, [59_000_000] * 3),
        "build": "an AVX2 build made at count time",
    }
    run = make_run(tmp_path / "run", [
        driver("cpp-aoti-reuse", [900, 910, 905], count=avx2),
        driver("cpp-handwritten", [28, 29, 28], count=counted([300_000] * 3, [586_000] * 3)),
    ])  # fmt: skip
    section = report(tmp_path, run).split("## Instructions per call under callgrind", 1)[1]
    assert rows(section)["cpp-aoti-reuse"][1] == "29,000 (AVX2 build)"
    assert rows(section)["cpp-handwritten"][1] == "286"
    assert "Counted on another build than the timed one: `cpp-aoti-reuse`: an AVX2 build" in section


def table_ids(text: str) -> list[str]:
    """The driver ids of ``text``'s table rows, in order."""
    return [
        line.split("`")[1] for line in text.splitlines() if line.startswith("| ") and "`" in line
    ]


def test_rows_tied_on_wall_time_keep_median_order_and_show_their_instructions(
    tmp_path: Path,
) -> None:
    drift = [1.0, 1.3, 1.1, 1.6, 1.2]
    run = make_run(tmp_path / "run", [
        # 2% apart on wall time, paired: significant but under the noise threshold, a tie;
        # rust-tract does half the work, which the row says, but it stays below numpy.
        driver("python-numpy", [1000 * d for d in drift],
               count=counted([1_000_000] * 3, [9_000_000] * 3)),  # 8,000 a call
        driver("rust-tract", [1020 * d for d in drift], language="Rust",
               count=counted([1_000_000] * 3, [5_000_000] * 3)),  # 4,000 a call
        driver("python-eager", [3000 * d for d in drift],
               count=counted([1_000_000] * 3, [31_000_000] * 3)),  # 30,000 a call
        driver("python-cffi", [3010 * d for d in drift]),  # tied with eager, not counted
        driver("python-ctypes", [3020 * d for d in drift],
               count=counted([1_000_000] * 3, [31_100_000] * 3)),  # the row above uncounted
        driver("python-jax", [3030 * d for d in drift],
               count=counted([1_000_000] * 3, [31_050_000] * 3)),  # the same work as ctypes
    ])  # fmt: skip
    text = report(tmp_path, run)
    main = text.split("## Cost per call", 1)[1].split("\n#", 1)[0]
    table = rows(main)
    order = table_ids(main)
    assert order == [
        "python-numpy", "rust-tract", "python-eager", "python-cffi", "python-ctypes", "python-jax"
    ]  # fmt: skip
    assert [table[d][0] for d in order] == ["1", "≈", "3", "≈", "≈", "≈"]
    assert table["rust-tract"][-2] == "a tie on wall time; instructions ×0.50"
    assert table["python-eager"][-2].startswith("wall time, ×")
    assert table["python-cffi"][-2] == "a tie on wall time; this row not counted"
    assert table["python-ctypes"][-2] == "a tie on wall time; the row above not counted"
    assert table["python-jax"][-2] == "a tie on both axes"
    assert table["python-numpy"][-3] == "8,000"
    assert "| against the row above |" in main
    assert "instructions / call" in main and "est. cycles / call" not in main
    chart = tmp_path / "out" / "charts" / "run-work-and-time.png"
    assert chart.read_bytes().startswith(b"\x89PNG")
    section = text.split("## Wall time against instructions", 1)[1]
    assert f"charts/{chart.name}" in section and "Furthest above the trend" in section


def test_a_row_far_off_the_trend_is_not_lifted_over_faster_rows(tmp_path: Path) -> None:
    """cpp-openvino-static's case: few instructions, slow; in a chain of ties it stays
    where its median puts it, below every faster row."""
    drift = [1.0, 1.3, 1.1, 1.6, 1.2]
    run = make_run(tmp_path / "run", [
        driver("python-numpy", [1000 * d for d in drift],
               count=counted([1_000_000] * 3, [9_000_000] * 3)),  # 8,000 a call
        driver("python-cffi", [1070 * d for d in drift],
               count=counted([1_000_000] * 3, [8_000_000] * 3)),  # 7,000
        driver("python-ctypes", [1145 * d for d in drift],
               count=counted([1_000_000] * 3, [2_000_000] * 3)),  # 1,000
    ])  # fmt: skip
    main = report(tmp_path, run).split("## Cost per call", 1)[1].split("\n#", 1)[0]
    assert table_ids(main) == ["python-numpy", "python-cffi", "python-ctypes"]
    table = rows(main)
    assert [table[d][0] for d in table_ids(main)] == ["1", "≈", "≈"]
    assert table["python-ctypes"][-2] == "a tie on wall time; instructions ×0.14"


def test_claims_that_form_a_cycle_still_give_an_order(tmp_path: Path) -> None:
    # Round by round the three rows take turns (A > B > C, B > C > A, C > A > B, two of
    # every three rounds each): every median of paired ratios says its row costs 1.5×
    # the next, all around. The medians tie, so one group; the order falls back to them.
    turns = [(3000, 2000, 1000), (1000, 3000, 2000), (2000, 1000, 3000)] * 100
    run = make_run(tmp_path / "run", [
        driver("python-a", [t[0] for t in turns]),
        driver("python-b", [t[1] for t in turns]),
        driver("python-c", [t[2] for t in turns]),
    ])  # fmt: skip

    records = {r.id: r for r in load_run(run).drivers}
    a, b, c = records["python-a"], records["python-b"], records["python-c"]
    cycle = [ratio(a, b), ratio(b, c), ratio(c, a)]
    assert all(claims.holds(r) for r in cycle)  # the cycle this test is about
    placed = claims.table_order(list(records.values()))
    assert sorted(p.record.id for p in placed) == ["python-a", "python-b", "python-c"]
    main = report(tmp_path, run).split("## Cost per call", 1)[1].split("\n#", 1)[0]
    assert sorted(table_ids(main)) == ["python-a", "python-b", "python-c"]


def test_the_newer_runtimes_are_placed_against_their_peers(tmp_path: Path) -> None:
    drift = [1.0, 1.3, 1.1, 1.6, 1.2]
    run = make_run(tmp_path / "run", [
        driver("python-onnxruntime-iobinding", [4000 * d for d in drift], runtime="onnxruntime"),
        driver("python-onnxruntime", [6000 * d for d in drift], runtime="onnxruntime"),
        driver("python-litert", [12000 * d for d in drift], runtime="litert"),
        driver("python-litert-reuse", [3000 * d for d in drift], runtime="litert"),
        driver("node-onnxruntime", [10000 * d for d in drift], language="Node.js",
               runtime="onnxruntime-node"),
        Record(kind="driver", id="node-onnxruntime-web", language="Node.js",
               runtime="onnxruntime-web", status="skipped",
               error="onnxruntime-web is not installed"),
    ])  # fmt: skip
    text = peers.newer_runtimes(load_run(run).drivers)
    rows = [line for line in text.splitlines() if line.startswith("| ")]
    lines = {line.split("|")[1].strip(): line for line in rows}
    litert = lines["LiteRT or ONNX Runtime from Python?"]
    assert "`python-litert-reuse`" in litert and "`python-onnxruntime-iobinding`" in litert
    assert "0.75" in litert  # 3000 / 4000 in every round
    web = lines["WebAssembly or the native addon, same engine?"]
    assert "skipped" in web and "onnxruntime-web is not installed" in web
    assert "IREE or ONNX Runtime from Python?" not in lines  # no IREE row in this run


def test_the_main_table_is_followed_by_its_glossary(tmp_path: Path) -> None:
    from callbench.registry import DRIVERS
    from callbench.report.blocks.tables import GLOSSARY

    text = report(tmp_path, make_run(tmp_path / "run", [driver("python-numpy", [5000] * 3)]))
    assert GLOSSARY in text
    # Every suffix that marks a variant in two or more languages' drivers is explained.
    for suffix in ("reuse", "iobinding", "static", "seed", "independent"):
        assert any(s.id.endswith(f"-{suffix}") or s.id.startswith(f"{suffix}-") for s in DRIVERS)
        assert f"`-{suffix}`" in GLOSSARY or f"`{suffix}-*`" in GLOSSARY


def test_every_rows_figures_go_to_a_csv_beside_the_report(tmp_path: Path) -> None:
    import csv

    run = make_run(tmp_path / "run", [
        driver("cpp-handwritten", [20, 20, 20], language="C++", notes={"call": "plain loops"}),
        driver("python-numpy", [5000, 5100, 5050]),
        not_ok("cpp-onnxruntime", "failed", "models/mlp.onnx: truncated"),
    ], latencies={"cpp-handwritten": np.full(100, 20, dtype=np.int64),
                  "python-numpy": np.arange(1, 101, dtype=np.int64) * 100})  # fmt: skip
    text = report(tmp_path, run)
    assert "`figures.csv`" in text
    with (tmp_path / "out" / "figures.csv").open() as f:
        got = {row["driver"]: row for row in csv.DictReader(f)}
    assert set(got) == {"cpp-handwritten", "python-numpy", "cpp-onnxruntime"}
    assert got["cpp-handwritten"]["call"] == "plain loops"
    assert got["cpp-handwritten"]["p50_us"] == ""  # under 1 µs a call: none, as in the report
    assert float(got["python-numpy"]["p50_us"]) == pytest.approx(5.05)
    assert float(got["python-numpy"]["median_us"]) == pytest.approx(5.05)
    assert float(got["python-numpy"]["ratio_to_base"]) == pytest.approx(252.5)
    failed = got["cpp-onnxruntime"]
    assert failed["status"] == "failed" and failed["median_us"] == ""


def test_seed_table_says_measured_only_for_rounds_of_a_million_calls(tmp_path: Path) -> None:
    """The seed's protocol (--calls 1000000) is a measured million; shorter rounds give
    only the median call × 10⁶, and the table says which it holds."""
    records = [driver("python-eager-seed", [60_000] * 3), driver("python-eager", [40_000] * 3)]
    for record, seconds in zip(records, ([70.0, 80.0, 90.0], [41.0, 45.0, 43.0]), strict=True):
        record.rounds = [Round(i, 1_000_000, int(s * 1e9)) for i, s in enumerate(seconds)]
    text = report(tmp_path, make_run(tmp_path / "run", records))
    section = text.split("## The seed's table beside ours")[1].split("\n## ")[0]
    assert rows(section)["python-eager-seed"][-2] == "80.00 s"
    assert "| ours: 1M calls measured |" in section
    assert "timed as the seed timed them" in section


def kernel(kernel_id: str, op: str, device: str, ms: float | None, error: str = "") -> Record:
    """A CUDA-family kernel record: ok with rounds of ``ms``, else skipped with ``error``."""
    labels = {"family": "cuda", "op": op, "impl": kernel_id.rsplit("-", 1)[1],
              "shape": [10, 10], "dtype": "float64", "device": device}  # fmt: skip
    if ms is None:
        return Record(kind="kernel", id=kernel_id, language="Python", runtime="torch",
                      status="skipped", error=error, kernel=labels)  # fmt: skip
    return Record(kind="kernel", id=kernel_id, language="Python", runtime="torch", status="ok",
                  rounds=[Round(i, 1, int(ms * 1e6)) for i in range(3)], max_abs_error=0.0,
                  tolerance=1e-12, kernel=labels)  # fmt: skip


def test_a_kernels_only_run_from_a_gpu_host_is_the_appendix_second_host(tmp_path: Path) -> None:
    """The GPU run's CUDA rows go beside this host's skipped ones, told apart by the device,
    in the appendix after every driver section; it gets no driver sections of its own."""
    here = make_run(tmp_path / "cpu-run", [
        driver("python-numpy", [5_000] * 5),
        kernel("kernel-cuda-exp-torch", "exp", "cuda", None, "no CUDA device"),
        kernel("kernel-l2norm-numpy", "l2norm", "cpu", 2.0),
    ])  # fmt: skip
    gpu_env = {"host": "test-host", "cpu": "GPU host CPU", "cpu_count": 16,
               "cuda_device": "Test GPU", "versions": {"torch": "9.9"}}  # fmt: skip
    gpu = make_run(tmp_path / "gpu-run", [kernel("kernel-cuda-exp-torch", "exp", "cuda", 0.25)],
                   env=gpu_env)  # fmt: skip
    text = report(tmp_path, here, gpu)
    assert "Hosts side by side" not in text and text.count("## Cost per call") == 1
    assert "GPU host CPU, GPU Test GPU, its commit not recorded" in text
    appendix = text.split("## Appendix: kernels, the seeds' micro-benchmarks")[1]
    assert "## Environment" in text.split("## Appendix")[0]  # the appendix comes last
    ours, theirs = appendix.split("### The CUDA rows on a second host: Test GPU, run `gpu-run`")
    assert (
        "This host's 1 CUDA rows did not run (skipped: no CUDA device); run `gpu-run` ran "
        "them on Test GPU: below" in ours
    )
    assert "kernel-cuda-exp-torch" not in rows(ours) and "kernel-l2norm-numpy" in rows(ours)
    assert rows(theirs)["kernel-cuda-exp-torch"][4] == "0.25"
    assert "GPU: Test GPU" in theirs


def test_what_decides_a_call_is_read_from_the_runs_rows() -> None:
    from callbench.report.sections.user_model import what_decides

    def onnx(driver_id: str, ns: float, runtime: str, language: str) -> Record:
        return driver(driver_id, [ns] * 3, runtime=runtime, language=language)

    # A large model: every binding of a runtime alike, the runtimes apart.
    large = [onnx("cpp-onnxruntime", 92e6, "onnxruntime", "C++"),
             onnx("node-onnxruntime", 94e6, "onnxruntime-node", "Node.js"),
             onnx("java-onnxruntime-ffm", 93e6, "onnxruntime-ffm", "Java"),
             onnx("rust-tract", 140e6, "tract", "Rust"),
             onnx("node-onnxruntime-web", 437e6, "onnxruntime-web", "Node.js")]  # fmt: skip
    text = what_decides(large)
    assert text.startswith("The runtime decides here") and "within 1.02×" in text
    assert "up to 4.75×" in text  # onnxruntime-web: its own runtime, not a binding
    line = next(ln for ln in text.splitlines() if ln.startswith("| onnxruntime |"))
    assert line.split(" | ")[1:4] == ["3", "3", "`cpp-onnxruntime` 92000"]
    # Our MLP: the binding moves a call more than the runtime does.
    small = [onnx("cpp-onnxruntime", 1000, "onnxruntime", "C++"),
             onnx("node-onnxruntime", 11000, "onnxruntime-node", "Node.js"),
             onnx("rust-tract", 2000, "tract", "Rust")]  # fmt: skip
    assert what_decides(small).startswith("The binding matters here as much as the runtime")
    # Where the run swept threads, what they did to each swept row's call.
    threads = {1: [driver("cpp-onnxruntime", [2e9] * 3, batch=21)],
               2: [driver("cpp-onnxruntime", [1.1e9] * 3, batch=21)]}  # fmt: skip
    assert ("from 1 to 2 threads a call got faster by `cpp-onnxruntime` 1.82× (batch 21)"
            in what_decides(large, threads))  # fmt: skip


def test_a_report_goes_to_latest_and_only_publish_writes_the_committed_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from callbench.cli import report as report_command

    results = tmp_path / "results"
    monkeypatch.setattr(report_command, "RESULTS", results)
    monkeypatch.setattr(report_command, "LATEST", results / "latest")
    run = make_run(tmp_path / "run", [driver("python-numpy", [5000] * 3)])
    (results / "latest" / "charts").mkdir(parents=True)
    (results / "latest" / "charts" / "an-older-run-per-call.png").write_bytes(b"old")
    assert callbench_main(["report", str(run)]) == 0
    assert (results / "latest" / "report.md").is_file()
    assert not (results / "latest" / "charts" / "an-older-run-per-call.png").exists()
    assert not (results / "report.md").exists()
    assert callbench_main(["report", str(run), "--publish"]) == 0
    assert (results / "report.md").read_text() == (results / "latest" / "report.md").read_text()
    capsys.readouterr()
    both = ["report", str(run), "--publish", "--out", str(tmp_path / "out")]
    assert callbench_main(both) == 2
    assert "not allowed with argument" in capsys.readouterr().err
