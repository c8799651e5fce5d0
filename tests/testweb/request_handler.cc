// Routing and response building; see request_handler.h.
#include "tests/testweb/request_handler.h"

#include <algorithm>
#include <boost/beast/http/field.hpp>
#include <boost/beast/http/status.hpp>
#include <boost/beast/http/verb.hpp>
#include <cctype>
#include <cstdio>
#include <cstdlib>

#include "tests/testweb/byte_range.h"
#include "tests/testweb/conditional.h"
#include "tests/testweb/gzip.h"

namespace crawl::testweb {
namespace {

namespace http = boost::beast::http;

constexpr const char* kServerName = "testweb";
constexpr const char* kHtmlType = "text/html; charset=utf-8";
constexpr const char* kTextType = "text/plain; charset=utf-8";

// The host name of a Host header: lower-cased, without the port.
std::string HostHeaderName(std::string_view value) {
  std::string name(value);
  if (!name.empty() && name.front() != '[') {
    const size_t colon = name.find(':');
    if (colon != std::string::npos) name.resize(colon);
  }
  while (!name.empty() && name.back() == '.') name.pop_back();  // "www.site0.test." is the same host
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return name;
}

// Header lines of filler adding up to at least `bytes` (huge-headers).
void AddFillerHeaders(Response& res, uint64_t bytes) {
  const std::string value(100, 'f');
  uint64_t added = 0;
  for (uint64_t i = 0; added < bytes; ++i) {
    const std::string name = "X-Filler-" + std::to_string(i);
    added += name.size() + value.size() + 4;  // ": " and CRLF
    res.insert(name, value);
  }
}

// A 200 answer with Content-Length: whole, or the single byte range asked for.
void AnswerRange(const Request& request, Served& served, Response& res) {
  std::string body = std::move(served.body);
  res.set(http::field::content_type, served.content_type);
  res.set(http::field::accept_ranges, "bytes");
  const uint64_t size = body.size();
  const ByteRange range = ParseByteRange(request[http::field::range], size);
  switch (range.kind) {
    case ByteRange::Kind::kIgnore:
      res.result(http::status::ok);
      res.body() = std::move(body);
      break;
    case ByteRange::Kind::kPartial:
      res.result(http::status::partial_content);
      res.set(http::field::content_range, "bytes " + std::to_string(range.first) + "-" +
                                              std::to_string(range.last) + "/" + std::to_string(size));
      res.body() = body.substr(range.first, range.last - range.first + 1);
      break;
    case ByteRange::Kind::kUnsatisfiable:
      res.result(http::status::range_not_satisfiable);
      res.set(http::field::content_range, "bytes */" + std::to_string(size));
      break;
  }
}

// GET/POST kClockPath[?t=SECONDS] (see request_handler.h).
void HandleClock(const Request& request, std::string_view target, ChangeClock* clock, Response& res) {
  res.set(http::field::content_type, kTextType);
  const std::string_view query = target.substr(std::min(target.size(), kClockPath.size()));
  if (clock == nullptr) {
    res.result(http::status::not_found);
    res.body() = "no clock\n";
  } else if (request.method() == http::verb::get && query.empty()) {
    res.result(http::status::ok);
  } else if (request.method() != http::verb::post) {
    res.result(http::status::method_not_allowed);
    res.set(http::field::allow, "GET, POST");
    res.body() = "GET, or POST ?t=SECONDS\n";
    return;
  } else if (!clock->logical()) {
    res.result(http::status::conflict);
    res.body() = "the clock is real (serve --clock logical to set it)\n";
    return;
  } else {
    const std::string value(query.substr(0, 3) == "?t=" ? query.substr(3) : std::string_view());
    char* end = nullptr;
    const double t = value.empty() ? -1 : std::strtod(value.c_str(), &end);
    if (value.empty() || end != value.c_str() + value.size() || !(t >= 0) || t > 1e15) {
      res.result(http::status::bad_request);
      res.body() = "want ?t=SECONDS (a finite number >= 0)\n";
      return;
    }
    clock->Set(t);
    res.result(http::status::ok);
  }
  if (clock != nullptr) {
    char line[64];
    std::snprintf(line, sizeof line, "t=%.17g\n", clock->Now());
    res.body() = line;
  }
}

// Change model: validators on a live page, and 304 when the request's
// preconditions hold. True when the answer is 304.
bool ApplyValidators(const Request& request, const Served& served, Response& res) {
  if (served.etag.empty() || !served.last_modified) return false;
  res.set(http::field::etag, served.etag);
  if (NotModified(request[http::field::if_none_match], request[http::field::if_modified_since], served.etag,
                  *served.last_modified)) {
    res.result(http::status::not_modified);  // RFC 9110 section 15.4.5: ETag, no body
    return true;
  }
  res.set(http::field::last_modified, HttpDate(*served.last_modified));
  return false;
}

// PUT/DELETE/GET kRobotsControlPath on `host` (see robots_control.h).
void HandleRobotsControl(const Universe& universe, const Request& request, std::optional<uint32_t> host,
                         RobotsControl& control, Response& res) {
  res.set(http::field::content_type, kTextType);
  if (!host) {
    res.result(http::status::not_found);
    res.body() = "no such host\n";
    return;
  }
  switch (request.method()) {
    case http::verb::put:
      control.Set(*host, request.body());
      res.result(http::status::ok);
      res.body() = "robots.txt of " + universe.HostName(*host) + " replaced\n";
      return;
    case http::verb::delete_:
      control.Clear(*host);
      res.result(http::status::ok);
      res.body() = "robots.txt of " + universe.HostName(*host) + " restored\n";
      return;
    case http::verb::get: {
      auto replaced = control.Get(*host);
      res.result(http::status::ok);
      res.body() = replaced ? *replaced : universe.RobotsTxt(*host);
      return;
    }
    default:
      res.result(http::status::method_not_allowed);
      res.set(http::field::allow, "GET, PUT, DELETE");
      res.body() = "GET, PUT (the new robots.txt as the body) or DELETE\n";
  }
}

}  // namespace

const std::string& EndlessChunk() {
  static const std::string chunk = [] {
    std::string text;
    while (text.size() < kEndlessChunk) text += "<p>and the story goes on and on, never to end.</p>\n";
    text.resize(kEndlessChunk);
    char size[32];
    std::snprintf(size, sizeof size, "%zx\r\n", text.size());
    return std::string(size) + text + "\r\n";
  }();
  return chunk;
}

Handled HandleRequest(const Universe& universe, const Request& request, std::optional<uint32_t> fallback_host,
                      bool tls, ChangeClock* clock, RobotsControl* robots) {
  Handled out;
  Response& res = out.response;
  res.version(request.version());
  res.keep_alive(request.keep_alive());
  res.set(http::field::server, kServerName);

  std::optional<uint32_t> host = universe.HostIndex(HostHeaderName(request[http::field::host]));
  if (!host) host = fallback_host;
  if (host) out.host = universe.HostName(*host);

  const bool head = request.method() == http::verb::head;
  bool chunked = false;
  const std::string_view request_target(request.target().data(), request.target().size());
  if (universe.change_model().enabled() && request_target.substr(0, kClockPath.size()) == kClockPath) {
    out.admin = true;
    HandleClock(request, request_target, clock, res);
    res.prepare_payload();
    out.body_bytes = res.body().size();
    return out;
  }
  if (robots != nullptr && request_target == kRobotsControlPath) {
    out.admin = true;
    HandleRobotsControl(universe, request, host, *robots, res);
    res.prepare_payload();
    out.body_bytes = res.body().size();
    return out;
  }
  if (request.method() != http::verb::get && !head) {
    res.result(http::status::method_not_allowed);
    res.set(http::field::allow, "GET, HEAD");
    res.set(http::field::content_type, kTextType);
    res.body() = "method not allowed\n";
  } else {
    const std::string_view target(request.target().data(), request.target().size());
    std::optional<Served> served;
    if (host && universe.IsHttps(*host) && !tls) {
      // An https-only host asked over plain HTTP: off to the https URL.
      served.emplace();
      served->status = 301;
      served->content_type = kHtmlType;
      served->location = universe.Origin(*host) + std::string(target);
      served->body =
          "<!DOCTYPE html>\n<html><body><a href=\"" + served->location + "\">Moved</a></body></html>\n";
    } else if (auto replaced =
                   robots != nullptr && host && target == "/robots.txt" ? robots->Get(*host) : std::nullopt) {
      served.emplace();
      served->content_type = kTextType;
      served->body = std::move(*replaced);
    } else if (host) {
      served = universe.ServeAt(*host, target, clock != nullptr ? clock->Now() : 0);
    }
    if (served && served->close) {
      out.close = true;
      return out;
    }
    if (served && served->stream != Served::Stream::kNone && !head) {
      out.stream = served->stream;
      res.result(http::status::ok);
      return out;
    }
    if (!served || served->status == 404) {
      res.result(http::status::not_found);
      res.set(http::field::content_type, kHtmlType);
      res.body() =
          "<!DOCTYPE html>\n<html><head><title>Not Found</title></head><body><h1>Not "
          "Found</h1></body></html>\n";
    } else if (served->status == 200 && ApplyValidators(request, *served, res)) {
      out.body_bytes = 0;
      res.prepare_payload();
      // RFC 9110 section 8.6: a 304 may carry only the 200's Content-Length; send none.
      res.erase(http::field::content_length);
      return out;
    } else if (served->status != 200) {
      res.result(served->status);
      res.set(http::field::content_type, served->content_type);
      if (!served->location.empty()) res.set(http::field::location, served->location);
      if (served->retry_after != 0) res.set(http::field::retry_after, std::to_string(served->retry_after));
      res.body() = std::move(served->body);
    } else if (!served->content_encoding.empty()) {
      // Already encoded (a gzip bomb): sent whatever the client accepts.
      res.result(http::status::ok);
      res.set(http::field::content_type, served->content_type);
      res.set(http::field::content_encoding, served->content_encoding);
      res.body() = std::move(served->body);
    } else if (universe.HostHas(*host, Misbehaviour::kGzip) &&
               AcceptsGzip(request[http::field::accept_encoding])) {
      // Ranges apply to the encoded bytes; this server simply ignores them
      // here (RFC 9110 section 14.2 allows it) and sends everything.
      res.result(http::status::ok);
      res.set(http::field::content_type, served->content_type);
      res.set(http::field::content_encoding, "gzip");
      res.set(http::field::vary, "Accept-Encoding");
      res.body() = GzipCompress(served->body);
      chunked = served->chunked;
    } else if (served->chunked) {
      // No Content-Length, and no ranges: the client must cut the body.
      res.result(http::status::ok);
      res.set(http::field::content_type, served->content_type);
      res.body() = std::move(served->body);
      chunked = true;
    } else {
      AnswerRange(request, *served, res);
    }
    if (served && served->filler_header_bytes > 0) AddFillerHeaders(res, served->filler_header_bytes);
    if (host && universe.HostHas(*host, Misbehaviour::kSlow)) {
      out.first_byte_delay = std::chrono::milliseconds(1000);
      out.trickle_pieces = 10;
      out.trickle_interval = std::chrono::milliseconds(150);
    }
  }
  out.body_bytes = res.body().size();
  if (chunked && !head && request.version() >= 11) {
    res.chunked(true);
  } else {
    res.prepare_payload();
  }
  if (head) {
    // HEAD: the headers of the GET answer, no body.
    const uint64_t length = res.body().size();
    res.body().clear();
    res.content_length(length);
    out.body_bytes = 0;
  }
  return out;
}

}  // namespace crawl::testweb
