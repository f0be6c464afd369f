"""The seed's three puzzles against our figures, in sentences computed from the records.

The seed found TorchScript from Java faster than from C++, a 2.3× gain from
eager Python to TorchScript, and a 5× gap between the C++ API and
TorchScript from C++. For each, the sentences below put the seed's ratio
beside ours for the seed's code as written (the ``-seed`` drivers) and for
our call, and say only what those ratios show; a missing row is "not measured".
"""

from __future__ import annotations

from collections.abc import Mapping

from callbench.records.record import Record
from callbench.registry import seed_driver
from callbench.report.blocks import format as fmt
from callbench.report.blocks.ratios import NOISE, Ratio, ratio
from callbench.roles import (
    CPP_API,
    PYTHON_MODULE,
    TORCHSCRIPT_FROM_CPP,
    TORCHSCRIPT_FROM_JAVA,
    TORCHSCRIPT_FROM_PYTHON,
    Call,
    SeedRow,
)

# The drivers each puzzle sets side by side, by their seed_row(...) flags in the registry.
JAVA = seed_driver(TORCHSCRIPT_FROM_JAVA, Call.OURS)
CPP_SEED, CPP_OURS, CPP_REUSE = (seed_driver(TORCHSCRIPT_FROM_CPP, call) for call in Call)
CPP_MODULES = seed_driver(CPP_API, Call.OURS)
PY_TS = seed_driver(TORCHSCRIPT_FROM_PYTHON, Call.OURS)
PYTHON_SEED = seed_driver(PYTHON_MODULE, Call.AS_WRITTEN)
PYTHON_OURS = seed_driver(PYTHON_MODULE, Call.OURS)
# How each ratio is introduced in the sentences.
CALL_AS_WRITTEN, OUR_CALL, FAST_PATH = (call.words for call in Call)
LOOP_AS_WRITTEN, OUR_EAGER = "the seed's loop as written", "our eager call"
FORWARD = "the seed's forward (two `nn.ReLU()` built per call, on [2] rows) against our eager call"


def _seed_ratio(a: SeedRow, b: SeedRow) -> float:
    return a.seconds / b.seconds


class Figures:
    """Ratios between drivers of one run, and how to say them."""

    def __init__(self, by_id: Mapping[str, Record]) -> None:
        self.by_id = by_id

    def ratio(self, a: str, b: str) -> Ratio | None:
        ra, rb = self.by_id.get(a), self.by_id.get(b)
        return ratio(ra, rb) if ra is not None and rb is not None else None

    def says(self, what: str, a: str, b: str) -> str:
        """E.g. "our call, `a` / `b` 1.23× (1.10–1.31)", ", a tie" where ``Ratio.tie``."""
        found = self.ratio(a, b)
        figure = "not measured" if found is None else str(found) + (", a tie" if found.tie else "")
        return f"{what}, `{a}` / `{b}` {figure}"

    def missing(self, *ids: str) -> str:
        """ "Not measured here: ..." for the rows of ``ids`` without a verified figure."""
        absent = [f"`{d}`" for d in ids if d not in self.by_id]
        broken = [f"`{d}` ({self.by_id[d].status})" for d in ids
                  if d in self.by_id and not self.by_id[d].ok]  # fmt: skip
        gone = absent + broken
        return f"Not measured here: {', '.join(gone)}." if gone else ""


def _against_seed(found: Ratio, seed: float) -> str:
    low, high = found.interval
    if seed > high:
        return f"smaller than the seed's {fmt.times(seed)}×"
    if seed < low:
        return f"larger than the seed's {fmt.times(seed)}×"
    return f"in line with the seed's {fmt.times(seed)}×"


def _finish(lines: list[str], f: Figures, *ids: str) -> str:
    return " ".join(line for line in [*lines, f.missing(*ids)] if line)


def java_vs_cpp(f: Figures) -> str:
    seed = _seed_ratio(TORCHSCRIPT_FROM_CPP, TORCHSCRIPT_FROM_JAVA)
    lines = [
        f"**TorchScript from Java (35 s) faster than from C++ (44 s)**: C++ took "
        f"{fmt.times(seed)}× Java's time. Ours, C++ over Java: "
        f"{f.says(CALL_AS_WRITTEN, CPP_SEED, JAVA)}; "
        f"{f.says(OUR_CALL, CPP_OURS, JAVA)}; {f.says(FAST_PATH, CPP_REUSE, JAVA)}."
    ]
    as_written, ours = f.ratio(CPP_SEED, JAVA), f.ratio(CPP_OURS, JAVA)
    if as_written is not None and not as_written.above_one:
        lines.append(
            "Even the seed's C++ call as written is not slower than Java here, so we "
            "do not see the seed's ordering."
        )
    elif as_written is not None and ours is not None and not ours.above_one:
        lines.append(
            "C++ is slower than Java only with the seed's call as written (no "
            "InferenceMode, a new `std::vector<IValue>` per call); with our call it is "
            f"{'faster' if ours.below_one else 'a tie'}."
        )
    elif as_written is not None and ours is not None:
        lines.append("C++ is slower than Java here with the seed's call and with ours.")
    return _finish(lines, f, CPP_SEED, CPP_OURS, CPP_REUSE, JAVA)


