#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (AddressSanitizer + coverage) in
# build-fuzz/ and runs each for SECONDS (default 180), one job each, one after
# the other. Needs clang++ (14 here). Usage: fuzz/run_fuzz.sh [SECONDS]
# The fuzzers use only a small value table (positions with at most 6 free
# cells) at $PENK_FUZZ_TABLE (default build-fuzz/fuzz_free6.penktable, built
# on first run); no full table is ever built. New corpus entries go to
# build-fuzz/corpus/ (not committed); fuzz/seeds/ holds the committed seeds.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-180}
CXX=${CXX:-clang++} cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Release -DPENK_FUZZ=ON \
  -DBUILD_TESTING=OFF >/dev/null
cmake --build build-fuzz -j2 --target fuzz_protocol fuzz_capi
export PENK_FUZZ_TABLE=${PENK_FUZZ_TABLE:-$PWD/build-fuzz/fuzz_free6.penktable}
for target in protocol capi; do
  mkdir -p build-fuzz/corpus/$target
  echo "== fuzz_$target for ${secs}s" >&2
  ./build-fuzz/fuzz_$target -max_total_time="$secs" -print_final_stats=1 \
    -rss_limit_mb=4096 -dict=fuzz/$target.dict \
    build-fuzz/corpus/$target fuzz/seeds/$target 2>&1 | tee build-fuzz/fuzz_$target.log | \
    grep -E "^#[0-9]+.*(pulse|DONE)|stat::|ERROR|SUMMARY" >&2
done
