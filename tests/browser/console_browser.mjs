// Drives the name server's console in Debian's headless chromium through
// playwright-core (tests/integration/console_browser_test.sh runs it):
// sign in with the admin token, create and start a crawl, watch pages/s rise,
// change a parameter, open a host page, search a page's title and open its
// cached copy, read and download the log, stop and resume and stop the crawl;
// then sign in with the reader token, see every page and get 403 for every
// action; last, the admin deletes the stopped crawl. The admin's browser runs with JavaScript off. A screenshot of each
// page goes to OUT_DIR.
// Usage: node console_browser.mjs BASE_URL ADMIN_TOKEN READER_TOKEN SEEDS_FILE OUT_DIR
import { chromium } from "playwright-core";
import { readFileSync, mkdirSync } from "node:fs";

const [base, adminToken, readerToken, seedsFile, outDir] = process.argv.slice(2);
mkdirSync(outDir, { recursive: true });
const seeds = readFileSync(seedsFile, "utf8");

function check(cond, what) {
  if (!cond) throw new Error("check failed: " + what);
  console.log("ok: " + what);
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const shot = (page, name) => page.screenshot({ path: `${outDir}/${name}.png`, fullPage: true });
const text = async (page, sel) => ((await page.locator(sel).first().textContent()) || "").trim();

async function signIn(browser, token, role) {
  // The admin walks the console with JavaScript off: every page and action
  // must work without it (only the live refresh needs it).
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 }, javaScriptEnabled: role !== "admin" });
  const page = await context.newPage();
  const first = await page.goto(base + "/console");
  check(first.status() === 401, `${role}: the console asks for a token first`);
  if (role === "admin") await shot(page, "01-sign-in");
  await page.fill("#token", token);
  await Promise.all([page.waitForNavigation(), page.click("#sign-in")]);
  check(page.url().endsWith("/console"), `${role}: signing in leads back to the console`);
  check((await text(page, "header .role")) === "signed in as " + role, `${role}: the header names the role`);
  return { context, page };
}

async function startCrawl(page) {
  await page.fill("#seeds", seeds.split("\n")[0]);  // one pasted, all uploaded
  await page.setInputFiles("#seeds_file", seedsFile);
  await page.fill("#max_pages", "0");
  await page.fill("#more", "schedule_size=50");
  await page.check("#keep_page_cache");
  await page.check("#allow_private_addresses");
  await shot(page, "02-crawls-new");
  await Promise.all([page.waitForNavigation(), page.click("#start")]);
  const message = await text(page, "#message");
  const count = parseInt((message.match(/started with (\d+) seeds/) || [])[1] || "0", 10);
  const lines = seeds.split("\n").filter((l) => l.trim()).length;
  check(count >= lines && lines > 1, `the crawl started with the uploaded seeds: ${message}`);
  return new URL(page.url()).searchParams.get("id");
}

async function watchRate(page, id) {
  const deadline = Date.now() + 120000;
  for (;;) {
    await page.goto(`${base}/console/crawl?id=${id}&live=0`);
    const rate = parseFloat(await text(page, "#pages-per-second"));
    const pages = parseInt((await text(page, "#pages-fetched")).replace(/,/g, ""), 10);
    if (rate > 0 && pages > 200) {
      check(true, `pages/s rose to ${rate} with ${pages} pages fetched`);
      break;
    }
    if (Date.now() > deadline) throw new Error(`no progress: ${pages} pages, ${rate}/s`);
    await sleep(1000);
  }
  await sleep(2500);  // a few more samples for the chart
  await page.goto(`${base}/console/crawl?id=${id}&live=0`);
  check((await page.locator("#chart-pages path").count()) === 1, "the pages chart has a line");
  check((await page.locator("#queue-servers tr").count()) >= 2, "a queue server row");
  check((await page.locator("#fetchers tr").count()) >= 2, "a fetcher row");
  await shot(page, "04-crawl-running");
}

