// HttpFetcher: sets up what its sessions share (TLS context, DNS resolver,
// per-IP limit), starts one FetchSession per FetchSequence call and cancels
// them; see http_fetcher.h for the contract and fetch_session.h for the
// downloads themselves.
#include "fetcher/http/http_fetcher.h"

#include <boost/asio/ssl.hpp>
#include <exception>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <utility>

#include "fetcher/http/dns_resolver.h"
#include "fetcher/http/fetch_session.h"

namespace crawl::fetcher {
namespace {

struct TlsSetUp {
  std::shared_ptr<ssl::context> context;  // null on error
  std::string error;
};

TlsSetUp MakeTlsContext(const FetcherOptions& options) {
  TlsSetUp out;
  try {
    auto context = std::make_shared<ssl::context>(ssl::context::tls_client);
    context->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3);
    beast::error_code ec;
    if (options.accept_self_signed) {
      context->set_verify_mode(ssl::verify_none, ec);
    } else {
      context->set_verify_mode(ssl::verify_peer, ec);
      if (!ec) context->set_default_verify_paths(ec);
      if (!ec && !options.ca_file.empty()) {
        context->load_verify_file(options.ca_file, ec);
        if (ec) out.error = "loading ca_file " + options.ca_file + ": " + ec.message();
      }
    }
    // ALPN (RFC 7301): offer h2 first; a server that picks nothing or
    // http/1.1 gets HTTP/1.1 as before.
    static constexpr unsigned char kAlpn[] = "\x02h2\x08http/1.1";
    if (!ec && options.h2_streams > 0 &&
        SSL_CTX_set_alpn_protos(context->native_handle(), kAlpn, sizeof(kAlpn) - 1) != 0) {
      out.error = "cannot offer ALPN protocols";
    }
    if (ec && out.error.empty()) out.error = ec.message();
    if (!ec && out.error.empty()) out.context = std::move(context);
  } catch (const std::exception& e) {  // ssl::context's constructor throws
    out.error = e.what();
  }
  return out;
}

// One context per set of TLS options in the process (an SSL_CTX serves
// connections on any thread). A ca_file is told apart by its modification
// time too, so a renewed file is read again; a failed set-up is not kept.
TlsSetUp SharedTlsContext(const FetcherOptions& options) {
  static std::mutex mu;
  static std::map<std::tuple<bool, std::string, int64_t, bool>, std::shared_ptr<ssl::context>> contexts;
  std::error_code ec;
  const int64_t modified =
      options.ca_file.empty()
          ? 0
          : static_cast<int64_t>(
                std::filesystem::last_write_time(options.ca_file, ec).time_since_epoch().count());
  const auto key =
      std::make_tuple(options.accept_self_signed, options.accept_self_signed ? "" : options.ca_file,
                      ec ? -1 : modified, options.h2_streams > 0);
  std::lock_guard lock(mu);
  if (auto it = contexts.find(key); it != contexts.end()) return {it->second, ""};
  TlsSetUp made = MakeTlsContext(options);
  if (made.context) contexts.emplace(key, made.context);
  return made;
}

}  // namespace

void HttpFetcher::Shared::SetUpTls() {
  std::call_once(tls_once, [this] {
    TlsSetUp set_up = SharedTlsContext(options);
    tls = std::move(set_up.context);
    tls_setup_error = std::move(set_up.error);
  });
}

ssl::context* HttpFetcher::Shared::Tls() {
  SetUpTls();
  return tls.get();
}

const std::string& HttpFetcher::Shared::TlsError() {
  SetUpTls();
  return tls_setup_error;
}

HttpFetcher::HttpFetcher(net::io_context& io_context, FetcherOptions options)
    : io_context_(io_context), shared_(std::make_shared<Shared>(std::move(options))) {
  shared_->resolver = shared_->options.resolver;
  if (!shared_->resolver) {
    auto resolver = DnsResolver::Create(io_context, DnsOptions{});
    if (resolver.ok()) {
      shared_->resolver = std::move(*resolver);
    } else {
      shared_->resolver_error = resolver.status().message();
    }
  }
}

HttpFetcher::~HttpFetcher() = default;

void HttpFetcher::FetchSequence(std::vector<std::string> urls, std::function<void(FetchResult)> on_result,
                                std::function<void()> on_done, std::chrono::milliseconds delay_between,
                                std::shared_ptr<ResultBudget> budget) {
  std::vector<FetchTarget> targets;
  targets.reserve(urls.size());
  for (std::string& url : urls) targets.push_back({std::move(url), {}, {}});
  FetchSequence(std::move(targets), std::move(on_result), std::move(on_done), delay_between,
                std::move(budget));
}

void HttpFetcher::FetchSequence(std::vector<FetchTarget> targets, std::function<void(FetchResult)> on_result,
                                std::function<void()> on_done, std::chrono::milliseconds delay_between,
                                std::shared_ptr<ResultBudget> budget, std::chrono::milliseconds start_pace) {
  auto session = std::make_shared<FetchSession>(
      io_context_, shared_, std::move(targets), std::move(on_result), std::move(on_done),
      HostPacer(shared_->options.pacing, delay_between, start_pace), std::move(budget));
  session->Start();
}

void HttpFetcher::CancelAll() {
  std::vector<std::shared_ptr<FetchSession>> sessions;
  {
    MutexLock lock(shared_->mu);
    for (auto& [raw, weak] : shared_->sessions) {
      if (auto session = weak.lock()) sessions.push_back(std::move(session));
    }
  }
  for (auto& session : sessions) session->Cancel();
}

const std::string& HttpFetcher::tls_setup_error() const { return shared_->TlsError(); }

size_t HttpFetcher::requests_in_flight() const {
  MutexLock lock(shared_->mu);
  return shared_->in_flight;
}

size_t HttpFetcher::active_sequences() const {
  MutexLock lock(shared_->mu);
  return shared_->sessions.size();
}

}  // namespace crawl::fetcher
