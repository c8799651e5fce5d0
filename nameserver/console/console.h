// The name server's operator console: HTML pages under
// /console on the name server's HTTP server, beside /status. A reader sees
// every page; an admin also creates, starts, stops and resumes crawls and
// changes their parameters. Every action is a form POST carrying a CSRF
// token (nameserver/console/console_auth.h); pages need no JavaScript except the
// crawl page's live refresh, and load nothing from outside the cluster.
//
// Pages (GET): /console (crawls), /console/crawl?id=N, /console/host?crawl=N
// &host=H, /console/search?crawl=N&q=Q, /console/cached?crawl=N&url=U,
// /console/log?crawl=N&status=&host=&since=&format=html|tsv|jsonl.
// Actions (POST): /console/create, /console/stop, /console/resume,
// /console/set-param.
//
// The pages call the same service methods as the gRPC API (with a null
// context: the role was checked here), so validation is shared.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "common/base/clock.h"
#include "common/net/admin_http.h"
#include "nameserver/console/console_auth.h"
#include "nameserver/console/console_html.h"
#include "nameserver/service.h"

namespace crawl::nameserver {

// One request as the pages see it: who asks, the decoded query and form,
// and the CSRF token to put into forms.
struct ConsoleCall {
  const HttpRequest* req = nullptr;
  ConsoleRole role = ConsoleRole::kNone;
  std::string csrf;
  std::map<std::string, std::string> query;
  std::map<std::string, std::string> form;
  // A query or form field, "" when absent.
  [[nodiscard]] std::string Q(const std::string& name) const;
  [[nodiscard]] std::string F(const std::string& name) const;
};

// What the pages need; all must outlive the routes.
struct ConsoleDeps {
  NameServerServiceImpl* service = nullptr;
  const Clock* clock = nullptr;
  const ConsoleAuth* auth = nullptr;
};

// Answers one request under /console (exposed for tests); a signed-in
// page also gets a Sign out button.
[[nodiscard]] HttpReply HandleConsole(const ConsoleDeps& deps, const HttpRequest& req);
// The same without the Sign out button.
[[nodiscard]] HttpReply HandleConsolePage(const ConsoleDeps& deps, const HttpRequest& req);

// Routes /console and everything under it to HandleConsole.
void AddConsoleRoutes(AdminHttpServer& server, ConsoleDeps deps);

// Page and action handlers (console_*.cc). Actions REQUIRE an admin call
// with a valid CSRF token (HandleConsole checks).
[[nodiscard]] HttpReply ConsoleCrawlsPage(const ConsoleDeps& deps, const ConsoleCall& call);
[[nodiscard]] HttpReply ConsoleCrawlAction(const ConsoleDeps& deps, const ConsoleCall& call,
                                           const std::string& action);
[[nodiscard]] HttpReply ConsoleCrawlPage(const ConsoleDeps& deps, const ConsoleCall& call);
[[nodiscard]] HttpReply ConsoleHostPage(const ConsoleDeps& deps, const ConsoleCall& call);
[[nodiscard]] HttpReply ConsoleSearchPage(const ConsoleDeps& deps, const ConsoleCall& call);
[[nodiscard]] HttpReply ConsoleCachedPage(const ConsoleDeps& deps, const ConsoleCall& call);
[[nodiscard]] HttpReply ConsoleLogPage(const ConsoleDeps& deps, const ConsoleCall& call);

// The Content-Type the cached view serves a stored page under, whatever
// the crawled server said: text/html (shown inside a sandbox) and raster
// images keep their type, everything else is text/plain; only a plain
// charset token survives.
[[nodiscard]] std::string CachedPageType(std::string_view mime);

// The host page's queue section (console_host.cc): a table tier -> URLs
// queued, the URLs waiting for robots.txt and leased, a note when the scan
// stopped early, and the first queued URLs, all escaped; `status` not OK
// (the owning queue server unreachable, say) gives a short error line.
[[nodiscard]] std::string ConsoleHostQueueHtml(const grpc::Status& status,
                                               const v1::HostQueueResponse& queue);

// The host page's politeness section (console_politeness.cc): the host's
// pace, address, recent response times (a sparkline and a list), back-off
// at `now_ms` and whether a schedule holds it, from `queue` (HostQueue
// 11-17); then its address across the cluster from `address`
// (QueueServer.AddressStatus), or "unavailable" when `address_status` is
// not OK (UNIMPLEMENTED: that queue server keeps no address slots). All
// escaped.
[[nodiscard]] std::string ConsoleHostPolitenessHtml(const v1::HostQueueResponse& queue,
                                                    const grpc::Status& address_status,
                                                    const v1::AddressStatusResponse& address, int64_t now_ms);

// The create form's parameters (order, max_pages, ..., and "more": lines of
// name=value) parsed into `params` as `crawlctl set-param` parses them.
[[nodiscard]] Status ConsoleParamsFromForm(const std::map<std::string, std::string>& form,
                                           v1::CrawlParams* params);

// An HTML reply: `status`, the frame and the body.
[[nodiscard]] HttpReply ConsoleHtml(int status, const ConsoleFrame& frame, const std::string& body);
// 303 to `location` (a /console path).
[[nodiscard]] HttpReply ConsoleRedirect(const std::string& location);

}  // namespace crawl::nameserver
