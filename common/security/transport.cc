#include "common/security/transport.h"

#include <arpa/inet.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/security/tls_certificate_provider.h>
#include <grpcpp/security/tls_certificate_verifier.h>
#include <grpcpp/security/tls_credentials_options.h>
#include <openssl/crypto.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <filesystem>

#include "common/base/mutex.h"
#include "common/base/process.h"
#include "common/security/peer_identity.h"

namespace crawl::security {
namespace {

namespace gx = grpc::experimental;

// Runs after the chain check of every handshake: revocation, and on the
// client side the server's role.
class PeerVerifier final : public gx::ExternalCertificateVerifier {
 public:
  PeerVerifier(std::shared_ptr<RevocationList> revocation, std::optional<RoleSet> peer_roles)
      : revocation_(std::move(revocation)), peer_roles_(peer_roles) {}

  bool Verify(gx::TlsCustomVerificationCheckRequest* request, std::function<void(grpc::Status)>,
              grpc::Status* sync_status) override {
    *sync_status = Check(std::string_view(request->peer_cert().data(), request->peer_cert().size()));
    if (!sync_status->ok()) spdlog::warn("TLS peer refused: {}", sync_status->error_message());
    return true;
  }
  void Cancel(gx::TlsCustomVerificationCheckRequest*) override {}

 private:
  grpc::Status Check(std::string_view pem) const {
    if (pem.empty()) {
      if (peer_roles_) return {grpc::StatusCode::UNAUTHENTICATED, "the server presented no certificate"};
      return grpc::Status::OK;  // a client with a token; calls are checked one by one
    }
    if (revocation_ && revocation_->IsRevoked(pem))
      return {grpc::StatusCode::UNAUTHENTICATED, "the peer's certificate is revoked (--tls-crl)"};
    if (!peer_roles_) return grpc::Status::OK;
    auto identity = IdentityFromCertificatePem(pem);
    if (!identity.ok())
      return {grpc::StatusCode::UNAUTHENTICATED, "server certificate: " + identity.status().message()};
    if (!peer_roles_->Has(identity->role))
      return {grpc::StatusCode::UNAUTHENTICATED, "the server is a " + std::string(RoleName(identity->role)) +
                                                     ", expected " + peer_roles_->ToString()};
    return grpc::Status::OK;
  }

  // Set once here, read on gRPC's handshake threads (never written again).
  const std::shared_ptr<RevocationList> revocation_;
  const std::optional<RoleSet> peer_roles_;
};

Status CheckReadable(const std::string& path, std::string_view flag) {
  auto bytes = ReadFile(path);
  if (!bytes.ok()) return Status::InvalidArgument(std::string(flag) + ": " + bytes.status().message());
  if (bytes->find("-----BEGIN") == std::string::npos)
    return Status::InvalidArgument(std::string(flag) + ": " + path + " is not a PEM file");
  return Status::Ok();
}

// OpenSSL frees a thread's state (error queue, random generators) when the
// thread ends, but only until its own exit handler has run. By default that
// handler is registered after g_transport's destructor, so it runs first,
// and the certificate watcher's thread, joined when g_transport goes, kept
// what it had allocated: LeakSanitizer reported it after a certificate
// reload. Without the handler OpenSSL's globals stay reachable at exit and
// every thread's state is freed. Static, so it runs before main and before
// any other use of OpenSSL (the first initialization decides).
const bool g_openssl_without_exit_handler = OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, nullptr) == 1;

Mutex g_transport_mu;
std::shared_ptr<const Transport> g_transport GUARDED_BY(g_transport_mu);

}  // namespace

void AddTlsFlags(CLI::App& app, TlsFlags& flags) {
  app.add_option("--tls-cert", flags.cert,
                 "This process's certificate (PEM), issued by the cluster CA with its role in a URI SAN "
                 "crawl://role/ROLE/ID (deploy/certs.sh); re-read when it changes");
  app.add_option("--tls-key", flags.key, "The private key of --tls-cert (PEM)");
  app.add_option("--tls-ca", flags.ca,
                 "The cluster CA bundle (PEM): turns TLS on; peers are verified against it");
  app.add_option("--tls-crl", flags.crl,
                 "Certificate revocation list (PEM or DER) signed by the CA; re-read when it changes");
  app.add_flag("--insecure", flags.insecure,
               "Plain TCP without authentication, even on a non-loopback address (a warning is logged "
               "every hour)");
}

