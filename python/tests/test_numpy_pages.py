"""The harness's numpy without transparent huge pages, its drivers' environment as given
(harness/numpy_pages.py)."""

from __future__ import annotations

import os
import subprocess
import sys

from callbench.harness import numpy_pages
from callbench.harness.launch import driver_env
from callbench.registry import DRIVERS


def test_the_command_sets_it_before_numpy_is_imported() -> None:
    env = {k: v for k, v in os.environ.items() if k != numpy_pages.VARIABLE}
    shown = subprocess.run(
        [sys.executable, "-c", "import sys, os, callbench.cli; "
         "print('numpy' in sys.modules, os.environ.get('NUMPY_MADVISE_HUGEPAGE'))"],
        env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert shown.stdout.split() == ["False", "0"]


def test_a_driver_gets_the_environment_as_the_user_gave_it() -> None:
    spec = DRIVERS[0]
    assert numpy_pages.as_given({numpy_pages.VARIABLE: "0", "A": "b"}) == (
        {"A": "b"} if numpy_pages.USERS is None
        else {numpy_pages.VARIABLE: numpy_pages.USERS, "A": "b"}
    )  # fmt: skip
    assert driver_env(spec, 1).get(numpy_pages.VARIABLE) == numpy_pages.USERS


def test_a_users_own_setting_is_kept() -> None:
    env = {**os.environ, numpy_pages.VARIABLE: "1"}
    shown = subprocess.run(
        [sys.executable, "-c", "import os, callbench.cli; from callbench.harness import "
         "numpy_pages as p; print(os.environ['NUMPY_MADVISE_HUGEPAGE'], p.as_given({}))"],
        env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert shown.stdout.split(maxsplit=1) == ["1", "{'NUMPY_MADVISE_HUGEPAGE': '1'}\n"]
