#!/usr/bin/env bash
# Stored pages run in our origin: a crawled server answers with a type that
# runs script when rendered (SVG, XML, a charset that breaks the header).
# The console's cached view must serve such pages under a type it chose
# (text/plain unless HTML or a raster image), with nosniff and a sandboxing
# CSP, never the crawled server's own Content-Type.
source "$(dirname "$0")/../integration/lib.sh"
source "$(dirname "$0")/http_lib.sh"

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat > "$WORK/evil_server.py" <<'PY'
import http.server, sys
PAGES = {
    "/": ("text/html; charset=utf-8",
          '<html><head><title>evil</title></head><body><a href="/svg">s</a> <a href="/xml">x</a> '
          '<a href="/quoted">q</a></body></html>'),
    "/svg": ("image/svg+xml", '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>'),
    "/xml": ("application/xhtml+xml", '<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>'),
    "/quoted": ('text/html; charset="x><script>alert(1)</script>"', "<p>quoted charset</p>"),
}
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        page = PAGES.get(self.path)
        if page is None:
            self.send_response(404); self.send_header("Content-Length", "0"); self.end_headers(); return
        body = page[1].encode()
        self.send_response(200)
        self.send_header("Content-Type", page[0])
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *a): pass
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
PY
python3 "$WORK/evil_server.py" "$port" > "$WORK/evil.log" 2>&1 &
_bg_pids+=($!)
for i in $(seq 1 100); do curl -sf -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
echo "127.0.0.1:$port evil.test" > "$WORK/hosts"
printf 'http://evil.test/\nhttp://evil.test/svg\nhttp://evil.test/xml\nhttp://evil.test/quoted\n' > "$WORK/seeds.txt"

start_cluster 1 1
"$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private --cache-pages > /dev/null
state=$(wait_crawl_over 120)
[ "$state" = done ] || fail "crawl ended as $state"
id=$("$BIN/crawlctl" status --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["crawl_id"])')
PORT=$(tr -d '[:space:]' < "$WORK/cluster/nameserver.http-port")
auth=(-H "Authorization: Bearer $(cat "$WORK/cluster/tls/admin.token")")

checked=0
for path in /svg /xml /quoted /; do
  url=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "http://evil.test$path")
  c=$(code "${auth[@]}" "http://127.0.0.1:$PORT/console/cached?crawl=$id&url=$url&view=page")
  [ "$c" = 200 ] || { echo "not cached: $path ($c)"; continue; }
  type=$(header Content-Type)
  case "$path" in
    /) expect "type of an HTML page" "text/html; charset=utf-8" "$type" ;;
    /quoted) expect "type with a hostile charset" "text/html; charset=utf-8" "$type" ;;
    *) expect "type of $path" "text/plain; charset=utf-8" "$type" ;;
  esac
  expect "nosniff on $path" nosniff "$(header X-Content-Type-Options)"
  [[ "$(header Content-Security-Policy)" == *sandbox* ]] || fail "no sandbox CSP on $path"
  checked=$((checked + 1))
done
[ "$checked" -ge 3 ] || fail "only $checked of the hostile pages were cached"
echo "ok: $checked cached pages served under our types, sandboxed"
