// The console's crawls page (/console) and its actions: create (start),
// stop, resume, set-param and delete. Parameters are parsed by common/crawl/param_text.h,
// as `crawlctl set-param` does, and checked by the service's own StartCrawl
// and SetCrawlParams (called with a null context; the role was checked by
// nameserver/console/console.cc).
#include <charconv>

#include "common/crawl/param_text.h"
#include "common/crawl/report_text.h"
#include "nameserver/console/console.h"
#include "nameserver/console/console_html.h"

namespace crawl::nameserver {
namespace {

std::string Time(int64_t unix_ms) {
  return unix_ms > 0 ? Iso8601Micros(unix_ms * 1000).substr(0, 19) + "Z" : "";
}

// Stop, resume and delete buttons of one crawl, as forms. Delete (of a
// crawl that does not run) needs its confirm box ticked: the browser asks
// for it (`required`), and ConsoleCrawlAction refuses the form without it.
std::string ActionForms(const v1::CrawlInfo& c, const std::string& csrf) {
  const std::string id = std::to_string(c.crawl_id());
  auto form = [&](const char* action, const char* label, const std::string& extra) {
    return std::string("<form class=\"inline\" method=\"post\" action=\"/console/") + action + "\">" +
           CsrfField(csrf) + "<input type=\"hidden\" name=\"crawl_id\" value=\"" + id + "\">" + extra +
           "<button type=\"submit\" id=\"" + action + "-" + id + "\">" + label + "</button></form>";
  };
  if (c.state() == v1::CRAWL_STATE_RUNNING) return form("stop", "Stop", "");
  const std::string confirm =
      "<label><input type=\"checkbox\" name=\"confirm\" value=\"yes\" required id=\"confirm-" + id +
      "\"> its data too</label> ";
  const std::string remove = form("delete", "Delete", confirm);
  if (c.state() == v1::CRAWL_STATE_STOPPED) return form("resume", "Resume", "") + " " + remove;
  return remove;
}

std::string CrawlsTable(const std::map<uint64_t, v1::CrawlInfo>& crawls, const std::string& csrf) {
  std::string o =
      "<table id=\"crawls\"><tr><th>crawl</th><th>state</th><th>order</th><th>max pages</th><th>seeds</th>"
      "<th>started</th><th>ended</th><th>end reason</th><th></th></tr>";
  for (auto it = crawls.rbegin(); it != crawls.rend(); ++it) {
    const v1::CrawlInfo& c = it->second;
    const std::string id = std::to_string(c.crawl_id());
    o += "<tr><td><a href=\"/console/crawl?id=" + id + "\">" + id + "</a></td><td class=\"state\">" +
         HtmlEscape(StateName(c.state())) + "</td><td>" +
         HtmlEscape(c.params().order().empty() ? "host_budget" : c.params().order()) +
         "</td><td class=\"num\">" +
         (c.params().max_pages() ? Thousands(c.params().max_pages()) : "no limit") +
         "</td><td class=\"num\">" + Thousands(c.seed_count()) + "</td><td>" + Time(c.started_unix_ms()) +
         "</td><td>" + Time(c.ended_unix_ms()) + "</td><td>" + HtmlEscape(c.end_reason()) + "</td><td>" +
         ActionForms(c, csrf) + "</td></tr>";
  }
  if (crawls.empty()) o += "<tr><td colspan=\"9\">No crawl yet.</td></tr>";
  return o + "</table>";
}

std::string Text(const ConsoleCall& call, const char* name) { return HtmlEscape(call.F(name)); }

std::string CreateForm(const ConsoleCall& call) {
  std::string o =
      "<h2>New crawl</h2><form method=\"post\" action=\"/console/create\" id=\"create\" "
      "enctype=\"multipart/form-data\">" +
      CsrfField(call.csrf) +
      "<fieldset><legend>Seeds</legend><textarea name=\"seeds\" id=\"seeds\" rows=\"6\" cols=\"80\" "
      "placeholder=\"one URL a line\">" +
      Text(call, "seeds") +
      "</textarea><br><label>and/or a seeds file (one URL a line, up to 1 MiB) <input type=\"file\" "
      "name=\"seeds_file\" id=\"seeds_file\"></label></fieldset><fieldset><legend>Parameters</legend>";
  o += "<label>order <select name=\"order\" id=\"order\">";
  for (const char* order : {"host_budget", "opic", "bfs", "structure"})
    o += std::string("<option") + (call.F("order") == order ? " selected" : "") + ">" + order + "</option>";
  o += "</select></label>";
  auto number = [&](const char* name, const char* label) {
    return std::string("<label>") + label + " <input type=\"number\" min=\"0\" name=\"" + name + "\" id=\"" +
           name + "\" value=\"" + Text(call, name) + "\"></label>";
  };
  auto check = [&](const char* name, const char* label) {
    return std::string("<label><input type=\"checkbox\" name=\"") + name + "\" id=\"" + name + "\"" +
           (call.F(name).empty() ? "" : " checked") + "> " + label + "</label>";
  };
  o += number("max_pages", "max pages (0: no limit)") + number("max_depth", "max depth") +
       number("schedule_size", "schedule size") + number("min_host_delay_ms", "min host delay ms") + "<br>";
  o += "<label>include hosts <input name=\"include_hosts\" id=\"include_hosts\" size=\"40\" value=\"" +
       Text(call, "include_hosts") + "\" placeholder=\"comma-separated globs\"></label><br>";
  o += check("keep_page_cache", "keep pages (cached copies, WARC)") +
       check("allow_private_addresses", "allow private addresses") + "<br>";
  o += "<label>more parameters, one <code>name=value</code> a line (as <code>crawlctl set-param</code>)<br>"
       "<textarea name=\"more\" id=\"more\" rows=\"3\" cols=\"60\">" +
       Text(call, "more") +
       "</textarea></label></fieldset><button type=\"submit\" id=\"start\">Start crawl</button>"
       "</form>";
  return o;
}

HttpReply CrawlsPage(const ConsoleDeps& deps, const ConsoleCall& call, int status, const std::string& message,
                     bool error) {
  const auto snap = deps.service->TakeSnapshot();
  std::string body;
  if (call.role != ConsoleRole::kAdmin)
    body +=
        "<p id=\"read-only\">Your token is read-only: you can look at everything, actions are refused.</p>";
  body += CrawlsTable(snap.crawls, call.csrf) + CreateForm(call);
  return ConsoleHtml(status, {"crawls", std::string(ConsoleRoleName(call.role)), message, error, 0}, body);
}

// Seeds from the pasted text: one URL a line, blank lines and '#' comments
// skipped (the format of crawlctl start --seeds).
std::vector<std::string> SeedLines(const std::string& text) {
  std::vector<std::string> seeds;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    const size_t b = line.find_first_not_of(" \t\r");
    const size_t e = line.find_last_not_of(" \t\r");
    if (b != std::string::npos && line[b] != '#') seeds.push_back(line.substr(b, e - b + 1));
    start = end + 1;
  }
  return seeds;
}

}  // namespace

