"""Scrapy as a peer for tests/bench/crawl_throughput.sh.

Crawls from the START URLs, following every <a href> on the same host (or,
with a DOMAIN_SUFFIX, on every host under it), politely: robots.txt obeyed,
one request at a time per host, no delay, CONCURRENT requests in all.
Prints one JSON line {pages, all, failed, seconds, reason, ...} to stdout.

  /usr/bin/python3 scrapy_crawl.py START[,START...] CONCURRENT [DOMAIN_SUFFIX]

Run with Debian's python3-scrapy (2.8), so /usr/bin/python3, not a pyenv
python. pages = distinct URLs answered 200/206 with an HTML body (the
crawl_throughput.sh count); all = distinct URLs answered, robots.txt aside.
A SIGINT (the benchmark's time limit) makes Scrapy close the spider
gracefully; the line is then printed with reason "shutdown".
"""
import json
import sys
import time
from urllib.parse import urlsplit

import scrapy
from scrapy import signals
from scrapy.crawler import CrawlerProcess
from scrapy.exceptions import IgnoreRequest
from scrapy.http import HtmlResponse


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    starts = [u for u in sys.argv[1].split(",") if u]
    concurrent = int(sys.argv[2])
    suffix = sys.argv[3] if len(sys.argv) > 3 else ""
    # OffsiteMiddleware keeps requests to these domains and their subdomains.
    domains = [suffix] if suffix else sorted({urlsplit(u).hostname for u in starts})
    pages, answered = set(), set()
    failed = [0]

    class Peer(scrapy.Spider):
        name = "peer"
        allowed_domains = domains
        start_urls = starts

        @classmethod
        def from_crawler(cls, crawler, *args, **kwargs):
            spider = super().from_crawler(crawler, *args, **kwargs)
            crawler.signals.connect(spider.on_response, signal=signals.response_received)
            return spider

        def on_response(self, response, request, spider):
            if urlsplit(response.url).path != "/robots.txt":
                answered.add(response.url)

        def parse(self, response):
            # Only 2xx reach here (HttpErrorMiddleware); non-HTML is counted, not parsed.
            if not isinstance(response, HtmlResponse):
                return
            if response.status in (200, 206):
                pages.add(response.url)
            for href in response.css("a::attr(href)").getall():
                yield response.follow(href, callback=self.parse, errback=self.failed)

        def failed(self, failure):
            if not failure.check(IgnoreRequest):  # robots.txt's refusals are not failures
                failed[0] += 1

    settings = {
        "ROBOTSTXT_OBEY": True,
        "CONCURRENT_REQUESTS": concurrent,
        "CONCURRENT_REQUESTS_PER_DOMAIN": 1,
        "CONCURRENT_REQUESTS_PER_IP": 0,
        "DOWNLOAD_DELAY": 0,
        "RANDOMIZE_DOWNLOAD_DELAY": False,
        "AUTOTHROTTLE_ENABLED": False,
        # Scrapy's broad-crawl advice (docs "Broad Crawls"): a scheduler
        # queue that hands the downloader requests for its least busy
        # hosts, so that CONCURRENT_REQUESTS spreads over the hosts instead
        # of queueing behind one host's slot.
        "SCHEDULER_PRIORITY_QUEUE": "scrapy.pqueues.DownloaderAwarePriorityQueue",
        "REACTOR_THREADPOOL_MAXSIZE": 20,
        # One try per URL, as the other peers (wget2 --tries=1, crawlee 0 retries).
        "RETRY_ENABLED": False,
        "COOKIES_ENABLED": False,
        "TELNETCONSOLE_ENABLED": False,
        "DOWNLOAD_TIMEOUT": 30,
        "DEPTH_LIMIT": 0,
        "LOG_LEVEL": "WARNING",
        "REQUEST_FINGERPRINTER_IMPLEMENTATION": "2.7",
        "USER_AGENT": "scrapy-peer (+crawl_throughput.sh)",
    }
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(Peer)
    reasons = ["?"]

    def closed(spider, reason):
        reasons[0] = reason

    crawler.signals.connect(closed, signal=signals.spider_closed)
    t0 = time.time()
    process.crawl(crawler)
    process.start()
    stats = crawler.stats.get_stats()
    print(json.dumps({
        "pages": len(pages),
        "all": len(answered),
        "failed": failed[0],
        "seconds": round(time.time() - t0, 2),
        "reason": reasons[0],
        "requests": stats.get("downloader/request_count", 0),
        "robots_forbidden": stats.get("robotstxt/forbidden", 0),
        "offsite_dropped": stats.get("offsite/filtered", 0),
        "dupes_filtered": stats.get("dupefilter/filtered", 0),
        "status_200": stats.get("downloader/response_status_count/200", 0),
    }), flush=True)


if __name__ == "__main__":
    main()