async function setParam(page, id) {
  await page.fill("#param-name", "max_pages");
  await page.fill("#param-value", "12x");
  await page.click("#set");
  check(/whole number/.test(await text(page, "#message")), "a bad parameter value is refused with the reason");
  await page.goto(`${base}/console/crawl?id=${id}&live=0`);
  await page.fill("#param-name", "min_host_delay_ms");
  await page.fill("#param-value", "200");  // slower, so the crawl is still running for Stop
  await Promise.all([page.waitForNavigation(), page.click("#set")]);
  check(/parameters version 2/.test(await text(page, "#message")), "set-param changes the crawl: " + (await text(page, "#message")));
}

async function hostPage(page, id) {
  await page.goto(`${base}/console/crawl?id=${id}&live=0`);
  const link = page.locator("#top-hosts a").first();
  const host = (await link.textContent()).trim();
  await Promise.all([page.waitForNavigation(), link.click()]);
  check((await text(page, "h1")) === "host " + host, "the host page of " + host);
  const robots = await text(page, "#robots");
  check(/user-agent/i.test(robots), "its robots.txt is shown: " + JSON.stringify(robots.slice(0, 40)));
  check((await text(page, "#crawl-delay")).length > 0, "with the crawl-delay it sets: " + (await text(page, "#crawl-delay")));
  const titles = await page.locator("#host-last tr td:nth-child(4)").allTextContents();
  const title = titles.map((t) => t.trim()).find((t) => t.length > 3);
  check(!!title, "its last fetches have titles");
  const queue = (await page.locator("#host-queue").count()) === 1;
  check(queue && /^\d[\d,]*$/.test(await text(page, "#host-waiting")),
        "its queue from the owning queue server: " +
        (queue ? (await text(page, "#host-queue")) : await text(page, "main, body")).replace(/\s+/g, " ").slice(0, 120));
  await shot(page, "05-host");
  return title;
}

async function searchAndCache(page, id, title) {
  await page.goto(`${base}/console/search?crawl=${id}`);
  await page.fill("#q", `"${title}"`);
  await Promise.all([page.waitForNavigation(), page.click("#go")]);
  const titles = await page.locator("#results a.title").allTextContents();
  check(titles.some((t) => t.trim() === title), `the search finds "${title}"`);
  check((await page.locator(".explain").first().textContent()).includes("doc rank"), "each result explains its score");
  await shot(page, "06-search");
  const hit = page.locator("#results li", { hasText: title }).first();
  await Promise.all([page.waitForNavigation(), hit.locator("a.cached").click()]);
  const frame = page.frameLocator("#cached-frame");
  const inFrame = (await frame.locator("title").textContent({ timeout: 10000 })) || "";
  check(inFrame.includes(title), "the cached copy shows the page");
  await shot(page, "07-cached");
  return new URL(page.url()).pathname + new URL(page.url()).search;
}

async function logPage(page, id) {
  await page.goto(`${base}/console/log?crawl=${id}&status=200`);
  const rows = await page.locator("#log tr").count();
  check(rows > 10, `the log page lists fetches (${rows - 1} rows)`);
  await page.screenshot({ path: `${outDir}/08-log.png` });  // the first screen: the table is long
  const tsv = await page.request.get(`${base}/console/log?crawl=${id}&status=200&format=tsv`);
  const lines = (await tsv.text()).trim().split("\n");
  check(tsv.status() === 200 && lines.every((l) => l.split("\t")[1] === "200"), `TSV download: ${lines.length} lines, all 200`);
  const jsonl = await page.request.get(`${base}/console/log?crawl=${id}&status=errors&format=jsonl`);
  check(jsonl.status() === 200, "JSON lines download");
}

async function stopResume(page, id) {
  await page.goto(`${base}/console/crawl?id=${id}&live=0`);
  await Promise.all([page.waitForNavigation(), page.click("#stop")]);
  check((await text(page, "#crawl-state")) === "stopped", "Stop stops the crawl");
  await Promise.all([page.waitForNavigation(), page.click("#resume")]);
  check((await text(page, "#crawl-state")) === "running", "Resume resumes it");
  await page.goto(`${base}/console/crawl?id=${id}&live=0`);
  await Promise.all([page.waitForNavigation(), page.click("#stop")]);
  check((await text(page, "#crawl-state")) === "stopped", "and Stop again");
  await shot(page, "09-crawl-stopped");
  await page.goto(`${base}/console`);
  await shot(page, "10-crawls");
}

