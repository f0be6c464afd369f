"""The "CPU or GPU" section from fixture records: the decision map's arithmetic (best of
each side per sample, a win only where the intervals are apart), and the section rendered
for a GPU host's run beside a CPU host's, from the GPU host's own CPU rows."""

from __future__ import annotations

from pathlib import Path

from callbench.records.record import Record
from callbench.report.sections import cpu_or_gpu
from tests.test_report import ENV, driver, make_run, report

BATCHES = (1, 16, 256, 4096)


def swept(driver_id: str, per_sample_ns: float, batch: int, *, spread: float = 0.01,
          language: str = "Python") -> Record:  # fmt: skip
    """A batch-sweep record whose calls cost ``per_sample_ns`` a sample, rounds spread a
    little around it."""
    per_call = per_sample_ns * batch
    rounds = [per_call * (1 + spread * k) for k in (-2, -1, 0, 1, 2)]
    return driver(driver_id, rounds, language=language, batch=batch,
                  sweep={"kind": "batch", "value": batch})  # fmt: skip


def gpu_host_records() -> list[Record]:
    """Per sample: the GPU's fixed cost spread over the batch; the CPU's flat at 50 ns."""
    records = []
    for b in BATCHES:
        records.append(swept("python-cuda-graph", 30_000 / b + 2, b))
        records.append(swept("python-eager-cuda", 140_000 / b + 5, b))
        records.append(swept("python-numpy", 60.0, b))
        records.append(swept("cpp-handwritten", 50.0, b, language="C++"))
    # The width sweep (batch 1) at 512: the GPU loses there too.
    for driver_id, ns in (("python-cuda-graph", 31_000.0), ("cpp-handwritten", 9_000.0)):
        records.append(driver(driver_id, [ns * (1 + 0.01 * k) for k in range(5)],
                              sweep={"kind": "width", "value": 512}))  # fmt: skip
    return records


def test_the_map_finds_the_smallest_batch_where_the_gpu_wins_per_sample() -> None:
    found = {c.width: c for c in cpu_or_gpu.decision_map(gpu_host_records())}
    at8 = found[8]
    # 30,000/256 + 2 = 119 ns against 50: the GPU loses; at 4,096: 9.3 against 50, it wins.
    assert at8.batch == 4096
    assert (at8.gpu.id, at8.cpu.id) == ("python-cuda-graph", "cpp-handwritten")
    assert at8.batches == BATCHES
    assert found[512].batch is None and found[512].batches == (1,)


def test_overlapping_intervals_are_no_win() -> None:
    """At 4,096 the GPU's median is below the CPU's, but their intervals overlap."""
    records = [swept("python-cuda-graph", 49.0, 4096, spread=0.2),
               swept("cpp-handwritten", 50.0, 4096, spread=0.2, language="C++")]  # fmt: skip
    (only,) = cpu_or_gpu.decision_map(records)
    assert only.batch is None


def test_a_gpu_hosts_run_gets_the_section_from_its_own_cpu(tmp_path: Path) -> None:
    cpu_host = make_run(tmp_path / "cpu-host", [driver("cpp-handwritten", [20.0] * 5,
                                                       language="C++")])  # fmt: skip
    gpu_host = make_run(tmp_path / "gpu-host", [driver("cpp-handwritten", [60.0] * 5),
                                                *gpu_host_records()],
                        env={**ENV, "host": "gpu-host", "cpu": "A GPU host's CPU"})  # fmt: skip
    text = report(tmp_path, cpu_host, gpu_host)
    assert text.count(f"## {cpu_or_gpu.TITLE}") == 1
    section = text.split(f"## {cpu_or_gpu.TITLE}")[1]
    assert "gpu-host" in section.splitlines()[0]
    row = next(line for line in section.splitlines() if line.startswith("| 8 |"))
    assert "| batch 4,096 | `python-cuda-graph` |" in row
    assert "| `cpp-handwritten` | 50 (" in row
    assert next(line for line in section.splitlines() if line.startswith("| 512 |")).startswith(
        "| 512 | not at batch 1 | `python-cuda-graph` | 31,620 ("
    )


def test_a_run_without_a_verified_gpu_row_has_no_section(tmp_path: Path) -> None:
    run = make_run(tmp_path / "cpu", [driver("cpp-handwritten", [20.0] * 5, language="C++")])
    assert f"## {cpu_or_gpu.TITLE}" not in report(tmp_path, run)


def test_a_gpu_hosts_run_names_its_card_from_the_gpu_rows(tmp_path: Path) -> None:
    """Two hosts may share a host name; a run whose env.json predates ``cuda_device`` is told
    apart by the device its GPU rows recorded (a CPU row's "device" note is not a GPU)."""
    records = gpu_host_records()
    records[0].notes = {"device": "Fixture GPU 80GB"}
    for r in records:
        if r.id == "cpp-handwritten":  # a CPU row, read before the GPU rows
            r.notes = {"device": "local-task"}
    gpu_host = make_run(tmp_path / "gpu-host", records,
                        env={**ENV, "host": "vm", "cpu": "A GPU host's CPU"})  # fmt: skip
    cpu_host = make_run(tmp_path / "cpu-host", [driver("cpp-handwritten", [20.0] * 5)])
    intro = report(tmp_path, cpu_host, gpu_host).split("\n## ")[0]
    assert "A GPU host's CPU, GPU Fixture GPU 80GB," in intro
    assert "local-task" not in intro


