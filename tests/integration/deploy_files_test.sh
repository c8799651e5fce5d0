#!/usr/bin/env bash
# The deploy/ files stay valid: docker-compose accepts the compose file, the
# Kubernetes manifests parse with the kinds they promise, and every metric
# the Grafana dashboard and the compose Prometheus config rely on is
# registered somewhere in the code (so no panel stays empty for ever).
source "$(dirname "$0")/lib.sh"

if command -v docker-compose > /dev/null; then
  docker-compose -f "$SRC/deploy/docker-compose.yml" config > "$WORK/compose.out" 2>&1 \
    || fail "docker-compose config: $(cat "$WORK/compose.out")"
  echo "ok: docker-compose config accepts deploy/docker-compose.yml"
else
  echo "note: docker-compose not installed; compose file not validated"
fi

python3 - "$SRC" <<'PY' || fail "deploy files"
import json, pathlib, re, sys, yaml
src = pathlib.Path(sys.argv[1])
kinds = [d["kind"] for d in yaml.safe_load_all(open(src / "deploy/k8s/crawl.yaml"))]
assert kinds.count("StatefulSet") == 2 and "Deployment" in kinds, kinds
dash = json.load(open(src / "deploy/grafana/crawl-dashboard.json"))
names = set()
for p in dash["panels"]:
    for t in p["targets"]:
        for m in re.findall(r"\bcrawl_[a-z_]+", t["expr"]):
            names.add(re.sub(r"_(bucket|sum|count)$", "", m))
code = "".join(p.read_text(errors="replace") for d in ("fetcher", "queueserver", "nameserver", "common")
               for p in (src / d).glob("*.cc"))
missing = sorted(n for n in names if '"%s"' % n not in code)
assert not missing, "dashboard metrics no process registers: %s" % missing
print("ok: k8s kinds %s; %d dashboard metrics all registered" % (kinds, len(names)))
PY
