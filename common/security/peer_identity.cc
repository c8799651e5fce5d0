#include "common/security/peer_identity.h"

#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <memory>

namespace crawl::security {
namespace {

bool IsIdChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
         c == '-';
}

struct X509Free {
  void operator()(X509* x) const { X509_free(x); }
};
struct NamesFree {
  void operator()(GENERAL_NAMES* n) const { GENERAL_NAMES_free(n); }
};

}  // namespace

Result<PeerIdentity> ParseIdentityUri(std::string_view uri) {
  if (uri.substr(0, kIdentityUriPrefix.size()) != kIdentityUriPrefix)
    return Status::InvalidArgument("identity URI does not start with crawl://role/");
  std::string_view rest = uri.substr(kIdentityUriPrefix.size());
  const size_t slash = rest.find('/');
  if (slash == std::string_view::npos)
    return Status::InvalidArgument("identity URI has no id (crawl://role/ROLE/ID)");
  auto role = ParseRole(rest.substr(0, slash));
  if (!role) return Status::InvalidArgument("identity URI names no known role");
  std::string_view id = rest.substr(slash + 1);
  if (id.empty() || id.size() > 128) return Status::InvalidArgument("identity id must be 1-128 characters");
  for (char c : id) {
    if (!IsIdChar(c)) return Status::InvalidArgument("identity id has a character outside [A-Za-z0-9._-]");
  }
  return PeerIdentity{*role, std::string(id)};
}

Result<PeerIdentity> IdentityFromCertificatePem(std::string_view pem) {
  if (pem.empty()) return Status::InvalidArgument("no certificate");
  if (pem.size() > 64 * 1024) return Status::InvalidArgument("certificate larger than 64 KiB");
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())),
                                                &BIO_free);
  if (!bio) return Status::Internal("out of memory reading a certificate");
  std::unique_ptr<X509, X509Free> cert(PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr));
  if (!cert) return Status::InvalidArgument("not a PEM certificate");
  std::unique_ptr<GENERAL_NAMES, NamesFree> names(
      static_cast<GENERAL_NAMES*>(X509_get_ext_d2i(cert.get(), NID_subject_alt_name, nullptr, nullptr)));
  if (!names) return Status::InvalidArgument("certificate has no subject alternative names");
  std::optional<PeerIdentity> found;
  for (int i = 0; i < sk_GENERAL_NAME_num(names.get()); ++i) {
    const GENERAL_NAME* name = sk_GENERAL_NAME_value(names.get(), i);
    if (name->type != GEN_URI) continue;
    const ASN1_IA5STRING* value = name->d.uniformResourceIdentifier;
    std::string_view uri(reinterpret_cast<const char*>(ASN1_STRING_get0_data(value)),
                         static_cast<size_t>(ASN1_STRING_length(value)));
    if (uri.substr(0, kIdentityUriPrefix.size()) != kIdentityUriPrefix) continue;
    auto identity = ParseIdentityUri(uri);
    if (!identity.ok()) return identity.status();
    if (found) return Status::InvalidArgument("certificate names two crawl identities");
    found = std::move(*identity);
  }
  if (!found)
    return Status::InvalidArgument("certificate names no crawl identity (URI SAN crawl://role/ROLE/ID)");
  return *found;
}

}  // namespace crawl::security
