#!/usr/bin/env bash
# Processing throughput benchmark: installs the Debian
# documentation packages that make the corpus (python3-doc,
# postgresql-doc-15, libboost1.81-doc) and libgumbo-dev if missing, builds
# processing_bench in a Release tree (build-rel), and runs it on every .html
# file of those packages. Prints MB/s and pages/s on one core for link
# extraction, the whole pipeline and gumbo's parse, and the agreement of our
# links and text with gumbo's.
#
# Usage: tests/bench/processing.sh [--repeat N] [--limit PAGES] [--only PACKAGE]
#   --only: one corpus package (python3.11-doc, postgresql-doc-15 or
#   libboost1.81-doc) instead of all three.
set -euo pipefail
SRC=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD_REL:-$SRC/build-rel}
REPEAT=3
LIMIT=0
CORPUS=(python3.11-doc postgresql-doc-15 libboost1.81-doc)
while [ $# -gt 0 ]; do
  case $1 in
    --repeat) REPEAT=$2; shift 2 ;;
    --limit) LIMIT=$2; shift 2 ;;
    --only) CORPUS=("$2"); shift 2 ;;
    *) echo "usage: $0 [--repeat N] [--limit PAGES] [--only PACKAGE]" >&2; exit 2 ;;
  esac
done

PACKAGES=(python3-doc postgresql-doc-15 libboost1.81-doc libgumbo-dev)
missing=()
for pkg in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "processing.sh: installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi

if [ ! -f "$BUILD/build.ninja" ]; then
  cmake -S "$SRC" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCRAWL_WERROR=ON >/dev/null
fi
cmake --build "$BUILD" --target processing_bench

LIST=$(mktemp)
trap 'rm -f "$LIST"' EXIT
# python3-doc's files live in python3.11-doc; list every package's .html
# files (regular files only, sorted for a stable corpus).
for pkg in "${CORPUS[@]}"; do
  dpkg -L "$pkg" | grep '\.html$' || true
done | sort | while read -r f; do [ -f "$f" ] && [ ! -L "$f" ] && echo "$f"; done > "$LIST"
if [ "$LIMIT" -gt 0 ]; then
  head -n "$LIMIT" "$LIST" > "$LIST.tmp" && mv "$LIST.tmp" "$LIST"
fi
echo "processing.sh: $(wc -l < "$LIST") pages; build type $(grep -m1 CMAKE_BUILD_TYPE "$BUILD/CMakeCache.txt")"
"$BUILD/bin/processing_bench" --repeat "$REPEAT" "$LIST"
