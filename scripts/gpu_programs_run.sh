#!/usr/bin/env bash
# "CPU or GPU for your model" on a GPU host, as one prepared script (about 10 minutes on an
# H100): our MLP's GPU rows, then each program through `gpu_host_run.py --torch`: the README's
# two example programs (tests/torch_programs.py) and a ResNet-18 (scripts/resnet_models.py).
# Each run is packed into OUT as its stages end, so a run cut off keeps what it finished.
#
#     bash scripts/gpu_programs_run.sh "$OUT" [--quick]
set -euo pipefail
out=${1:?usage: gpu_programs_run.sh OUT_DIR [--quick]}
shift
export PYTHONPATH=python
programs=$(mktemp -d)  # the programs stay out of OUT: a ResNet-18 is 45 MB
python3 - "$programs" <<'PY'
import sys
from pathlib import Path

from tests import torch_programs

for name, make in torch_programs.PROGRAMS.items():
    make(Path(sys.argv[1]) / f"{name}.pt2")
PY
python3 scripts/resnet_models.py --pt2 "$programs/resnet18.pt2"
mkdir -p "$out"
python3 scripts/gpu_host_run.py --widths "" --pack "$out/mlp.tgz" "$@" || echo "mlp: exit $?"
for name in policy_value norm_gelu_mlp resnet18; do
  python3 scripts/gpu_host_run.py --torch "$programs/$name.pt2" --pack "$out/$name.tgz" "$@" \
    || echo "$name: exit $?"
done
