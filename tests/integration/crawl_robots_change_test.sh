#!/usr/bin/env bash
# robots.txt expires (RFC 9309 2.4) with real processes: a
# continuous crawl (--recrawl, every page due again after 3 s) whose rules
# live at most 3 s (--robots-max-age 3). Mid-crawl a test replaces one
# host's robots.txt with "Disallow: /" (testweb --robots-control): once the
# crawler has fetched the new robots.txt, testweb's access log shows no
# further page of that host, while the other host's pages keep coming. Then
# the old robots.txt is restored: the host's pages are fetched again.
source "$(dirname "$0")/lib.sh"

web=(--seed 3 --hosts 2 --pages 16 --disable robots-5xx,robots-unreachable,robots-rules)
start_testweb "${web[@]}" --robots-control
start_cluster 1 1
"$BIN/testweb" seeds "${web[@]}" > "$WORK/seeds.txt"
"$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private --recrawl --revisit-policy fixed \
  --revisit-interval 3 --robots-max-age 3 > /dev/null

host=www.site0.test other=www.site1.test
addr=$(awk -v h=$host '$2 == h {print $1}' "$WORK/hosts")
[ -n "$addr" ] || fail "no address for $host in $(cat "$WORK/hosts")"
now() { date -u +%Y-%m-%dT%H:%M:%S.%6NZ; }
# page_fetches HOST AFTER: GETs of that host's pages (robots.txt aside) logged after AFTER.
page_fetches() { awk -F'\t' -v h="$1" -v t="$2" '$2 == h && $1 > t && $3 != "/robots.txt"' "$WORK/access.log" | wc -l; }
# wait_for WHAT SECONDS COMMAND...: until COMMAND succeeds.
wait_for() {
  local what=$1 limit=$(scaled "$2")
  local deadline=$((SECONDS + limit))
  shift 2
  until "$@"; do
    [ $SECONDS -lt $deadline ] || fail "$what (waited $limit s)"
    sleep 0.5
  done
}

# The recrawl is under way: pages of the host fetched more than once.
revisited() { [ "$(awk -F'\t' -v h=$host '$2 == h && $3 != "/robots.txt" {print $3}' "$WORK/access.log" | sort | uniq -d | wc -l)" -gt 0 ]; }
wait_for "no page of $host was fetched twice" 90 revisited

changed_at=$(now)
curl -fsS --noproxy '*' -X PUT --data-binary $'User-agent: *\nDisallow: /\n' \
  "http://$addr/_testweb/robots" -H "Host: $host" > /dev/null || fail "PUT robots.txt"
robots_after() { awk -F'\t' -v h=$host -v t="$1" '$2 == h && $1 > t && $3 == "/robots.txt"' "$WORK/access.log" | grep -q .; }
wait_for "$host's robots.txt was not fetched again after the change" 60 robots_after "$changed_at"
refetched_at=$(awk -F'\t' -v h=$host -v t="$changed_at" '$2 == h && $1 > t && $3 == "/robots.txt" {print $1}' \
  "$WORK/access.log" | sort | head -1)
# Requests already on their way when the new rules arrived may still land.
sleep 2
settled_at=$(now)
# Several revisit periods of the other host.
other_more() { [ "$(page_fetches $other "$settled_at")" -ge 4 ]; }
wait_for "the crawl stopped fetching $other" 60 other_more
sleep 3
late=$(page_fetches $host "$settled_at")
[ "$late" -eq 0 ] || fail "$late fetches of $host pages after its robots.txt disallowed everything (re-fetched at $refetched_at): $(awk -F'\t' -v h=$host -v t="$settled_at" '$2 == h && $1 > t' "$WORK/access.log" | head -3)"
echo "robots.txt of $host changed at $changed_at, fetched again at $refetched_at; then $(page_fetches $other "$settled_at") fetches of $other and none of $host"

restored_at=$(now)
curl -fsS --noproxy '*' -X DELETE "http://$addr/_testweb/robots" -H "Host: $host" > /dev/null || fail "DELETE robots.txt"
host_again() { [ "$(page_fetches $host "$restored_at")" -gt 0 ]; }
wait_for "no page of $host was fetched after its robots.txt allowed them again" 60 host_again
echo "robots.txt of $host restored at $restored_at: its pages are fetched again"
[ "$(status_field state)" = running ] || fail "the recrawl crawl ended: $(status_json)"
"$BIN/crawlctl" stop > /dev/null
