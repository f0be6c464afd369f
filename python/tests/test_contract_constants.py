"""The contract's constants for every kit (callbench/contract.py), and each kit's own copy."""

from __future__ import annotations

import re

from callbench import contract
from callbench.paths import REPO_ROOT


def test_the_cpp_kit_spins_as_the_contract_says() -> None:
    header = (REPO_ROOT / "cpp" / "common" / "include" / "callbench" / "paced.hpp").read_text()
    found = re.search(r"kSpinNs\s*=\s*([\d']+);", header)
    assert found, "paced.hpp declares no kSpinNs"
    assert int(found[1].replace("'", "")) == contract.SPIN_NS


def test_the_cpp_kit_leads_a_paced_round_as_the_contract_says() -> None:
    header = (REPO_ROOT / "cpp" / "common" / "include" / "callbench" / "paced.hpp").read_text()
    found = re.search(r"kPacedLeadNs\s*=\s*([\d']+);", header)
    assert found, "paced.hpp declares no kPacedLeadNs"
    assert int(found[1].replace("'", "")) == contract.PACED_LEAD_NS
