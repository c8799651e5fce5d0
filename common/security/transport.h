// How a process's gRPC channels and servers are secured: mutual
// TLS with OpenSSL through gRPC's TLS credentials, or plain TCP when asked.
// This is the one place that builds credentials; common/net/grpc_util.cc's
// MakeChannel and StartGrpcServer use the transport main() installs.
//
// With TLS, each side verifies the other's chain against the cluster CA
// (--tls-ca), and a custom verifier adds what the chain check does not:
// the peer's certificate is not on the CRL (--tls-crl), and a server has the
// role its client expects (a fetcher talks to a queue server, not to any
// holder of a cluster certificate). Host names are not checked; identity is
// the role (common/security/peer_identity.h). Certificates, keys and the CA
// are watched and re-read when they change (every kCertificateRefreshSeconds):
// rotation needs no restart, and existing connections stay up.
#pragma once

#include <grpcpp/grpcpp.h>

#include <memory>
#include <optional>
#include <string>

#include "common/base/status.h"
#include "common/security/revocation.h"
#include "common/security/roles.h"

namespace CLI {
class App;
}

namespace crawl::security {

inline constexpr unsigned kCertificateRefreshSeconds = 2;

// --tls-cert, --tls-key, --tls-ca, --tls-crl and --insecure: the same names
// in every binary and as TOML keys (tls-cert = "...").
struct TlsFlags {
  std::string cert;
  std::string key;
  std::string ca;
  std::string crl;
  bool insecure = false;

  [[nodiscard]] bool tls() const { return !ca.empty(); }
};

// Adds the flags. `server`: the binary listens (the help says so).
void AddTlsFlags(CLI::App& app, TlsFlags& flags);

// Checks the flags before anything starts: cert and key together, files
// readable, a CA for TLS, not both TLS and --insecure. `need_identity`: this
// process must present a certificate (every cluster process; crawlctl may
// use a token instead).
[[nodiscard]] Status ValidateTlsFlags(const TlsFlags& flags, bool need_identity);

// True for 127.0.0.0/8, ::1 and "localhost".
[[nodiscard]] bool IsLoopbackHost(std::string_view host);

// A server may listen on a non-loopback address only with TLS or with
// --insecure; otherwise fails with a message naming the flags to give.
[[nodiscard]] Status CheckListenAllowed(const TlsFlags& flags, std::string_view flag_name,
                                        const std::string& listen);

class Transport {
 public:
  // Plain TCP (tests, one trusted host, --insecure).
  static std::shared_ptr<const Transport> Insecure();
  // TLS from validated flags. Reads the files once to fail early on bad ones.
  [[nodiscard]] static Result<std::shared_ptr<const Transport>> Create(const TlsFlags& flags);

  [[nodiscard]] bool tls() const { return tls_; }

  // Server side: the peer's chain is verified when it presents a
  // certificate. With `require_client_certificate` a client without one
  // fails the handshake (servers whose every caller is a cluster process);
  // otherwise it gets through (people authenticate with tokens) and is
  // refused per call. `gate` (may be null) sees every call's metadata
  // before its message is read (common/security/call_gate.h); it is only
  // installed with TLS.
  [[nodiscard]] std::shared_ptr<grpc::ServerCredentials> ServerCredentials(
      bool require_client_certificate = false,
      std::shared_ptr<grpc::AuthMetadataProcessor> gate = nullptr) const;

  // Client side, to a server that must hold one of `peer_roles`.
  [[nodiscard]] std::shared_ptr<grpc::ChannelCredentials> ChannelCredentials(RoleSet peer_roles) const;

 private:
  Transport() = default;
  bool tls_ = false;
  bool has_identity_ = false;
  std::shared_ptr<grpc::experimental::CertificateProviderInterface> provider_;
  std::shared_ptr<RevocationList> revocation_;  // null: no --tls-crl
};

// The transport MakeChannel and StartGrpcServer use; Insecure() until main()
// installs another. REQUIRES: installed before any channel or server exists.
void InstallTransport(std::shared_ptr<const Transport> transport);
[[nodiscard]] std::shared_ptr<const Transport> CurrentTransport();

}  // namespace crawl::security