// Posts as the signed-in page would, but with what the caller chooses.
async function post(page, path, form, headers = {}) {
  const r = await page.request.post(base + path, { form, headers, maxRedirects: 0 });
  return r.status();
}

async function forgeries(page, id) {
  const csrf = await page.locator("input[name=csrf]").first().getAttribute("value");
  check((await post(page, "/console/stop", { crawl_id: id })) === 403, "admin POST without CSRF token: 403");
  check((await post(page, "/console/stop", { crawl_id: id, csrf: "0".repeat(64) })) === 403, "admin POST with a wrong CSRF token: 403");
  check((await post(page, "/console/resume", { crawl_id: id, csrf }, { Origin: "http://evil.example" })) === 403,
        "admin POST from another origin: 403");
}

async function reader(browser, id, host, title, cached) {
  const { context, page } = await signIn(browser, readerToken, "reader");
  const pages = ["/console", `/console/crawl?id=${id}&live=0`, `/console/host?crawl=${id}&host=${encodeURIComponent(host)}`,
                 `/console/search?crawl=${id}&q=${encodeURIComponent(title)}`, cached, `/console/log?crawl=${id}`,
                 `/console/log?crawl=${id}&format=tsv`];
  for (const p of pages) {
    // A download is fetched, not navigated to (the browser would save it).
    const status = p.includes("format=") ? (await page.request.get(base + p)).status() : (await page.goto(base + p)).status();
    check(status === 200, "reader sees " + p);
  }
  await page.goto(`${base}/console/crawl?id=${id}&live=0`);
  const [resp] = await Promise.all([page.waitForNavigation(), page.click("#resume")]);
  check(resp.status() === 403, "reader clicking Resume: 403");
  await shot(page, "11-reader-403");
  const csrf = await page.goto(base + "/console").then(() => page.locator("input[name=csrf]").first().getAttribute("value"));
  const actions = [["/console/create", { seeds: "http://example.com/", csrf }], ["/console/stop", { crawl_id: id, csrf }],
                   ["/console/resume", { crawl_id: id, csrf }],
                   ["/console/set-param", { crawl_id: id, name: "max_pages", value: "5", csrf }],
                   ["/console/delete", { crawl_id: id, confirm: "yes", csrf }]];
  for (const [path, form] of actions) check((await post(page, path, form)) === 403, "reader POST " + path + ": 403");
  await context.close();
}

// Delete needs its box ticked: the browser keeps the form until it is
// (`required`), then the crawl leaves the list.
async function deleteCrawl(browser, id) {
  const { context, page } = await signIn(browser, adminToken, "admin");
  await page.click(`#delete-${id}`);
  check(page.url().endsWith("/console"), "Delete without its box ticked stays on the form");
  await page.check(`#confirm-${id}`);
  await Promise.all([page.waitForNavigation(), page.click(`#delete-${id}`)]);
  check((await text(page, "#message")) === `Crawl ${id} deleted.`, "Delete deletes the crawl");
  check((await page.locator(`a[href="/console/crawl?id=${id}"]`).count()) === 0, "the deleted crawl leaves the list");
  await shot(page, "12-crawl-deleted");
  await context.close();
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"],
});
try {
  const { context, page } = await signIn(browser, adminToken, "admin");
  const id = await startCrawl(page);
  await shot(page, "03-crawl-started");
  await watchRate(page, id);
  await setParam(page, id);
  const title = await hostPage(page, id);
  const host = (await text(page, "h1")).replace(/^host /, "");
  const cached = await searchAndCache(page, id, title);
  await logPage(page, id);
  await page.goto(`${base}/console/crawl?id=${id}&live=0`);
  await forgeries(page, id);
  await stopResume(page, id);
  await context.close();
  await reader(browser, id, host, title, cached);
  await deleteCrawl(browser, id);
  console.log("ok: console walk-through passed");
} finally {
  await browser.close();
}
