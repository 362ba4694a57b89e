#!/usr/bin/env bash
# Prints the transcript of docs/PROTOCOL.md: the requests of
# docs/examples/transcript_requests.jsonl through the real `penk engine`, in a
# scratch folder holding a small table (`small.penktable`, positions with at
# most 6 free cells) and the same table under the default name in tables/
# (for expert's tables). Usage: tools/protocol_transcript.sh [build/penk]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
penk=$(realpath "${1:-$root/build/penk}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
"$penk" tables build --max-free 6 --out small.penktable >/dev/null 2>&1
mkdir tables
cp small.penktable "tables/solitaire_line-min=3_penk-lines=all.penktable"
"$penk" engine --table-dir tables --no-build <"$root/docs/examples/transcript_requests.jsonl" 2>/dev/null >replies.jsonl
paste -d '\n' "$root/docs/examples/transcript_requests.jsonl" replies.jsonl |
  awk 'NR % 2 { print "> " $0; next } { print "< " $0 }'
