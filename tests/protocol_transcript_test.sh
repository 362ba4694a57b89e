#!/usr/bin/env bash
# The transcript of docs/PROTOCOL.md is what the engine answers today (issue
# 22 item 6): tools/protocol_transcript.sh replays its requests through the
# real `penk engine` and the replies must be the documented ones, line for
# line, so the document cannot go stale. On a difference: run
# `tools/protocol_transcript.sh` and paste its output over the transcript.
# With an engine command after the binary (the WebAssembly engine under Node,
# tests/wasm/run_tests.sh), that engine must answer both transcripts exactly
# as documented; with --first-only, the protocol 2 one alone (the one-thread
# module).
# Usage: protocol_transcript_test.sh [--first-only] SOURCE_DIR PENK_BINARY [ENGINE COMMAND...]
set -euo pipefail
first_only=()
if [ "${1:-}" = --first-only ]; then first_only=(--first-only); shift; fi
root=$1
penk=$2
shift 2
doc=$root/docs/PROTOCOL.md
got=$(bash "$root/tools/protocol_transcript.sh" "${first_only[@]}" "$penk" "$@")
want=$(grep -E '^[<>] \{' "$doc")
if [ ${#first_only[@]} -gt 0 ]; then
  # The first transcript: a request and its reply for each request line.
  n=$(grep -c . "$root/docs/examples/transcript_requests.jsonl")
  want=$(echo "$want" | head -n $((2 * n)))
fi
[ -n "$want" ] || { echo "protocol_transcript: no transcript lines in $doc" >&2; exit 1; }
if [ "$got" != "$want" ]; then
  echo "protocol_transcript: docs/PROTOCOL.md's transcript differs from the engine's replies:" >&2
  diff <(echo "$want") <(echo "$got") | head -20 >&2
  exit 1
fi
echo "protocol_transcript: $(echo "$want" | wc -l) lines as documented"
