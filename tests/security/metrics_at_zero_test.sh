#!/usr/bin/env bash
# An idle process exports its metrics at zero. A fetcher's /metrics used to
# be empty until its first fetch (its families were created by the first
# one), so a dashboard or an alert on absent() or rate() could not tell an
# idle fetcher from a broken scrape. This test starts a name server, a queue
# server and a fetcher on loopback, starts no crawl, and requires each
# process's key counters, gauges and histograms on its /metrics with value 0
# (common/base/metrics.h states the rule).
source "$(cd "$(dirname "$0")/../integration" && pwd)/lib.sh"

"$SRC/deploy/local-cluster.sh" up --dir "$WORK/cluster" --queueservers 1 --fetchers 1 --allow-private \
  > "$WORK/cluster-up.log" 2>&1 || fail "the cluster did not start: $(tail -5 "$WORK/cluster-up.log")"

# scrape NAME: that process's /metrics into $WORK/NAME.metrics.
scrape() {
  local port
  port=$(tr -d '[:space:]' < "$WORK/cluster/$1.http-port")
  curl -sf --max-time 10 "http://127.0.0.1:$port/metrics" > "$WORK/$1.metrics" || fail "$1: no /metrics"
}

# expect NAME VALUE SERIES...: each series is a sample line of NAME's
# /metrics with that value ("any": present with some value).
expect() {
  local name=$1 value=$2 series
  shift 2
  for series in "$@"; do
    if [ "$value" = any ]; then
      grep -qF -- "$series " "$WORK/$name.metrics" || fail "$name: no $series in /metrics"
    else
      grep -qxF -- "$series $value" "$WORK/$name.metrics" ||
        fail "$name: expected '$series $value', /metrics has: $(grep -F -- "$series" "$WORK/$name.metrics" | head -3)"
    fi
  done
  echo "ok: $name exports $# series ($value)"
}

for name in nameserver queueserver0 fetcher0; do scrape "$name"; done

expect fetcher0 0 \
  'crawl_fetcher_pages_total{class="1xx"}' 'crawl_fetcher_pages_total{class="2xx"}' \
  'crawl_fetcher_pages_total{class="3xx"}' 'crawl_fetcher_pages_total{class="4xx"}' \
  'crawl_fetcher_pages_total{class="5xx"}' 'crawl_fetcher_pages_total{class="error"}' \
  crawl_fetcher_bytes_total crawl_fetcher_fetch_duration_seconds_count crawl_fetcher_in_flight

expect queueserver0 0 \
  'crawl_queueserver_schedules_total{event="leased"}' 'crawl_queueserver_schedules_total{event="expired"}' \
  crawl_queueserver_leased_urls_total \
  'crawl_queueserver_batches_total{result="applied",rpc="submit_results"}' \
  'crawl_queueserver_batches_total{result="error",rpc="submit_results"}' \
  'crawl_queueserver_batches_total{result="applied",rpc="add_urls"}' \
  'crawl_queueserver_frontier_urls{tier="0"}' crawl_queueserver_urls_seen crawl_queueserver_index_documents \
  'crawl_queueserver_refused_urls{reason="cld_budget"}' 'crawl_queueserver_revisits{event="entered"}'

expect nameserver 0 \
  crawl_nameserver_query_duration_seconds_count crawl_nameserver_crawl_pages_fetched \
  crawl_nameserver_crawl_frontier_urls
# Members heard from: a number from the start (1 once each has registered).
expect nameserver any crawl_nameserver_queue_servers_up crawl_nameserver_fetchers_up
