"""The harness: run drivers one process each, verify their outputs, write the records.

``python -m callbench.harness --language python --calls 10000``

Each driver runs in its own process group with a wall-clock limit, so a
crash, a hang or a runtime that leaks threads cannot take the others down.
A driver's time enters its record only after its outputs match
``reference.f32``; every driver gets a record, ok, failed or skipped.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from callbench import artifacts as art
from callbench import environment, records, stats
from callbench.catalogue import DriverSpec, all_drivers, select
from callbench.cli_types import Parser, count, report_errors
from callbench.errors import ArtifactError, UsageError

# Outputs may differ from the eager reference by float32 rounding of a
# different summation order (a few ulps of values up to ~20), never by more.
ATOL = 1e-4
LANGUAGES = ("python", "cpp", "java")
STARTUP_SECONDS = 120.0
DEFAULT_BATCHES = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000]


@dataclass(frozen=True)
class RunOptions:
    models: Path = Path("models")
    calls: int = 1_000_000
    warmup: int = 10_000
    repeats: int = 3
    batch: int = 1
    threads: int = 1
    timeout: float | None = None
    # Per-call timing only in the main run; a sweep compares whole repeats.
    latencies: bool = True

    def driver_args(self) -> list[str]:
        return [
            "--models", str(self.models), "--calls", str(self.calls),
            "--warmup", str(self.warmup), "--repeats", str(self.repeats),
            "--batch", str(self.batch), "--threads", str(self.threads),
        ]  # fmt: skip

    def limit_for(self, spec: DriverSpec) -> float:
        if self.timeout is not None:
            return self.timeout
        work = (self.warmup + self.calls * self.repeats) * self.batch / 1e6
        return STARTUP_SECONDS + spec.seconds_per_million * work


@dataclass
class Outcome:
    """What one driver process left behind."""

    returncode: int | None
    stdout: str
    stderr: str
    peak_rss_mb: float | None
    seconds: float
    timed_out: bool = False
    signal: int | None = None
    notes: list[str] = field(default_factory=list)


def build_parser() -> argparse.ArgumentParser:
    p = Parser(prog="callbench.harness", description=__doc__.split("\n\n")[0])
    p.add_argument("--language", action="append", choices=LANGUAGES, help="repeatable")
    p.add_argument("--only", action="append", help="driver id or id prefix; repeatable")
    p.add_argument("--models", type=Path, default=Path("models"))
    p.add_argument("--calls", type=count(1), default=1_000_000)
    # Enough calls for the JVM's JIT to compile the call path before timing.
    p.add_argument("--warmup", type=count(0), default=10_000)
    p.add_argument("--repeats", type=count(1), default=3)
    p.add_argument("--batch", type=count(1), default=1)
    p.add_argument("--threads", type=count(1), default=1)
    p.add_argument("--timeout", type=float, help="seconds per driver (default: from the work)")
    p.add_argument("--runs-dir", type=Path, default=records.RUNS)
    p.add_argument("--run-dir", type=Path, help="add to this existing run instead of a new one")
    p.add_argument("--sweep", choices=("batch", "threads"), help="run each value of a sweep")
    p.add_argument(
        "--sweep-values", type=lambda t: [int(v) for v in t.split(",")], help="e.g. 1,10,100"
    )
    p.add_argument("--list", action="store_true", help="list the selected drivers and stop")
    p.add_argument("--debug", action="store_true", help="show tracebacks")
    return p


# ----------------------------------------------------------------- running one


def _read_tail(path: Path, limit: int = 1 << 16) -> str:
    with path.open("rb") as f:
        f.seek(max(0, path.stat().st_size - limit))
        return f.read().decode("utf-8", "replace")


def _progress_line(stderr_path: Path) -> str | None:
    """The driver's newest progress line, with the time left where it can be told."""
    lines = [ln for ln in _read_tail(stderr_path, 4096).splitlines() if ln.startswith("progress:")]
    if not lines:
        return None
    match = re.match(r"progress:\s*repeat (\d+)/(\d+) last=(\d+)", lines[-1])
    if match:
        k, total, last_ns = (int(g) for g in match.groups())
        left = (total - k + 1) * last_ns / 1e9
        return f"repeat {k}/{total}, about {left:.0f} s left"
    return lines[-1][len("progress:") :].strip()


