"""The newer runtimes beside the runtime a user of their language would otherwise call:
"is there a cheaper way to call it from my language?", as one ratio with its interval."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from callbench.languages import java, node, python, rust
from callbench.records.record import Record
from callbench.report.blocks.format import NOT_SHOWN, table, us
from callbench.report.blocks.ratios import ratio


@dataclass(frozen=True)
class Peers:
    """``runtime``'s fastest row in ``language`` against the fastest row of ``peers``."""

    language: str
    runtime: str
    peers: tuple[str, ...]
    question: str


PAIRS = (
    Peers(python.LANGUAGE, "litert", ("onnxruntime",), "LiteRT or ONNX Runtime from Python?"),
    Peers(python.LANGUAGE, "iree", ("onnxruntime",), "IREE or ONNX Runtime from Python?"),
    Peers(rust.LANGUAGE, "burn", ("tract", "candle", "onnxruntime"),
          "burn or the other Rust engines?"),
    Peers(node.LANGUAGE, "onnxruntime-web", ("onnxruntime-node",),
          "WebAssembly or the native addon, same engine?"),
    Peers(java.LANGUAGE, "onnxruntime-ffm", ("onnxruntime",), "FFM or JNI into ONNX Runtime?"),
)  # fmt: skip


def _fastest(records: Sequence[Record], language: str, runtimes: Sequence[str]) -> Record | None:
    ok = [r for r in records if r.ok and r.language == language and r.runtime in runtimes]
    return min(ok, key=lambda r: r.median_ns) if ok else None


def _not_run(records: Sequence[Record], pair: Peers) -> str | None:
    """Why the pair's own rows did not run (skipped or failed), or None if none were there."""
    mine = [r for r in records if r.language == pair.language and r.runtime == pair.runtime]
    return "; ".join(f"`{r.id}` {r.status}: {r.error}" for r in mine) or None


def newer_runtimes(records: Sequence[Record]) -> str:
    """A row per pair this run has: the new runtime's fastest row over its peers' fastest."""
    rows = []
    for pair in PAIRS:
        mine = _fastest(records, pair.language, (pair.runtime,))
        peer = _fastest(records, pair.language, pair.peers)
        if mine is None:
            why = _not_run(records, pair)
            if why is not None:
                rows.append([pair.question, why, NOT_SHOWN, NOT_SHOWN, NOT_SHOWN])
            continue
        if peer is None:
            rows.append([pair.question, f"`{mine.id}`", us(mine.median_ns), "no peer ran",
                         NOT_SHOWN])  # fmt: skip
            continue
        versus = ratio(mine, peer)
        rows.append([pair.question, f"`{mine.id}`", us(mine.median_ns), f"`{peer.id}`",
                     str(versus) if versus is not None else NOT_SHOWN])  # fmt: skip
    if not rows:
        return "None of the newer runtimes (LiteRT, IREE, burn, onnxruntime-web, FFM) ran."
    header = ["question", "fastest row", "µs/call", "peer (its language's fastest)",
              "row / peer (95% interval)"]  # fmt: skip
    note = (
        "\nEach ratio is taken round by round from this one run; above 1 the newer runtime "
        "costs more per call than the peer."
    )
    return table(header, rows) + "\n" + note
