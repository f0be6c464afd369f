"""Node.js drivers: node/drivers/<id>.js, run by the node on PATH."""

from __future__ import annotations

import shutil

from callbench.languages.spec import DriverSpec, built_by
from callbench.paths import REPO_ROOT

LANGUAGE = "Node.js"
PACKAGE = REPO_ROOT / "node"
HINT = "run `nox -s bench-node` (or `callbench build node`)"


def driver(driver_id: str, runtime: str, artifact: str, dependency: str) -> DriverSpec:
    """``dependency``: the npm package the driver needs under node/node_modules."""
    script = PACKAGE / "drivers" / f"{driver_id}.js"

    def available() -> str | None:
        if shutil.which("node") is None:
            return "no `node` on PATH: install Node.js >= 20 (apt-get install nodejs npm)"
        if not script.is_file():
            return f"{script} missing"
        if not (PACKAGE / "node_modules" / dependency).is_dir():
            return f"{dependency} is not installed in {PACKAGE}/node_modules: {HINT}"
        return None

    spec = DriverSpec(
        id=driver_id,
        language=LANGUAGE,
        runtime=runtime,
        artifact=artifact,
        source=script,
        command=lambda: [shutil.which("node") or "node", str(script)],
        available=available,
    )
    return built_by(spec, ("node", "npm"), "Node.js >= 20 and npm (apt-get install nodejs npm)")
