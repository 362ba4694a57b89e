#!/usr/bin/env bash
# Inference equals trainer (issue 21): tools/train_neural.py trains one epoch
# on a small random self-play file, then `penk neural check NET --against
# CHECK` must find the C++ forward pass within 1e-5 of torch's outputs. Also:
# TD(lambda) targets equal a plain loop (td_targets_test.py),
# a killed writer's file (row count 0, a partial last row) trains, a file of
# another layout is refused with exit 2, the curve draws, and a net of its
# own for one player count and variant is validated on the positions the
# shared net's breakdown counts for them.
# Skipped (exit 77) where /usr/bin/python3 has no torch (python3-torch).
#   neural_train_test.sh SOURCE_DIR PENK WORKDIR
set -euo pipefail
src=$1 penk=$2 work=$3
py=/usr/bin/python3
if ! "$py" -c 'import torch' 2>/dev/null; then
  echo "neural_train: skipped: $py cannot import torch (apt-get install python3-torch)"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work" && cd "$work"
"$py" "$src/tests/neural/make_selfplay.py" a.penkself --games 60 --seed 1
"$py" "$src/tests/neural/make_selfplay.py" b.penkself --games 20 --seed 2 --rows-zero
"$py" "$src/tools/train_neural.py" --data a.penkself b.penkself --out net.penknet \
  --check check.json --curve curve.json --seed 1 --epochs 1 --threads 2
"$penk" neural check net.penknet --against check.json
"$penk" neural curve curve.json --svg curve.svg
grep -q '</svg>' curve.svg
# A second run of the same seed writes the same net.
"$py" "$src/tools/train_neural.py" --data a.penkself b.penkself --out again.penknet \
  --seed 1 --epochs 1 --threads 2 2>/dev/null
cmp net.penknet again.penknet
# TD(lambda) targets: equal to a plain loop over each game; a run on them
# bootstraps from the net above and writes a net the C++ side reads alike.
"$py" "$src/tests/neural/td_targets_test.py" "$src"
"$py" "$src/tools/train_neural.py" --data a.penkself b.penkself --out td.penknet --check td.json \
  --seed 1 --epochs 1 --threads 2 --bootstrap net.penknet --lambda 0.7 2>td.txt
grep -q 'TD(0.7) targets from net.penknet' td.txt
"$penk" neural check td.penknet --against td.json
# --init starts from a net's weights: with a learning rate too small to move
# them, the run's final figures are the starting net's. And --compare reports
# a net's figures on the same positions: those of the net read back from its
# file equal the ones its own training run printed.
"$py" "$src/tools/train_neural.py" --data a.penkself b.penkself --out init.penknet --curve init.json \
  --seed 1 --epochs 1 --threads 2 --init net.penknet --lr 1e-12 --compare net.penknet 2>init.txt
"$py" - curve.json init.json <<'PY'
import json, sys
first, again = (json.load(open(f)) for f in sys.argv[1:3])
want = first["epochs"][-1]["val_logloss"]
got, compared = again["epochs"][-1]["val_logloss"], again["compare"]["val_logloss"]
assert abs(got - want) < 1e-5, f"--init: {got} after a step of 1e-12, the starting net has {want}"
assert abs(compared - want) < 1e-5, f"--compare: {compared}, its own run gave {want}"
assert all("compare" in g for g in again["groups"] + again["stages"]), "--compare: a group without its figures"
PY
grep -q '^  net.penknet, turns 0-2: log loss' init.txt || { echo "expected --compare's lines:"; cat init.txt; exit 1; }
# --compare changes nothing of the net trained.
"$py" "$src/tools/train_neural.py" --data a.penkself b.penkself --out cmp.penknet \
  --seed 1 --epochs 1 --threads 2 --compare td.penknet 2>/dev/null
