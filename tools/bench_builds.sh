#!/usr/bin/env bash
# The same benchmarks from several builds, in one session, alternating so
# that every build meets the same machine load: e.g. the AVX2 clones
# (build-v3/, configured -DPENK_MAX_ISA=v3) against the AVX-512 ones (build/),
# or a build of the code before a change against one after it.
# Prints per benchmark and build the median real and CPU time, and the CPU
# ratio to the first build; with --process-cpu also the median user + sys
# seconds of each whole penk_bench process (a two-thread BM_TableBuild's CPU
# time in Google Benchmark counts the main thread only).
# Usage: tools/bench_builds.sh [--process-cpu] rounds repetitions dir... [-- penk_bench flags...]
# Figures in docs/PERFORMANCE.md.
set -euo pipefail
cd "$(dirname "$0")/.."
process_cpu=0
if [ "${1:-}" = --process-cpu ]; then process_cpu=1; shift; fi
rounds=$1 reps=$2
shift 2
dirs=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do dirs+=("$1"); shift; done
[ "${1:-}" = -- ] && shift
out=$(mktemp -d)
for ((i = 1; i <= rounds; ++i)); do
  for d in "${dirs[@]}"; do
    tag=$(echo "$d" | tr / _)
    python3 - "$d/penk_bench" "$out/$tag.$i" "$reps" "$@" <<'PY'
import resource, subprocess, sys
exe, dst, reps, flags = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
before = resource.getrusage(resource.RUSAGE_CHILDREN)
with open(dst + ".json", "w") as f:
    subprocess.run([exe, f"--benchmark_repetitions={reps}", "--benchmark_format=json", *flags],
                   stdout=f, stderr=subprocess.DEVNULL, check=True)
after = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
open(dst + ".cpu", "w").write(f"{cpu}\n")
PY
  done
done
python3 - "$out" "$rounds" "$process_cpu" "${dirs[@]}" <<'PY'
import json, statistics, sys, collections
out, rounds, process_cpu, dirs = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1", sys.argv[4:]
real = collections.defaultdict(lambda: collections.defaultdict(list))
cpu = collections.defaultdict(lambda: collections.defaultdict(list))
proc = collections.defaultdict(list)
unit = {}
for d in dirs:
    tag = d.replace("/", "_")
    for i in range(1, rounds + 1):
        for r in json.load(open(f"{out}/{tag}.{i}.json"))["benchmarks"]:
            if r.get("run_type") == "iteration":
                real[r["name"]][d].append(r["real_time"])
                cpu[r["name"]][d].append(r["cpu_time"])
                unit[r["name"]] = r["time_unit"]
        proc[d].append(float(open(f"{out}/{tag}.{i}.cpu").read()))
print(f"medians over {rounds} rounds; ratio = CPU time / CPU time of {dirs[0]}")
print(f"{'benchmark':<40}{'build':<24}{'real':>12}{'CPU':>12}{'ratio':>7}{'n':>4}")
for name in real:
    u = unit[name]
    base = statistics.median(cpu[name][dirs[0]])
    for d in dirs:
        r, c = statistics.median(real[name][d]), statistics.median(cpu[name][d])
        print(f"{name:<40}{d:<24}{r:>10.3f}{u:>2}{c:>10.3f}{u:>2}{c / base:>7.3f}{len(cpu[name][d]):>4}")
if process_cpu:
    base = statistics.median(proc[dirs[0]])
    for d in dirs:
        c = statistics.median(proc[d])
        print(f"{'process user+sys':<40}{d:<24}{'':>12}{c:>11.2f}s{c / base:>7.3f}{len(proc[d]):>4}"
              f"   runs: {' '.join(f'{x:.2f}' for x in proc[d])}")
PY
rm -rf "$out"
