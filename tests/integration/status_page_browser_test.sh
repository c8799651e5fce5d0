#!/usr/bin/env bash
# The name server's status page in a real browser: headless Chromium loads
# /status while a crawl runs, runs its script, and the rendered page shows
# the running crawl's id, state and numbers. Skipped (exit 77) when Debian's
# chromium is not installed (deploy/install-deps.sh installs it).
source "$(dirname "$0")/lib.sh"

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "SKIP: chromium is not installed (apt-get install chromium)"
  exit 77
fi

web=(--seed 9 --hosts 40 --pages 40000)
start_testweb "${web[@]}"
start_cluster 1 1
"$BIN/testweb" seeds "${web[@]}" > "$WORK/seeds.txt"
"$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private --schedule-size 50 > /dev/null
id=$("$BIN/crawlctl" status --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["crawl_id"])')
pages() { status_field pages_fetched; }
deadline=$((SECONDS + $(scaled 60)))
until [ "$(pages)" -gt 200 ]; do [ $SECONDS -lt $deadline ] || fail "no progress"; sleep 0.2; done
sleep 4  # two progress samples, so the charts have lines
before=$(pages)

http=$(tr -d '[:space:]' < "$WORK/cluster/nameserver.http-port")
# --virtual-time-budget lets the page's fetch() and rendering finish before
# the DOM is dumped.
timeout 90 "$browser" --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage \
  --user-data-dir="$WORK/chromium" --virtual-time-budget=5000 \
  --dump-dom "http://127.0.0.1:$http/status" > "$WORK/dom.html" 2> "$WORK/chromium.log" \
  || fail "chromium failed: $(tail -n 5 "$WORK/chromium.log")"
after=$(pages)

python3 - "$WORK/dom.html" "$id" "$before" "$after" <<'PY' || fail "status page does not show the crawl (DOM in $WORK/dom.html)"
import re, sys
dom, crawl_id, before, after = open(sys.argv[1]).read(), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
def text(elem_id):
    m = re.search(r'id="%s"[^>]*>([^<]*)<' % elem_id, dom)
    return m.group(1) if m else None
assert text("crawl-id") == crawl_id, ("crawl id", text("crawl-id"))
assert text("crawl-state") == "running", ("state", text("crawl-state"))
shown = int(text("pages-fetched").replace(",", ""))
assert before <= shown <= after, ("pages shown", shown, "expected between", before, after)
assert "<path d=\"M" in dom, "no chart line drawn"
assert dom.count("<span class=\"good\">up</span>") >= 2, "queue server and fetcher rows not healthy"
print("ok: status page shows crawl", crawl_id, "running with", shown, "pages (crawlctl:", before, "->", after, ")")
PY
