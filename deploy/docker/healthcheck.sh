#!/bin/sh
# The image's HEALTHCHECK: GET /healthz on the admin HTTP address of the crawl
# process running in this container (its --http-listen flag; a wildcard
# address is asked on loopback). Exits 0 when it answers "ok".
set -eu
addr=""
for cmdline in /proc/[0-9]*/cmdline; do
  addr=$(tr '\0' '\n' < "$cmdline" 2>/dev/null | sed -n '/^--http-listen$/{n;p;q};s/^--http-listen=//p' | head -n 1) || true
  [ -n "$addr" ] && break
done
[ -n "$addr" ] || { echo "no crawl process with --http-listen in this container" >&2; exit 1; }
port=${addr##*:}
host=${addr%:*}
case "$host" in
  0.0.0.0|""|"[::]") host=127.0.0.1 ;;
esac
[ "$port" != 0 ] || { echo "--http-listen port 0: nothing to ask" >&2; exit 1; }
body=$(curl -fsS --max-time 4 "http://$host:$port/healthz")
[ "$body" = ok ] || { echo "/healthz answered '$body'" >&2; exit 1; }
