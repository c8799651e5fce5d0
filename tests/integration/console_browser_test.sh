#!/usr/bin/env bash
# The operator console in a real browser: Debian's
# headless chromium, driven through the DevTools protocol by playwright-core
# (npm, pinned in tests/browser/package-lock.json), walks a secure local
# cluster's console on a testweb universe (tests/browser/console_browser.mjs:
# sign in, create and start a crawl, watch pages/s rise, set a parameter,
# host page, search and cached copy, log, stop/resume/stop, forged posts;
# the reader token sees every page and gets 403 for every action; the admin
# deletes the crawl).
# Screenshots go to $CRAWL_TEST_OUTPUT/console_browser (default
# BIN/../test-output/console_browser). Skipped (exit 77) without chromium,
# node or npm (deploy/install-deps.sh installs them).
source "$(dirname "$0")/lib.sh"

browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "SKIP: chromium is not installed (apt-get install chromium)"; exit 77; }
command -v node >/dev/null && command -v npm >/dev/null || { echo "SKIP: node and npm are needed"; exit 77; }
OUT=${CRAWL_TEST_OUTPUT:-$(dirname "$BIN")/test-output}/console_browser
rm -rf "$OUT" && mkdir -p "$OUT"

mkdir -p "$WORK/browser"
cp "$SRC/tests/browser/package.json" "$SRC/tests/browser/package-lock.json" "$SRC/tests/browser/console_browser.mjs" \
  "$WORK/browser/"
(cd "$WORK/browser" && npm ci --no-audit --no-fund --loglevel=error > "$WORK/npm.log" 2>&1) ||
  fail "npm ci of playwright-core failed: $(tail -5 "$WORK/npm.log")"

web=(--seed 24 --hosts 20 --pages 40000)
start_testweb "${web[@]}"
"$BIN/testweb" seeds "${web[@]}" > "$WORK/seeds.txt"
start_cluster 2 1
tls=$WORK/cluster/tls
[ -s "$tls/admin.token" ] && [ -s "$tls/reader.token" ] || fail "the cluster has no admin and reader tokens"
http=$(tr -d '[:space:]' < "$WORK/cluster/nameserver.http-port")

CHROMIUM=$browser timeout "$(scaled 400)" node "$WORK/browser/console_browser.mjs" "http://127.0.0.1:$http" \
  "$(cat "$tls/admin.token")" "$(cat "$tls/reader.token")" "$WORK/seeds.txt" "$OUT" 2>&1 | tee "$WORK/browser.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || fail "the console walk-through failed (screenshots in $OUT)"
ls "$OUT"/*.png > /dev/null || fail "no screenshots in $OUT"
# What the browser did, seen from crawlctl: the crawl is gone, and so are
# its WARC files on the queue servers.
"$BIN/crawlctl" list > "$WORK/list.txt" || fail "crawlctl list failed"
[ "$(cat "$WORK/list.txt")" = "no crawls" ] || fail "crawlctl still lists a crawl: $(cat "$WORK/list.txt")"
! find "$WORK/cluster" -name 'crawl-*.warc.gz' | grep -q . || fail "WARC files outlived the deleted crawl"
echo "ok: console walk-through in chromium; screenshots in $OUT"
