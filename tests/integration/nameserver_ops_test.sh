#!/usr/bin/env bash
# Name server operations against a live cluster: the registry survives
# kill -9 (stopped and running crawls alike), a stopped crawl resumes from
# where it stopped, set-param changes a running crawl's page budget, and the
# status page and metrics show the running crawl's numbers.
source "$(dirname "$0")/lib.sh"

web=(--seed 5 --hosts 40 --pages 20000)
start_testweb "${web[@]}"
start_cluster 2 1
"$BIN/testweb" seeds "${web[@]}" > "$WORK/seeds.txt"
. "$WORK/cluster/cluster.env"
field() { python3 -c "import json,sys; d=json.load(sys.stdin); print(eval(\"d\" + sys.argv[1]))" "$1"; }
pages() { status_field pages_fetched; }
kill_nameserver() {
  kill -9 "$(cat "$WORK/cluster/nameserver.pid")"
  while kill -0 "$(cat "$WORK/cluster/nameserver.pid")" 2>/dev/null; do sleep 0.05; done
  "$SRC/deploy/local-cluster.sh" restart --dir "$WORK/cluster" > /dev/null
}

# 1. A crawl runs a while, is stopped; the name server dies and comes back.
"$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private --schedule-size 50 > /dev/null
id=$(status_field crawl_id)
deadline=$((SECONDS + $(scaled 60)))
until [ "$(pages)" -gt 300 ]; do [ $SECONDS -lt $deadline ] || fail "no progress"; sleep 0.1; done
"$BIN/crawlctl" stop > /dev/null
stopped_pages=$(pages)
kill_nameserver
"$BIN/crawlctl" list --json > "$WORK/list.json"
state=$(field "[\"crawls\"][0][\"state\"]" < "$WORK/list.json")
[ "$state" = stopped ] || fail "after a name server kill the crawl is '$state': $(cat "$WORK/list.json")"
[ "$(status_field crawl_id)" = "$id" ] || fail "crawl id changed"
[ "$(pages)" -ge "$stopped_pages" ] || fail "pages went back from $stopped_pages to $(pages)"
echo "ok: stopped crawl $id with $stopped_pages pages survives kill -9 of the name server"

# 2. Resume: the same crawl runs again and fetches more.
"$BIN/crawlctl" resume > "$WORK/resume.out" || fail "resume: $(cat "$WORK/resume.out")"
grep -q "crawl $id resumed" "$WORK/resume.out" || fail "resume said: $(cat "$WORK/resume.out")"
[ "$(status_field state)" = running ] || fail "resumed crawl not running"
"$BIN/crawlctl" resume 2> "$WORK/err" && fail "resumed a running crawl"
grep -q "is running" "$WORK/err" || fail "unclear error: $(cat "$WORK/err")"

# 3. set-param: a page budget on the running crawl ends it at that budget.
# The status's count lags the queue servers by up to a poll interval while
# the resumed crawl runs at up to ~1000 pages a second, so the budget is set
# well above the count read just before it: it must still lie ahead.
budget=$(($(pages) + 3000))
"$BIN/crawlctl" set-param max_pages "$budget" > "$WORK/set.out"
grep -q "params version" "$WORK/set.out" || fail "set-param said: $(cat "$WORK/set.out")"
"$BIN/crawlctl" set-param order opic 2> "$WORK/err" && fail "order changed mid-crawl"
grep -q "cannot change" "$WORK/err" || fail "unclear error: $(cat "$WORK/err")"
"$BIN/crawlctl" set-param max_pages lots 2> "$WORK/err" && fail "accepted a bad value"
grep -q "not a whole number" "$WORK/err" || fail "unclear error: $(cat "$WORK/err")"

# 4. The status page shows the running crawl (checked before it can end).
http=$(tr -d '[:space:]' < "$WORK/cluster/nameserver.http-port")
curl -sf "http://127.0.0.1:$http/status.json" > "$WORK/status.json" || fail "no status.json"
[ "$(field '["crawl"]["crawl_id"]' < "$WORK/status.json")" = "$id" ] || fail "status page shows another crawl"
curl -sf "http://127.0.0.1:$http/status" | grep -q "status.json" || fail "no status page"
curl -sf "http://127.0.0.1:$http/healthz" | grep -q ok || fail "no health answer"

# 5. The name server dies while the crawl runs; the crawl goes on to its budget.
kill_nameserver
state=$(wait_crawl_over 180)
[ "$state" = done ] || fail "crawl ended as $state"
final=$("$BIN/crawlctl" status --json)
reason=$(echo "$final" | field '["end_reason"]')
got=$(echo "$final" | field '["pages_fetched"]')
[ "$reason" = "max pages" ] || fail "end reason '$reason'"
# URLs already leased when the budget arrived may still be fetched: at most
# one schedule (50) per queue server and fetcher origin slot beyond it.
[ "$got" -ge "$budget" ] && [ "$got" -le $((budget + 200)) ] || fail "budget $budget but $got pages"
echo "ok: resumed, budget set to $budget mid-crawl, survived a second kill -9, ended with $got pages"
