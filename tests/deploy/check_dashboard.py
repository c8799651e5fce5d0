"""Every metric the Grafana dashboard queries is exported by a crawl process.

usage: check_dashboard.py DASHBOARD_JSON METRICS_TXT...

Reads each panel target's PromQL expression, takes the metric names out of
it (identifiers that are not functions, keywords, label names, durations or
matchers) and looks for a sample of that name in the /metrics texts given
(the processes' own exposition, not the source code). A panel whose metric
no process exports would stay empty for ever.
"""
import json
import re
import sys

KEYWORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "bool", "offset",
            "and", "or", "unless", "inf", "nan"}


def metric_names(expr):
    e = re.sub(r'"(?:[^"\\]|\\.)*"', "", expr)                     # strings
    e = re.sub(r"\[[^\]]*\]", "", e)                                 # range durations
    e = re.sub(r"\{[^}]*\}", "", e)                                  # label matchers
    e = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", "", e)  # label lists
    names = set()
    for m in re.finditer(r"[A-Za-z_:][A-Za-z0-9_:]*", e):
        rest = e[m.end():].lstrip()
        if rest.startswith("("):                                     # a function or aggregation
            continue
        if m.group(0).lower() in KEYWORDS:
            continue
        names.add(m.group(0))
    return names


def main():
    dashboard, texts = sys.argv[1], sys.argv[2:]
    panels = json.load(open(dashboard))["panels"]
    wanted = {}
    for p in panels:
        for t in p.get("targets", []):
            for n in metric_names(t["expr"]):
                wanted.setdefault(n, p.get("title", "?"))
    exported = set()
    for path in texts:
        for line in open(path):
            if line.strip() and not line.startswith("#"):
                exported.add(re.split(r"[{ ]", line, 1)[0])
    missing = sorted(n for n in wanted if n not in exported)
    for n in missing:
        print(f"dashboard panel '{wanted[n]}' queries {n}, which no process's /metrics has", file=sys.stderr)
    if not wanted:
        print("no metric names found in the dashboard", file=sys.stderr)
        return 1
    if missing:
        return 1
    print(f"ok: the dashboard's {len(wanted)} metrics are all in the processes' /metrics")
    return 0


if __name__ == "__main__":
    sys.exit(main())
