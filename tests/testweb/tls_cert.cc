// Self-signed certificate generation with OpenSSL 3; see tls_cert.h.
#include "tests/testweb/tls_cert.h"

#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

namespace crawl::testweb {
namespace {

struct PkeyFree {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
};
struct X509Free {
  void operator()(X509* x) const { X509_free(x); }
};
struct ExtFree {
  void operator()(X509_EXTENSION* e) const { X509_EXTENSION_free(e); }
};

Status Fail(const char* what) { return Status::Internal(std::string("self-signed certificate: ") + what); }

}  // namespace

Result<std::shared_ptr<boost::asio::ssl::context>> MakeSelfSignedServerContext(
    const std::vector<std::string>& names) {
  std::unique_ptr<EVP_PKEY, PkeyFree> key(EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256"));
  if (!key) return Fail("key generation failed");
  std::unique_ptr<X509, X509Free> cert(X509_new());
  if (!cert) return Fail("X509_new failed");
  X509_set_version(cert.get(), 2);  // v3
  ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), 1);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -24L * 3600);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 30L * 24 * 3600);
  if (X509_set_pubkey(cert.get(), key.get()) != 1) return Fail("cannot set the public key");
  X509_NAME* subject = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(subject, "O", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("testweb"),
                             -1, -1, 0);
  X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("testweb"),
                             -1, -1, 0);
  X509_set_issuer_name(cert.get(), subject);  // self-signed
  std::string san = "DNS:*.test";
  for (const auto& n : names) san += ",DNS:" + n;
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, cert.get(), cert.get(), nullptr, nullptr, 0);
  std::unique_ptr<X509_EXTENSION, ExtFree> ext(
      X509V3_EXT_conf_nid(nullptr, &ctx, NID_subject_alt_name, san.c_str()));
  if (!ext || X509_add_ext(cert.get(), ext.get(), -1) != 1) return Fail("cannot add subjectAltName");
  if (X509_sign(cert.get(), key.get(), EVP_sha256()) == 0) return Fail("signing failed");

  std::shared_ptr<boost::asio::ssl::context> context;
  try {  // the constructor throws if OpenSSL cannot make a context
    context = std::make_shared<boost::asio::ssl::context>(boost::asio::ssl::context::tls_server);
  } catch (const std::exception& e) {
    return Status::Internal(std::string("TLS context: ") + e.what());
  }
  context->set_options(boost::asio::ssl::context::default_workarounds | boost::asio::ssl::context::no_sslv2 |
                       boost::asio::ssl::context::no_sslv3);
  SSL_CTX* native = context->native_handle();
  if (SSL_CTX_use_certificate(native, cert.get()) != 1) return Fail("cannot use the certificate");
  if (SSL_CTX_use_PrivateKey(native, key.get()) != 1) return Fail("cannot use the key");
  if (SSL_CTX_check_private_key(native) != 1) return Fail("key does not match the certificate");
  return context;
}

}  // namespace crawl::testweb
