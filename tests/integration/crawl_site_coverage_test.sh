#!/usr/bin/env bash
# Defaults that find the site: a private nginx on a
# loopback address serves a real documentation site, GNU wget2 crawls it
# recursively (same host, no parent restriction beyond the site, robots on),
# then the local cluster crawls it with every crawl setting at its default
# but --include-hosts (the site's host) and --allow-private. Every HTML page
# wget2 fetched must be fetched by the crawl too, within 1%.
# Both are counted from nginx's access log, told apart by user agent: the
# distinct request paths answered 200/206 with a text/html body.
# The site: SITE_DOCROOT, default rust-doc's HTML (21,635 pages; the crawl
# takes 15-30 s): its API pages carry hundreds of navigation links, module
# indexes up to 9,750 links in 1.1-3.2 MB, and an mdBook sidebar of ~600
# links heads every page of the unstable book. With Yioop's defaults (50
# links kept of 300, 1 MB pages) the crawl found 3,626 of them; python3-doc,
# postgresql-doc-15 and libboost1.81-doc were found within 1% even so
# (0, 0.09% and 0.61% missed), which would make the test pointless.
# SITE_START the first page (default index.html); SITE_CRAWL_ARGS extra
# `crawlctl start` flags (none by default; for measuring by hand, e.g.
# "--link-pruning all --max-links-per-page 300 --page-range 1000000" for the
# old defaults).
# Skips (exit 77) when nginx, wget2 or the documentation is missing, or nginx
# cannot run here.
source "$(dirname "$0")/lib.sh"

DOCROOT=${SITE_DOCROOT:-/usr/share/doc/rust-doc/html}
START=${SITE_START:-index.html}
command -v wget2 > /dev/null || { echo "SKIP: wget2 is not installed (deploy/install-deps.sh installs it)"; exit 77; }
[ -f "$DOCROOT/$START" ] || { echo "SKIP: $DOCROOT/$START missing (deploy/install-deps.sh installs the docs)"; exit 77; }
DOCROOT=$(readlink -f "$DOCROOT")

addr=127.73.0.1
serve_docroot "$addr" "$DOCROOT" docs.site.test "$START" \
  '$http_user_agent\t$status\t$sent_http_content_type\t$request_uri'
curl -sf -o /dev/null -A probe "http://$addr:$port/$START" || fail "nginx does not answer on $addr:$port"

# wget2: the reference. Same host only (its default), every depth, robots on.
wget2 --recursive --level=inf --robots=on --no-parent --tries=1 --timeout=10 --quiet --max-threads=2 \
  --delete-after --user-agent=wget2-reference --directory-prefix="$WORK/wget2" "http://$addr:$port/$START" ||
  echo "wget2 exited $? (errors such as a 404 are normal on a real site)"

# The crawler reaches docs.site.test through the hosts file.
echo "$addr:$port docs.site.test" > "$WORK/hosts"
start_cluster 1 2
for i in $(seq 1 60); do "$BIN/crawlctl" servers > /dev/null 2>&1 && break; sleep 1; done
echo "http://docs.site.test/$START" > "$WORK/seeds.txt"
t0=$SECONDS
# SITE_CRAWL_ARGS: extra `crawlctl start` flags, to measure other settings
# by hand (the test itself passes none).
# shellcheck disable=SC2086
"$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private --include-hosts docs.site.test ${SITE_CRAWL_ARGS:-} > /dev/null
state=$(wait_crawl_over 300)
[ "$state" = done ] || fail "crawl ended as $state"
echo "crawl over in $((SECONDS - t0)) s; urls seen $(status_field urls_seen), pages fetched $(status_field pages_fetched)"

python3 - "$WORK/nginx/access.log" <<'PY'
import sys
pages = {"wget2": set(), "crawler": set()}
for line in open(sys.argv[1], errors="replace"):
    f = line.rstrip("\n").split("\t")
    if len(f) != 4 or f[1] not in ("200", "206") or not f[2].startswith("text/html"):
        continue
    who = "wget2" if f[0].startswith("wget2-reference") else "crawler" if f[0].startswith("crawlbot") else None
    if who:
        pages[who].add(f[3])
ref, ours = pages["wget2"], pages["crawler"]
missing = sorted(ref - ours)
print(f"html pages: wget2 {len(ref)}, crawler {len(ours)}, found by wget2 and not the crawler {len(missing)}"
      f" ({100 * len(missing) / max(len(ref), 1):.2f}%), by the crawler and not wget2 {len(ours - ref)}")
assert len(ref) >= 500, f"wget2 found only {len(ref)} pages: the site is not served as it should be"
if len(missing) * 100 > len(ref):
    print("FAIL: the crawl missed more than 1% of wget2's pages, e.g. " + " ".join(missing[:8]), file=sys.stderr)
    sys.exit(1)
print("ok: the default scoped crawl found the site")
PY