def launch(command: Sequence[str], limit: float, label: str, env: dict[str, str]) -> Outcome:
    """Run ``command`` in its own process group; kill the group past ``limit`` seconds."""
    with tempfile.TemporaryDirectory(prefix="callbench-") as tmp:
        out_path, err_path = Path(tmp) / "stdout", Path(tmp) / "stderr"
        with out_path.open("wb") as out, err_path.open("wb") as err:
            start = time.monotonic()
            child = subprocess.Popen(
                list(command), stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                start_new_session=True, env=env,
            )  # fmt: skip
            status, rusage, timed_out = _wait(child.pid, start, limit, label, err_path)
            child.returncode = 0  # reaped by wait4 above; stop Popen from waiting again
        seconds = time.monotonic() - start
        stdout = out_path.read_text(errors="replace")
        stderr = _read_tail(err_path)
    code = os.waitstatus_to_exitcode(status)
    return Outcome(
        returncode=None if code < 0 else code,
        stdout=stdout,
        stderr=stderr,
        peak_rss_mb=rusage.ru_maxrss / 1024.0 if rusage else None,
        seconds=seconds,
        timed_out=timed_out,
        signal=-code if code < 0 else None,
    )


def _wait(
    pid: int, start: float, limit: float, label: str, err_path: Path
) -> tuple[int, Any, bool]:
    interactive = sys.stderr.isatty()
    last_beat = start
    timed_out = False
    try:
        while True:
            done_pid, status, rusage = os.wait4(pid, os.WNOHANG)
            if done_pid == pid:
                if interactive:
                    sys.stderr.write("\r\033[K")
                return status, rusage, timed_out
            now = time.monotonic()
            if not timed_out and now - start > limit:
                timed_out = True
                _kill_group(pid)
            if interactive or now - last_beat >= 30:
                last_beat = now
                where = _progress_line(err_path) or "loading"
                text = f"  {label}: {now - start:6.1f} s, {where}"
                sys.stderr.write(f"\r\033[K{text}" if interactive else text + "\n")
                sys.stderr.flush()
            time.sleep(0.2)
    except BaseException:
        _kill_group(pid)
        os.wait4(pid, 0)
        raise


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)


def error_line(stderr: str) -> str | None:
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip()]
    lines = [ln for ln in lines if not ln.startswith("progress:")]
    return lines[-1][:500] if lines else None


def parse_result(stdout: str) -> dict[str, Any]:
    lines = [ln for ln in stdout.splitlines() if ln.strip()]
    if not lines:
        raise ValueError("printed no JSON result")
    try:
        result = json.loads(lines[-1])
    except json.JSONDecodeError:
        raise ValueError(f"last line of stdout is not JSON: {lines[-1][:120]!r}") from None
    if not isinstance(result, dict):
        raise ValueError("result is not a JSON object")
    return result


def compare(outputs: Path, reference: np.ndarray) -> tuple[float, str | None]:
    """Max abs error of the outputs file against the reference, and a problem if any."""
    if not outputs.is_file():
        return float("nan"), "wrote no outputs file"
    got = np.fromfile(outputs, dtype="<f4")
    want = reference.reshape(-1)
    if got.size != want.size:
        return float("nan"), f"wrote {got.size} outputs, expected {want.size}"
    diff = np.abs(got.astype(np.float64) - want.astype(np.float64))
    if not np.isfinite(diff).all():
        bad = int(np.flatnonzero(~np.isfinite(diff))[0])
        return float("nan"), f"output {bad} is {got[bad]} (NaN/Inf or never stored)"
    worst = int(diff.argmax())
    error = float(diff[worst])
    if error > ATOL:
        return error, (
            f"outputs differ from {art.REFERENCE} by {error:.3g} at sample {worst} "
            f"(got {got[worst]:.6g}, want {want[worst]:.6g}; tolerance {ATOL:g})"
        )
    return error, None


