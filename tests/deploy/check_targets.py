"""Prometheus scrapes every crawl process and each is up.

usage: check_targets.py TARGETS_JSON SERVICE...

TARGETS_JSON is Prometheus's /api/v1/targets answer; each SERVICE (a compose
service name, as deploy/prometheus.yml names its targets host:port) must be
an active target whose last scrape succeeded.
"""
import json
import sys

targets = json.load(open(sys.argv[1]))["data"]["activeTargets"]
health = {t["labels"]["instance"].rsplit(":", 1)[0]: (t["health"], t.get("lastError", ""), t["labels"]["job"])
          for t in targets}
bad = []
for s in sys.argv[2:]:
    h = health.get(s)
    if h is None:
        bad.append(f"{s}: not a Prometheus target")
    elif h[0] != "up":
        bad.append(f"{s}: {h[0]} {h[1]}")
if bad:
    print("; ".join(bad), file=sys.stderr)
    sys.exit(1)
print("ok: Prometheus scrapes " + ", ".join(f"{s} ({health[s][2]})" for s in sorted(sys.argv[2:])) + ": all up")
