// Peer identities, admin tokens, revocation lists and the listen-address
// rule of a secure cluster (common/security/).
#include <catch2/catch.hpp>
#include <thread>

#include "common/security/admin_tokens.h"
#include "common/security/peer_identity.h"
#include "common/security/revocation.h"
#include "common/security/transport.h"
#include "tests/unit/support/test_pki.h"

using namespace crawl::security;
using crawl::testing::TempDir;
using crawl::testing::TestCa;

TEST_CASE("identity URI names a role and an id", "[unit]") {
  auto id = ParseIdentityUri("crawl://role/fetcher/fetcher0");
  REQUIRE(id.ok());
  CHECK(id->role == Role::kFetcher);
  CHECK(id->id == "fetcher0");
  CHECK(ParseIdentityUri("crawl://role/admin/ops.alice_1-x").ok());
  CHECK_FALSE(ParseIdentityUri("crawl://role/root/x").ok());
  CHECK_FALSE(ParseIdentityUri("crawl://role/fetcher").ok());
  CHECK_FALSE(ParseIdentityUri("crawl://role/fetcher/").ok());
  CHECK_FALSE(ParseIdentityUri("crawl://role/fetcher/a/b").ok());
  CHECK_FALSE(ParseIdentityUri("spiffe://role/fetcher/x").ok());
  CHECK_FALSE(ParseIdentityUri("crawl://role/fetcher/" + std::string(129, 'a')).ok());
}

TEST_CASE("a certificate's identity comes from its crawl URI SAN", "[unit]") {
  TestCa ca("test CA");
  auto issued = ca.Issue("crawl://role/queueserver/qs1");
  auto id = IdentityFromCertificatePem(issued.cert_pem);
  REQUIRE(id.ok());
  CHECK(id->role == Role::kQueueServer);
  CHECK(id->id == "qs1");

  auto none = IdentityFromCertificatePem(ca.Issue("").cert_pem);
  REQUIRE_FALSE(none.ok());
  CHECK_THAT(none.status().message(), Catch::Contains("no crawl identity"));
  CHECK_FALSE(IdentityFromCertificatePem("").ok());
  CHECK_FALSE(
      IdentityFromCertificatePem("-----BEGIN CERTIFICATE-----\ngarbage\n-----END CERTIFICATE-----\n").ok());
  CHECK_FALSE(IdentityFromCertificatePem(issued.key_pem).ok());
}

TEST_CASE("role sets print the roles a call needs", "[unit]") {
  CHECK(RoleSet{Role::kAdmin, Role::kReader}.ToString() == "admin or reader");
  CHECK(RoleSet{}.ToString() == "no role");
  CHECK(RoleSet::All().Has(Role::kFetcher));
  CHECK(ParseRole("nameserver") == Role::kNameServer);
  CHECK_FALSE(ParseRole("Admin").has_value());
}

