#include "common/net/http_login.h"

#include <string>

#include "common/net/http_security.h"

namespace crawl {
namespace {

std::string FormField(const std::map<std::string, std::string>& form, const std::string& name) {
  const auto it = form.find(name);
  return it == form.end() ? "" : it->second;
}

HttpReply Refused(int status, std::string_view why) {
  return {status, "text/plain; charset=utf-8", std::string(why) + "\n"};
}

}  // namespace

std::string LoginNext(std::string_view next) {
  const bool to_console =
      next.rfind("/console", 0) == 0 && next.find_first_of("\r\n") == std::string_view::npos;
  return to_console ? std::string(next) : "/status";
}

HttpReply LoginFormReply(int status, std::string_view message, std::string_view next, bool tls) {
  const LoginCsrf csrf = NewLoginCsrf(tls);
  std::string body =
      "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>crawl: sign "
      "in</title></head>\n"
      "<body><h1>Sign in</h1><p id=\"message\">" +
      HtmlEscape(message) +
      "</p>\n<form method=\"post\" action=\"/login\"><input type=\"hidden\" name=\"next\" value=\"" +
      HtmlEscape(LoginNext(next)) + "\"><input type=\"hidden\" name=\"" + std::string(kLoginCsrfField) +
      "\" value=\"" + csrf.value +
      "\"><label>Token <input type=\"password\" name=\"token\" id=\"token\" autofocus></label>\n"
      "<button type=\"submit\" id=\"sign-in\">Sign in</button></form></body></html>\n";
  return {status, "text/html; charset=utf-8", std::move(body), {{"Set-Cookie", csrf.set_cookie}}};
}

HttpReply HandleLogin(const LoginContext& ctx, const HttpRequest& req) {
  if (req.method != "POST") {
    const auto query = ParseForm(req.query);
    return LoginFormReply(200, "Sign in with a reader or admin token.", FormField(query, "next"), req.tls);
  }
  if (!SameOriginRequest(req.origin, req.referer, req.host))
    return Refused(403, "The sign-in form came from another site.");
  const auto form = ParseForm(req.body);
  const std::string next = FormField(form, "next");
  if (!LoginCsrfValid(CookieValue(req.cookies, kLoginCsrfCookie),
                      FormField(form, std::string(kLoginCsrfField))))
    return LoginFormReply(403, "The sign-in form was stale or not ours; please sign in again.", next,
                          req.tls);
  if (ctx.throttle) {
    if (const int64_t wait_ms = ctx.throttle->RetryAfterMs(req.client); wait_ms > 0) {
      const std::string seconds = std::to_string((wait_ms + 999) / 1000);
      return {429,
              "text/plain; charset=utf-8",
              "Too many wrong tokens; try again in " + seconds + " s.\n",
              {{"Retry-After", seconds}}};
    }
  }
  const std::string token = FormField(form, "token");
  if (!CookieSafe(token) || !ctx.check || !ctx.check(token)) {
    if (ctx.throttle) ctx.throttle->Failed(req.client);
    return LoginFormReply(401, "Wrong token.", next, req.tls);
  }
  return {303,
          "text/plain; charset=utf-8",
          "signed in\n",
          {{"Location", LoginNext(next)},
           {"Set-Cookie", SessionCookie(token, req.tls)},
           {"Set-Cookie", std::string(kLoginCsrfCookie) + "=; Path=/login; Max-Age=0"}}};
}

HttpReply HandleLogout(const LoginContext& ctx, const HttpRequest& req) {
  if (req.method != "POST") return Refused(405, "Sign out with POST (the console's Sign out button).");
  if (!SameOriginRequest(req.origin, req.referer, req.host))
    return Refused(403, "The sign-out form came from another site.");
  const auto form = ParseForm(req.body);
  if (!ctx.key || !ctx.key->Valid("logout", req.token, FormField(form, "csrf")))
    return Refused(403, "The sign-out form's CSRF token is missing or stale; reload the page.");
  return {303,
          "text/plain; charset=utf-8",
          "signed out\n",
          {{"Location", "/login"}, {"Set-Cookie", ClearedSessionCookie(req.tls)}}};
}

std::string LogoutFormHtml(std::string_view logout_csrf) {
  return "<form class=\"inline\" method=\"post\" action=\"/logout\"><input type=\"hidden\" name=\"csrf\" "
         "value=\"" +
         HtmlEscape(logout_csrf) + "\"><button type=\"submit\" id=\"sign-out\">Sign out</button></form>";
}

}  // namespace crawl