// Exposed for the unit tests through ConsoleCrawlAction only.
Status ConsoleParamsFromForm(const std::map<std::string, std::string>& form, v1::CrawlParams* params) {
  for (const char* name : {"order", "max_pages", "max_depth", "schedule_size", "min_host_delay_ms",
                           "include_hosts", "keep_page_cache", "allow_private_addresses"}) {
    const auto it = form.find(name);
    if (it == form.end() || it->second.empty()) continue;
    if (auto s = SetParamFromText(params, name, it->second); !s.ok()) return s;
  }
  const auto more = form.find("more");
  if (more == form.end()) return Status::Ok();
  for (const std::string& line : SeedLines(more->second)) {
    const size_t eq = line.find('=');
    if (eq == std::string::npos) return Status::InvalidArgument("'" + line + "' is not name=value");
    auto trim = [](std::string s) {
      const size_t b = s.find_first_not_of(" \t");
      const size_t e = s.find_last_not_of(" \t");
      return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
    };
    if (auto s = SetParamFromText(params, trim(line.substr(0, eq)), trim(line.substr(eq + 1))); !s.ok())
      return s;
  }
  return Status::Ok();
}

HttpReply ConsoleCrawlsPage(const ConsoleDeps& deps, const ConsoleCall& call) {
  return CrawlsPage(deps, call, 200, call.Q("msg"), false);
}

namespace {

bool ParseId(const std::string& text, uint64_t* id) {
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), *id);
  return ec == std::errc() && ptr == text.data() + text.size() && !text.empty();
}

int HttpStatusOf(const grpc::Status& s) {
  switch (s.error_code()) {
    case grpc::StatusCode::INVALID_ARGUMENT:
      return 400;
    case grpc::StatusCode::NOT_FOUND:
      return 404;
    case grpc::StatusCode::FAILED_PRECONDITION:
    case grpc::StatusCode::ALREADY_EXISTS:
      return 409;
    case grpc::StatusCode::UNAVAILABLE:
      return 503;
    default:
      return 500;
  }
}

std::string Done(uint64_t id, const std::string& message) {
  return "/console/crawl?id=" + std::to_string(id) + "&msg=" + UrlEncode(message);
}

