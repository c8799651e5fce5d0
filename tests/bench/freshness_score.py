#!/usr/bin/env python3
"""Scores the crawls of tests/bench/freshness.sh against testweb's truth.

Reads WORK/ticks.tsv (wall us, logical t), WORK/log-POLICY.tsv (crawlctl
log), WORK/truth.tsv (testweb export --at T --versions) and exports the
page states at each tick a held version was fetched in (cached under
WORK/versions/). Prints one row per policy."""
import argparse
import bisect
import datetime
import os
import subprocess


def wall_us(iso):
    d = datetime.datetime.strptime(iso.rstrip("Z"), "%Y-%m-%dT%H:%M:%S.%f")
    return int(d.replace(tzinfo=datetime.timezone.utc).timestamp() * 1_000_000)


def read_states(path):
    states = {}
    with open(path) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 3:
                status = parts[1]
                states[parts[0]] = (status, parts[2] if status == "200" else "-")
    return states


def states_at(args, tick, cache):
    if tick not in cache:
        os.makedirs(os.path.join(args.work, "versions"), exist_ok=True)
        path = os.path.join(args.work, "versions", f"at-{tick}.tsv")
        if not os.path.exists(path):
            subprocess.run([os.path.join(args.bin, "testweb"), "export", *args.web, "--at", str(tick),
                            "--versions", path], check=True, stderr=subprocess.DEVNULL)
        cache[tick] = read_states(path)
    return cache[tick]


def score(args, policy, ticks, truth, cache):
    walls = [w for w, _ in ticks]
    last = {}  # URL -> (tick, status) of its latest answered fetch
    fetches = revisits = no_change = 0
    seen = set()
    with open(os.path.join(args.work, f"log-{policy}.tsv")) as f:
        for line in f:
            p = line.rstrip("\n").split("\t")
            if len(p) < 8 or p[3].endswith("/robots.txt"):
                continue
            ts = wall_us(p[0])
            if ts > args.end_wall_us:
                continue
            fetches += 1
            if p[3] in seen:
                revisits += 1
                if len(p) > 8 and p[8] in ("not-modified", "unchanged"):
                    no_change += 1
            seen.add(p[3])
            status = "200" if p[1] in ("200", "304") else p[1]
            if status in ("200", "404", "410"):
                i = bisect.bisect_right(walls, ts) - 1
                last[p[3]] = (ticks[max(i, 0)][1], status)
    held = fresh = mismatched = 0
    for url, (tick, status) in last.items():
        if url not in truth:
            continue
        then = states_at(args, tick, cache).get(url)
        if then is None:
            continue
        held += 1
        if then[0] != status:
            mismatched += 1  # served across a tick move: scored by what the export says
        if then == truth[url]:
            fresh += 1
    live = sum(1 for s in truth.values() if s[0] == "200")
    return dict(policy=policy, held=held, live=live, fresh=fresh / max(held, 1), fetches=fetches,
                rate=fetches / args.seconds, revisits=revisits, no_change=no_change / max(revisits, 1),
                mismatched=mismatched)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--end-wall-us", type=int, required=True)
    ap.add_argument("--seconds", type=int, required=True)
    ap.add_argument("--policies", required=True)
    ap.add_argument("web", nargs="*")
    args = ap.parse_args()
    ticks = []
    with open(os.path.join(args.work, "ticks.tsv")) as f:
        for line in f:
            w, t = line.split()
            ticks.append((int(w), int(t)))
    truth = read_states(os.path.join(args.work, "truth.tsv"))
    cache = {}
    rows = [score(args, p, ticks, truth, cache) for p in args.policies.split()]
    base = next((r["fresh"] for r in rows if r["policy"] == "fixed"), None)
    print("| policy | URLs held (live at T) | fresh share | vs fixed | page fetches | fetches/s | "
          "revisits | no change |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        vs = f"{r['fresh'] / base:.2f}x" if base else "-"
        print(f"| {r['policy']} | {r['held']} ({r['live']}) | {r['fresh'] * 100:.1f}% | {vs} | {r['fetches']} | "
              f"{r['rate']:.2f} | {r['revisits']} | {r['no_change'] * 100:.1f}% |")
    for r in rows:
        if r["mismatched"]:
            print(f"note: {r['policy']}: {r['mismatched']} URLs fetched across a tick move")


if __name__ == "__main__":
    main()
