#!/usr/bin/env bash
# Builds the two small tables capi_threads uses (with the penk of the same
# build, one OpenMP thread: under ThreadSanitizer an uninstrumented libgomp
# would report its own synchronisation) and runs it.
# Usage: capi_threads_test.sh PENK CAPI_THREADS WORK_DIR [ROUNDS]
set -euo pipefail
penk=$1 prog=$2 work=$3 rounds=${4:-40}
rm -rf "$work"
mkdir -p "$work"
export OMP_NUM_THREADS=1
"$penk" tables build --max-free 6 --out "$work/free6.penktable" >/dev/null 2>&1
"$penk" tables build --max-free 5 --out "$work/free5.penktable" >/dev/null 2>&1
"$prog" "$work/free6.penktable" "$work/free5.penktable" "$rounds"
