#!/usr/bin/env bash
# The WebAssembly build's tests (issue 23), run by tools/test.sh after
# tools/build_wasm.sh: the module answers docs/PROTOCOL.md's protocol 2
# transcript exactly as `penk engine` does, and the npm package, installed from
# its tarball, answers hints, values and whole seeded games with the native
# engine's replies, text for text.
# Usage: tests/wasm/run_tests.sh [build/penk [build-wasm]]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
penk=$(realpath "${1:-$root/build/penk}")
wasm=$(realpath "${2:-$root/build-wasm}")
tgz=$(ls "$wasm"/npm/penk-engine-*.tgz)
echo "wasm: the protocol 2 transcript"
bash "$root/tests/protocol_transcript_test.sh" "$root" "$penk" node "$wasm/module/engine_cli.mjs"
echo "wasm: the npm package against penk engine"
PENK_BIN=$penk PENK_NPM_TGZ=$tgz node --test "$root/tests/wasm/engine_test.mjs"
