// crawlctl's connection to the name server.
#include "crawlctl/nameserver_client.h"

#include <cctype>
#include <cstdlib>

#include "common/base/process.h"
#include "common/security/process_security.h"

namespace crawl::crawlctl {

std::string EnvOr(const char* name, std::string fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? std::string(value) : fallback;
}

Result<std::string> LoadToken(const std::string& token_file) {
  std::string token = EnvOr("CRAWL_TOKEN");
  if (token.empty() && !token_file.empty()) {
    auto text = crawl::ReadFile(token_file);
    if (!text.ok()) return Status::InvalidArgument("--token-file: " + text.status().message());
    token = *text;
    while (!token.empty() && std::isspace(static_cast<unsigned char>(token.back()))) token.pop_back();
    if (token.empty()) return Status::InvalidArgument("--token-file " + token_file + " is empty");
  }
  if (token.find_first_of(" \t\r\n") != std::string::npos) {
    return Status::InvalidArgument("the token holds white space");
  }
  return token;
}

Status NameServerClient::Check(const grpc::Status& s) const {
  if (s.ok()) return Status::Ok();
  if (s.error_code() == grpc::StatusCode::UNAVAILABLE ||
      s.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED)
    return Status::Unavailable("cannot reach name server at " + address + ": " + s.error_message());
  if (s.error_code() == grpc::StatusCode::UNAUTHENTICATED)
    return Status::FailedPrecondition("not authenticated: " + s.error_message() +
                                      " (give a certificate with --tls-cert/--tls-key or a token)");
  if (s.error_code() == grpc::StatusCode::PERMISSION_DENIED)
    return Status::FailedPrecondition("permission denied: " + s.error_message());
  return Status::Internal(s.error_message());
}

Result<NameServerClient> ConnectToNameServer(ConnectionFlags flags) {
  if (flags.nameserver.empty())
    return Status::InvalidArgument("no name server: pass --nameserver host:port or set CRAWL_NAMESERVER");
  if (auto s = crawl::ValidateHostPort(flags.nameserver); !s.ok())
    return Status::InvalidArgument("--nameserver: " + s.message());
  if (flags.tls.insecure) flags.tls.ca = flags.tls.cert = flags.tls.key = flags.tls.crl = "";
  if (auto s = crawl::security::SetUpTransport("crawlctl", flags.tls, false, {}); !s.ok()) return s;
  auto token = LoadToken(flags.token_file);
  if (!token.ok()) return token.status();
  NameServerClient client;
  client.address = flags.nameserver;
  client.token = std::move(*token);
  client.stub =
      v1::NameServer::NewStub(crawl::MakeChannel(flags.nameserver, {crawl::security::Role::kNameServer}));
  return client;
}

}  // namespace crawl::crawlctl
