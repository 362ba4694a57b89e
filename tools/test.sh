#!/usr/bin/env bash
# The whole test suite, twice (README's test command; .ci/run runs it):
#  1. the Release build of tools/setup.sh (build/), as users build it;
#  2. the same tests under AddressSanitizer + UndefinedBehaviorSanitizer
#     (build-asan/, -DPENK_SANITIZE=ON): any report fails its test.
# Each pass ends with ctest's summary line ("100% tests passed, ...").
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${PENK_TEST_JOBS:-2}

bash tools/setup.sh
echo "== pass 1/2: Release (build/)"
ctest --test-dir build --output-on-failure -j "$jobs"

echo "== pass 2/2: AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/)"
mkdir -p build-asan
# -O1 -g1 (line tables for the reports' stack traces): the compile is half
# of this pass's time, -O3 and full debug information would lengthen it. No
# benchmark binary here.
if ! { cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPENK_SANITIZE=ON \
         -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON &&
       cmake --build build-asan -j "$jobs"; } >build-asan/build.log 2>&1; then
  tail -n 40 build-asan/build.log >&2
  echo "test: the sanitizer build failed; full log in build-asan/build.log" >&2
  exit 1
fi
# Known defects found by the sanitizers, not yet fixed, are listed (with their
# issue) in tests/sanitize_known_failures.txt: said here, not run.
# (`|| true`: an empty list is no failure under pipefail.)
known=$({ grep -v '^#' tests/sanitize_known_failures.txt || true; } | awk 'NF {print $1}' | paste -sd'|' -)
exclude=()
if [ -n "$known" ]; then
  echo "not run under the sanitizers (tests/sanitize_known_failures.txt):"
  { grep -v '^#' tests/sanitize_known_failures.txt || true; } | awk 'NF {print "  " $1}'
  exclude=(-E "^(${known//./\\.})\$")
fi
# Leaks are errors too (LeakSanitizer is part of ASan on Linux).
ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:detect_leaks=1} \
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
  ctest --test-dir build-asan --output-on-failure -j "$jobs" "${exclude[@]}"
