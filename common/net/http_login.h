// Signing in and out of the admin HTTP server's pages: GET /login shows the
// form, POST /login checks the token and sets the session cookie, POST
// /logout clears it. A sign-in must come from our own origin (Origin, else
// Referer) and carry the login CSRF value of its form (double submit,
// common/net/http_security.h), so another site cannot sign a browser in with
// the attacker's token; wrong tokens are rate limited per client and
// overall (common/net/login_throttle.h); a cookie is set only for a token the
// server accepts. Sign-out must be same-origin and carry the session's
// logout token, so another site cannot end a session either.
#pragma once

#include <string>
#include <string_view>

#include "common/net/admin_http.h"
#include "common/net/http_security.h"
#include "common/net/login_throttle.h"

namespace crawl {

struct LoginContext {
  HttpTokenCheck check;  // empty: no token is accepted
  LoginThrottle* throttle = nullptr;
  const CsrfKey* key = nullptr;
};

// GET or HEAD: the form (with a fresh login CSRF cookie); POST: sign in.
[[nodiscard]] HttpReply HandleLogin(const LoginContext& ctx, const HttpRequest& req);
// POST: sign out (303 to /login, the session cookie cleared).
[[nodiscard]] HttpReply HandleLogout(const LoginContext& ctx, const HttpRequest& req);

// The sign-in form page with `status` and `message`; `next` (a /console
// path, else ignored) is where a successful sign-in goes.
[[nodiscard]] HttpReply LoginFormReply(int status, std::string_view message, std::string_view next, bool tls);

// A small form posting to /logout with `logout_csrf` (HttpRequest's).
[[nodiscard]] std::string LogoutFormHtml(std::string_view logout_csrf);

// Where a sign-in may lead: `next` when it is a /console path, else /status.
[[nodiscard]] std::string LoginNext(std::string_view next);

}  // namespace crawl
