// crawlee CheerioCrawler as a peer for tests/bench/crawl_throughput.sh:
// crawls from START, following <a href> links on the same host (or, with a
// DOMAIN_SUFFIX, on every host under it), CONCURRENCY requests at a time,
// robots.txt respected; prints one JSON line {pages, failed, seconds}.
//   node cheerio_crawl.js START CONCURRENCY [DOMAIN_SUFFIX]
const { CheerioCrawler, Configuration, log } = require('crawlee');

const [start, concurrencyArg, suffix] = process.argv.slice(2);
const concurrency = Number(concurrencyArg || 1);
if (!start || !(concurrency >= 1)) {
  console.error('usage: node cheerio_crawl.js START CONCURRENCY [DOMAIN_SUFFIX]');
  process.exit(2);
}
log.setLevel(log.LEVELS.OFF);
const inScope = (url) => {
  try {
    const h = new URL(url).hostname;
    return suffix ? h === suffix || h.endsWith('.' + suffix) : h === new URL(start).hostname;
  } catch { return false; }
};
let pages = 0;
let failed = 0;
const t0 = Date.now();
const crawler = new CheerioCrawler({
  minConcurrency: concurrency,
  maxConcurrency: concurrency,
  maxRequestRetries: 0,
  maxRequestsPerCrawl: 10000000,
  respectRobotsTxtFile: true,
  requestHandlerTimeoutSecs: 60,
  async requestHandler({ enqueueLinks }) {
    pages += 1;
    await enqueueLinks({
      strategy: 'all',
      transformRequestFunction: (req) => (inScope(req.url) ? req : false),
    });
  },
  failedRequestHandler() { failed += 1; },
}, new Configuration({ persistStorage: false }));

// Cut by the benchmark's time limit (SIGINT): report what was crawled so far.
process.on('SIGINT', () => {
  console.log(JSON.stringify({ pages, failed, seconds: (Date.now() - t0) / 1000, cut: true }));
  process.exit(0);
});
crawler.run([start]).then(() => {
  console.log(JSON.stringify({ pages, failed, seconds: (Date.now() - t0) / 1000 }));
}).catch((e) => { console.error(e); process.exit(1); });