Status ValidateTlsFlags(const TlsFlags& flags, bool need_identity) {
  const bool any_tls = !flags.cert.empty() || !flags.key.empty() || !flags.ca.empty() || !flags.crl.empty();
  if (flags.insecure && any_tls)
    return Status::InvalidArgument("--insecure cannot be combined with --tls-* flags");
  if (!any_tls) return Status::Ok();
  if (flags.ca.empty()) return Status::InvalidArgument("--tls-cert, --tls-key and --tls-crl need --tls-ca");
  if (flags.cert.empty() != flags.key.empty())
    return Status::InvalidArgument("--tls-cert and --tls-key go together");
  if (need_identity && flags.cert.empty())
    return Status::InvalidArgument("TLS needs this process's certificate: give --tls-cert and --tls-key");
  if (auto s = CheckReadable(flags.ca, "--tls-ca"); !s.ok()) return s;
  if (!flags.cert.empty()) {
    if (auto s = CheckReadable(flags.cert, "--tls-cert"); !s.ok()) return s;
    if (auto s = CheckReadable(flags.key, "--tls-key"); !s.ok()) return s;
  }
  return Status::Ok();
}

bool IsLoopbackHost(std::string_view host) {
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  if (host == "localhost" || host == "::1") return true;
  in_addr v4{};
  const std::string text(host);
  if (inet_pton(AF_INET, text.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  return false;
}

Status CheckListenAllowed(const TlsFlags& flags, std::string_view flag_name, const std::string& listen) {
  if (flags.tls() || flags.insecure) return Status::Ok();
  const std::string host = listen.substr(0, listen.rfind(':'));
  if (IsLoopbackHost(host)) return Status::Ok();
  return Status::InvalidArgument(std::string(flag_name) + " " + listen +
                                 " is not a loopback address: give --tls-cert, --tls-key and --tls-ca "
                                 "(deploy/certs.sh makes them), or --insecure to serve without TLS");
}

std::shared_ptr<const Transport> Transport::Insecure() {
  static const std::shared_ptr<const Transport> insecure(new Transport());
  return insecure;
}

Result<std::shared_ptr<const Transport>> Transport::Create(const TlsFlags& flags) {
  if (!flags.tls()) return Insecure();
  std::shared_ptr<Transport> t(new Transport());
  t->tls_ = true;
  t->has_identity_ = !flags.cert.empty();
  if (!flags.crl.empty()) {
    auto list = RevocationList::Open(flags.crl, flags.ca);
    if (!list.ok()) return list.status();
    t->revocation_ = std::move(*list);
  }
  if (t->has_identity_) {
    t->provider_ = std::make_shared<gx::FileWatcherCertificateProvider>(flags.key, flags.cert, flags.ca,
                                                                        kCertificateRefreshSeconds);
  } else {
    t->provider_ = std::make_shared<gx::FileWatcherCertificateProvider>(flags.ca, kCertificateRefreshSeconds);
  }
  return std::shared_ptr<const Transport>(std::move(t));
}

std::shared_ptr<grpc::ServerCredentials> Transport::ServerCredentials(
    bool require_client_certificate, std::shared_ptr<grpc::AuthMetadataProcessor> gate) const {
  if (!tls_) return grpc::InsecureServerCredentials();
  gx::TlsServerCredentialsOptions options(provider_);
  options.watch_root_certs();
  options.watch_identity_key_cert_pairs();
  options.set_cert_request_type(require_client_certificate
                                    ? GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY
                                    : GRPC_SSL_REQUEST_CLIENT_CERTIFICATE_AND_VERIFY);
  options.set_certificate_verifier(
      gx::ExternalCertificateVerifier::Create<PeerVerifier>(revocation_, std::nullopt));
  options.set_check_call_host(false);
  auto credentials = grpc::experimental::TlsServerCredentials(options);
  if (gate) credentials->SetAuthMetadataProcessor(std::move(gate));
  return credentials;
}

std::shared_ptr<grpc::ChannelCredentials> Transport::ChannelCredentials(RoleSet peer_roles) const {
  if (!tls_) return grpc::InsecureChannelCredentials();
  gx::TlsChannelCredentialsOptions options;
  options.set_certificate_provider(provider_);
  options.watch_root_certs();
  if (has_identity_) options.watch_identity_key_cert_pairs();
  options.set_verify_server_certs(true);
  options.set_check_call_host(false);
  options.set_certificate_verifier(
      gx::ExternalCertificateVerifier::Create<PeerVerifier>(revocation_, peer_roles));
  return grpc::experimental::TlsCredentials(options);
}

void InstallTransport(std::shared_ptr<const Transport> transport) {
  MutexLock lock(g_transport_mu);
  g_transport = std::move(transport);
}

std::shared_ptr<const Transport> CurrentTransport() {
  MutexLock lock(g_transport_mu);
  return g_transport ? g_transport : Transport::Insecure();
}

}  // namespace crawl::security