TEST_CASE("token files hold role, SHA-256 and name; a bad line fails the whole file", "[unit]") {
  const std::string hash = Sha256Hex("s3cret");
  CHECK(Sha256Hex("abc") ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");  // FIPS 180-2
  auto entries =
      ParseTokenFile("# people\n\nadmin " + hash + " alice\r\nreader " + Sha256Hex("r") + " bob\n");
  REQUIRE(entries.ok());
  REQUIRE(entries->size() == 2);
  CHECK((*entries)[0].role == Role::kAdmin);
  CHECK((*entries)[1].name == "bob");

  auto bad_role = ParseTokenFile("admin " + hash + " a\nfetcher " + hash + " b\n");
  REQUIRE_FALSE(bad_role.ok());
  CHECK_THAT(bad_role.status().message(), Catch::Contains("line 2"));
  CHECK_FALSE(ParseTokenFile("admin abc alice\n").ok());
  CHECK_FALSE(ParseTokenFile("admin " + hash + "\n").ok());
  CHECK_FALSE(ParseTokenFile("admin " + std::string(63, 'a') + "g alice\n").ok());
}

TEST_CASE("admin tokens match by hash and keep the old list when a reload fails", "[unit]") {
  TempDir dir;
  const std::string path = dir.Write("tokens", "admin " + Sha256Hex("good-token") + " alice\n");
  AdminTokens tokens;
  REQUIRE(tokens.Load(path).ok());
  auto match = tokens.Match("good-token");
  REQUIRE(match.has_value());
  CHECK(match->role == Role::kAdmin);
  CHECK(match->name == "alice");
  CHECK_FALSE(tokens.Match("good-tokeN").has_value());
  CHECK_FALSE(tokens.Match("").has_value());

  dir.Write("tokens", "reader " + Sha256Hex("other") + " bob\nnot a line\n");
  CHECK_FALSE(tokens.Reload().ok());
  CHECK(tokens.Match("good-token").has_value());  // unchanged

  dir.Write("tokens", "reader " + Sha256Hex("other") + " bob\n");
  REQUIRE(tokens.Reload().ok());
  CHECK_FALSE(tokens.Match("good-token").has_value());
  CHECK(tokens.Match("other")->role == Role::kReader);
}

TEST_CASE("bearer tokens come from 'Bearer TOKEN' only", "[unit]") {
  CHECK(BearerToken("Bearer abc") == std::optional<std::string_view>("abc"));
  CHECK_FALSE(BearerToken("bearer abc").has_value());
  CHECK_FALSE(BearerToken("Bearer ").has_value());
  CHECK_FALSE(BearerToken("Bearer a b").has_value());
  CHECK_FALSE(BearerToken("Basic abc").has_value());
}

TEST_CASE("a revocation list names revoked certificates and is re-read when it changes", "[unit]") {
  TestCa ca("test CA");
  TempDir dir;
  auto kept = ca.Issue("crawl://role/fetcher/f0");
  auto revoked = ca.Issue("crawl://role/fetcher/f1");
  const std::string ca_path = dir.Write("ca.crt", ca.cert_pem());
  const std::string crl_path = dir.Write("crl.pem", ca.Crl({}));
  auto list = RevocationList::Open(crl_path, ca_path);
  REQUIRE(list.ok());
  CHECK_FALSE((*list)->IsRevoked(revoked.cert_pem));

  // A later modification time: the file system's clock may be coarse.
  dir.Write("crl.pem", ca.Crl({revoked.serial}));
  std::filesystem::last_write_time(crl_path,
                                   std::filesystem::file_time_type::clock::now() + std::chrono::seconds(5));
  CHECK((*list)->IsRevoked(revoked.cert_pem));
  CHECK_FALSE((*list)->IsRevoked(kept.cert_pem));
  CHECK((*list)->size() == 1);

  // A CRL from another CA, or garbage, is refused; the running list stays.
  TestCa other("other CA");
  CHECK_FALSE(RevocationList::Open(dir.Write("other.pem", other.Crl({kept.serial})), ca_path).ok());
  CHECK_FALSE(RevocationList::Open(dir.Write("junk.pem", "junk"), ca_path).ok());
  dir.Write("crl.pem", "junk");
  std::filesystem::last_write_time(crl_path,
                                   std::filesystem::file_time_type::clock::now() + std::chrono::seconds(10));
  CHECK((*list)->IsRevoked(revoked.cert_pem));
}

TEST_CASE("a server listens off loopback only with TLS or --insecure", "[unit]") {
  TlsFlags plain;
  CHECK(CheckListenAllowed(plain, "--listen", "127.0.0.1:0").ok());
  CHECK(CheckListenAllowed(plain, "--listen", "127.3.4.5:7000").ok());
  CHECK(CheckListenAllowed(plain, "--listen", "localhost:7000").ok());
  CHECK(CheckListenAllowed(plain, "--listen", "[::1]:7000").ok());
  auto refused = CheckListenAllowed(plain, "--listen", "0.0.0.0:7000");
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.message(), Catch::Contains("--tls-cert") && Catch::Contains("--insecure"));
  CHECK_FALSE(CheckListenAllowed(plain, "--listen", "192.0.2.1:7000").ok());
  TlsFlags insecure;
  insecure.insecure = true;
  CHECK(CheckListenAllowed(insecure, "--listen", "0.0.0.0:7000").ok());
  TlsFlags tls;
  tls.ca = "ca.crt";
  CHECK(CheckListenAllowed(tls, "--listen", "0.0.0.0:7000").ok());
}

TEST_CASE("TLS flags are checked before anything starts", "[unit]") {
  TestCa ca("test CA");
  TempDir dir;
  auto issued = ca.Issue("crawl://role/fetcher/f0");
  TlsFlags flags;
  flags.ca = dir.Write("ca.crt", ca.cert_pem());
  flags.cert = dir.Write("f.crt", issued.cert_pem);
  flags.key = dir.Write("f.key", issued.key_pem);
  CHECK(ValidateTlsFlags(flags, true).ok());
  TlsFlags no_key = flags;
  no_key.key.clear();
  CHECK_FALSE(ValidateTlsFlags(no_key, true).ok());
  TlsFlags token_client;
  token_client.ca = flags.ca;
  CHECK(ValidateTlsFlags(token_client, false).ok());
  CHECK_FALSE(ValidateTlsFlags(token_client, true).ok());
  TlsFlags both = flags;
  both.insecure = true;
  CHECK_FALSE(ValidateTlsFlags(both, true).ok());
  TlsFlags missing = flags;
  missing.ca = dir.path() + "/absent.crt";
  CHECK_FALSE(ValidateTlsFlags(missing, true).ok());
  TlsFlags not_pem = flags;
  not_pem.cert = dir.Write("x.crt", "hello");
  CHECK_FALSE(ValidateTlsFlags(not_pem, true).ok());
}
