#!/usr/bin/env bash
# Encoding detection and legacy decoding benchmark (fetcher/page/charset.h):
# installs the Debian packages whose prose makes the corpus if missing
# (debian-reference-ja, -zh-cn, -zh-tw, -de, -fr; the .mo translations
# come with the base system), builds charset_detect_bench in a Release tree
# (build-rel), writes unlabelled pages in 22 legacy encodings with
# tests/bench/charset_corpus.py and runs the bench: per encoding, the share
# of pages uchardet and ICU's ucsdet read right and their time per page,
# and DecodeBody's time per page labelled, unlabelled and in UTF-8.
#
# Usage: tests/bench/charset_detect.sh [--chars C] [--samples N] [--repeat R]
#   --chars: prose characters per page (default 600; short pages are harder)
set -euo pipefail
SRC=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD_REL:-$SRC/build-rel}
CHARS=600
SAMPLES=40
REPEAT=5
while [ $# -gt 0 ]; do
  case $1 in
    --chars) CHARS=$2; shift 2 ;;
    --samples) SAMPLES=$2; shift 2 ;;
    --repeat) REPEAT=$2; shift 2 ;;
    *) echo "usage: $0 [--chars C] [--samples N] [--repeat R]" >&2; exit 2 ;;
  esac
done

PACKAGES=(debian-reference-ja debian-reference-zh-cn debian-reference-zh-tw debian-reference-de
  debian-reference-fr)
missing=()
for pkg in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "charset_detect.sh: installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi

if [ ! -f "$BUILD/build.ninja" ]; then
  cmake -S "$SRC" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCRAWL_WERROR=ON >/dev/null
fi
cmake --build "$BUILD" --target charset_detect_bench

CORPUS=$(mktemp -d)
trap 'rm -rf "$CORPUS"' EXIT
python3 "$SRC/tests/bench/charset_corpus.py" "$CORPUS" --chars "$CHARS" --samples "$SAMPLES" >/dev/null
echo "charset_detect.sh: $(find "$CORPUS" -type f | wc -l) pages of about $CHARS characters;" \
  "build type $(grep -m1 CMAKE_BUILD_TYPE "$BUILD/CMakeCache.txt")"
"$BUILD/bin/charset_detect_bench" "$CORPUS" --repeat "$REPEAT"
