#!/usr/bin/env bash
# The unit files of deploy/systemd/ load cleanly: `systemd-analyze verify`
# without a single warning (it exits 0 on unknown keys and bad values, so
# any output fails too), and `systemd-analyze security --offline` scores
# each sandbox at most 2.5 ("OK"; 10 would be no sandbox at all). Template
# units are checked as an instance. The binaries' and settings' paths are
# pointed at BIN_DIR (default: stubs) and empty settings files.
#   tests/deploy/systemd_test.sh [BIN_DIR]
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/crawl-systemd.XXXXXX")
trap 'rm -rf "$work"' EXIT
command -v systemd-analyze > /dev/null || { echo "FAIL: systemd-analyze not installed (deploy/install-deps.sh --deploy)" >&2; exit 1; }
bin=${1:-}
if [ -z "$bin" ]; then
  bin=$work/bin
  mkdir -p "$bin"
  for b in nameserver queueserver fetcher; do printf '#!/bin/sh\n' > "$bin/$b"; chmod +x "$bin/$b"; done
fi
bin=$(cd "$bin" && pwd)
mkdir -p "$work/etc" "$work/units"
units=()
for f in "$src"/deploy/systemd/*.service; do
  name=$(basename "$f")
  name=${name/@./@x0.}   # a template, checked as instance x0
  sed -e "s|/usr/local/bin/|$bin/|g" -e "s|/etc/crawl/|$work/etc/|g" "$f" > "$work/units/$name"
  units+=("$work/units/$name")
  grep -o "$work/etc/[^ ]*" "$work/units/$name" | sed "s/%i/x0/" | while read -r e; do touch "$e"; done
done
[ ${#units[@]} -ge 3 ] || { echo "FAIL: expected a unit per role in deploy/systemd/" >&2; exit 1; }
fail=0
for u in "${units[@]}"; do
  if ! systemd-analyze verify "$u" > "$work/verify.out" 2>&1 || [ -s "$work/verify.out" ]; then
    echo "FAIL: systemd-analyze verify $(basename "$u"):" >&2; cat "$work/verify.out" >&2; fail=1
  fi
  for key in DynamicUser ProtectSystem=strict NoNewPrivileges; do
    grep -q "^$key" "$u" || { echo "FAIL: $(basename "$u") lacks $key" >&2; fail=1; }
  done
  if ! systemd-analyze security --offline=true --threshold=25 "$u" > "$work/security.out" 2>&1; then
    echo "FAIL: $(basename "$u"): $(tail -n 1 "$work/security.out")" >&2; fail=1
  fi
  echo "ok: $(basename "$u"): verify clean; $(tail -n 1 "$work/security.out" | sed 's/^→ //')"
done
exit $fail
