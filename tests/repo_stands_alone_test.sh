#!/usr/bin/env bash
# The repository stands alone: no file of the project may refer to the
# workplace directory beside it (../shared, /work/shared), since a clone
# elsewhere has no such directory and a build or test reading it fails there.
# Conformance vectors live in tests/data/conformance.
#
# No exception: the design document is docs/DESIGN.md. This script holds
# the patterns, so it does not check itself.
#
#     tests/repo_stands_alone_test.sh [SOURCE_DIR]
# Files: git ls-files (tracked, plus untracked files git does not ignore) in a
# git checkout, else every file under SOURCE_DIR except .git, build*/,
# .cache and node_modules. Exit 0: none refers to it; 1: it lists the lines.
set -euo pipefail

root=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
cd "$root"

self=tests/repo_stands_alone_test.sh
# ../shared and /work/shared; shared/conformance however reached; a path
# joined from "shared", "conformance" (as fuzz/make_corpus.py once did).
pattern='(\.\./|/work/)shared\b|shared/conformance|["'\'']shared["'\''], *["'\'']conformance'
# file -> the one reference that file may hold.
declare -A allowed=()

list_files() {
  if command -v git >/dev/null 2>&1 &&
     [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ]; then
    git ls-files -z --cached --others --exclude-standard
  else
    find . \( -name .git -o -path './build*' -o -name .cache -o -name node_modules \) -prune \
      -o -type f -print0 | sed -z 's|^\./||'
  fi
}

bad=0
checked=0
while IFS= read -r -d '' f; do
  [ -f "$f" ] || continue          # tracked but deleted in the work tree
  [ "$f" = "$self" ] && continue
  checked=$((checked + 1))
  while IFS= read -r hit; do
    line=${hit%%:*}
    text=${hit#*:}
    if [ -n "${allowed[$f]+x}" ]; then
      rest=${text//"${allowed[$f]}"/}
      if ! grep -qE "$pattern" <<<"$rest"; then
        continue
      fi
    fi
    echo "$f:$line: $text"
    bad=$((bad + 1))
  done < <(grep -nIE "$pattern" -- "$f" || true)
done < <(list_files)

if [ "$bad" -ne 0 ]; then
  echo "FAIL: $bad line(s) refer to the workplace outside the repository (use tests/data/...)"
  exit 1
fi
echo "ok: $checked files, none refers to ../shared"
