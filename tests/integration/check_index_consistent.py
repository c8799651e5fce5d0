"""After a crawl with failures: the frontier is empty and the index holds
the pages that were fetched.

  check_index_consistent.py CRAWL_LOG HOSTS_FILE STATUS_JSON SAMPLE WHAT

Frontier: every queue server in STATUS_JSON (`crawlctl status --json` once
the crawl is done) has no queued URL, no leased URL and no open schedule.
Index: SAMPLE pages drawn (fixed seed) from the HTML pages the log says were
fetched with status 200; each page's text is read back from testweb and an
exact phrase of five of its words, restricted with site:HOST, is searched
with `crawlctl search --json` ($CRAWL_BIN/crawlctl, name server from
$CRAWL_NAMESERVER). The page must be among the results, exactly once. Pages
fetched before and after each failure are drawn alike, so a batch lost (or
applied twice) around a kill shows up as a missing page.
"""
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from search_check import fetch_words, load_hosts  # noqa: E402


def main():
    log_path, hosts_path, status_path, sample, what = sys.argv[1:6]
    status = json.load(open(status_path))
    for qs in status["queue_servers"]:
        for key in ("frontier_size", "leased_urls", "outstanding_schedules"):
            if qs[key] != 0:
                sys.exit(f"FAIL: {qs['id']} has {key} {qs[key]} after the crawl ended")

    pages = set()
    for line in open(log_path):
        f = line.rstrip("\n").split("\t")
        if len(f) >= 6 and f[1] == "200" and f[5].startswith("text/html"):
            pages.add(f[3])
    if not pages:
        sys.exit("FAIL: no HTML page fetched with status 200 in the log")
    hosts = load_hosts(hosts_path)
    rng = random.Random(7)
    chosen = rng.sample(sorted(pages), min(int(sample), len(pages)))
    crawlctl = os.path.join(os.environ["CRAWL_BIN"], "crawlctl")
    missing = []
    for url in chosen:
        words = [w for w in fetch_words(hosts, url) if w.isalpha()]
        if len(words) < 5:
            continue
        start = rng.randrange(0, len(words) - 4)
        host = url.split("/")[2].split(":")[0]
        query = f'site:{host} "{" ".join(words[start:start + 5])}"'
        out = subprocess.run([crawlctl, "search", "--json", "--limit", "50", query],
                             check=True, capture_output=True, text=True).stdout
        urls = [r["url"] for r in json.loads(out)["results"]]
        if urls.count(url) != 1:
            missing.append((url, query, urls.count(url)))
    if missing:
        for url, query, n in missing[:5]:
            print(f"  {url}: {n} results for {query}", file=sys.stderr)
        sys.exit(f"FAIL: {len(missing)} of {len(chosen)} sampled pages not found exactly once in the index")
    print(f"ok: frontier empty and {len(chosen)} sampled pages each found once in the index after {what}")


if __name__ == "__main__":
    main()
