#!/usr/bin/env bash
# Search quality on real pages (DESIGN.md 8): a private nginx on a loopback
# address serves the Python documentation (python3-doc's HTML), the local
# cluster crawls it, and for 100 fetched HTML pages chosen at random (fixed
# seed; pages whose title another page shares are left out: their title names
# no single page) the query made of the page's title words must return that page in
# the top 3 for at least 90 of them. Prints the figure and the misses.
# Skips (exit 77) when nginx or python3-doc is missing or nginx cannot run.
source "$(dirname "$0")/lib.sh"

DOCROOT=/usr/share/doc/python3-doc/html
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$NGINX" ] || { echo "SKIP: nginx is not installed (deploy/install-deps.sh installs it)"; exit 77; }
[ -f "$DOCROOT/index.html" ] || { echo "SKIP: python3-doc is not installed ($DOCROOT/index.html missing)"; exit 77; }

# nginx: one process, in the foreground, everything under $WORK.
addr=127.71.0.1
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.71.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$WORK/nginx/tmp"
cat > "$WORK/nginx/nginx.conf" <<CONF
daemon off;
master_process off;
worker_processes 1;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log;
events { worker_connections 256; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log $WORK/nginx/access.log;
  client_body_temp_path $WORK/nginx/tmp/body;
  proxy_temp_path $WORK/nginx/tmp/proxy;
  fastcgi_temp_path $WORK/nginx/tmp/fastcgi;
  uwsgi_temp_path $WORK/nginx/tmp/uwsgi;
  scgi_temp_path $WORK/nginx/tmp/scgi;
  server {
    listen $addr:$port;
    server_name docs.python.test;
    root $DOCROOT;
    charset utf-8;
    disable_symlinks off;
  }
}
CONF
if ! "$NGINX" -t -q -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" > "$WORK/nginx-check.log" 2>&1; then
  echo "SKIP: nginx cannot run here: $(tr '\n' ' ' < "$WORK/nginx-check.log")"
  exit 77
fi
"$NGINX" -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" > "$WORK/nginx.log" 2>&1 &
_bg_pids+=($!)
for i in $(seq 1 100); do
  curl -sf -o /dev/null "http://$addr:$port/index.html" && break
  kill -0 "${_bg_pids[-1]}" 2>/dev/null || { echo "SKIP: nginx exited: $(cat "$WORK/nginx.log" "$WORK/nginx/error.log" 2>/dev/null | tr '\n' ' ')"; exit 77; }
  sleep 0.1
done
curl -sf -o /dev/null "http://$addr:$port/index.html" || fail "nginx does not answer on $addr:$port"

# The fetchers reach docs.python.test through the hosts file.
base="http://docs.python.test/"
echo "$addr:$port docs.python.test" > "$WORK/hosts"
start_cluster 2 2
# On a loaded machine the first RPCs may time out: wait until the name
# server answers (a connection that never opened changed nothing).
for i in $(seq 1 60); do "$BIN/crawlctl" servers > /dev/null 2>&1 && break; sleep 1; done
echo "${base}index.html" > "$WORK/seeds.txt"
"$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private --include-hosts docs.python.test >/dev/null
state=$(wait_crawl_over 200)
[ "$state" = done ] || fail "crawl ended as $state"
"$BIN/crawlctl" log > "$WORK/crawl.log"
echo "crawl log: $(wc -l < "$WORK/crawl.log") fetches"

q() { python3 "$(dirname "$0")/search_quality.py" "$@"; }
q pick "$WORK/crawl.log" "$base" "$DOCROOT" 100 20261122 > "$WORK/picks.jsonl"
q check "$WORK/picks.jsonl" "$base" "$DOCROOT" 3 "$BIN/crawlctl" 90 | tee "$WORK/quality.txt" ||
  fail "fewer than 90 of 100 known items in the top 3: $(tail -1 "$WORK/quality.txt")"