def test_the_grid_gives_a_wider_width_its_own_crossing() -> None:
    """Batch points naming width 512 (the GPU grid) join that width's crossing: the GPU's
    fixed cost spreads over the batch, the CPU's 9,000 ns a sample stays."""
    records = gpu_host_records()
    for b in BATCHES:
        for driver_id, ns in (("python-cuda-graph", 31_000 / b + 20), ("cpp-handwritten", 9_000)):
            point = swept(driver_id, ns, b)
            point.sweep = {"kind": "batch", "value": b, "width": 512}
            records.append(point)
    found = {c.width: c for c in cpu_or_gpu.decision_map(records)}
    assert found[512].batch == 16 and found[512].batches == BATCHES
    assert found[8].batch == 4096  # the reference width's crossing is its own


PROGRAM_ENV = {**ENV, "host": "gpu-host", "cpu": "A GPU host's CPU",
               "user_model": {"kind": "torch.export program", "file": "policy_value.pt2",
                              "sha256": "ab" * 32, "inputs": [], "outputs": []}}  # fmt: skip


def program_records(gpu_per_call: float = 65_000.0) -> list[Record]:
    """A policy-value net: the CUDA graph's call barely grows with the batch, the CPU's
    grows with every sample (111 µs a sample)."""
    records = []
    for b in (1, 16, 256):
        records.append(swept("python-cuda-graph", (gpu_per_call + 200 * b) / b, b))
        records.append(swept("python-eager-cuda", (290_000 + 500 * b) / b, b))
        records.append(swept("python-eager", 111_000.0, b))
    for r in records[:3]:  # batch 1: the run's main group, not a sweep point
        r.sweep = None
    return records


def test_a_programs_map_gives_each_batch_and_a_gpu_win_at_batch_one() -> None:
    points = cpu_or_gpu.by_batch(program_records())
    assert [(p.batch, p.gpu.id, p.cpu.id, p.gpu_wins) for p in points] == [
        (1, "python-cuda-graph", "python-eager", True),
        (16, "python-cuda-graph", "python-eager", True),
        (256, "python-cuda-graph", "python-eager", True),
    ]
    text = cpu_or_gpu.program_section(program_records())
    assert "The GPU wins from batch 1: `python-cuda-graph` takes 65.20 (" in text
    row = next(line for line in text.splitlines() if line.startswith("| 1 |"))
    assert row.startswith("| 1 | `python-cuda-graph` | 65.20 (") and row.endswith("| yes |")
    # A GPU call slower than the CPU's at batch 1 wins from a later batch; none: said so.
    later = cpu_or_gpu.program_section(program_records(gpu_per_call=300_000.0))
    assert "The GPU wins from batch 16:" in later
    assert "| 1 | `python-eager-cuda` | 290 (" in later  # the best GPU row at batch 1
    assert "| `python-eager` | 28,416 (27,848–28,984) | 80.9 | yes |" in later
    never = [r for r in program_records() if r.batch == 1 and r.id != "python-cuda-graph"]
    assert "The GPU wins at no batch measured (1)." in cpu_or_gpu.program_section(never)


def test_a_programs_report_has_its_map_and_another_hosts_faster_cpu_rows(
    tmp_path: Path,
) -> None:
    """The GPU host's run of a user's program, beside a CPU host's run of the same program:
    the map is the GPU host's, and the CPU host's rows that beat its CPU are told apart."""
    gpu_host = make_run(tmp_path / "gpu-host", program_records(), env=PROGRAM_ENV)
    cpu_env = {**PROGRAM_ENV, "host": "cpu-host", "cpu": "A faster CPU"}
    faster = [driver("cpp-executorch-method", [40_000.0 * (1 + 0.01 * k) for k in range(5)],
                     language="C++"),
              driver("python-eager", [120_000.0] * 5)]  # fmt: skip
    cpu_host = make_run(tmp_path / "cpu-host", faster, env=cpu_env)
    text = report(tmp_path, gpu_host, cpu_host)
    assert text.count(f"## {cpu_or_gpu.TITLE}") == 1
    section = text.split(f"## {cpu_or_gpu.TITLE}")[1].split("\n## ")[0]
    assert "faster CPU rows on `cpu-host` (another machine)" in section
    row = next(line for line in section.splitlines() if line.startswith("| 1 |"))
    assert row.endswith("| yes | `cpp-executorch-method` 40.80 (beats the GPU) |"), row
    assert next(line for line in section.splitlines()
                if line.startswith("| 16 |")).endswith("| none on `cpu-host` |")  # fmt: skip
    # Alone, the same run's map has no other machine's column.
    alone = report(tmp_path, gpu_host).split(f"## {cpu_or_gpu.TITLE}")[1]
    assert "another machine" not in alone and "The GPU wins from batch 1:" in alone
