#!/usr/bin/env bash
# The docker-compose cluster, for real (deploy/test.sh stage `deploy`):
#  1. a container engine (a private dockerd when none answers) and the
#     debootstrapped base images (tests/deploy/lib.sh);
#  2. the crawl image from the real deploy/docker/Dockerfile: each binary's
#     --help runs in it (a missing shared library fails), it runs as a
#     non-root user and has a HEALTHCHECK; its size is printed;
#  3. deploy/docker-compose.yml with deploy/docker-compose.test.yml on top
#     (loopback host networking, a testweb, Debian's Prometheus): the certs
#     one-shot, the name server, two queue servers, two fetchers, all mutual
#     TLS, every container healthy;
#  4. crawl 1, started with crawlctl in a container of the compose file: every
#     reachable page of testweb's export fetched exactly once;
#  5. crawl 2: `docker-compose kill` of a queue server mid-crawl and `up`
#     again: it reloads its store, nothing is lost;
#  6. Prometheus (/api/v1/targets) scrapes every crawl process and each is
#     up; `promtool check metrics` passes on each process's /metrics; every
#     metric the Grafana dashboard queries is in those /metrics;
#  7. `down` and `up`: both crawls and their logs are still there (volumes).
# Everything it started (containers, volumes, networks, its dockerd) is
# stopped at the end, whatever happens. Images and the build cache stay, so
# the next run is warm.
#
#   tests/deploy/compose_test.sh          (root: it may start dockerd)
# Environment: CRAWL_DOCKER_ROOT (see lib.sh), CRAWL_JOBS (image build
# parallelism, 2), CRAWL_TEST_TIME_SCALE (time limits, 1).
source "$(dirname "$0")/lib.sh"
SRC=$DEPLOY_SRC
cd "$SRC"
scale=${CRAWL_TEST_TIME_SCALE:-1}
web=(--seed 11 --hosts 40 --pages 8000)   # as the override's testweb service
schedule_size=100
fetchers=2

# One compose test at a time on this machine: the loopback addresses and
# the project name are fixed.
exec 8>"${TMPDIR:-/tmp}/crawl-compose-test.lock"
flock -n 8 || { log "waiting for another compose test"; flock 8; }

docker_up
base_images

# ---- 2. the image --------------------------------------------------------
t0=$SECONDS
old_image=$($DOCKER image inspect -f '{{.Id}}' crawl:latest 2>/dev/null || true)
log "building crawl:latest from deploy/docker/Dockerfile"
DOCKER_BUILDKIT=1 $DOCKER build --network host --progress=plain --build-arg "JOBS=${CRAWL_JOBS:-2}" \
  -f deploy/docker/Dockerfile -t crawl:latest . > "$DEPLOY_TMP/build.log" 2>&1 ||
  { tail -n 60 "$DEPLOY_TMP/build.log" >&2; fail "docker build of deploy/docker/Dockerfile"; }
grep -E 'cache hit|cache miss|Hits:|Misses:' "$DEPLOY_TMP/build.log" | sed 's/^#[0-9]* [0-9.]* */  ccache: /' || true
log "image built in $((SECONDS - t0)) s"
# The image it replaced (now untagged) would pile up run after run, and so
# would old build stages in the build cache of our own data root (a shared
# engine's cache is not ours to prune): keep the most recently used 6 GB,
# which holds the apt layers and the compiler cache mount.
new_image=$($DOCKER image inspect -f '{{.Id}}' crawl:latest)
if [ -n "$old_image" ] && [ "$old_image" != "$new_image" ]; then $DOCKER rmi "$old_image" > /dev/null 2>&1 || true; fi
if [ -n "$_dockerd_pid" ]; then $DOCKER builder prune -f --keep-storage 6GB > /dev/null 2>&1 || true; fi
DOCKER_BUILDKIT=1 $DOCKER build --network host -q -f tests/deploy/prometheus.Dockerfile \
  -t crawl-test-prometheus:latest tests/deploy > "$DEPLOY_TMP/build-prometheus.log" 2>&1 ||
  { cat "$DEPLOY_TMP/build-prometheus.log" >&2; fail "docker build of the test's Prometheus image"; }

size=$($DOCKER image inspect -f '{{.Size}}' crawl:latest)
log "crawl:latest is $((size / 1000000)) MB ($(numfmt --to=iec "$size"))"
[ "$($DOCKER run --rm --network none crawl:latest id -u)" != 0 ] || fail "the image runs as root"
$DOCKER image inspect -f '{{json .Config.Healthcheck}}' crawl:latest | grep -q crawl-healthcheck ||
  fail "the image has no HEALTHCHECK"
