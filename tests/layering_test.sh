#!/usr/bin/env bash
# The components stand side by side (docs/DESIGN.md §2):
# fetcher/, queueserver/ and nameserver/ include and link only common/ and
# proto/, never each other; common/ includes no component; crawlctl/, the
# client above them, may use the fetcher's page report for its local `page`
# tool and nothing else of theirs; inside the fetcher, http/ stands below
# page/, and both below the worker. Fails naming each include or link that
# breaks the rule.
#   layering_test.sh SOURCE_DIR
set -euo pipefail
src=$(cd "${1:?source dir}" && pwd)
cd "$src"
bad=0
components="fetcher queueserver nameserver crawlctl"

# check_includes DIR ALLOWED_REGEX: every #include "X/..." of a component
# X in DIR's sources must match ALLOWED_REGEX.
check_includes() {
  local dir=$1 allowed=$2 line
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    local target
    target=$(sed -E 's/.*#include "([^"]+)".*/\1/' <<< "${line#*:*:}")
    if ! [[ "$target" =~ $allowed ]]; then
      echo "layering: ${line%%:*}:$(cut -d: -f2 <<< "$line"): $dir/ includes $target"
      bad=1
    fi
  done < <(grep -rnE '#include "(fetcher|queueserver|nameserver|crawlctl)/' "$dir" --include='*.h' --include='*.cc' || true)
}

check_includes common '^$'
check_includes fetcher '^fetcher/'
check_includes queueserver '^queueserver/'
check_includes nameserver '^nameserver/'
check_includes crawlctl '^(crawlctl/|fetcher/page/page_report\.h$)'

# Inside the fetcher: the HTTP engine (fetcher/http/) knows no page analysis
# and no worker; page analysis (fetcher/page/) may read what the engine
# fetched (fetcher/http/) but knows no worker; it hands binary documents to
# fetcher/document/ (the parsers and the document worker's client), which
# may use page analysis's text helpers (charsets, entities) but not the engine.
check_includes fetcher/http '^fetcher/http/'
check_includes fetcher/page '^fetcher/(http|page|document)/'
check_includes fetcher/document '^fetcher/(document|page)/'

# Libraries: a component's CMakeLists links no other component's library.
for c in fetcher queueserver nameserver; do
  for other in $components; do
    [ "$other" = "$c" ] && continue
    if grep -nE "target_link_libraries\([^)]*crawl_${other}\b" "$c/CMakeLists.txt"; then
      echo "layering: $c/CMakeLists.txt links crawl_$other"
      bad=1
    fi
  done
done
if grep -nE "crawl_(fetcher|queueserver|nameserver|crawlctl)\b" common/CMakeLists.txt; then
  echo "layering: common/CMakeLists.txt links a component"
  bad=1
fi
[ $bad = 0 ] || exit 1
echo "layering: components include and link only common/ and proto/"
