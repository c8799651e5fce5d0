#!/usr/bin/env python3
"""Writes the results of tests/bench/run_all.sh into docs/BENCHMARKS.md
(between "<!-- run_all:begin -->" and "<!-- run_all:end -->") and plots
under docs/img/, stamped with the machine and the date. README's figures
come from BENCHMARKS.md's headline table (tests/bench/readme_figures.py).

  bench_report.py --results DIR --docs DOCS_DIR
DIR holds order_quality/ (table.md, PRESET/order_quality.png, PRESET/runs.tsv),
throughput/throughput.tsv and scaling/throughput.tsv; any may be missing.
"""
import argparse
import csv
import datetime
import os
import re
import shutil
import subprocess
import sys


def machine():
    model = "unknown CPU"
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            model = line.split(":", 1)[1].strip()
            break
    mem = 0
    for line in open("/proc/meminfo"):
        if line.startswith("MemTotal"):
            mem = int(line.split()[1]) / 1048576
    return f"{os.cpu_count()} cores {model}, {mem:.0f} GiB RAM"


def read_tsv(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return list(csv.DictReader(f, delimiter="\t"))


def replace_between(path, begin, end, body):
    text = open(path).read() if os.path.exists(path) else ""
    block = f"{begin}\n{body.rstrip()}\n{end}"
    if begin in text and end in text:
        text = text[: text.index(begin)] + block + text[text.index(end) + len(end):]
    else:
        text = text.rstrip() + "\n\n" + block + "\n"
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def throughput_table(rows):
    out = ["| site | tool | pages found (HTML) | URLs fetched | wall s | pages/s | CPU s | CPU ms/page | peak RSS MB | note |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r['site']} | {r['tool']} | {int(r['pages']):,} | {int(r['all_fetched']):,} | {r['wall_s']} | "
                   f"{int(r['pages_per_s']):,} | {r['cpu_s']} | {r['cpu_ms_per_page']} | {r['peak_rss_mb']} | {r['note']} |")
    return "\n".join(out)


def targets(rows):
    """Targets per site: ratios of ours to the peers."""
    by = {}
    for r in rows:
        by.setdefault(r["site"], {})[r["tool"]] = r
    out = ["| site | pages/s vs wget2 -1 (target >= 2x) | vs wget2 -8 (>= 1x) | vs crawlee -8 (>= 10x) | CPU/page vs wget2 -1 (<= 1x) | same pages found |",
           "|---|---|---|---|---|---|"]
    summary = []
    for site, tools in by.items():
        ours = next((v for k, v in tools.items() if k.startswith("crawler")), None)
        if not ours:
            continue
        def ratio(tool, key="pages_per_s", inv=False):
            t = tools.get(tool)
            if not t or float(t[key]) == 0 or float(ours[key]) == 0:
                return "-", None
            v = float(ours[key]) / float(t[key])
            return f"{v:.2f}x", v
        w1, w1v = ratio("wget2-1")
        w8, w8v = ratio("wget2-8")
        c8, c8v = ratio("crawlee-8")
        cpu, cpuv = ratio("wget2-1", "cpu_ms_per_page")
        found = {k: int(v["pages"]) for k, v in tools.items()}
        same = "yes" if len(set(found.values())) == 1 else ", ".join(f"{k} {v:,}" for k, v in found.items())
        out.append(f"| {site} | {w1} | {w8} | {c8} | {cpu} | {same} |")
        summary.append((site, ours, w1, w8, c8, cpu))
    return "\n".join(out), summary


def plot_throughput(rows, png):
    if not rows or not shutil.which("gnuplot"):
        return False
    sites = list(dict.fromkeys(r["site"] for r in rows))
    tools = list(dict.fromkeys(r["tool"] for r in rows))
    data = png + ".dat"
    with open(data, "w") as f:
        f.write("# site\t" + "\t".join(tools) + "\n")
        for s in sites:
            vals = []
            for t in tools:
                r = next((r for r in rows if r["site"] == s and r["tool"] == t), None)
                vals.append(str(max(int(r["pages_per_s"]), 1)) if r else "NaN")
            f.write(s + "\t" + "\t".join(vals) + "\n")
    cols = ", ".join(f"'{data}' using {i + 2}:xtic(1) title '{t}'" for i, t in enumerate(tools))
    script = (f"set terminal png size 1000,550; set output '{png}'; set style data histograms;"
              "set style histogram clustered gap 1; set style fill solid 0.8 border -1; set logscale y;"
              "set ylabel 'pages/s (log scale)'; set key top left; set grid y; set title 'Crawl throughput, same sites, same run';"
              f"plot {cols}")
    ok = subprocess.run(["gnuplot", "-e", script]).returncode == 0
    os.remove(data)
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--results", required=True)
    ap.add_argument("--docs", required=True)
    a = ap.parse_args()
    res = a.results
    img = os.path.join(a.docs, "img")
    os.makedirs(img, exist_ok=True)
    stamp = f"{datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC on {machine()}"
    load = ""
    for name in ("load_before", "load_after"):
        p = os.path.join(res, name)
        if os.path.exists(p):
            load += f"{name.replace('_', ' ')}: {open(p).read().strip()}; "
    parts = ["## Measured against the field (`tests/bench/run_all.sh`)", "",
             f"Generated by `tests/bench/bench_report.py` from `{res}`, {stamp}. {load}".rstrip(), ""]
    oq = os.path.join(res, "order_quality")
    if os.path.exists(os.path.join(oq, "table.md")):
        parts += ["### Crawl-order quality (`tests/bench/order_quality.sh`)", "", open(os.path.join(oq, "table.md")).read().strip(), ""]
        if os.path.exists(os.path.join(oq, "unavailable.txt")):
            parts += [open(os.path.join(oq, "unavailable.txt")).read().strip(), ""]
        # One plot per preset (PRESET/order_quality.png); misbehaving keeps
        # the name the docs have always used.
        for preset in sorted(os.listdir(oq)):
            png = os.path.join(oq, preset, "order_quality.png")
            if not os.path.exists(png):
                continue
            name = "order_quality.png" if preset == "misbehaving" else f"order_quality_{preset}.png"
            shutil.copy(png, os.path.join(img, name))
            parts += [f"![PageRank captured per order, {preset} preset](img/{name})", ""]
    rows = read_tsv(os.path.join(res, "throughput", "throughput.tsv"))
    if rows:
        table, _ = targets(rows)
        parts += ["### Throughput against wget2 and crawlee (`tests/bench/crawl_throughput.sh`)", "",
                  throughput_table(rows), "", "Targets (ours / peer):", "", table, ""]
        if plot_throughput(rows, os.path.join(img, "crawl_throughput.png")):
            parts += ["![pages/s per site and tool](img/crawl_throughput.png)", ""]
    sc = read_tsv(os.path.join(res, "scaling", "throughput.tsv"))
    if sc:
        parts += ["### Scaling check: 4 queue servers, 4 fetchers (docs/SCALING.md)", "", throughput_table(sc), ""]
    replace_between(os.path.join(a.docs, "BENCHMARKS.md"), "<!-- run_all:begin -->", "<!-- run_all:end -->", "\n".join(parts))
    print(f"bench_report: wrote {a.docs}/BENCHMARKS.md and {img}/", file=sys.stderr)


if __name__ == "__main__":
    main()