for b in nameserver queueserver fetcher crawlctl testweb; do
  $DOCKER run --rm --network none crawl:latest "$b" --help > "$DEPLOY_TMP/help.out" 2>&1 ||
    fail "$b --help in the image: $(head -n 5 "$DEPLOY_TMP/help.out")"
done
$DOCKER run --rm --network none crawl:latest sh -c 'certs.sh --help >/dev/null && openssl version >/dev/null && curl --version >/dev/null' ||
  fail "certs.sh, openssl or curl missing in the image"
log "ok: every binary runs in the image (--help), as a non-root user, with a HEALTHCHECK"

# ---- 3. the cluster --------------------------------------------------------
dc() { docker-compose -p crawltest -f deploy/docker-compose.yml -f deploy/docker-compose.test.yml "$@"; }
export COMPOSE_INTERACTIVE_NO_CLI=1
services=(certs nameserver queueserver0 queueserver1 fetcher0 fetcher1 testweb prometheus)
dump_logs() {
  echo "== docker-compose ps" >&2
  dc ps >&2 2>&1
  local s
  for s in "${services[@]}"; do
    echo "== $s (last 25 lines)" >&2
    dc logs --no-color --tail 25 "$s" >&2 2>&1
  done
}
on_exit 'if [ $rc -ne 0 ]; then dump_logs; fi; [ -z "${ctl_cid:-}" ] || $DOCKER rm -f "$ctl_cid" >/dev/null 2>&1; dc down -v --remove-orphans --timeout 10 >/dev/null 2>&1'
# Whatever an interrupted earlier run left.
dc down -v --remove-orphans --timeout 5 > /dev/null 2>&1 || true

wait_healthy() {  # wait_healthy SERVICE...: each container's health check passes
  local deadline=$((SECONDS + 120 * scale)) s cid state
  for s in "$@"; do
    while :; do
      cid=$(dc ps -q "$s")
      state=$($DOCKER inspect -f '{{if .State.Health}}{{.State.Health.Status}}{{else}}{{.State.Status}}{{end}}' "$cid" 2>/dev/null || echo none)
      [ "$state" = healthy ] && break
      [ $SECONDS -lt $deadline ] || fail "$s is $state, not healthy"
      sleep 1
    done
  done
}

t0=$SECONDS
dc up -d "${services[@]}" > "$DEPLOY_TMP/up.log" 2>&1 || { cat "$DEPLOY_TMP/up.log" >&2; fail "docker-compose up"; }
wait_healthy nameserver queueserver0 queueserver1 fetcher0 fetcher1
log "ok: cluster up and healthy in $((SECONDS - t0)) s (${services[*]})"

