"""``ladder.json``: the overhead ladder's raw timings, and the figures derived from them.

One file per run folder. Every figure is stored raw (ns of one timed block of
``calls`` calls, one per repeat); per-call costs, their sum and the check
that the steps add up to the full call are properties computed here, for the
CLI and the report alike.

Format (``"schema": "callbench-ladder/1"``)::

    {"schema": "callbench-ladder/1", "calls": 20000, "repeats": 5, "batch": 1, "threads": 1,
     "python": "3.11.7",
     "runtimes": [
       {"runtime": "torch", "runtime_version": "2.15.0",
        "call": "store(i, mlp(torch.from_numpy(x[i]))) in torch.inference_mode()",
        "loops": {"empty": {"code": "for i in range(n): pass", "ns": [812000, ...]}, ...},
        "steps": [{"name": "loop", "label": "the empty Python loop", "loop": "empty",
                   "minus": null}, ...],
        "full": "full",
        "driver": {"id": "python-eager-inference", "ns": [...]}}]}

Its JSON Schema is docs/ladder.schema.json; ``read`` validates against it as
the run records are validated against theirs.

A step costs, per call, the median over repeats r of
``(loops[step.loop].ns[r] - loops[step.minus].ns[r]) / calls`` (``minus``
null: nothing subtracted). The full call is ``loops[full]``; the steps add up
when their sum is within ``TOLERANCE`` of it. ``driver`` (or null) is the
registered driver on the same path, timed in the same process, for reference.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from callbench.errors import RunError
from callbench.files import write_atomic
from callbench.paths import DOCS
from callbench.records.schema import validator

SCHEMA = "callbench-ladder/1"
FILE = "ladder.json"
SCHEMA_FILE = DOCS / "ladder.schema.json"
TOLERANCE = 0.10  # the steps' sum may differ from the full call by this fraction


@dataclass(frozen=True)
class Loop:
    """One timed loop: what it runs per iteration, and its raw ns per repeat."""

    code: str
    ns: tuple[int, ...]


@dataclass(frozen=True)
class Step:
    name: str
    label: str
    loop: str
    minus: str | None


@dataclass(frozen=True)
class RuntimeLadder:
    """The ladder of one runtime's path: its loops, its steps, the full call."""

    runtime: str
    runtime_version: str
    call: str
    loops: Mapping[str, Loop]
    steps: tuple[Step, ...]
    full: str
    calls: int
    driver: str | None = None
    driver_ns: tuple[int, ...] = ()

    def step_ns(self, step: Step) -> float:
        """The step's cost per call: median over repeats of its loop less its base."""
        ns = self.loops[step.loop].ns
        base = self.loops[step.minus].ns if step.minus else (0,) * len(ns)
        return statistics.median((a - b) / self.calls for a, b in zip(ns, base, strict=True))

    @property
    def sum_ns(self) -> float:
        return sum(self.step_ns(s) for s in self.steps)

    @property
    def full_ns(self) -> float:
        return statistics.median(n / self.calls for n in self.loops[self.full].ns)

    @property
    def driver_per_call_ns(self) -> float | None:
        return statistics.median(n / self.calls for n in self.driver_ns) if self.driver_ns else None

    @property
    def gap(self) -> float:
        """(sum of the steps - full call) / full call."""
        return (self.sum_ns - self.full_ns) / self.full_ns

    @property
    def adds_up(self) -> bool:
        return abs(self.gap) <= TOLERANCE

    def to_json(self) -> dict[str, Any]:
        return {
            "runtime": self.runtime,
            "runtime_version": self.runtime_version,
            "call": self.call,
            "loops": {k: {"code": v.code, "ns": list(v.ns)} for k, v in self.loops.items()},
            "steps": [s.__dict__ for s in self.steps],
            "full": self.full,
            "driver": {"id": self.driver, "ns": list(self.driver_ns)} if self.driver else None,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], calls: int) -> RuntimeLadder:
        driver = data.get("driver") or {}
        return cls(
            runtime=data["runtime"],
            runtime_version=data["runtime_version"],
            call=data["call"],
            loops={k: Loop(v["code"], tuple(v["ns"])) for k, v in data["loops"].items()},
            steps=tuple(Step(**s) for s in data["steps"]),
            full=data["full"],
            calls=calls,
            driver=driver.get("id"),
            driver_ns=tuple(driver.get("ns", ())),
        )


@dataclass(frozen=True)
class Ladder:
    calls: int
    repeats: int
    batch: int
    threads: int
    python: str
    runtimes: tuple[RuntimeLadder, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA, "calls": self.calls, "repeats": self.repeats, "batch": self.batch,
            "threads": self.threads, "python": self.python,
            "runtimes": [r.to_json() for r in self.runtimes],
        }  # fmt: skip


def write(run_dir: Path, ladder: Ladder) -> Path:
    path = run_dir / FILE
    write_atomic(path, (json.dumps(ladder.to_json(), indent=2) + "\n").encode())
    return path


def read(path: Path) -> Ladder:
    """A ladder.json read back; RunError naming the file when it is not one."""
    try:
        data = json.loads(path.read_text())
        if data.get("schema") != SCHEMA:
            raise RunError(f"{path}: schema {data.get('schema')!r}, expected {SCHEMA!r}")
        found = sorted(
            validator(SCHEMA_FILE).iter_errors(data), key=lambda e: list(e.absolute_path)
        )
        if found:
            where = "/".join(map(str, found[0].absolute_path)) or "(ladder)"
            raise RunError(f"{path}: invalid ladder: {where}: {found[0].message}")
        calls = int(data["calls"])
        runtimes: Sequence[Mapping[str, Any]] = data["runtimes"]
        return Ladder(
            calls=calls, repeats=int(data["repeats"]), batch=int(data["batch"]),
            threads=int(data["threads"]), python=str(data.get("python", "")),
            runtimes=tuple(RuntimeLadder.from_json(r, calls) for r in runtimes),
        )  # fmt: skip
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise RunError(f"{path}: not a readable ladder ({type(exc).__name__}: {exc})") from None
