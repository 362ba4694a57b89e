#!/usr/bin/env bash
# Issue 13's ratios in one run: `penk distribution` (both policies) and
# `penk stats` on the empty sheet against `penk tables build` of the same
# rules, and `penk tables build --all` in absolute terms. Alternating rounds,
# so that every command meets the same machine load; prints per command the
# median wall and CPU (user + sys) seconds and its ratio to the value-table
# build (`tables build --no-spread`). Figures in docs/PERFORMANCE.md.
# Usage: tools/bench_analysis.sh [rounds=3] [rules=line-min=3] [--all]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3} rules=${2:-line-min=3} all=${3:-}
penk=build/penk
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export PENK_TABLE_DIR=$dir/tables
# The default tables of these rules, so that the analyses only load them.
$penk tables build --rules "$rules" >/dev/null 2>&1
names=(build build_no_spread dist_optimal dist_greedy stats)
cmds=("$penk tables build --rules $rules --out $dir/t.penktable"
      "$penk tables build --rules $rules --no-spread --out $dir/u.penktable"
      "$penk distribution --rules $rules --policy optimal"
      "$penk distribution --rules $rules --policy greedy"
      "$penk stats --rules $rules")
if [ "$all" = "--all" ]; then
  names+=(build_all)
  cmds+=("rm -rf $dir/all && $penk tables build --all --rules $rules --table-dir $dir/all")
fi
for ((i = 1; i <= rounds; ++i)); do
  for j in "${!names[@]}"; do
    /usr/bin/time -f "%e %U %S" -o "$dir/${names[$j]}.$i" bash -c "${cmds[$j]}" >/dev/null 2>&1
  done
done
python3 - "$dir" "$rounds" "${names[@]}" <<'PY'
import statistics, sys
d, rounds, names = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
wall, cpu = {}, {}
for n in names:
    rows = [list(map(float, open(f"{d}/{n}.{i}").read().split()[-3:])) for i in range(1, rounds + 1)]
    wall[n] = statistics.median(r[0] for r in rows)
    cpu[n] = statistics.median(r[1] + r[2] for r in rows)
base = "build_no_spread"
print(f"{'command':<18}{'wall s':>9}{'cpu s':>9}{'wall/base':>11}{'cpu/base':>10}  "
      f"(medians of {rounds}; base = tables build --no-spread)")
for n in names:
    print(f"{n:<18}{wall[n]:>9.2f}{cpu[n]:>9.2f}{wall[n] / wall[base]:>11.2f}{cpu[n] / cpu[base]:>10.2f}")
PY
