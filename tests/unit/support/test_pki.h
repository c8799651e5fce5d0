// A throwaway PKI for tests: a CA, certificates with a crawl
// identity in a URI SAN (as deploy/certs.sh issues them), expired ones, and
// CRLs, written as PEM files under a temporary directory.
#pragma once

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace crawl::testing {

class TestCa {
 public:
  // A self-signed CA named `name`.
  explicit TestCa(const std::string& name) : key_(NewKey()), cert_(X509_new(), &X509_free) {
    X509* c = cert_.get();
    X509_set_version(c, 2);
    ASN1_INTEGER_set(X509_get_serialNumber(c), 1);
    X509_gmtime_adj(X509_getm_notBefore(c), -3600);
    X509_gmtime_adj(X509_getm_notAfter(c), 365L * 24 * 3600);
    X509_set_pubkey(c, key_.get());
    X509_NAME* n = X509_get_subject_name(c);
    X509_NAME_add_entry_by_txt(n, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>(name.c_str()),
                               -1, -1, 0);
    X509_set_issuer_name(c, n);
    AddExt(c, c, NID_basic_constraints, "critical,CA:TRUE");
    AddExt(c, c, NID_key_usage, "critical,keyCertSign,cRLSign");
    AddExt(c, c, NID_subject_key_identifier, "hash");
    if (X509_sign(c, key_.get(), EVP_sha256()) == 0) throw std::runtime_error("cannot sign the CA");
  }

  struct Issued {
    std::string cert_pem;
    std::string key_pem;
    long serial = 0;
  };

  // A leaf certificate for crawl://role/ROLE/ID (empty uri: none), valid
  // from now+`from_s` to now+`to_s` seconds.
  Issued Issue(const std::string& uri, long from_s = -3600, long to_s = 30L * 24 * 3600) {
    auto key = NewKey();
    std::unique_ptr<X509, decltype(&X509_free)> cert(X509_new(), &X509_free);
    X509* c = cert.get();
    X509_set_version(c, 2);
    const long serial = ++next_serial_;
    ASN1_INTEGER_set(X509_get_serialNumber(c), serial);
    X509_gmtime_adj(X509_getm_notBefore(c), from_s);
    X509_gmtime_adj(X509_getm_notAfter(c), to_s);
    X509_set_pubkey(c, key.get());
    X509_NAME* n = X509_get_subject_name(c);
    X509_NAME_add_entry_by_txt(n, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("crawl-test"),
                               -1, -1, 0);
    X509_set_issuer_name(c, X509_get_subject_name(cert_.get()));
    AddExt(cert_.get(), c, NID_basic_constraints, "critical,CA:FALSE");
    AddExt(cert_.get(), c, NID_ext_key_usage, "serverAuth,clientAuth");
    std::string san = "DNS:localhost,IP:127.0.0.1";
    if (!uri.empty()) san += ",URI:" + uri;
    AddExt(cert_.get(), c, NID_subject_alt_name, san);
    if (X509_sign(c, key_.get(), EVP_sha256()) == 0) throw std::runtime_error("cannot sign a certificate");
    return {CertPem(c), KeyPem(key.get()), serial};
  }

  // A CRL revoking `serials`, signed by this CA.
  std::string Crl(const std::vector<long>& serials) const {
    std::unique_ptr<X509_CRL, decltype(&X509_CRL_free)> crl(X509_CRL_new(), &X509_CRL_free);
    X509_CRL_set_version(crl.get(), 1);
    X509_CRL_set_issuer_name(crl.get(), X509_get_subject_name(cert_.get()));
    std::unique_ptr<ASN1_TIME, decltype(&ASN1_TIME_free)> now(ASN1_TIME_new(), &ASN1_TIME_free);
    X509_gmtime_adj(now.get(), 0);
    X509_CRL_set1_lastUpdate(crl.get(), now.get());
    X509_gmtime_adj(now.get(), 30L * 24 * 3600);
    X509_CRL_set1_nextUpdate(crl.get(), now.get());
    for (long s : serials) {
      X509_REVOKED* r = X509_REVOKED_new();
      ASN1_INTEGER* serial = ASN1_INTEGER_new();
      ASN1_INTEGER_set(serial, s);
      X509_REVOKED_set_serialNumber(r, serial);
      ASN1_INTEGER_free(serial);
      ASN1_TIME* t = ASN1_TIME_new();
      X509_gmtime_adj(t, -60);
      X509_REVOKED_set_revocationDate(r, t);
      ASN1_TIME_free(t);
      X509_CRL_add0_revoked(crl.get(), r);
    }
    X509_CRL_sort(crl.get());
    if (X509_CRL_sign(crl.get(), key_.get(), EVP_sha256()) == 0)
      throw std::runtime_error("cannot sign a CRL");
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), &BIO_free);
    PEM_write_bio_X509_CRL(bio.get(), crl.get());
    return BioText(bio.get());
  }

  std::string cert_pem() const { return CertPem(cert_.get()); }

 private:
  using Key = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;
  static Key NewKey() {
    Key key(EVP_EC_gen("P-256"), &EVP_PKEY_free);
    if (!key) throw std::runtime_error("cannot make a key");
    return key;
  }
  static void AddExt(X509* issuer, X509* subject, int nid, const std::string& value) {
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, issuer, subject, nullptr, nullptr, 0);
    X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str());
    if (ext == nullptr) throw std::runtime_error("bad extension " + value);
    X509_add_ext(subject, ext, -1);
    X509_EXTENSION_free(ext);
  }
  static std::string BioText(BIO* bio) {
    char* data = nullptr;
    const long n = BIO_get_mem_data(bio, &data);
    return std::string(data, static_cast<size_t>(n));
  }
  static std::string CertPem(X509* c) {
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), &BIO_free);
    PEM_write_bio_X509(bio.get(), c);
    return BioText(bio.get());
  }
  static std::string KeyPem(EVP_PKEY* k) {
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), &BIO_free);
    PEM_write_bio_PrivateKey(bio.get(), k, nullptr, nullptr, 0, nullptr, nullptr);
    return BioText(bio.get());
  }

  Key key_;
  std::unique_ptr<X509, decltype(&X509_free)> cert_;
  long next_serial_ = 100;
};

// A temporary directory removed with the object.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "crawl-pki.XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  // Writes `text` to DIR/name (replacing it atomically) and returns the path.
  std::string Write(const std::string& name, const std::string& text) const {
    const std::string path = path_ + "/" + name;
    {
      std::ofstream out(path + ".tmp", std::ios::binary | std::ios::trunc);
      out << text;
    }
    std::filesystem::rename(path + ".tmp", path);
    return path;
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace crawl::testing
