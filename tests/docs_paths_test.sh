#!/usr/bin/env bash
# The docs name files that exist: every repository path that
# docs/ARCHITECTURE.md, docs/OPERATIONS.md and README.md write in backticks
# must be in the source tree, so a file moved or renamed without its docs
# fails here. Fails naming each missing path with its file and line.
#
#   docs_paths_test.sh SOURCE_DIR [DOC...]     # default: the three docs above
#
# What counts as a path: a word inside `backticks` that
#   - starts with a top-level directory of the repository (common/ fetcher/
#     queueserver/ nameserver/ crawlctl/ proto/ deploy/ tests/ fuzz/ docs/)
#     and must exist as a file or directory; a word with a glob ('*', '?')
#     must match at least one file; or
#   - has no '/' and ends in a source extension (.cc .h .proto .sh .py .md
#     .toml .yml .yaml): some file of that name must exist under those
#     directories or at the top.
# Words with placeholders (<, >, {, }, $) and anything else (flags, URLs,
# ../ paths outside the repository, DATA_DIR/...) are not checked.
set -euo pipefail
src=$(cd "${1:?source dir}" && pwd)
shift
cd "$src"
docs=("$@")
[ ${#docs[@]} -gt 0 ] || docs=(docs/ARCHITECTURE.md docs/OPERATIONS.md README.md)

top='common|fetcher|queueserver|nameserver|crawlctl|proto|deploy|tests|fuzz|docs'
ext='cc|h|proto|sh|py|md|toml|yml|yaml'

# Base names of every file under the top-level directories and at the top.
names=$(find . -maxdepth 1 -type f -printf '%f\n';
        find common fetcher queueserver nameserver crawlctl proto deploy tests fuzz docs \
             -name node_modules -prune -o -type f -printf '%f\n' 2>/dev/null) || true

bad=0
checked=0
for doc in "${docs[@]}"; do
  if [ ! -f "$doc" ]; then
    echo "docs_paths: $doc: no such document"
    bad=1
    continue
  fi
  # One line per backticked span: LINE<TAB>TEXT (spans on one line only).
  while IFS=$'\t' read -r line span; do
    read -ra words <<< "$span"               # split at blanks, no globbing
    for word in "${words[@]}"; do
      word=${word%%[,;:.)]}                 # trailing punctuation
      word=${word%%[,;:.)]}
      word=${word#(}
      case "$word" in *[\<\>\{\}\$]*|'') continue ;; esac
      if [[ "$word" =~ ^($top)/ ]]; then
        checked=$((checked + 1))
        if [[ "$word" == *[\*\?]* ]]; then
          matches=$(compgen -G "$word" || true)
          [ -n "$matches" ] && continue
        elif [ -e "$word" ]; then
          continue
        fi
        echo "docs_paths: $doc:$line: \`$word\` does not exist"
        bad=1
      elif [[ "$word" != */* && "$word" =~ ^[A-Za-z0-9_.+-]+\.($ext)$ ]]; then
        checked=$((checked + 1))
        grep -qxF -- "$word" <<< "$names" && continue
        echo "docs_paths: $doc:$line: \`$word\` names no file of the repository"
        bad=1
      fi
    done
  done < <(awk '
    /^```/ { fence = !fence; next }          # code blocks are examples, not names
    fence { next }
    {
      s = $0
      while (match(s, /`[^`]+`/)) {
        printf "%d\t%s\n", NR, substr(s, RSTART + 1, RLENGTH - 2)
        s = substr(s, RSTART + RLENGTH)
      }
    }' "$doc")
done

[ $bad = 0 ] || { echo "docs_paths: FAIL (a path above is missing: fix the doc or the tree)"; exit 1; }
echo "docs_paths: ok, $checked paths in ${docs[*]} exist"