HttpReply Create(const ConsoleDeps& deps, const ConsoleCall& call) {
  v1::StartCrawlRequest req;
  if (auto s = ConsoleParamsFromForm(call.form, req.mutable_params()); !s.ok())
    return CrawlsPage(deps, call, 400, "Not started: " + s.message(), true);
  for (std::string& seed : SeedLines(call.F("seeds"))) req.add_seeds(std::move(seed));
  for (std::string& seed : SeedLines(call.F("seeds_file"))) req.add_seeds(std::move(seed));
  if (req.seeds_size() == 0)
    return CrawlsPage(deps, call, 400, "Not started: paste at least one seed URL.", true);
  v1::StartCrawlResponse resp;
  const grpc::Status s = deps.service->StartCrawl(nullptr, &req, &resp);
  if (!s.ok()) return CrawlsPage(deps, call, HttpStatusOf(s), "Not started: " + s.error_message(), true);
  std::string message = "Crawl " + std::to_string(resp.crawl().crawl_id()) + " started with " +
                        std::to_string(resp.crawl().seed_count()) + " seeds.";
  if (resp.rejected_seeds_size() > 0)
    message += " " + std::to_string(resp.rejected_seeds_size()) +
               " seeds rejected, first: " + resp.rejected_seeds(0);
  for (const auto& w : resp.warnings()) message += " Warning: " + w;
  return ConsoleRedirect(Done(resp.crawl().crawl_id(), message));
}

HttpReply SetParam(const ConsoleDeps& deps, const ConsoleCall& call, uint64_t id) {
  v1::SetCrawlParamsRequest req;
  req.set_crawl_id(id);
  const std::string name = call.F("name");
  if (auto s = SetParamFromText(req.mutable_params(), name, call.F("value")); !s.ok())
    return CrawlsPage(deps, call, 400, "Not changed: " + s.message(), true);
  req.add_fields(name);
  v1::SetCrawlParamsResponse resp;
  const grpc::Status s = deps.service->SetCrawlParams(nullptr, &req, &resp);
  if (!s.ok()) return CrawlsPage(deps, call, HttpStatusOf(s), "Not changed: " + s.error_message(), true);
  return ConsoleRedirect(Done(id, name + " set to '" + call.F("value") + "' (parameters version " +
                                      std::to_string(resp.crawl().params_version()) + ")."));
}

// `crawlctl delete`: the crawl, its RocksDB data and WARC files on every
// queue server (nameserver/service.cc DeleteCrawl), refused while it runs.
HttpReply Delete(const ConsoleDeps& deps, const ConsoleCall& call, uint64_t id) {
  const std::string name = "Crawl " + std::to_string(id);
  if (call.F("confirm") != "yes")
    return CrawlsPage(deps, call, 400, name + " not deleted: tick the box to confirm that its data goes too.",
                      true);
  v1::DeleteCrawlRequest req;
  req.set_crawl_id(id);
  v1::DeleteCrawlResponse resp;
  const grpc::Status s = deps.service->DeleteCrawl(nullptr, &req, &resp);
  if (!s.ok())
    return CrawlsPage(deps, call, HttpStatusOf(s), name + " not deleted: " + s.error_message(), true);
  std::string message = resp.existed() ? name + " deleted." : name + " was not here (already deleted).";
  if (resp.pending_queue_servers_size() > 0) {
    message += " Its data goes from queue servers";
    for (const auto& qs : resp.pending_queue_servers()) message += " " + qs;
    message += " when they are back.";
  }
  return ConsoleRedirect("/console?msg=" + UrlEncode(message));
}

}  // namespace

HttpReply ConsoleCrawlAction(const ConsoleDeps& deps, const ConsoleCall& call, const std::string& action) {
  if (action == "create") return Create(deps, call);
  uint64_t id = 0;
  if (!ParseId(call.F("crawl_id"), &id))
    return CrawlsPage(deps, call, 400, "crawl_id must be a crawl number, not '" + call.F("crawl_id") + "'",
                      true);
  if (action == "set-param") return SetParam(deps, call, id);
  if (action == "delete") return Delete(deps, call, id);
  grpc::Status s;
  if (action == "stop") {
    v1::StopCrawlRequest req;
    req.set_crawl_id(id);
    v1::StopCrawlResponse resp;
    s = deps.service->StopCrawl(nullptr, &req, &resp);
  } else {
    v1::ResumeCrawlRequest req;
    req.set_crawl_id(id);
    v1::ResumeCrawlResponse resp;
    s = deps.service->ResumeCrawl(nullptr, &req, &resp);
  }
  const std::string verb = action == "stop" ? "stopped" : "resumed";
  if (!s.ok())
    return CrawlsPage(deps, call, HttpStatusOf(s),
                      "Crawl " + std::to_string(id) + " not " + verb + ": " + s.error_message(), true);
  return ConsoleRedirect(Done(id, "Crawl " + std::to_string(id) + " " + verb + "."));
}

}  // namespace crawl::nameserver
