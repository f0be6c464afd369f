"""A whole run: the main group of drivers, then each sweep point, into one run folder."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Sequence
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from callbench.errors import DataError, UsageError
from callbench.harness import console, environment, machine
from callbench.harness import warmup as warmups
from callbench.harness.expected import Expected, read_expected
from callbench.harness.options import ATOL, RunOptions
from callbench.harness.session import Session
from callbench.languages.spec import DriverSpec
from callbench.model import artifacts as art
from callbench.model import user_onnx, witnesses
from callbench.model.family import Width
from callbench.records.record import Record
from callbench.records.store import ENV_FILE, write_json
from callbench.roles import CALLERS_ONLY

SWEEP_VALUES = {"batch": [1, 100, 10_000, 1_000_000], "threads": [1, 2]}
# A thread sweep compares threads on calls big enough to split.
THREAD_SWEEP_BATCH = 1000


def check_models(models: Path) -> Expected:
    """Each output's reference, every input and reference file checked against the manifest
    and holding as many samples as the first input."""
    signature = art.signature(models)
    tensors = (*signature.inputs, *signature.outputs)
    art.verify(models, [t.file for t in tensors])
    expected = read_expected(models, signature)
    if (user_model(models) or {}).get(user_onnx.UNCONFIRMED):
        expected = replace(expected, reference_note=witnesses.UNCONFIRMED)
    for tensor in tensors:
        held = (models / tensor.file).stat().st_size // tensor.sample_bytes
        if held != expected.samples:
            raise DataError(
                models / tensor.file, f"holds {held} samples of {tensor.name!r}, "
                f"{signature.outputs[0].file} {expected.samples}",
            )  # fmt: skip
    return expected


def check_call(options: RunOptions, expected: Expected, model: Path | None = None) -> None:
    """Usage errors before any driver starts (or any run folder is made): a batch the model
    (``model``, else the manifest, is named) does not take, or more samples than the inputs
    hold."""
    samples = expected.samples
    fixed = expected.signature.fixed_batch
    if fixed is not None and options.batch != fixed:
        raise UsageError(
            f"{model or options.models / art.MANIFEST}: the model takes batches of {fixed} only "
            f"(its batch dimension is fixed); run it with --batch {fixed}"
        )
    held = f"{options.models / expected.signature.inputs[0].file} holds {samples}"
    if options.batch > samples:
        raise UsageError(f"--batch {options.batch} needs {options.batch} samples a call, {held}")
    if options.calls is not None and options.calls * options.batch > samples:
        raise UsageError(
            f"--calls {options.calls} x --batch {options.batch} needs "
            f"{options.calls * options.batch} samples, {held}"
        )


def user_model(models: Path) -> dict[str, Any] | None:
    """What the manifest says of a model the user brought (``--onnx``); None for ours."""
    found = art.read_manifest(models).get(user_onnx.ORIGIN)
    return found if isinstance(found, dict) else None


def write_env(run_dir: Path, options: RunOptions, models: Path) -> None:
    """env.json, once per run folder (the first group of the run writes it)."""
    path = run_dir / ENV_FILE
    if path.is_file():
        return
    env = environment.capture({**asdict(options), "models": str(models)})
    env["protocol"] = options.protocol()
    manifest = art.read_manifest(models)
    env["manifest_sha256"] = art.sha256_of(models / art.MANIFEST)
    # Each file's sha256, kept with the run: compare tells from them which rows loaded
    # the same artifact on the same inputs, with no models folder left to look at.
    env[art.FILES_SHA256] = {name: entry["sha256"] for name, entry in manifest["files"].items()}
    env[art.COMPILED_FOR_HOST] = sorted(name for name, entry in manifest["files"].items()
                                        if entry.get("reproducible") is False)  # fmt: skip
    env["fit_rmse"] = manifest.get("fit_rmse")
    if (brought := user_model(models)) is not None:
        env[user_onnx.ORIGIN] = {**brought, "tolerance": art.tolerance(models, ATOL)}
    env["machine"] = {"governor": machine.governor(), "start": machine.state()}
    write_json(path, env)


def close_env(run_dir: Path) -> None:
    """Add the machine's state at the end, so a run says how loaded and stolen-from it was."""
    import json

    path = run_dir / ENV_FILE
    env = json.loads(path.read_text())
    env.setdefault("machine", {})["end"] = machine.state()
    write_json(path, env)


