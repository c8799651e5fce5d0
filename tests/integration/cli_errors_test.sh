#!/usr/bin/env bash
# Bad input to every binary: a one-line error and a non-zero exit, never a
# crash (exit codes >= 128 mean a signal killed the process).
source "$(dirname "$0")/lib.sh"

expect_error() {  # expect_error DESCRIPTION COMMAND...
  local what=$1; shift
  set +e
  "$@" > "$WORK/out" 2> "$WORK/err" < /dev/null
  local rc=$?
  set -e
  [ $rc -ne 0 ] || fail "$what: exit 0"
  [ $rc -lt 128 ] || fail "$what: killed by a signal (exit $rc)"
  [ -s "$WORK/err" ] || fail "$what: no error message"
  echo "ok: $what -> $(head -n 1 "$WORK/err")"
}

# A port nobody listens on: bind and release one.
dead=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
echo "http://www.site0.test/" > "$WORK/seeds.txt"

expect_error "crawlctl without a name server" env -u CRAWL_NAMESERVER "$BIN/crawlctl" status
expect_error "crawlctl unreachable name server" "$BIN/crawlctl" --nameserver "127.0.0.1:$dead" status
expect_error "crawlctl bad address" "$BIN/crawlctl" --nameserver "nonsense" status
expect_error "crawlctl missing seeds file" "$BIN/crawlctl" --nameserver "127.0.0.1:$dead" start --seeds "$WORK/none.txt"
expect_error "crawlctl bad flag" "$BIN/crawlctl" --nameserver "127.0.0.1:$dead" start --seeds "$WORK/seeds.txt" --bogus
expect_error "crawlctl no subcommand" "$BIN/crawlctl"
expect_error "fetcher without name server" "$BIN/fetcher"
expect_error "fetcher missing hosts file" "$BIN/fetcher" --nameserver "127.0.0.1:$dead" --hosts-file "$WORK/none"
expect_error "fetcher zero schedules" "$BIN/fetcher" --nameserver "127.0.0.1:$dead" --schedules 0
expect_error "fetcher too many schedules" "$BIN/fetcher" --nameserver "127.0.0.1:$dead" --schedules 65
expect_error "crawlctl bad max links" "$BIN/crawlctl" --nameserver "127.0.0.1:$dead" start --seeds "$WORK/seeds.txt" --max-links-per-page lots
expect_error "queueserver bad listen address" "$BIN/queueserver" --nameserver "127.0.0.1:$dead" --listen "127.0.0.1:notaport"
expect_error "nameserver port out of range" "$BIN/nameserver" --listen "127.0.0.1:99999"
expect_error "testweb no subcommand" "$BIN/testweb"
expect_error "testweb zero hosts" "$BIN/testweb" seeds --seed 1 --hosts 0 --pages 10
expect_error "testweb unknown preset" "$BIN/testweb" seeds --seed 1 --hosts 2 --pages 10 --preset nope

# Against a live name server with no queue servers and with bad seeds.
"$SRC/deploy/local-cluster.sh" up --dir "$WORK/cluster" --queueservers 1 --fetchers 0
. "$WORK/cluster/cluster.env"
printf 'not a url\nftp://x.test/\n' > "$WORK/bad_seeds.txt"
expect_error "crawlctl only invalid seeds" "$BIN/crawlctl" --nameserver "$NAMESERVER" start --seeds "$WORK/bad_seeds.txt"
expect_error "crawlctl unknown order" "$BIN/crawlctl" --nameserver "$NAMESERVER" start --seeds "$WORK/seeds.txt" --order nope
# ScoringFilter chain: a bad setting fails the start,
# naming it; the form at the name server, names and values at the queue server.
expect_error "crawlctl scoring param not filter.key=value" "$BIN/crawlctl" --nameserver "$NAMESERVER" start \
  --seeds "$WORK/seeds.txt" --order bfs --scoring-filters depth --scoring-param weight=2
grep -q "filter.key=value" "$WORK/err" || fail "scoring param form: $(cat "$WORK/err")"
expect_error "crawlctl unknown scoring filter" "$BIN/crawlctl" --nameserver "$NAMESERVER" start \
  --seeds "$WORK/seeds.txt" --order bfs --scoring-filters depth,pagerank
grep -q "unknown scoring filter 'pagerank'" "$WORK/err" || fail "unknown filter: $(cat "$WORK/err")"
grep -q "cannot reach" "$WORK/err" && fail "a refused parameter reads as an unreachable server: $(cat "$WORK/err")"
expect_error "crawlctl unknown scoring key" "$BIN/crawlctl" --nameserver "$NAMESERVER" start \
  --seeds "$WORK/seeds.txt" --order opic --scoring-param opic.score_power=0.5 --scoring-param opic.colour=red
grep -q "opic.colour" "$WORK/err" || fail "unknown key: $(cat "$WORK/err")"
expect_error "crawlctl bad scoring value" "$BIN/crawlctl" --nameserver "$NAMESERVER" start \
  --seeds "$WORK/seeds.txt" --order host_budget --scoring-filters link-kind --scoring-param link-kind.nav=2
grep -q "link-kind.nav" "$WORK/err" || fail "bad value: $(cat "$WORK/err")"
expect_error "crawlctl stop with nothing running" "$BIN/crawlctl" --nameserver "$NAMESERVER" stop
expect_error "nameserver port in use" "$BIN/nameserver" --listen "$NAMESERVER"
expect_error "crawlctl status before any crawl" "$BIN/crawlctl" --nameserver "$NAMESERVER" status

# help works for every binary
for b in nameserver queueserver fetcher crawlctl testweb; do
  "$BIN/$b" --help > /dev/null || fail "$b --help"
done
echo "ok: --help"

# Config files (--config, TOML) and the HTTP endpoint flags.
printf 'poll-ms = "often"\n' > "$WORK/bad.toml"
expect_error "nameserver bad value in config file" "$BIN/nameserver" --config "$WORK/bad.toml"
expect_error "nameserver missing config file" "$BIN/nameserver" --config "$WORK/none.toml"
expect_error "nameserver bad http address" "$BIN/nameserver" --http-listen "localhost"
expect_error "nameserver unusable data dir" "$BIN/nameserver" --data-dir /proc/crawl-no-such-dir
expect_error "crawlctl set-param without a value" "$BIN/crawlctl" --nameserver "127.0.0.1:$dead" set-param max_pages
expect_error "crawlctl set-param bad value" "$BIN/crawlctl" --nameserver "127.0.0.1:$dead" set-param max_pages many
expect_error "crawlctl resume unreachable" "$BIN/crawlctl" --nameserver "127.0.0.1:$dead" resume
