#!/usr/bin/env bash
# The figures of docs/STRATEGY.md's "Playing for a target" section: for each
# target X, P(final score >= X) of the expected-score policy (one exact
# distribution) against the target policy's (the value of the empty sheet in
# the target=X table), and the best opening keeps of a few rolls as X grows.
# Usage: tools/target_figures.sh [build/penk]   (builds the target tables it
# needs in the table folder, ~10 s each; prints Markdown on stdout)
set -euo pipefail
penk=${1:-build/penk}
targets=(100 110 120 130 140 150 160 170 175 180 185 190)
rolls=(3335JJ 11335J 12345J 111245 2244JJ)

dist=$("$penk" distribution --at-least "$(IFS=,; echo "${targets[*]}")" 2>/dev/null)
mean=$(awk '/^mean:/ {print $2}' <<<"$dist")
echo "| X | P(score >= X), expected-score policy | P(score >= X), target policy | gain |"
echo "|---:|---:|---:|---:|"
for x in "${targets[@]}"; do
  p_mean=$(awk -v x="$x" '$1 == "P(score" && $3 == x"):" {print $4}' <<<"$dist")
  p_target=$("$penk" value --objective "target=$x" 2>/dev/null | awk '/^value:/ {print $2}')
  awk -v x="$x" -v a="$p_mean" -v b="$p_target" \
    'BEGIN {printf "| %d | %.4f | %.4f | %+.4f |\n", x, a, b, b - a}'
done
echo
echo "(expected-score policy: mean $mean)"
echo
printf "| roll |"
printf " mean |"
for x in 150 170 180 185 190; do printf " target=%d |" "$x"; done
echo
printf "|---|---|"
for x in 150 170 180 185 190; do printf -- "---|"; done
echo
best() { "$penk" hint --roll "$1" --top 1 --json "${@:2}" 2>/dev/null |
         sed -n 's/.*"actions":\[{"action":"\([^"]*\)".*/\1/p'; }
for r in "${rolls[@]}"; do
  printf "| \`%s\` | \`%s\` |" "$r" "$(best "$r")"
  for x in 150 170 180 185 190; do printf " \`%s\` |" "$(best "$r" --objective "target=$x")"; done
  echo
done
