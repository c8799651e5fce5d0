#!/usr/bin/env bash
# The deploy/ files, every check that needs no container engine (the
# compose cluster itself runs in tests/deploy/compose_test.sh, stage
# `deploy`):
#  - docker-compose accepts the compose file, alone and with the test
#    override (deploy/docker-compose.test.yml);
#  - the Kubernetes manifests with the Secrets make-secrets.sh makes from a
#    certs.sh directory: probes on the containers' ports, the queue-server
#    StatefulSet, PodDisruptionBudgets, resources, TLS files in Secrets
#    (tests/deploy/check_k8s.py; the OpenAPI schema is tests/deploy/k8s_test.sh's);
#  - the systemd units: `systemd-analyze verify` clean, sandboxed
#    (tests/deploy/systemd_test.sh, with this build's binaries);
#  - every shared library the binaries link comes with install-deps.sh's
#    runtime group, the image's package list (check_runtime_libs.py);
#  - the processes' real /metrics: a small crawl on a local cluster, then
#    `promtool check metrics` on each process's /metrics, and every metric
#    the Grafana dashboard queries is among them (check_dashboard.py).
source "$(dirname "$0")/lib.sh"

command -v docker-compose > /dev/null || { echo "skip: docker-compose not installed"; exit 77; }
docker-compose -f "$SRC/deploy/docker-compose.yml" config > "$WORK/compose.out" 2>&1 \
  || fail "docker-compose config: $(cat "$WORK/compose.out")"
docker-compose -f "$SRC/deploy/docker-compose.yml" -f "$SRC/deploy/docker-compose.test.yml" config \
  > "$WORK/compose-test.out" 2>&1 || fail "docker-compose config with the test override: $(cat "$WORK/compose-test.out")"
echo "ok: docker-compose config accepts deploy/docker-compose.yml, alone and with docker-compose.test.yml"

"$SRC/deploy/k8s/make-secrets.sh" "$WORK/k8s-certs" > "$WORK/secrets.yaml" 2> "$WORK/make-secrets.log" ||
  fail "make-secrets.sh: $(cat "$WORK/make-secrets.log")"
python3 "$SRC/tests/deploy/check_k8s.py" "$SRC/deploy/k8s/crawl.yaml" "$WORK/secrets.yaml" || fail "k8s manifests"

bash "$SRC/tests/deploy/systemd_test.sh" "$BIN" || fail "systemd units"

python3 "$SRC/tests/deploy/check_runtime_libs.py" "$BIN" "$SRC/deploy/install-deps.sh" ||
  fail "install-deps.sh's runtime group misses a library the binaries link"

# The metrics of real processes, after a small crawl.
web=(--seed 3 --hosts 4 --pages 1500)
start_testweb "${web[@]}"
start_cluster 1 1
"$BIN/testweb" seeds "${web[@]}" > "$WORK/seeds.txt"
"$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private
state=$(wait_crawl_over 120)
[ "$state" = done ] || fail "crawl ended as $state"
# A search, so the name server's query histogram has a sample.
"$BIN/crawlctl" search page > /dev/null 2>&1 || true
urls=()
if [ -n "${METRICS_URLS:-}" ]; then
  IFS=, read -r -a urls <<< "$METRICS_URLS"
else
  for f in "$WORK"/cluster/*.http-port; do
    urls+=("http://127.0.0.1:$(tr -d '[:space:]' < "$f")/metrics")
  done
fi
[ ${#urls[@]} -eq 3 ] || fail "expected 3 metrics URLs, got ${urls[*]}"
i=0
for u in "${urls[@]}"; do
  curl -fsS --max-time 10 "$u" > "$WORK/metrics-$i.txt" || fail "GET $u"
  if command -v promtool > /dev/null; then
    promtool check metrics < "$WORK/metrics-$i.txt" > "$WORK/promtool.out" 2>&1 ||
      fail "promtool check metrics on $u: $(head -n 20 "$WORK/promtool.out")"
  fi
  i=$((i + 1))
done
if command -v promtool > /dev/null; then
  echo "ok: promtool check metrics passes on ${urls[*]}"
else
  echo "note: promtool not installed (deploy/install-deps.sh --deploy); metrics not linted"
fi
python3 "$SRC/tests/deploy/check_dashboard.py" "$SRC/deploy/grafana/crawl-dashboard.json" "$WORK"/metrics-*.txt ||
  fail "the Grafana dashboard queries metrics no process exports"

# Prometheus scrapes every process of the compose file.
python3 - "$SRC" <<'PY' || fail "deploy/prometheus.yml"
import pathlib, sys, yaml
src = pathlib.Path(sys.argv[1])
prom = yaml.safe_load(open(src / "deploy/prometheus.yml"))
targets = {t for job in prom["scrape_configs"] for sc in job["static_configs"] for t in sc["targets"]}
compose = yaml.safe_load(open(src / "deploy/docker-compose.yml"))
want = set()
for name, svc in compose["services"].items():
    cmd = svc.get("command") or ""
    cmd = cmd if isinstance(cmd, str) else " ".join(cmd)
    parts = cmd.split()
    if "--http-listen" in parts:
        want.add(f"{name}:{parts[parts.index('--http-listen') + 1].rsplit(':', 1)[1]}")
assert want and want == targets, f"prometheus.yml scrapes {sorted(targets)}, the compose file's processes are {sorted(want)}"
print(f"ok: deploy/prometheus.yml scrapes every crawl process of the compose file ({len(want)})")
PY
