#!/usr/bin/env bash
# Load test of `penk serve` (issue 12): starts the server on a free loopback
# port, runs tools/serve_load.cc's client (50 WebSocket clients, each one
# whole game as a human seat asking hints against expert), then prints the
# latencies, errors and the server's peak memory (VmHWM). Bounded: at most
# --seconds (default 600) of play.
#   bash tools/serve_load.sh [build] [--clients 50] [--games 1] [--seconds 600]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
shift || true
cmake --build "$build" -j2 --target penk penk_serve_load >/dev/null
log=$(mktemp)
"$build/penk" serve --port 0 --max-connections 64 2>"$log" &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 100); do
  port=$(sed -n 's/.*http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$log")
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { cat "$log" >&2; echo "serve_load: the server did not start" >&2; exit 1; }
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
status=0
"$build/penk_serve_load" --port "$port" "$@" || status=$?
echo "server peak memory (VmHWM): $(awk '/VmHWM/ {printf "%.0f MB", $2/1024}' /proc/$server/status)"
kill -TERM "$server"
wait "$server" || true
exit $status
