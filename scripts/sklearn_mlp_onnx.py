# /// script
# requires-python = ">=3.11"
# dependencies = [
#     "scikit-learn==1.9.1",
#     "skl2onnx==1.20.0",
#     "onnx==1.23.2",
#     "numpy==2.4.6",
#     "scipy==1.17.1",
# ]
# ///
"""An example of a user's own model: a scikit-learn MLPRegressor on the diabetes data
(10 features, shipped with scikit-learn), exported to ONNX with skl2onnx.

    uv run scripts/sklearn_mlp_onnx.py diabetes_mlp.onnx
    ./nox -s bench -- --onnx diabetes_mlp.onnx

Its own environment (the pins above), so the suite's stays as it is.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from skl2onnx import to_onnx
from sklearn.datasets import load_diabetes
from sklearn.neural_network import MLPRegressor


def main(out: str) -> int:
    x, y = load_diabetes(return_X_y=True)
    model = MLPRegressor(hidden_layer_sizes=(64, 64), max_iter=2000, random_state=0).fit(x, y)
    onnx_model = to_onnx(model, x[:1].astype(np.float32), target_opset=17)
    Path(out).write_bytes(onnx_model.SerializeToString())
    print(f"wrote {out}: {x.shape[1]} features -> 1 output, R^2 {model.score(x, y):.3f} (train)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "diabetes_mlp.onnx"))
