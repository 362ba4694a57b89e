#!/usr/bin/env bash
# Rebuilds data/neural.penknet from nothing (issue 21; docs/AI.md "neural"):
# self-play data of expert in every seat and a first net, then self-play of
# neural on that net and a second, then self-play of neural on the second and
# a third on TD(lambda) returns of the second, then a fourth from self-play
# on the third, its training started from the third's weights, then the
# committed net from self-play on the fourth in feature layout 2, started
# from the fourth's weights (the PyTorch trainer).
#   bash tools/train_net.sh [WORK_DIR]        # default /tmp/penk-train
# Needs build/penk (bash tools/setup.sh) and Debian's python3-torch, seen by
# /usr/bin/python3 (apt-get install python3-torch). About 116 minutes on 2
# cores; the data (about 24 GB) stay in WORK_DIR. Writes data/neural.penknet,
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
# both penk-lines variants (R4.3), every turn's start a row; a first net.
"$penk" neural selfplay --out "$work/gen0.bin" --player expert --games 200000 --seed 1 \
  --threads 2 --players 2,3,4,2 --variants default,penk-lines=columns --layout 1
/usr/bin/python3 tools/train_neural.py --data "$work/gen0.bin" --out "$work/gen0.penknet" \
  --check "$work/gen0_check.json" --curve "$work/gen0_curve.json" --seed 1 --epochs 6 --threads 2

# Generation 1: the same number of games of neural on that net, so that the
# win chances are those of games between players like the one that shows
# them (docs/AI.md); net 1 is trained on these alone.
"$penk" neural selfplay --out "$work/gen1.bin" --player neural --net "$work/gen0.penknet" \
  --games 200000 --seed 2 --threads 2 --players 2,3,4,2 --variants default,penk-lines=columns --layout 1
/usr/bin/python3 tools/train_neural.py --data "$work/gen1.bin" --out "$work/gen1.penknet" \
  --check "$work/gen1_check.json" --curve "$work/gen1_curve.json" --seed 1 --epochs 6 --threads 2

# Generation 2: games of neural on net 1, and targets that are TD(0.7)
# returns of net 1 along each game rather than the bare outcome: less noise
# per position (docs/AI.md, "Training").
"$penk" neural selfplay --out "$work/gen2a.bin" --player neural --net "$work/gen1.penknet" \
  --games 100000 --seed 11 --threads 2 --players 2,3,4,2 --variants default,penk-lines=columns --layout 1
"$penk" neural selfplay --out "$work/gen2b.bin" --player neural --net "$work/gen1.penknet" \
  --games 100000 --seed 12 --threads 2 --players 2,3,4,2 --variants default,penk-lines=columns --layout 1
/usr/bin/python3 tools/train_neural.py --data "$work/gen2a.bin" "$work/gen2b.bin" --out "$work/gen2.penknet" \
  --check "$work/gen2_check.json" --curve "$work/gen2_curve.json" --seed 1 --epochs 6 --threads 2 \
  --bootstrap "$work/gen1.penknet" --lambda 0.7
# Generation 3: games of neural on net 2, TD(0.7) returns of net 2, and
# training that starts from net 2's weights rather than random ones
# (--init): it goes on learning where net 2 stopped, which measured better
# than a fresh start on the same games (docs/AI.md).
"$penk" neural selfplay --out "$work/gen3a.bin" --player neural --net "$work/gen2.penknet" \
  --games 100000 --seed 21 --threads 2 --players 2,3,4,2 --variants default,penk-lines=columns --layout 1
"$penk" neural selfplay --out "$work/gen3b.bin" --player neural --net "$work/gen2.penknet" \
  --games 100000 --seed 22 --threads 2 --players 2,3,4,2 --variants default,penk-lines=columns --layout 1
/usr/bin/python3 tools/train_neural.py --data "$work/gen3a.bin" "$work/gen3b.bin" --out "$work/gen3.penknet" \
  --check "$work/gen3_check.json" --curve "$work/gen3_curve.json" --seed 1 --epochs 6 --threads 2 \
  --bootstrap "$work/gen2.penknet" --lambda 0.7 --init "$work/gen2.penknet" --compare "$work/gen2.penknet"
# Generation 4 (the committed net): games of neural on net 3 written in
# feature layout 2 (how near each sheet is to ending the game), TD(0.7)
# returns of net 3, training started from net 3's weights widened to the
# new inputs (0 for them: net 3's outputs until trained; docs/AI.md).
"$penk" neural selfplay --out "$work/gen4a.bin" --player neural --net "$work/gen3.penknet" \
  --games 100000 --seed 41 --threads 2 --players 2,3,4,2 --variants default,penk-lines=columns --layout 2
"$penk" neural selfplay --out "$work/gen4b.bin" --player neural --net "$work/gen3.penknet" \
  --games 100000 --seed 42 --threads 2 --players 2,3,4,2 --variants default,penk-lines=columns --layout 2
/usr/bin/python3 tools/train_neural.py --data "$work/gen4a.bin" "$work/gen4b.bin" --out data/neural.penknet \
  --check data/neural_check.json --curve data/neural_curve.json --seed 1 --epochs 6 --threads 2 \
  --bootstrap "$work/gen3.penknet" --lambda 0.7 --init "$work/gen3.penknet" --compare "$work/gen3.penknet"
"$penk" neural curve data/neural_curve.json --svg docs/neural_curve.svg
"$penk" neural check data/neural.penknet --against data/neural_check.json