def base_record(spec: DriverSpec, options: RunOptions) -> dict[str, Any]:
    return {
        "driver": spec.id,
        "language": spec.language,
        "runtime": spec.runtime,
        "runtime_version": None,
        "artifact": spec.artifact,
        "calls": options.calls,
        "batch": options.batch,
        "threads": options.threads,
        "warmup": options.warmup,
        "repeats": options.repeats,
        "per_call_ns": [],
        "repeat_ns": [],
        "load_ms": None,
        "peak_rss_mb": None,
        "latency_ns": None,
        "max_abs_error": None,
        "status": "failed",
        "error": None,
    }


def run_driver(
    spec: DriverSpec, options: RunOptions, reference: np.ndarray, label: str
) -> dict[str, Any]:
    """Run one driver and return its record (never raises for a driver's fault)."""
    record = base_record(spec, options)
    reason = spec.available()
    if reason is not None:
        record.update(status="skipped", error=reason)
        return record
    try:
        art.verify(options.models, [spec.artifact])
    except ArtifactError as exc:
        record["error"] = str(exc)
        return record
    env = dict(os.environ)
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        env[var] = str(options.threads)
    with tempfile.TemporaryDirectory(prefix="callbench-io-") as tmp:
        outputs, latencies = Path(tmp) / "outputs.f32", Path(tmp) / "latencies.i64"
        command = [*spec.command(), *options.driver_args(), "--outputs", str(outputs)]
        if options.latencies:
            command += ["--latencies", str(latencies)]
        outcome = launch(command, options.limit_for(spec), label, env)
        record["peak_rss_mb"] = outcome.peak_rss_mb
        if outcome.timed_out:
            record["error"] = f"killed after the time limit of {options.limit_for(spec):.0f} s"
            return record
        if outcome.signal is not None:
            name = signal.Signals(outcome.signal).name
            record["error"] = f"crashed with signal {name}" + (
                f": {line}" if (line := error_line(outcome.stderr)) else ""
            )
            return record
        if outcome.returncode != 0:
            record["error"] = error_line(outcome.stderr) or f"exit status {outcome.returncode}"
            return record
        try:
            result = parse_result(outcome.stdout)
            repeat_ns = [int(v) for v in result["repeat_ns"]]
            if len(repeat_ns) != options.repeats or min(repeat_ns) <= 0:
                raise ValueError(f"reported {len(repeat_ns)} repeats, expected {options.repeats}")
        except (ValueError, KeyError, TypeError) as exc:
            record["error"] = f"driver output unusable: {exc}"
            return record
        record["runtime_version"] = str(result.get("runtime_version") or "") or None
        record["load_ms"] = int(result.get("load_ns", 0)) / 1e6
        for key in ("notes",):
            if key in result:
                record[key] = result[key]
        error, problem = compare(outputs, reference[: options.calls * options.batch])
        record["max_abs_error"] = None if np.isnan(error) else error
        if problem:
            record["error"] = problem
            return record
        record["repeat_ns"] = repeat_ns
        record["per_call_ns"] = [ns / options.calls for ns in repeat_ns]
        if latencies.is_file():
            record["latency_ns"] = stats.percentiles(np.fromfile(latencies, dtype="<i8"))
        record["status"] = "ok"
    return record


# ----------------------------------------------------------------- a whole run


def check_models(models: Path, needed: int) -> dict[str, Any]:
    """The manifest, with inputs and reference verified; UsageError if the run is too big."""
    manifest = art.verify(models, [art.INPUTS, art.REFERENCE])
    samples = manifest["files"][art.INPUTS]["shape"][0]
    if needed > samples:
        raise UsageError(f"--calls x --batch = {needed}, but {models / art.INPUTS} holds {samples}")
    return manifest


def summary(records_: Sequence[dict[str, Any]]) -> str:
    rows = [f"{'driver':34} {'status':8} {'µs/call':>10} {'min-max':>17}  note"]
    for r in records_:
        if r["status"] == "ok":
            s = r["per_call_ns"]
            med = f"{stats.median(s) / 1e3:10.3f}"
            span = f"{min(s) / 1e3:.3f}-{max(s) / 1e3:.3f}"
            note = "spread > 10%" if stats.noisy(s) else ""
        else:
            med, span, note = f"{'-':>10}", "", r["error"] or ""
        rows.append(f"{r['driver']:34} {r['status']:8} {med} {span:>17}  {note}")
    return "\n".join(rows)


