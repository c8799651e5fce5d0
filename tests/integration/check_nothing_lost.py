"""After a crawl with failures: every reachable page fetched, nothing else,
no page more than twice, and at most MAX_TWICE pages twice.

usage: check_nothing_lost.py CRAWL_LOG REACHABLE_TSV MAX_TWICE WHAT
"""
import collections
import sys

log_path, reachable_path, max_twice, what = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
log = [l.rstrip("\n").split("\t") for l in open(log_path) if l.strip()]
pages = [f for f in log if not f[3].endswith("/robots.txt")]
reachable = {l.split("\t")[0].rstrip("\n") for l in open(reachable_path) if l.strip()}
fetched = collections.Counter(f[3] for f in pages)
missing = reachable - set(fetched)
twice = [u for u, n in fetched.items() if n > 1]
print(f"reachable {len(reachable)}, fetched {len(pages)}, distinct {len(fetched)}, fetched twice {len(twice)}")
assert not missing, f"{len(missing)} reachable pages never fetched, e.g. {sorted(missing)[:5]}"
assert set(fetched) <= reachable, "fetched pages that are not reachable"
assert all(n <= 2 for n in fetched.values()), "a page was fetched more than twice"
assert len(twice) <= max_twice, f"{len(twice)} pages fetched twice, more than the {max_twice} leased at the failures"
print(f"ok: nothing lost after {what}")
