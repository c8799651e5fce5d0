#include "common/security/revocation.h"

#include <openssl/pem.h>
#include <spdlog/spdlog.h>

#include <vector>

#include "common/base/process.h"

namespace crawl::security {
namespace {

using Bio = std::unique_ptr<BIO, decltype(&BIO_free)>;

Bio MemBio(std::string_view bytes) {
  return Bio(BIO_new_mem_buf(bytes.data(), static_cast<int>(bytes.size())), &BIO_free);
}

// Every certificate in a PEM bundle.
std::vector<std::unique_ptr<X509, decltype(&X509_free)>> ReadCertificates(std::string_view pem) {
  std::vector<std::unique_ptr<X509, decltype(&X509_free)>> out;
  Bio bio = MemBio(pem);
  while (bio) {
    X509* cert = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr);
    if (cert == nullptr) break;
    out.emplace_back(cert, &X509_free);
  }
  return out;
}

}  // namespace

Result<std::unique_ptr<X509_CRL, void (*)(X509_CRL*)>> ParseCrl(std::string_view bytes) {
  if (bytes.empty() || bytes.size() > (64u << 20))
    return Status::InvalidArgument("CRL is empty or over 64 MiB");
  Bio bio = MemBio(bytes);
  if (!bio) return Status::Internal("out of memory reading a CRL");
  X509_CRL* crl = PEM_read_bio_X509_CRL(bio.get(), nullptr, nullptr, nullptr);
  if (crl == nullptr) {
    Bio der = MemBio(bytes);
    crl = d2i_X509_CRL_bio(der.get(), nullptr);
  }
  if (crl == nullptr) return Status::InvalidArgument("not a CRL (PEM or DER)");
  return std::unique_ptr<X509_CRL, void (*)(X509_CRL*)>(crl, &X509_CRL_free);
}

Result<std::shared_ptr<RevocationList>> RevocationList::Open(const std::string& crl_path,
                                                             const std::string& ca_path) {
  std::shared_ptr<RevocationList> list(new RevocationList(crl_path, ca_path));
  MutexLock lock(list->mu_);
  if (auto s = list->LoadLocked(); !s.ok()) return s;
  return list;
}

Status RevocationList::LoadLocked() {
  std::error_code ec;
  const auto mtime = std::filesystem::last_write_time(crl_path_, ec);
  const auto size = std::filesystem::file_size(crl_path_, ec);
  auto bytes = ReadFile(crl_path_);
  if (!bytes.ok()) return Status::InvalidArgument("--tls-crl: " + bytes.status().message());
  auto crl = ParseCrl(*bytes);
  if (!crl.ok()) return Status::InvalidArgument("--tls-crl " + crl_path_ + ": " + crl.status().message());
  auto ca = ReadFile(ca_path_);
  if (!ca.ok()) return Status::InvalidArgument("--tls-ca: " + ca.status().message());
  bool signed_by_ca = false;
  for (const auto& cert : ReadCertificates(*ca)) {
    if (X509_NAME_cmp(X509_get_subject_name(cert.get()), X509_CRL_get_issuer(crl->get())) != 0) continue;
    if (X509_CRL_verify(crl->get(), X509_get0_pubkey(cert.get())) == 1) signed_by_ca = true;
  }
  if (!signed_by_ca)
    return Status::InvalidArgument("--tls-crl " + crl_path_ + " is not signed by a CA in --tls-ca " +
                                   ca_path_);
  // A CRL past its nextUpdate still names what was revoked: it stays in
  // force, with a warning, rather than locking every peer out of the
  // cluster because a renewal was missed (OpenSSL's CRL check would refuse).
  const ASN1_TIME* next = X509_CRL_get0_nextUpdate(crl->get());
  if (next != nullptr && X509_cmp_current_time(next) < 0)
    spdlog::warn("--tls-crl {} is past its next update: renew it (deploy/certs.sh crl)", crl_path_);
  crl_.reset(crl->release());
  mtime_ = mtime;
  file_size_ = ec ? 0 : size;
  return Status::Ok();
}

void RevocationList::RefreshLocked() {
  std::error_code ec;
  const auto mtime = std::filesystem::last_write_time(crl_path_, ec);
  if (ec) return;
  const auto size = std::filesystem::file_size(crl_path_, ec);
  if (ec || (mtime == mtime_ && size == file_size_)) return;
  if (auto s = LoadLocked(); !s.ok()) {
    spdlog::error("keeping the previous certificate revocation list: {}", s.message());
    mtime_ = mtime;  // do not retry a bad file on every handshake
    file_size_ = size;
    return;
  }
  spdlog::info("certificate revocation list {} reloaded", crl_path_);
}

bool RevocationList::IsRevoked(std::string_view cert_pem) {
  Bio bio = MemBio(cert_pem);
  std::unique_ptr<X509, decltype(&X509_free)> cert(
      bio ? PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr) : nullptr, &X509_free);
  if (!cert) return false;  // no certificate: nothing to revoke (the handshake decides)
  MutexLock lock(mu_);
  RefreshLocked();
  if (!crl_) return false;
  if (X509_NAME_cmp(X509_CRL_get_issuer(crl_.get()), X509_get_issuer_name(cert.get())) != 0) return false;
  X509_REVOKED* revoked = nullptr;
  return X509_CRL_get0_by_cert(crl_.get(), &revoked, cert.get()) == 1;
}

size_t RevocationList::size() {
  MutexLock lock(mu_);
  if (!crl_) return 0;
  const STACK_OF(X509_REVOKED)* revoked = X509_CRL_get_REVOKED(crl_.get());
  return revoked == nullptr ? 0 : static_cast<size_t>(sk_X509_REVOKED_num(revoked));
}

}  // namespace crawl::security
