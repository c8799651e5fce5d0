#!/usr/bin/env bash
# Configures and builds into build/ (binaries in build/bin): everything, or
# only the named targets (demo.sh builds just the five binaries it runs).
# Shared by demo.sh and test.sh so both build the same way. Warnings are
# errors here: this is the build CI runs.
#   build.sh [TARGET...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# ccache keys on relative paths below the checkout, so clones share a cache.
export CCACHE_BASEDIR="$root"
# With debug info ccache also hashes the build directory's absolute path
# (hash_dir), so a clone elsewhere missed every object and rebuilt cold;
# the path only matters to a debugger's source lookup.
export CCACHE_NOHASHDIR=1
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if [ ! -f "$root/build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$root/build" "${generator[@]}" -DCRAWL_WERROR=ON
fi
targets=()
[ $# -eq 0 ] || targets=(--target "$@")
cmake --build "$root/build" -j "${CRAWL_JOBS:-2}" "${targets[@]}"
