#!/usr/bin/env bash
# Rebuilds data/neural.penknet from nothing (issue 21; docs/AI.md "Training"):
# self-play data of expert in every seat, then the PyTorch trainer.
#   bash tools/train_net.sh [WORK_DIR]        # default /tmp/penk-train
# Needs build/penk (bash tools/setup.sh) and Debian's python3-torch, seen by
# /usr/bin/python3 (apt-get install python3-torch). About 15 minutes on 2
# cores; the data (about 4.5 GB) stay in WORK_DIR. Writes data/neural.penknet,
# data/neural_check.json, data/neural_curve.json and docs/neural_curve.svg:
# rebuild penk afterwards to build the new net in.
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-/tmp/penk-train}
mkdir -p "$work"
penk=build/penk
[ -x "$penk" ] || { echo "train_net: build/penk missing: run bash tools/setup.sh first" >&2; exit 2; }
/usr/bin/python3 -c 'import torch' 2>/dev/null ||
  { echo "train_net: /usr/bin/python3 cannot import torch: apt-get install python3-torch" >&2; exit 2; }

# Generation 0: 200,000 seeded games of expert, half of them two-player,
# both penk-lines variants (R4.3), every turn's start a row.
"$penk" neural selfplay --out "$work/gen0.bin" --player expert --games 200000 --seed 1 \
  --threads 2 --players 2,3,4,2 --variants default,penk-lines=columns

/usr/bin/python3 tools/train_neural.py --data "$work/gen0.bin" --out data/neural.penknet \
  --check data/neural_check.json --curve data/neural_curve.json --seed 1 --epochs 6 --threads 2
"$penk" neural curve data/neural_curve.json --svg docs/neural_curve.svg
"$penk" neural check data/neural.penknet --against data/neural_check.json
