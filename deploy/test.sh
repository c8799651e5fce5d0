#!/usr/bin/env bash
# The whole test suite from a fresh machine: installs dependencies, builds,
# runs every unit and integration test with ctest. Exits non-zero on any
# failure.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
./deploy/install-deps.sh
./deploy/build.sh
ctest --test-dir build --output-on-failure -j 2 --timeout 900
