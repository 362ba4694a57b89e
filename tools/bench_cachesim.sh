#!/usr/bin/env bash
# The table build under a simulated cache (valgrind's cachegrind): exact,
# repeatable counts of instructions, data references and L1d misses for an
# L1d of Zen 3 (32 KiB, 8-way; AVX2 only, issue 13 item 5) and of Zen 5
# (48 KiB, 12-way: this project's machine), with the L2 of each as the last
# level. Under valgrind the CPU reports no AVX-512, so the x86-64-v3 clones
# run: the code an AVX2-only CPU runs. Counts, not timings: the machine's
# load does not move them. One thread, the positions with at most
# `max_free` free cells (8: about 1.5 s natively, 2 minutes under valgrind).
# Figures in docs/PERFORMANCE.md ("AVX2 only").
# Usage: tools/bench_cachesim.sh [max_free=8] penk-binary...
set -euo pipefail
cd "$(dirname "$0")/.."
max_free=8
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then max_free=$1; shift; fi
[ $# -ge 1 ] || { echo "usage: $0 [max_free] penk-binary..." >&2; exit 2; }
command -v valgrind >/dev/null || { echo "valgrind not found (Debian package valgrind)" >&2; exit 2; }
for bin in "$@"; do
  [ -x "$bin" ] || { echo "$bin: not an executable penk binary (expected e.g. build/penk)" >&2; exit 2; }
done
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export OMP_NUM_THREADS=1 PENK_TABLE_DIR=$out/tables
declare -A caches=([zen3]="--D1=32768,8,64 --LL=524288,8,64" [zen5]="--D1=49152,12,64 --LL=1048576,16,64")
i=0
for bin in "$@"; do
  for c in zen3 zen5; do
    # shellcheck disable=SC2086  # the cache options are words
    valgrind --tool=cachegrind --cache-sim=yes ${caches[$c]} --cachegrind-out-file=/dev/null \
      "$bin" tables build --rules line-min=3 --no-spread --max-free "$max_free" \
      --out "$out/t$i.$c.penktable" >"$out/log$i.$c" 2>&1 &
  done
  wait
  i=$((i + 1))
done
printf '%-40s %16s %16s %14s %14s\n' binary instructions "data refs" "D1 miss zen3" "D1 miss zen5"
i=0
for bin in "$@"; do
  count() { grep -E "$1" "$out/log$i.$2" | head -1 | awk '{print $4}'; }
  printf '%-40s %16s %16s %14s %14s\n' "$bin" "$(count 'I *refs' zen3)" "$(count 'D *refs' zen3)" \
    "$(count 'D1 *misses' zen3)" "$(count 'D1 *misses' zen5)"
  i=$((i + 1))
done