def _torchscript_itself(ours: Ratio) -> str:
    if ours.above_one:
        return f"TorchScript itself gains {fmt.times(ours.value)}× over our eager call."
    if ours.below_one:
        return "TorchScript itself costs more than our eager call."
    return "TorchScript itself is a tie with our eager call."


def python_eager_to_torchscript(f: Figures) -> str:
    seed = _seed_ratio(PYTHON_MODULE, TORCHSCRIPT_FROM_PYTHON)
    lines = [
        f"**Python eager → TorchScript, {fmt.times(seed)}× in the seed.** Ours: "
        f"{f.says(LOOP_AS_WRITTEN, PYTHON_SEED, PY_TS)}; "
        f"{f.says(OUR_EAGER, PYTHON_OURS, PY_TS)}; "
        f"{f.says(FORWARD, PYTHON_SEED, PYTHON_OURS)}."
    ]
    as_written, ours, forward = (
        f.ratio(PYTHON_SEED, PY_TS),
        f.ratio(PYTHON_OURS, PY_TS),
        f.ratio(PYTHON_SEED, PYTHON_OURS),
    )
    if as_written is not None:
        lines.append(f"With the seed's loop the gain is {_against_seed(as_written, seed)}.")
    if forward is not None and ours is not None:
        if forward.above_one:
            lines.append(
                f"A factor of {fmt.times(forward.value)} of it is the seed's forward "
                f"as written over our eager call; {_torchscript_itself(ours)}"
            )
        else:
            lines.append(
                "The seed's forward as written costs no more than our eager call here, "
                "so it does not explain the gain."
            )
    return _finish(lines, f, PYTHON_SEED, PYTHON_OURS, PY_TS)


def cpp_api_vs_torchscript(f: Figures) -> str:
    seed = _seed_ratio(TORCHSCRIPT_FROM_CPP, CPP_API)
    lines = [
        f"**C++ API (9 s) against TorchScript from C++ (44 s), {fmt.times(seed)}× in the "
        f"seed.** Ours, TorchScript over the C++ API (`{CPP_MODULES}`): "
        f"{f.says(CALL_AS_WRITTEN, CPP_SEED, CPP_MODULES)}; "
        f"{f.says(OUR_CALL, CPP_OURS, CPP_MODULES)}; {f.says(FAST_PATH, CPP_REUSE, CPP_MODULES)}; "
        f"and {f.says(CALL_AS_WRITTEN + ' against ours', CPP_SEED, CPP_OURS)}."
    ]
    as_written, ours = f.ratio(CPP_SEED, CPP_MODULES), f.ratio(CPP_OURS, CPP_MODULES)
    if as_written is not None and ours is not None:
        first, second = _against_seed(as_written, seed), _against_seed(ours, seed)
        relation = f"both {first}" if first == second else f"{first} and {second} respectively"
        lines.append(
            f"The gap is {fmt.times(as_written.value)}× with the seed's call as written and "
            f"{fmt.times(ours.value)}× with ours: {relation}."
        )
    elif as_written is not None:
        lines.append(
            f"With the seed's call as written the gap is {_against_seed(as_written, seed)}."
        )
    return _finish(lines, f, CPP_SEED, CPP_OURS, CPP_REUSE, CPP_MODULES)


def seed_findings(by_id: Mapping[str, Record]) -> str:
    """The three puzzles as a Markdown list."""
    f = Figures(by_id)
    intro = (
        "Ratios are costs per call, the first driver's over the second's (above 1: the "
        "first costs more), taken round by round since rounds were interleaved, with "
        "their 95% intervals; a ratio whose interval holds 1, or that is within "
        f"{NOISE:.0%} of 1 (the noise threshold), is a tie."
    )
    items = [java_vs_cpp(f), python_eager_to_torchscript(f), cpp_api_vs_torchscript(f)]
    return intro + "\n\n" + "\n".join(f"- {item}" for item in items)
