#!/usr/bin/env bash
# What portability costs: the same code built portable (build/, x86-64 with
# run-time dispatch) and native (build-native/, -march=native), benchmarked
# in one session, alternating so that both meet the same machine load.
# Prints per benchmark the median of each build and native/portable ratios;
# figures in docs/PERFORMANCE.md.
# Usage: tools/bench_portable.sh [rounds=3] [repetitions=5] [penk_bench flags...]
# Real time is what a user waits for; CPU time (of the benchmark's thread)
# suffers less from other jobs on a shared machine.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3} reps=${2:-5}
shift $(($# < 2 ? $# : 2))
if [ ! -x build-native/penk_bench ]; then
  cmake -S . -B build-native -DCMAKE_BUILD_TYPE=Release -DPENK_NATIVE=ON -DBUILD_TESTING=OFF >/dev/null
  cmake --build build-native -j 2 --target penk penk_bench >/dev/null
fi
out=$(mktemp -d)
for ((i = 1; i <= rounds; ++i)); do
  for b in build build-native; do
    "$b/penk_bench" --benchmark_repetitions="$reps" --benchmark_format=json "$@" \
      >"$out/$b.$i.json" 2>/dev/null
  done
done
python3 - "$out" "$rounds" <<'PY'
import json, statistics, sys, collections
out, rounds = sys.argv[1], int(sys.argv[2])
times = collections.defaultdict(lambda: collections.defaultdict(list))
cpu = collections.defaultdict(lambda: collections.defaultdict(list))
unit = {}
for b in ("build", "build-native"):
    for i in range(1, rounds + 1):
        for r in json.load(open(f"{out}/{b}.{i}.json"))["benchmarks"]:
            if r.get("run_type") == "iteration":
                times[r["name"]][b].append(r["real_time"])
                cpu[r["name"]][b].append(r["cpu_time"])
                unit[r["name"]] = r["time_unit"]
print(f"{'benchmark':<40}{'real: portable':>15}{'native':>11}{'ratio':>7}"
      f"{'cpu: portable':>15}{'native':>11}{'ratio':>7}  (medians; ratio = native/portable)")
for name, t in times.items():
    m = lambda d, b: statistics.median(d[name][b])
    u = unit[name]
    p, n, cp, cn = m(times, "build"), m(times, "build-native"), m(cpu, "build"), m(cpu, "build-native")
    print(f"{name:<40}{p:>13.3f}{u:>2}{n:>9.3f}{u:>2}{n / p:>7.3f}"
          f"{cp:>13.3f}{u:>2}{cn:>9.3f}{u:>2}{cn / cp:>7.3f}  (n={len(t['build'])})")
PY
rm -rf "$out"
