"""What ``callbench export`` takes, declared once: the exporter reads it, callbench's parser
adds it, and ``ExportOptions`` writes it as the exporter's command line.

The exporter runs in a process of its own: TorchScript names the three Linear types in an
order that follows Python's string hashing, so only a fixed PYTHONHASHSEED fixes the bytes.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from callbench.command_line import count
from callbench.model.architecture import FAMILY_WIDTHS

MODULE = "callbench.model.export"
SAMPLES = 1_000_000  # inputs exported, and their reference outputs
HASH_SEED = "0"


@dataclass(frozen=True)
class ExportOptions:
    out: Path = Path("models")
    samples: int = SAMPLES
    # Hidden widths of the family besides the reference's 8 ("" for none).
    widths: str = ",".join(map(str, FAMILY_WIDTHS))

    @classmethod
    def of(cls, args: argparse.Namespace) -> ExportOptions:
        return cls(args.out, args.samples, args.widths)

    def arguments(self) -> list[str]:
        return ["--out", str(self.out), "--samples", str(self.samples), "--widths", self.widths]


def add_arguments(p: argparse.ArgumentParser) -> None:
    defaults = ExportOptions()
    p.add_argument("--out", type=Path, default=defaults.out, help="artifact folder")
    p.add_argument("--samples", type=count(1), default=defaults.samples, help="inputs to write")
    p.add_argument(
        "--widths", default=defaults.widths,
        help="hidden widths of the model family besides the reference's 8, comma-separated "
             "('' for none; default %(default)s): models/widths/<H>/, listed in family.json",
    )  # fmt: skip


def run_export(options: ExportOptions) -> int:
    """Export in the exporter's own process, its hash seed fixed; its exit status."""
    command = [sys.executable, "-m", MODULE, *options.arguments()]
    env = {**os.environ, "PYTHONHASHSEED": HASH_SEED}
    return subprocess.run(command, env=env, check=False).returncode


def main(args: argparse.Namespace) -> int:
    """``callbench export``."""
    return run_export(ExportOptions.of(args))