# The operator's client: the compose file's crawlctl service (admin client
# certificate), kept running so each command is one `docker exec`.
ctl_cid=$(dc run -d --rm --entrypoint sleep crawlctl 3600)
ctl() { $DOCKER exec -i "$ctl_cid" crawlctl "$@"; }
field() { python3 -c 'import json,sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }
status_field() {  # status_field NAME: of `crawlctl status --json`, -1 when the call failed
  local out
  out=$(ctl status --json 2>/dev/null) && echo "$out" | field "$1" 2>/dev/null || echo -1
}
wait_over() {  # wait_over LIMIT_S: the crawl's state once it is not running
  local deadline=$((SECONDS + $1 * scale)) state
  while [ $SECONDS -lt $deadline ]; do
    state=$(status_field state)
    [ "$state" != running ] && [ "$state" != -1 ] && { echo "$state"; return 0; }
    sleep 1
  done
  ctl status >&2 || true
  fail "crawl still running after $(($1 * scale)) s"
}
tw() { dc exec -T testweb "$@"; }

tw testweb seeds "${web[@]}" > "$DEPLOY_TMP/seeds.txt"
tw testweb export "${web[@]}" --out - > "$DEPLOY_TMP/reachable.tsv"
reachable=$(grep -c . "$DEPLOY_TMP/reachable.tsv")
[ "$reachable" -ge 1000 ] || fail "universe too small: $reachable"
$DOCKER cp "$DEPLOY_TMP/seeds.txt" "$ctl_cid:/tmp/seeds.txt"

# ---- 4. crawl 1: exactly once ---------------------------------------------
t0=$SECONDS
ctl start --seeds /tmp/seeds.txt --allow-private --schedule-size $schedule_size
crawl1=$(status_field crawl_id)
state=$(wait_over 300)
[ "$state" = done ] || fail "crawl 1 ended as $state"
ctl log > "$DEPLOY_TMP/crawl1.log"
python3 tests/integration/check_nothing_lost.py "$DEPLOY_TMP/crawl1.log" "$DEPLOY_TMP/reachable.tsv" 0 \
  "crawl 1 in docker-compose" || fail "crawl 1: fetched set != reachable set"
log "ok: crawl $crawl1: every one of $reachable reachable pages fetched exactly once ($((SECONDS - t0)) s)"

# ---- 5. crawl 2: a queue server killed mid-crawl ---------------------------
t0=$SECONDS
loads=$(dc logs --no-color queueserver1 2>&1 | grep -c "loaded from the store" || true)
ctl start --seeds /tmp/seeds.txt --allow-private --schedule-size $schedule_size --lease-seconds 10
crawl2=$(status_field crawl_id)
[ "$crawl2" != "$crawl1" ] || fail "crawl 2 has crawl 1's id"
target=$((reachable / 4))
deadline=$((SECONDS + 180 * scale))
while :; do
  # One status call per round: each is a docker exec.
  read -r state fetched < <(ctl status --json 2>/dev/null |
    python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["state"], j["pages_fetched"])' 2>/dev/null || echo "-1 -1")
  [ "$fetched" -ge "$target" ] && break
  [ "$state" = running ] || [ "$state" = -1 ] || fail "crawl 2 ended ($state) before the kill at $target pages"
  [ $SECONDS -lt $deadline ] || fail "crawl 2 did not reach $target pages"
  sleep 0.2
done
dc kill queueserver1 > /dev/null 2>&1
log "killed queueserver1 (SIGKILL) at $fetched of $reachable pages"
# Mid-crawl, or the restart proves nothing.
[ "$fetched" -lt $((reachable * 3 / 4)) ] || fail "the kill came too late ($fetched of $reachable pages fetched)"
sleep 1
dc up -d queueserver1 > "$DEPLOY_TMP/up2.log" 2>&1 || { cat "$DEPLOY_TMP/up2.log" >&2; fail "up after the kill"; }
wait_healthy queueserver1
[ "$(dc logs --no-color queueserver1 2>&1 | grep -c "loaded from the store" || true)" -gt "$loads" ] ||
  fail "queueserver1 did not load its state from the store after the kill"
state=$(wait_over 300)
[ "$state" = done ] || fail "crawl 2 ended as $state"
ctl log > "$DEPLOY_TMP/crawl2.log"
python3 tests/integration/check_nothing_lost.py "$DEPLOY_TMP/crawl2.log" "$DEPLOY_TMP/reachable.tsv" \
  $((fetchers * 4 * schedule_size)) "docker-compose kill of queueserver1" || fail "crawl 2 lost pages"
log "ok: crawl $crawl2 with a queue server killed: nothing lost ($((SECONDS - t0)) s)"

# ---- 6. Prometheus, promtool, the dashboard --------------------------------
declare -A metrics_urls=(
  [nameserver]=127.77.0.1:9100 [queueserver0]=127.77.0.2:9101 [queueserver1]=127.77.0.3:9101
  [fetcher0]=127.77.0.4:9102 [fetcher1]=127.77.0.5:9102)
prom_cid=$(dc ps -q prometheus)
for s in "${!metrics_urls[@]}"; do
  curl -fsS --max-time 10 "http://${metrics_urls[$s]}/metrics" > "$DEPLOY_TMP/metrics-$s.txt" ||
    fail "GET /metrics of $s"
  $DOCKER exec -i "$prom_cid" promtool check metrics < "$DEPLOY_TMP/metrics-$s.txt" > "$DEPLOY_TMP/promtool-$s.out" 2>&1 ||
    fail "promtool check metrics on $s: $(head -n 20 "$DEPLOY_TMP/promtool-$s.out")"
done
log "ok: promtool check metrics passes on the /metrics of ${!metrics_urls[*]}"
python3 tests/deploy/check_dashboard.py deploy/grafana/crawl-dashboard.json "$DEPLOY_TMP"/metrics-*.txt ||
  fail "the Grafana dashboard queries metrics no process exports"
deadline=$((SECONDS + 60 * scale))
while :; do
  curl -fsS --max-time 10 http://127.77.0.9:9090/api/v1/targets > "$DEPLOY_TMP/targets.json" 2>/dev/null &&
    python3 tests/deploy/check_targets.py "$DEPLOY_TMP/targets.json" "${!metrics_urls[@]}" > "$DEPLOY_TMP/targets.out" 2>&1 &&
    break
  [ $SECONDS -lt $deadline ] || fail "Prometheus targets: $(cat "$DEPLOY_TMP/targets.out" 2>/dev/null)"
  sleep 2
done
log "$(cat "$DEPLOY_TMP/targets.out")"

# ---- 7. down and up: the data is in the volumes ----------------------------
# The logs as they are now, just before `down` (crawl 2's may have grown
# since it was declared done: results a fetcher held for the killed queue
# server can land after the re-leased copies were fetched; said below).
ctl list > "$DEPLOY_TMP/list-before.json"
ctl log --crawl "$crawl1" > "$DEPLOY_TMP/crawl1-before.log"
ctl log --crawl "$crawl2" > "$DEPLOY_TMP/crawl2-before.log"
cmp -s "$DEPLOY_TMP/crawl1.log" "$DEPLOY_TMP/crawl1-before.log" || fail "crawl 1's log changed after it was done"
if ! cmp -s "$DEPLOY_TMP/crawl2.log" "$DEPLOY_TMP/crawl2-before.log"; then
  echo "note: crawl 2's log grew from $(grep -c . "$DEPLOY_TMP/crawl2.log") to" \
    "$(grep -c . "$DEPLOY_TMP/crawl2-before.log") lines after the crawl was done"
fi
$DOCKER rm -f "$ctl_cid" > /dev/null
ctl_cid=""
# Stopped first, so the fetchers' shutdown lines can be kept before `down`
# removes the containers (the note below prints them if crawl 2 grew).
dc stop --timeout 30 > "$DEPLOY_TMP/stop.log" 2>&1 || { cat "$DEPLOY_TMP/stop.log" >&2; fail "docker-compose stop"; }
dc logs --no-color fetcher0 fetcher1 queueserver0 queueserver1 > "$DEPLOY_TMP/logs-before-down.txt" 2>&1 || true
dc down --timeout 30 > "$DEPLOY_TMP/down.log" 2>&1 || { cat "$DEPLOY_TMP/down.log" >&2; fail "docker-compose down"; }
[ -z "$(dc ps -q)" ] || fail "containers left after down"
dc up -d "${services[@]}" > "$DEPLOY_TMP/up3.log" 2>&1 || { cat "$DEPLOY_TMP/up3.log" >&2; fail "docker-compose up after down"; }
wait_healthy nameserver queueserver0 queueserver1 fetcher0 fetcher1
ctl_cid=$(dc run -d --rm --entrypoint sleep crawlctl 3600)
ctl list > "$DEPLOY_TMP/list-after.json"
cmp -s "$DEPLOY_TMP/list-before.json" "$DEPLOY_TMP/list-after.json" ||
  fail "crawl list changed over down/up: $(diff "$DEPLOY_TMP/list-before.json" "$DEPLOY_TMP/list-after.json" | head)"
ctl log --crawl "$crawl1" > "$DEPLOY_TMP/crawl1-after.log"
cmp -s "$DEPLOY_TMP/crawl1-before.log" "$DEPLOY_TMP/crawl1-after.log" || fail "crawl 1's log changed over down/up"
ctl log --crawl "$crawl2" > "$DEPLOY_TMP/crawl2-after.log"
# Crawl 2 (the kill): every line survives down/up. It is not always the
# same log: in 2 of 7 runs the restarted queue servers showed ~300 more
# lines, first fetches of pages fetched again after the kill, which their
# store held but the running servers' log did not show (a queue-server
# bug, reported; the note below says when it happens).
python3 - "$DEPLOY_TMP/crawl2-before.log" "$DEPLOY_TMP/crawl2-after.log" <<'PY' > "$DEPLOY_TMP/crawl2-diff.txt" ||
  { cat "$DEPLOY_TMP/crawl2-diff.txt"; fail "crawl 2's log lost lines over down/up"; }
import collections, sys
before = collections.Counter(l for l in open(sys.argv[1]) if l.strip())
after = collections.Counter(l for l in open(sys.argv[2]) if l.strip())
lost = before - after
extra = after - before
assert not lost, f"{sum(lost.values())} lines gone after down/up, e.g. {next(iter(lost)).strip()}"
if extra:
    print(f"note: KNOWN BUG: crawl 2's log shows {sum(extra.values())} more lines after down/up "
          f"({sum(before.values())} -> {sum(after.values())}): fetches the running queue servers' log did not show")
PY
cat "$DEPLOY_TMP/crawl2-diff.txt"
if grep -q "KNOWN BUG" "$DEPLOY_TMP/crawl2-diff.txt" 2>/dev/null; then
  echo "note: the fetchers' and queue servers' lines about late or stopping shipments:"
  grep -E "stopping: shipped|giving up after retries|SubmitResults to .* failed|reloading its state" \
    "$DEPLOY_TMP/logs-before-down.txt" | tail -n 40 || echo "  (none)"
fi
# Whatever landed late, the crawl's final log keeps the kill's guarantee.
python3 tests/integration/check_nothing_lost.py "$DEPLOY_TMP/crawl2-after.log" "$DEPLOY_TMP/reachable.tsv" \
  $((fetchers * 4 * schedule_size)) "crawl 2's log after down and up" || fail "crawl 2's final log"
log "ok: after down and up, crawls $crawl1 and $crawl2 and their logs are all there"
echo "compose_test: all checks passed"