@contextlib.contextmanager
def harness_pinned(cpus: set[int] | None) -> Iterator[None]:
    """Keep the harness off the drivers' core while they run, then give it every CPU back."""
    before = os.sched_getaffinity(0)
    if cpus:
        os.sched_setaffinity(0, cpus)
    try:
        yield
    finally:
        os.sched_setaffinity(0, before)


def run_group(
    specs: Sequence[DriverSpec],
    options: RunOptions,
    run_dir: Path,
    sweep: dict[str, Any] | None = None,
) -> list[Record]:
    # At one caller a callers-only row is its twin's row (and each copy of --processes is).
    if options.callers == 1:
        specs = [spec for spec in specs if CALLERS_ONLY not in spec.roles]
    expected = check_models(options.models)
    check_call(options, expected)
    write_env(run_dir, options, options.models)
    what = f"sweep {sweep['kind']} = {sweep['value']}" if sweep else "drivers"
    if sweep and sweep.get("width"):
        what += f", width {sweep['width']}"
    protocol = (
        f"{options.calls} calls a round" if options.calls is not None
        else f"rounds of ~{options.round_time:g} s"
    )  # fmt: skip
    console.say(
        f"run {run_dir.name} ({what}): {len(specs)} drivers, {options.rounds} interleaved "
        f"{protocol}, batch {options.batch}, {options.threads} thread(s)"
        + (f", {options.callers} callers" if options.callers > 1 else "")
        + (f", {options.processes} processes" if options.processes > 1 else "")
    )
    driver_cpus = machine.driver_cpus(options.threads * options.all_callers, options.pin)
    session = Session(specs, options, run_dir, expected, sweep)
    with harness_pinned(machine.harness_cpus(driver_cpus)):
        done = session.run()
    close_env(run_dir)
    return done


def run_sweep(
    kind: str,
    specs: Sequence[DriverSpec],
    options: RunOptions,
    run_dir: Path,
    values: Sequence[int] | None = None,
    width: int | None = None,
    thread_batch: int = THREAD_SWEEP_BATCH,
) -> list[Record]:
    """Each value of a sweep as its own group; batch points keep the samples per round alike.
    ``width``: the sweep is of that width of the family (``options.models`` its folder), and
    each point's record says so. A thread sweep's calls are of ``thread_batch`` samples.

    A sweep shows a curve's shape over many groups; re-running its contended
    rounds as well would cost the default bench its ten minutes.
    """
    done: list[Record] = []
    cpus = len(machine.usable_cpus())
    for value in values or SWEEP_VALUES[kind]:
        if kind == "threads" and value > cpus:
            continue
        if kind == "callers":
            # Each N its own group, as the main group otherwise (its latencies too).
            point = replace(options, callers=value)
        elif kind == "processes":  # N copies of one caller each, as the callers' group
            point = replace(options, callers=1, processes=value)
        elif kind in ("batch", "batching"):
            # Each point takes about the same samples a round as the first (calls / B).
            # A batching point (cores_plan) keeps its latency round: its p99 per call is
            # what a caller waits beside the other ways of using the cores.
            calls = max(1, options.calls // value) if options.calls is not None else None
            warmup = warmups.of_sweep_point(options, value).calls
            point = replace(
                options, batch=value, calls=calls, warmup=warmup, callers=1,
                latencies=options.latencies and kind == "batching", contention_flags=False,
            )  # fmt: skip
        elif kind == "intra-op":  # one caller of ``value`` intra-op threads at batch 1
            point = replace(options, threads=value, batch=1, callers=1)
        else:
            # Calls of thread_batch samples: --calls N still means N samples a round.
            calls = max(1, options.calls // thread_batch) if options.calls is not None else None
            warmup = warmups.of_sweep_point(options, thread_batch).calls
            point = replace(
                options, threads=value, latencies=False, batch=thread_batch, calls=calls,
                warmup=warmup, contention_flags=False,
            )  # fmt: skip
        sweep = {"kind": kind, "value": value} | ({"width": width} if width else {})
        done += run_group(specs, point, run_dir, sweep)
    return done


def run_widths(
    specs: Sequence[DriverSpec], options: RunOptions, run_dir: Path, widths: Sequence[Width]
) -> list[Record]:
    """Each width of the family as its own group, every driver verified against that
    width's reference; a driver whose artifact the width lacks is recorded as skipped."""
    done: list[Record] = []
    for width in widths:
        point = replace(options, models=width.models)
        done += run_group(specs, point, run_dir, {"kind": "width", "value": width.hidden})
    return done
