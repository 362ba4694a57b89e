#!/usr/bin/env bash
# The whole test suite, twice, then what runs on threads once more, then the
# WebAssembly build (README's test command; .ci/run runs it):
#  1. the Release build of tools/setup.sh (build/), as users build it;
#  2. under AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/,
#     -DPENK_SANITIZE=ON) the tests of code that reads what comes from
#     outside (tests/sanitize_binaries.txt): any report fails its test;
#  3. under ThreadSanitizer (build-tsan/, -DPENK_TSAN=ON) only the tests whose
#     point is threads: libpenk's handles on threads of their own
#     (capi_threads), the server (server_test) and requests in flight
#     (dispatch_test, protocol 3). The other tests run one thread of ours,
#     or OpenMP, whose uninstrumented runtime TSan cannot see.
#  4. the WebAssembly build (tools/build_wasm.sh, build-wasm/): its module
#     and npm package against the Release build's `penk engine`
#     (tests/wasm/run_tests.sh).
# Each pass ends with ctest's summary line ("100% tests passed, ...").
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${PENK_TEST_JOBS:-2}
# Minutes since the start, on each pass's heading: CI gives the whole run 90.
minutes() { echo "$((SECONDS / 60)) min"; }

bash tools/setup.sh
echo "== pass 1/4: Release (build/), at $(minutes)"
ctest --test-dir build --output-on-failure -j "$jobs"

echo "== pass 2/4: AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/), at $(minutes)"
mkdir -p build-asan
# -O1 -g1 (line tables for the reports' stack traces): the compile is half
# of this pass's time, -O3 and full debug information would lengthen it. No
# benchmark binary here. A unity build (sources of a library compiled
# together: their headers parsed once), about half the compile time; and only
# the binaries of tests/sanitize_binaries.txt, those whose code reads what
# comes from outside (the file says why each).
sanitized=$({ grep -v '^#' tests/sanitize_binaries.txt || true; } | awk 'NF {print $1}')
targets=(penk penk_c)
for t in $sanitized; do
  case $t in *_test | capi_threads) targets+=("$t") ;; esac
done
if ! { cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPENK_SANITIZE=ON \
         -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON \
         -DCMAKE_UNITY_BUILD=ON &&
       cmake --build build-asan -j "$jobs" --target "${targets[@]}"; } >build-asan/build.log 2>&1; then
  tail -n 40 build-asan/build.log >&2
  echo "test: the sanitizer build failed; full log in build-asan/build.log" >&2
  exit 1
fi
# The tables pass 1 built or loaded (build/tables/), copied beside the
# sanitized binaries: the same files (checked on load), so this pass spends
# its time on what it adds (memory errors in the code that uses them) and not
# on rebuilding them under ASan. Builds themselves are still run here: the
# tests that build tables do so in folders of their own.
seed_tables() {
  mkdir -p "$1/tables"
  if [ -d build/tables ]; then cp -n build/tables/*.penk* "$1/tables/" 2>/dev/null || true; fi
}
seed_tables build-asan
# Known defects found by the sanitizers, not yet fixed, are listed (with their
# issue) in tests/sanitize_known_failures.txt: said here, not run.
# (`|| true`: an empty list is no failure under pipefail.)
known=$({ grep -v '^#' tests/sanitize_known_failures.txt || true; } | awk 'NF {print $1}' | paste -sd'|' -)
# Tests whose point is volume run in the Release pass only
# (tests/sanitize_release_only.txt, each with what covers its code here).
volume=$({ grep -v '^#' tests/sanitize_release_only.txt || true; } | awk 'NF {print $1}' | paste -sd'|' -)
echo "left to the Release pass: $(echo "$volume" | tr '|' '\n' | grep -c . || true) tests (tests/sanitize_release_only.txt)"
skip=$(printf '%s\n' "$known" "$volume" | awk 'NF' | paste -sd'|' -)
exclude=()
if [ -n "$known" ]; then
  echo "not run under the sanitizers (tests/sanitize_known_failures.txt):"
  { grep -v '^#' tests/sanitize_known_failures.txt || true; } | awk 'NF {print "  " $1}'
fi
if [ -n "$skip" ]; then
  exclude=(-E "^(${skip//./\\.})\$")
fi
# Leaks are errors too (LeakSanitizer is part of ASan on Linux).
ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:detect_leaks=1} \
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
  ctest --test-dir build-asan --output-on-failure -j "$jobs" \
    -L "^($(echo $sanitized | tr ' ' '|'))\$" "${exclude[@]}"

echo "== pass 3/4: ThreadSanitizer, the threaded tests (build-tsan/), at $(minutes)"
mkdir -p build-tsan
# Baseline x86-64 code: the dispatch's ifunc resolvers crash under TSan.
# A unity build, as the sanitizer pass's.
if ! { cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPENK_TSAN=ON -DPENK_MAX_ISA=baseline \
         -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1" \
         -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON -DCMAKE_UNITY_BUILD=ON &&
       cmake --build build-tsan -j "$jobs" --target penk capi_threads server_test dispatch_test; } \
    >build-tsan/build.log 2>&1; then
  tail -n 40 build-tsan/build.log >&2
  echo "test: the ThreadSanitizer build failed; full log in build-tsan/build.log" >&2
  exit 1
fi
seed_tables build-tsan
# One OpenMP thread: libgomp is not instrumented, and its own synchronisation
# would be reported as races. Any report exits 66 and fails its test.
OMP_NUM_THREADS=1 TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:exitcode=66:second_deadlock_stack=1} \
  ctest --test-dir build-tsan --output-on-failure -j "$jobs" -R '^(capi_threads|Server\..*|ServerTables\..*|Dispatch\..*)$'

echo "== pass 4/4: WebAssembly (build-wasm/), at $(minutes)"
bash tools/build_wasm.sh
bash tests/wasm/run_tests.sh build/penk build-wasm
echo "== all passes passed, in $(minutes)"
