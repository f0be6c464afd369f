"""The contract's constants for every kit (callbench/contract.py), and each kit's own copy."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from callbench import contract
from callbench.paths import REPO_ROOT

# Where each kit that speaks paced rounds declares its copy of SPIN_NS and PACED_LEAD_NS.
KIT_COPIES: dict[str, tuple[Path, str, str]] = {
    "cpp": (REPO_ROOT / "cpp" / "common" / "include" / "callbench" / "paced.hpp",
            r"kSpinNs\s*=\s*([\d'_]+);", r"kPacedLeadNs\s*=\s*([\d'_]+);"),
    "go": (REPO_ROOT / "go" / "kit" / "paced.go",
           r"const SpinNS\s*=\s*([\d_]+)", r"const PacedLeadNS\s*=\s*([\d_]+)"),
    "rust": (REPO_ROOT / "rust" / "kit" / "src" / "paced.rs",
             r"SPIN_NS: i64\s*=\s*([\d_]+);", r"PACED_LEAD_NS: i64\s*=\s*([\d_]+);"),
    "java": (REPO_ROOT / "java" / "src" / "main" / "java" / "dev" / "callbench" / "Pacing.java",
             r"long SPIN_NS\s*=\s*([\d_]+);", r"long PACED_LEAD_NS\s*=\s*([\d_]+);"),
    "node": (REPO_ROOT / "node" / "kit" / "paced.js",
             r"const SPIN_NS\s*=\s*([\d_]+);", r"const PACED_LEAD_NS\s*=\s*([\d_]+);"),
}  # fmt: skip


def declared(path: Path, pattern: str) -> int:
    found = re.search(pattern, path.read_text())
    assert found, f"{path} declares no {pattern}"
    return int(found[1].replace("'", "").replace("_", ""))


@pytest.mark.parametrize("kit", KIT_COPIES)
def test_each_kit_spins_as_the_contract_says(kit: str) -> None:
    path, spin, _ = KIT_COPIES[kit]
    assert declared(path, spin) == contract.SPIN_NS


@pytest.mark.parametrize("kit", KIT_COPIES)
def test_each_kit_leads_a_paced_round_as_the_contract_says(kit: str) -> None:
    path, _, lead = KIT_COPIES[kit]
    assert declared(path, lead) == contract.PACED_LEAD_NS
