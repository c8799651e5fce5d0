#!/usr/bin/env bash
# Every C++ source and header of the project is formatted as .clang-format
# says: clang-format --dry-run --Werror prints each file and line it would
# change, and the test fails. Fix with `clang-format -i FILE`. Skips (77)
# without clang-format.
#   format_test.sh SOURCE_DIR
set -euo pipefail
src=$(cd "${1:?source dir}" && pwd)
cd "$src"
format=$(command -v clang-format-14 || command -v clang-format || true)
if [ -z "$format" ]; then
  echo "format: clang-format not installed (deploy/install-deps.sh --test): skipped"
  exit 77
fi
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.h' '*.cc' | grep -v '^tests/data/')
else
  mapfile -t files < <(find common fetcher queueserver nameserver crawlctl fuzz tests \
    -path tests/data -prune -o \( -name '*.h' -o -name '*.cc' \) -print | sort)
fi
# --dry-run warns at every place that differs; collect them all, then fail.
report=$("$format" --dry-run "${files[@]}" 2>&1 | grep -E '^[^ ].*: warning: code should be clang-formatted' || true)
if [ -n "$report" ]; then
  sed -n '1,40p' <<< "$report"
  echo "format: $(wc -l <<< "$report") places in $(cut -d: -f1 <<< "$report" | sort -u | wc -l) files" \
    "differ from .clang-format; run clang-format -i on them"
  exit 1
fi
echo "format: ${#files[@]} files as .clang-format says"
