"""env.json: the machine and software a run was measured on."""

from __future__ import annotations

import os
import platform
import re
import shutil
import socket
import subprocess
from importlib import metadata
from pathlib import Path
from typing import Any

from callbench.paths import REPO_ROOT

PACKAGES = ("torch", "onnxruntime", "onnx", "numpy", "jpype1", "numexpr", "scipy")


def _first_line(*command: str) -> str | None:
    if shutil.which(command[0]) is None:
        return None
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    # Maven colours its banner even in a pipe; keep the words only.
    text = re.sub(r"\x1b\[[0-9;]*m", "", done.stdout or done.stderr).strip()
    return text.splitlines()[0] if text else None


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def memory_gib() -> float | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 2**20, 1)
    except OSError:
        pass
    return None


def git_commit() -> dict[str, Any]:
    sha = _first_line("git", "-C", str(REPO_ROOT), "rev-parse", "HEAD")
    status = (
        subprocess.run(
            ["git", "-C", str(REPO_ROOT), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout
        if shutil.which("git")
        else ""
    )
    return {"commit": sha, "dirty": bool(status.strip())}


def versions() -> dict[str, str | None]:
    found: dict[str, str | None] = {}
    for name in PACKAGES:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = None
    return found


def cuda_device() -> str | None:
    """The first NVIDIA GPU's name (nvidia-smi), None without one: two hosts may share a
    host name, and a GPU host's run says which card it had."""
    if shutil.which("nvidia-smi") is None:
        return None
    command = ["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    names = done.stdout.strip().splitlines()
    return names[0].strip() if done.returncode == 0 and names else None


def capture(options: dict[str, Any]) -> dict[str, Any]:
    return {
        "host": socket.gethostname(),
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "cuda_device": cuda_device(),
        "memory_gib": memory_gib(),
        "os": platform.platform(),
        "python": platform.python_version(),
        "compilers": {
            "g++": _first_line("g++", "--version"),
            "cmake": _first_line("cmake", "--version"),
        },
        "java": _first_line("java", "-version"),
        "maven": _first_line("mvn", "-v"),
        "packages": versions(),
        "git": git_commit(),
        "options": options,
    }
