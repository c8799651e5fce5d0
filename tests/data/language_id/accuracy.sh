#!/usr/bin/env bash
# Per-language accuracy of language identification on the held-out
# paragraphs here (README.md): the old frequent-word guess, the fetcher's
# page rule (CLD2 when reliable) and CLD2's raw answer. Builds
# language_id_bench in BUILD (default: build) first.
#
# Usage: tests/data/language_id/accuracy.sh
set -euo pipefail
SRC=$(cd "$(dirname "$0")/../../.." && pwd)
BUILD=${BUILD:-$SRC/build}
if [ ! -f "$BUILD/build.ninja" ]; then
  cmake -S "$SRC" -B "$BUILD" -G Ninja -DCRAWL_WERROR=ON >/dev/null
fi
cmake --build "$BUILD" --target language_id_bench >/dev/null
"$BUILD/bin/language_id_bench" "$SRC/tests/data/language_id"
