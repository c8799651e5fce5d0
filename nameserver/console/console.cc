#include "nameserver/console/console.h"

#include "common/net/http_login.h"
#include "common/net/http_security.h"
#include "nameserver/console/console_form.h"
#include "nameserver/console/console_html.h"

namespace crawl::nameserver {

std::string ConsoleCall::Q(const std::string& name) const {
  const auto it = query.find(name);
  return it == query.end() ? "" : it->second;
}

std::string ConsoleCall::F(const std::string& name) const {
  const auto it = form.find(name);
  return it == form.end() ? "" : it->second;
}

HttpReply ConsoleHtml(int status, const ConsoleFrame& frame, const std::string& body) {
  return {status,
          "text/html; charset=utf-8",
          ConsolePage(frame, body),
          {{"Content-Security-Policy", ConsoleCsp()}}};
}

HttpReply ConsoleRedirect(const std::string& location) {
  return {303, "text/plain; charset=utf-8", "see " + location + "\n", {{"Location", location}}};
}

namespace {

// The sign-in form posts to /login (common/net/http_login.h) with the login
// CSRF value that this reply also sets as a cookie.
HttpReply SignIn(const HttpRequest& req) {
  std::string next = req.path + (req.query.empty() ? "" : "?" + req.query);
  const LoginCsrf csrf = NewLoginCsrf(req.tls);
  const std::string body =
      "<p>The console needs a reader or admin token.</p><form method=\"post\" action=\"/login\">"
      "<input type=\"hidden\" name=\"next\" value=\"" +
      HtmlEscape(next) + "\"><input type=\"hidden\" name=\"" + std::string(kLoginCsrfField) + "\" value=\"" +
      csrf.value +
      "\"><label>Token <input type=\"password\" name=\"token\" id=\"token\" autofocus></label>"
      "<button type=\"submit\" id=\"sign-in\">Sign in</button></form>";
  // A bearer token or a cookie the console does not know (revoked since,
  // or a reader of another cluster): say so rather than ask again silently.
  const std::string message = req.token.empty() ? "" : "That token is not an admin or reader token.";
  HttpReply reply = ConsoleHtml(401, {"sign in", "nobody", message, !message.empty(), 0}, body);
  reply.headers.emplace_back("Set-Cookie", csrf.set_cookie);
  return reply;
}

// A signed-in page gets a Sign out button at the end of its header.
HttpReply WithSignOut(HttpReply reply, const HttpRequest& req) {
  if (req.logout_csrf.empty() || reply.content_type.rfind("text/html", 0) != 0) return reply;
  const size_t header_end = reply.body.find("</header>");
  if (header_end != std::string::npos) reply.body.insert(header_end, LogoutFormHtml(req.logout_csrf));
  return reply;
}

HttpReply Forbidden(ConsoleRole role, const std::string& why) {
  return ConsoleHtml(403, {"forbidden", std::string(ConsoleRoleName(role)), why, true, 0},
                     "<p><a href=\"/console\">Back to the crawls</a></p>");
}

HttpReply Post(const ConsoleDeps& deps, const ConsoleCall& call) {
  const HttpRequest& req = *call.req;
  if (call.role != ConsoleRole::kAdmin) return Forbidden(call.role, "Only an admin token may change crawls.");
  if (!ConsoleAuth::SameOrigin(req)) return Forbidden(call.role, "The form came from another site.");
  if (!deps.auth->CsrfValid(req, call.form))
    return Forbidden(call.role, "The form's CSRF token is missing or stale; reload the page and try again.");
  static const char* const kActions[] = {"/console/create", "/console/stop", "/console/resume",
                                         "/console/set-param", "/console/delete"};
  for (const char* a : kActions)
    if (req.path == a) return ConsoleCrawlAction(deps, call, req.path.substr(9));
  return ConsoleHtml(404, {"not found", "admin", "No such action: " + req.path, true, 0}, "");
}

}  // namespace

HttpReply HandleConsole(const ConsoleDeps& deps, const HttpRequest& req) {
  return WithSignOut(HandleConsolePage(deps, req), req);
}

HttpReply HandleConsolePage(const ConsoleDeps& deps, const HttpRequest& req) {
  ConsoleCall call;
  call.req = &req;
  call.role = deps.auth->RoleOf(req);
  if (call.role == ConsoleRole::kNone) {
    if (req.method == "POST") return Forbidden(call.role, "Sign in first.");
    return SignIn(req);
  }
  call.csrf = deps.auth->CsrfToken(req);
  call.query = ParseForm(req.query);
  if (req.method == "POST") {
    auto form = ParseFormBody(req.content_type, req.body);
    if (!form.ok())
      return ConsoleHtml(
          400, {"bad form", std::string(ConsoleRoleName(call.role)), form.status().message(), true, 0}, "");
    call.form = std::move(*form);
    return Post(deps, call);
  }
  const std::string& p = req.path;
  if (p == "/console" || p == "/console/") return ConsoleCrawlsPage(deps, call);
  if (p == "/console/crawl") return ConsoleCrawlPage(deps, call);
  if (p == "/console/host") return ConsoleHostPage(deps, call);
  if (p == "/console/search") return ConsoleSearchPage(deps, call);
  if (p == "/console/cached") return ConsoleCachedPage(deps, call);
  if (p == "/console/log") return ConsoleLogPage(deps, call);
  return ConsoleHtml(404, {"not found", std::string(ConsoleRoleName(call.role)), "No page " + p, true, 0},
                     "");
}

void AddConsoleRoutes(AdminHttpServer& server, ConsoleDeps deps) {
  server.HandleApp("/console", [deps](const HttpRequest& req) { return HandleConsole(deps, req); });
}

}  // namespace crawl::nameserver
