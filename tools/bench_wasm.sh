#!/usr/bin/env bash
# The WebAssembly engine against the native one, in one run (issue 23 item 6,
# docs/PERFORMANCE.md): the solitaire table's build from nothing, native
# `penk tables build --no-spread` on one thread against the module under Node (alternating,
# ROUNDS of each, medians); a hint's median time, native `penk engine` (its
# own timing of the same requests, through penk_bench's BM_RequestRoundTrip is
# the finer figure) against the module; the module's size, raw and gzipped.
# Usage: tools/bench_wasm.sh [ROUNDS] [build/penk] [build-wasm]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-3}
penk=$(realpath "${2:-$root/build/penk}")
wasm=$(realpath "${3:-$root/build-wasm}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; flags: $(grep -m1 -o -w 'avx512f\|avx2' /proc/cpuinfo | sort -u | paste -sd' ')"
native=() module=()
for r in $(seq "$rounds"); do
  rm -rf "$work/n" "$work/w" && mkdir -p "$work/n" "$work/w"
  t0=$(date +%s%N)
  OMP_NUM_THREADS=1 "$penk" tables build --no-spread --out "$work/n/t.penktable" >/dev/null 2>&1
  t1=$(date +%s%N)
  native+=("$(( (t1 - t0) / 1000000 ))")
  module+=("$(node "$root/tools/bench_wasm.js" "$wasm/module" "$work/w" build | sed 's/.*"build_ms":\([0-9.]*\).*/\1/')")
  echo "round $r: native ${native[-1]%.*} ms, wasm ${module[-1]%.*} ms" >&2
done
n=$(printf '%s\n' "${native[@]}" | median)
w=$(printf '%s\n' "${module[@]}" | median)
awk -v n="$n" -v w="$w" -v r="$rounds" 'BEGIN {
  printf "solitaire table build, one thread: native %.1f s, wasm %.1f s (median of %d): ratio %.2f\n", n / 1000, w / 1000, r, w / n }'
echo "hint with the table loaded, wasm under Node: $(node "$root/tools/bench_wasm.js" "$wasm/module" "$work/w" hint)"
raw=$(stat -c %s "$wasm/module/penk-engine-core.wasm")
gz=$(gzip -9 -c "$wasm/module/penk-engine-core.wasm" | wc -c)
js=$(gzip -9 -c "$wasm/module/penk-engine-core.mjs" | wc -c)
echo "module: penk-engine-core.wasm $raw bytes ($gz gzipped), its JavaScript $js gzipped"
