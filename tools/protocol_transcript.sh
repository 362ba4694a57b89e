#!/usr/bin/env bash
# Prints the transcript of docs/PROTOCOL.md: the requests of
# docs/examples/transcript_requests.jsonl through the real `penk engine`, in a
# scratch folder holding a small table (`small.penktable`, positions with at
# most 6 free cells, named by the requests' "table") and, under the default
# name in tables/ (for expert's tables), the full table: a partial one is
# refused there. The full table is the one beside the binary when it has
# been built (build/tables/), else it is built here (10-20 s; without its
# spread table, which the transcript shows missing). Then the
# protocol 3 transcript (see below).
# With an engine command after the binary (the WebAssembly engine under Node:
# `node build-wasm/module/engine_cli.mjs [--threads]`), that command answers
# the requests instead of `penk engine` (the binary still makes the tables).
# --first-only leaves the protocol 3 transcript out (the one-thread module
# speaks protocol 2).
# Usage: tools/protocol_transcript.sh [--first-only] [build/penk [ENGINE COMMAND...]]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
first_only=0
if [ "${1:-}" = --first-only ]; then first_only=1; shift; fi
penk=$(realpath "${1:-$root/build/penk}")
shift || true
engine=("$@")
[ ${#engine[@]} -gt 0 ] || engine=("$penk" engine)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
"$penk" tables build --max-free 6 --out small.penktable >/dev/null 2>&1
mkdir tables
name=solitaire_line-min=3_penk-lines=all.penktable
if [ -f "$(dirname "$penk")/tables/$name" ]; then
  # A copy for another engine: the module's view of the folder cannot follow
  # a link out of it.
  if [ "${engine[0]}" = "$penk" ]; then ln -s "$(dirname "$penk")/tables/$name" "tables/$name"
  else cp "$(dirname "$penk")/tables/$name" "tables/$name"; fi
else
  "$penk" tables build --no-spread --out "tables/$name" >/dev/null 2>&1
fi
"${engine[@]}" --table-dir tables --no-build <"$root/docs/examples/transcript_requests.jsonl" 2>/dev/null >replies.jsonl
paste -d '\n' "$root/docs/examples/transcript_requests.jsonl" replies.jsonl |
  awk 'NR % 2 { print "> " $0; next } { print "< " $0 }'
[ "$first_only" = 0 ] || exit 0
# Protocol 3 (docs/examples/transcript3_requests.jsonl): requests sent 0.2 s
# apart without waiting for replies, into a folder where building is on (the
# prepare builds the blocked-row table of row 1, a few seconds); every request is
# printed, then every reply and progress line in the order they came.
mkdir tables3
if [ "${engine[0]}" = "$penk" ]; then
  ln -s "$(realpath "tables/$name")" "tables3/$name"
else
  cp "tables/$name" "tables3/$name"
fi
# After the hello a pause, so that a slow start (a sanitized build; the
# module's loading under Node) is over before the rest comes: their order
# then holds on any machine.
pause=1
[ "${engine[0]}" = "$penk" ] || pause=3
first=1
while IFS= read -r line; do
  printf '%s\n' "$line"
  if [ "$first" = 1 ]; then sleep "$pause"; first=0; else sleep 0.2; fi
done <"$root/docs/examples/transcript3_requests.jsonl" |
  "${engine[@]}" --table-dir tables3 2>/dev/null >replies3.jsonl
sed 's/^/> /' "$root/docs/examples/transcript3_requests.jsonl"
sed 's/^/< /' replies3.jsonl
