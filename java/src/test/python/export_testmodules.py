"""Small TorchScript modules for the JUnit tests of the org.pytorch native peer.

    python java/src/test/python/export_testmodules.py --out build/java-native/test-modules

Writes ``roundtrip.pt``: ``forward(x)`` returns ``x + 1`` in x's dtype, and
exported methods cover every IValue kind the peer converts (scalars, strings,
tuples, typed and generic lists, optional) plus kinds it must refuse (a dict,
a bool tensor); and ``weights4mib.pt`` (``x + 0.5``, 4 MiB of weights) for
the memory tests. Generated at build time, never committed. Imports only torch,
so it runs without the callbench package installed.
"""

from __future__ import annotations

import argparse
import warnings
from pathlib import Path

import torch

# TorchScript is what pytorch_java_only loads, deprecated or not.
warnings.filterwarnings("ignore", category=FutureWarning, module=r"torch\.jit")

FILES = ("roundtrip.pt", "weights4mib.pt")


class RoundTrip(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + 1

    @torch.jit.export
    def identity(self, x: torch.Tensor) -> torch.Tensor:
        # The output is the input itself: the peer must copy it out of Java memory.
        return x

    @torch.jit.export
    def pair(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return x + 1, x * 2

    @torch.jit.export
    def ladder(self, x: torch.Tensor) -> list[torch.Tensor]:
        return [x, x + 1, x + 2]

    @torch.jit.export
    def add_ints(self, a: int, b: int) -> int:
        return a + b

    @torch.jit.export
    def halved(self, v: float) -> float:
        return v / 2.0

    @torch.jit.export
    def negate(self, b: bool) -> bool:
        return not b

    @torch.jit.export
    def greet(self, name: str) -> str:
        return "hello " + name

    @torch.jit.export
    def doubled_longs(self, xs: list[int]) -> list[int]:
        return [2 * v for v in xs]

    @torch.jit.export
    def doubled_doubles(self, xs: list[float]) -> list[float]:
        return [2.0 * v for v in xs]

    @torch.jit.export
    def flipped(self, bs: list[bool]) -> list[bool]:
        return [not b for b in bs]

    @torch.jit.export
    def tensor_sum(self, ts: list[torch.Tensor]) -> torch.Tensor:
        total = torch.zeros_like(ts[0])
        for t in ts:
            total = total + t
        return total

    @torch.jit.export
    def swap(self, t: tuple[int, torch.Tensor]) -> tuple[torch.Tensor, int]:
        return t[1], t[0]

    @torch.jit.export
    def pairs(self, n: int) -> list[tuple[int, int]]:
        return [(i, i * i) for i in range(n)]

    @torch.jit.export
    def sum_pairs(self, ps: list[tuple[int, int]]) -> int:
        total = 0
        for p in ps:
            total += p[0] * p[1]
        return total

    @torch.jit.export
    def maybe(self, x: torch.Tensor | None) -> torch.Tensor | None:
        return x

    @torch.jit.export
    def as_dict(self, n: int) -> dict[str, int]:
        return {"n": n}

    @torch.jit.export
    def positive(self, x: torch.Tensor) -> torch.Tensor:
        return x > 0


class Weights4MiB(torch.nn.Module):
    """4 MiB of weights: a module leaked per load would show in the process's RSS."""

    def __init__(self) -> None:
        super().__init__()
        self.w = torch.nn.Parameter(torch.full((1024, 1024), 0.5), requires_grad=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.w[0, 0]


def export(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    modules = {"roundtrip.pt": RoundTrip(), "weights4mib.pt": Weights4MiB()}
    paths = []
    for name in FILES:
        path = out / name
        torch.jit.save(torch.jit.script(modules[name].eval()), str(path))
        paths.append(path)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="folder to write the modules to")
    args = parser.parse_args()
    for path in export(args.out):
        print(path)


if __name__ == "__main__":
    main()
