"""The report's "Serving at a rate", from records of rows served at a rate."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from callbench.cli import serve_rate
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
    assert cpp[1:7] == ["1", "one caller", "60,000", "2.00", "400", "10,000"]
    assert cpp[7] == "100,000" and cpp[10] == "0.60" and cpp[11].rstrip(" |") == "90,000"
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
    assert lines["| `cpp-x`"][4:7] == ["300", "100", "wait"]
    assert lines["| `cpp-y`"][4:7] == ["50.00", "350", "service"]
    assert lines["| `cpp-x`"][7:10] == ["1.50", "20.00 (4,000 arrivals)", "48.0 of 50 |"]
    assert "| `cpp-old`" not in lines


def with_repeats(driver_id: str, rates: list[float], repeats: int = 5) -> Record:
    """A record of a curve and repeated searches: two curve points (one stable, one not),
    then each repeat's passing point at its rate; the rate their lower median."""
    record = served(driver_id, "C++", 1, None)
    assert record.serving is not None
    curve = [point(2e4, 1e5, within=True) | {"windows_used": 3, "stable": True},
             point(9e4, 3e6, within=False) | {"windows_used": 6, "stable": False}]  # fmt: skip
    curve[0]["times"] = {"wait": spread(8e4), "service": spread(2e4), "first_late_ns": 900,
                         "clock_late": None, "clock_late_arrivals": 0,
                         "lead_ns": 50_000_000, "lead_left_ns": 49_000_000}  # fmt: skip
    searched = [point(r, 4e5, within=True) | {"repeat": i, "windows_used": 3, "stable": True}
                for i, r in enumerate(rates)]  # fmt: skip
    for each in curve + searched:
        each["span_ns"] = 12 * 10**9
    median = sorted(rates)[(len(rates) - 1) // 2]
    record.serving |= {
        "rate": median, "rate_interval": [min(rates), max(rates)], "repeats": repeats,
        "repeat_rates": rates, "interval_method": "order statistics", "curve": [0.1, 0.9],
        "windows_rule": {"window_s": 2.0, "window_arrivals": 2000, "point_max_s": 30.0,
                         "agree": 3, "tolerance": 0.1, "most_windows": 6},
        "points": curve + searched,
    }  # fmt: skip
    return record


def test_repeated_searches_give_the_rate_its_interval_and_say_how(tmp_path: Path) -> None:
    row = with_repeats("cpp-r", [5e4, 6e4, 5.5e4, 7e4, 6.5e4])
    text = serving_at_a_rate.section({1: [row]}, "charts/x.png")
    line = next(ln for ln in text.splitlines() if ln.startswith("| `cpp-r`")).split(" | ")
    # The lower median of 5 repeats, its interval theirs, its p99 the passing point at it;
    # 6 of 7 points stable; the lowest failing rate the curve's.
    assert line[3] == "60,000 [50,000–70,000]" and line[5] == "400"
    assert line[7] == "6 of 7" and line[12].rstrip(" |") == "90,000"
    assert "then 5 searches that start from the curve's bracket" in text
    assert "points held 12.0–12.0 s" in text and "1 of 7 were unstable" in text
    assert "a curve at 10%, 90% of the closed loop's rate" in text
    assert "needs the intervals apart" in text and "confirm" not in text
    assert "searches ran back to back" in text  # a record before rows took turns
    assert row.serving is not None
    row.serving["in_turn"], row.serving["served_again"] = 4, 2
    turns = serving_at_a_rate.section({1: [row]})
    assert "The 4 rows and N took turns" in turns and "searches ran back" not in turns
    assert "2 points were served again" in turns and "served again" not in text
    assert charts.serving([row], "run", tmp_path / "s.png") == tmp_path / "s.png"


def test_a_quick_search_is_labelled_without_an_interval() -> None:
    row = with_repeats("cpp-q", [6e4], repeats=1)
    text = serving_at_a_rate.section({1: [row]})
    assert "60,000 (one search, --quick: no interval)" in text
    # The rate's column names the bound, and no interval where there is none.
    assert "--quick: no interval, so no claim" in text and "[95%]" not in text
    assert "| requests a second within p99 1 ms |" in text
    five = serving_at_a_rate.section({1: [with_repeats("cpp-r", [5e4, 6e4, 5.5e4, 7e4, 6.5e4])]})
    assert "| requests a second within p99 1 ms [95%] |" in five


def test_serve_rates_line_gives_the_interval_of_repeated_searches() -> None:
    row = with_repeats("cpp-r", [5e4, 6e4, 5.5e4, 7e4, 6.5e4])
    line = serve_rate.summary(row)
    assert line.startswith("60,000 requests/s [50,000-70,000] of 5 searches within the bound")
    assert "p99 400.0 us" in line
    assert "[" not in serve_rate.summary(with_repeats("cpp-q", [6e4], repeats=1))


def test_each_row_says_its_way_threads_or_processes_and_how_they_were_dealt() -> None:
    threads = served("python-x", "Python", 2, 6e4)
    copies = served("python-x", "Python", 2, 7e4)
    copies.processes = 2
    assert copies.serving is not None
    copies.serving["deal"] = "shared counter"
    text = serving_at_a_rate.section({2: [threads, copies]})
    ways = [ln.split(" | ")[2] for ln in text.splitlines() if ln.startswith("| `python-x`")]
    assert ways == ["threads", "2 processes, shared counter"]
