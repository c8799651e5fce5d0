// Certificate revocation (`--tls-crl`): a CRL file (PEM or DER)
// issued by the cluster CA. Every TLS handshake checks the peer's
// certificate against it (common/security/transport.cc's verifier); the file
// is read again when it changes, so revoking takes effect without a restart.
#pragma once

#include <openssl/x509.h>

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "common/base/mutex.h"
#include "common/base/status.h"

namespace crawl::security {

class RevocationList {
 public:
  // Reads `crl_path` and checks its signature against a CA certificate in
  // `ca_path` (a PEM bundle). Fails on an unreadable, malformed or unsigned
  // list: a server must not start believing nothing is revoked.
  [[nodiscard]] static Result<std::shared_ptr<RevocationList>> Open(const std::string& crl_path,
                                                                    const std::string& ca_path);

  // True if the PEM certificate is on the list. Reads the file again first
  // if its size or modification time changed; a new file that does not load
  // is logged and the old list kept. Thread-safe.
  [[nodiscard]] bool IsRevoked(std::string_view cert_pem);

  // Revoked serial numbers in the current list (for logs and tests).
  [[nodiscard]] size_t size();

 private:
  RevocationList(std::string crl_path, std::string ca_path)
      : crl_path_(std::move(crl_path)), ca_path_(std::move(ca_path)) {}
  [[nodiscard]] Status LoadLocked() REQUIRES(mu_);
  void RefreshLocked() REQUIRES(mu_);

  struct CrlFree {
    void operator()(X509_CRL* c) const { X509_CRL_free(c); }
  };
  const std::string crl_path_;
  const std::string ca_path_;
  Mutex mu_;
  std::unique_ptr<X509_CRL, CrlFree> crl_ GUARDED_BY(mu_);
  std::filesystem::file_time_type mtime_ GUARDED_BY(mu_){};
  uintmax_t file_size_ GUARDED_BY(mu_) = 0;
};

// Parses a CRL in PEM or DER form (bytes from a file; never crashes).
[[nodiscard]] Result<std::unique_ptr<X509_CRL, void (*)(X509_CRL*)>> ParseCrl(std::string_view bytes);

}  // namespace crawl::security