def sweep_points(args: argparse.Namespace, base: RunOptions) -> list[tuple[RunOptions, str]]:
    """(options, sub-folder) per point: the main run, or each value of a sweep.

    A batch sweep spends about ``--calls`` samples per point (calls = calls / B),
    so every point costs the same work and the cost per sample is comparable.
    """
    if args.sweep is None:
        return [(base, "")]
    kind = args.sweep
    values = args.sweep_values or (
        DEFAULT_BATCHES if kind == "batch" else list(range(1, (os.cpu_count() or 1) + 1))
    )
    points = []
    for value in values:
        if kind == "batch":
            calls = max(1, base.calls // value)
            point = replace(
                base, batch=value, calls=calls, warmup=min(base.warmup, calls), latencies=False
            )
        else:
            point = replace(base, threads=value, latencies=False)
        points.append((point, f"sweep-{kind}/{value}"))
    return points


def run(args: argparse.Namespace) -> int:
    base = RunOptions(
        models=args.models, calls=args.calls, warmup=args.warmup, repeats=args.repeats,
        batch=args.batch, threads=args.threads, timeout=args.timeout,
    )  # fmt: skip
    drivers = all_drivers()
    if args.language:
        drivers = [d for d in drivers if d.language.lower().replace("c++", "cpp") in args.language]
    drivers = select(drivers, args.only)
    if not drivers:
        raise UsageError(f"no driver matches --only {' '.join(args.only or [])}")
    if args.list:
        print("\n".join(d.id for d in drivers))
        return 0
    points = sweep_points(args, base)
    manifest = art.read_manifest(base.models)
    for options, _ in points:
        manifest = check_models(options.models, options.calls * options.batch)
    reference = art.read_reference(base.models)
    run_dir = args.run_dir or records.new_run_dir(args.runs_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    env_path = run_dir / records.ENV_FILE
    if not env_path.is_file():
        env = environment.capture({**asdict(base), "models": str(base.models)})
        env["manifest_sha256"] = art.sha256_of(base.models / art.MANIFEST)
        env["fit_rmse"] = manifest.get("fit_rmse")
        records.write_json(env_path, env)
    done: list[dict[str, Any]] = []
    total = len(points) * len(drivers)
    for p, (options, sub) in enumerate(points):
        where = f" ({sub})" if sub else ""
        print(f"run {run_dir.name}{where}: {len(drivers)} drivers, {options.calls} calls x "
              f"{options.repeats} repeats, batch {options.batch}, {options.threads} thread(s)",
              flush=True)  # fmt: skip
        target = run_dir / sub
        target.mkdir(parents=True, exist_ok=True)
        for n, spec in enumerate(drivers, 1):
            label = f"[{p * len(drivers) + n}/{total}] {spec.id}"
            print(f"{label} ...", flush=True)
            try:
                record = run_driver(spec, options, reference, label)
            except KeyboardInterrupt:
                record = base_record(spec, options)
                record["error"] = "interrupted by the user"
                records.write_record(target, record)
                print(f"\ninterrupted; {len(done)} records kept in {run_dir}", file=sys.stderr)
                return 130
            if sub:
                record["sweep"] = {"kind": args.sweep, "value": int(sub.rsplit("/", 1)[1])}
            records.write_record(target, record)
            done.append(record)
            figure = (
                f"{stats.median(record['per_call_ns']) / 1e3:.3f} µs/call"
                if record["status"] == "ok"
                else record["error"]
            )
            print(f"{label} {record['status']}: {figure}", flush=True)
    print()
    print(summary(done))
    print(f"\nrecords: {run_dir}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    return report_errors(
        "callbench.harness",
        lambda: run(build_parser().parse_args(args)),
        "--debug" in args,
        catch_all=False,  # a fault of the harness itself should show where it is
    )


if __name__ == "__main__":
    sys.exit(main())
