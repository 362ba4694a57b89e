#!/usr/bin/env bash
# Every rule number cited in the sources (R4.2, ...) is defined in
# docs/RULES.md, so a citation always leads somewhere. A definition is the
# bold label that starts a rule there: **R4.2** or **Variant R4.3**.
# Usage: rules_cited.sh SOURCE_DIR
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
book=docs/RULES.md
[ -f "$book" ] || { echo "rules_cited: $book is missing" >&2; exit 1; }

cited=$(grep -rhoE --exclude-dir=build* --exclude-dir=.git '\bR[0-9]+\.[0-9]+\b' \
          engine solver tables tools capi tests examples fuzz docs README.md | sort -u)
missing=0
for r in $cited; do
  if ! grep -qE "\*\*(Variant )?${r//./\\.}\*\*" "$book"; then
    echo "rules_cited: $r is cited but not defined in $book:" >&2
    grep -rnwE --exclude-dir=.git "${r//./\\.}" engine solver tables tools capi tests examples fuzz docs README.md | head -3 >&2
    missing=1
  fi
done
n=$(wc -w <<<"$cited")
[ "$missing" -eq 0 ] && echo "rules_cited: all $n rule numbers cited are defined in $book"
exit "$missing"
