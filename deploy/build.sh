#!/usr/bin/env bash
# Configures and builds everything into build/ (binaries in build/bin).
# Shared by demo.sh and test.sh so both build the same way. Warnings are
# errors here: this is the build CI runs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# ccache keys on relative paths below the checkout, so clones share a cache.
export CCACHE_BASEDIR="$root"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if [ ! -f "$root/build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$root/build" "${generator[@]}" -DCRAWL_WERROR=ON
fi
cmake --build "$root/build" -j "${CRAWL_JOBS:-2}"
