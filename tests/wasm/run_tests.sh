#!/usr/bin/env bash
# The WebAssembly build's tests (issue 23), run by tools/test.sh after
# tools/build_wasm.sh: the one-thread module answers docs/PROTOCOL.md's
# protocol 2 transcript exactly as `penk engine` does, the module with
# threads both transcripts (protocol 3 included), and the npm package,
# installed from its tarball, answers hints, values and whole seeded games
# with the native engine's replies, text for text.
# Usage: tests/wasm/run_tests.sh [build/penk [build-wasm]]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
penk=$(realpath "${1:-$root/build/penk}")
wasm=$(realpath "${2:-$root/build-wasm}")
tgz=$(ls "$wasm"/npm/penk-engine-*.tgz)
echo "wasm: the protocol 2 transcript (the one-thread module)"
bash "$root/tests/protocol_transcript_test.sh" --first-only "$root" "$penk" node "$wasm/module/engine_cli.mjs"
echo "wasm: both transcripts, protocol 3 included (the module with threads)"
bash "$root/tests/protocol_transcript_test.sh" "$root" "$penk" node "$wasm/module/engine_cli.mjs" --threads
echo "wasm: the npm package against penk engine"
PENK_BIN=$penk PENK_NPM_TGZ=$tgz node --test "$root/tests/wasm/engine_test.mjs"
# The static site in headless Chromium: the browser tests of `penk serve`'s
# page against build-wasm/site/ served by python3 -m http.server (no penk
# process serves it), in one browser so that the tables the worker builds
# on first use (kept in IndexedDB) serve the cases after it; then offline.
echo "wasm: the static site in a browser"
/usr/bin/python3 "$root/tests/web/browser_test.py" --penk "$penk" --site "$wasm/site" \
  --shots "$wasm/site_screens" \
  test_load test_game_vs_expert test_advisor_equals_penk_hint test_spread_worker test_physical_dice \
  test_undo test_coach_with_opponents test_reload test_analysis test_offline test_tables_beside_page \
  test_helper_hangs test_tables_read_when_needed test_idbfs_tables_moved test_damaged_kept_table_built_again