cmp net.penknet cmp.penknet
# Refused with one line and exit 2, before any training: sizes beside
# --init (they are the net's), and a --compare or --init file that is no net.
for args in "--init net.penknet --hidden1 64" "--compare a.penkself" "--init a.penkself"; do
  set +e
  # shellcheck disable=SC2086
  "$py" "$src/tools/train_neural.py" --data a.penkself --out x.penknet --epochs 1 $args 2>err.txt
  rc=$?
  set -e
  [ "$rc" -eq 2 ] && [ "$(wc -l < err.txt)" -eq 1 ] ||
    { echo "expected exit 2 and one line for $args, got $rc:"; cat err.txt; exit 1; }
done
grep -q 'not a PENK net file' err.txt
# A net of its own for one group (--players, --variant) is validated on the
# same positions as the shared net's breakdown reports for that group.
"$py" "$src/tools/train_neural.py" --data a.penkself b.penkself --out own.penknet \
  --seed 1 --epochs 1 --threads 2 --players 2 --variant columns 2>own.txt
shared=$("$py" -c 'import json, sys
g = [g for g in json.load(open("curve.json"))["groups"] if (g["players"], g["variant"]) == (2, "columns")]
print(g[0]["positions"])')
[ "$(grep -c '^validation, [234] players' own.txt)" -eq 1 ] || { echo "expected one validation group:"; cat own.txt; exit 1; }
grep -q "^validation, 2 players, columns: $shared positions" own.txt ||
  { echo "expected the shared net's $shared positions of 2 players, columns:"; cat own.txt; exit 1; }
"$penk" neural check own.penknet
# Another layout beside the first: refused, one line, exit 2.
"$py" "$src/tests/neural/make_selfplay.py" c.penkself --games 40 --layout 2
set +e
"$py" "$src/tools/train_neural.py" --data a.penkself c.penkself --out bad.penknet 2>err.txt
rc=$?
set -e
[ "$rc" -eq 2 ] || { echo "expected exit 2 for mixed layouts, got $rc"; exit 1; }
grep -q 'all data files must share one layout' err.txt
[ "$(wc -l < err.txt)" -eq 1 ]
# A data file whose feature count is not its layout's, or of a layout the
# trainer does not know: refused, one line, exit 2.
"$py" "$src/tests/neural/make_selfplay.py" short.penkself --games 5 --layout 2 --features 234
"$py" "$src/tests/neural/make_selfplay.py" nine.penkself --games 5 --layout 9 --features 234
for f in short nine; do
  set +e
  "$py" "$src/tools/train_neural.py" --data $f.penkself --out bad.penknet 2>err.txt
  rc=$?
  set -e
  [ "$rc" -eq 2 ] && [ "$(wc -l < err.txt)" -eq 1 ] || { echo "expected exit 2 and one line for $f:"; cat err.txt; exit 1; }
done
grep -q 'feature layout 9, this trainer reads layouts 1, 2' err.txt
# Layout 2 (ai/neural_features.h): a net of layout 1 widened to it gives the
# same outputs (widen_test.py); trained on from there (--init, TD targets of
# the layout-1 net, --compare) it is a net of layout 2 the C++ side reads
# and evaluates as torch does.
"$py" "$src/tests/neural/widen_test.py" "$src" net.penknet
"$py" "$src/tools/train_neural.py" --data c.penkself --out wide.penknet --check wide.json --seed 1 \
  --epochs 1 --threads 2 --init net.penknet --bootstrap net.penknet --lambda 0.7 --compare net.penknet 2>wide.txt
"$penk" neural check wide.penknet --against wide.json | grep -q 'layout 2, 262-128-32-8'
# A damaged net: `penk neural check` exits 1 with one line.
cp net.penknet bad.penknet
printf '\x01' | dd of=bad.penknet bs=1 seek=100 conv=notrunc status=none
set +e
"$penk" neural check bad.penknet 2>err.txt
rc=$?
set -e
[ "$rc" -eq 1 ] || { echo "expected exit 1 for a damaged net, got $rc"; exit 1; }
grep -q 'checksum mismatch' err.txt
echo "neural_train: ok"
