"""The report's "Serving at a rate", from records of rows served at a rate."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from callbench.records.record import Record, Round
from callbench.report import charts
from callbench.report.sections import serving_at_a_rate


def point(rate: float, p99_ns: float, *, within: bool, confirm: bool = False) -> dict[str, Any]:
    return {"rate": rate, "calls": 10_000 if confirm else 5_000, "seed": 1, "span_ns": 10**9,
            "p50_ns": 2_000.0, "p99_ns": p99_ns, "p999_ns": None, "max_ns": 10**6,
            "within": within, "confirm": confirm, "caller_calls": [5_000]}  # fmt: skip


def served(driver_id: str, language: str, callers: int, rate: float | None) -> Record:
    points = [point(1.2e5, 5e6, within=False), point(6e4, 2e5, within=True),
              point(9e4, 3e6, within=False)]  # fmt: skip
    if rate is not None:
        points.append(point(rate, 4e5, within=True, confirm=True))
    return Record(
        kind="driver", id=driver_id, language=language, runtime="none", status="ok",
        callers=callers, callers_verified=callers, max_abs_error=0.0,
        rounds=[Round(i, 1000, 10_000_000, callers=callers) for i in range(5)],
        sweep={"kind": "serving", "value": callers},
        serving={"bound_ns": 1e6, "bound_from": "our MLP's bound (1 ms)", "arrivals": "poisson",
                 "seed": 0, "step": 0.05, "spin_ns": 200_000, "closed_calls_per_s": 1e5,
                 "rate": rate, "capped": False, "points": points},
    )  # fmt: skip


def test_the_section_sets_each_rate_beside_its_closed_loop(tmp_path: Path) -> None:
    rows = [served("cpp-x", "C++", 1, 6e4), served("python-x", "Python", 2, None)]
    text = serving_at_a_rate.section({1: [rows[0]], 2: [rows[1]]}, "charts/x.png")
    assert "within **1 ms** (our MLP's bound (1 ms))" in text
    lines = {ln.split(" | ")[0]: ln for ln in text.splitlines() if ln.startswith("| `")}
    # cpp-x: 60,000 a second confirmed (p50 2 µs, p99 400 µs) beside its closed loop's
    # 100,000 calls a second (rounds of 1,000 calls in 10 ms), 0.60 of it; the lowest rate
    # over the bound, 90,000.
    cpp = lines["| `cpp-x`"].split(" | ")
    assert cpp[1:6] == ["1", "60,000", "2.00", "400", "10,000"]
    assert cpp[6] == "100,000" and cpp[9] == "0.60" and cpp[10].rstrip(" |") == "90,000"
    assert "none within the bound" in lines["| `python-x`"]
    assert "![p99 against the offered rate](charts/x.png)" in text
    assert charts.serving(rows, "run", tmp_path / "serving.png") == tmp_path / "serving.png"


def test_no_rows_served_no_section() -> None:
    assert serving_at_a_rate.section(None) == ""
    skipped = Record(kind="driver", id="go-x", language="Go", runtime="none", status="skipped",
                     error="its kit does not speak contract 6's paced rounds yet")  # fmt: skip
    assert serving_at_a_rate.section({2: [skipped]}) == ""


def spread(p99_ns: float) -> dict[str, Any]:
    return {"p50_ns": p99_ns / 4, "p90_ns": p99_ns / 2, "p99_ns": p99_ns, "p999_ns": None,
            "max_ns": int(2 * p99_ns)}  # fmt: skip


def test_wait_and_service_apart_say_which_sets_the_p99() -> None:
    # Contract 6's points keep wait and service: at cpp-x's rate the queue (wait 300 µs)
    # sets its p99, at cpp-y's the calls (service 350 µs); a contract 5 record has no row.
    rows = [served("cpp-x", "C++", 1, 6e4), served("cpp-y", "C++", 2, 6e4),
            served("cpp-old", "C++", 1, 6e4)]  # fmt: skip
    for row, (wait, service) in zip(rows[:2], [(3e5, 1e5), (5e4, 3.5e5)], strict=True):
        assert row.serving is not None
        row.serving["points"][-1]["times"] = {
            "wait": spread(wait), "service": spread(service), "first_late_ns": 1_500,
            "clock_late": spread(20_000), "clock_late_arrivals": 4_000,
            "lead_ns": 50_000_000, "lead_left_ns": 48_000_000,
        }  # fmt: skip
    text = serving_at_a_rate.section({1: [rows[0], rows[2]], 2: [rows[1]]})
    assert "no hand-off here from a front" in text
    apart = text.split("**Wait or service**")[1]
    lines = {ln.split(" | ")[0]: ln.split(" | ") for ln in apart.splitlines()
             if ln.startswith("| `")}  # fmt: skip
    assert lines["| `cpp-x`"][3:6] == ["300", "100", "wait"]
    assert lines["| `cpp-y`"][3:6] == ["50.00", "350", "service"]
    assert lines["| `cpp-x`"][6:9] == ["1.50", "20.00 (4,000 arrivals)", "48.0 of 50 |"]
    assert "| `cpp-old`" not in lines
