#include "testbed/test_pki.h"

#include <cstdio>
#include <memory>
#include <sys/stat.h>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

namespace ldpgraph {
namespace {

struct KeyFree {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
struct CertFree {
  void operator()(X509* c) const { X509_free(c); }
};
using Key = std::unique_ptr<EVP_PKEY, KeyFree>;
using Cert = std::unique_ptr<X509, CertFree>;

Status Fail(const std::string& what) { return Status::Unavailable("test PKI: " + what); }

bool AddExtension(X509* cert, X509* issuer, int nid, const char* value) {
  X509V3_CTX v3;
  X509V3_set_ctx_nodb(&v3);
  X509V3_set_ctx(&v3, issuer, cert, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &v3, nid, value);
  if (!ext) return false;
  const bool ok = X509_add_ext(cert, ext, -1) == 1;
  X509_EXTENSION_free(ext);
  return ok;
}

// Signs a certificate for `key` by `issuer_key` (self-signed when issuer is null).
Cert MakeCertificate(EVP_PKEY* key, const char* common_name, X509* issuer, EVP_PKEY* issuer_key, bool is_ca,
                     const char* alt_names, const char* usage) {
  Cert cert(X509_new());
  X509_set_version(cert.get(), 2);
  unsigned char serial[16];
  RAND_bytes(serial, sizeof(serial));
  serial[0] &= 0x7f;
  BIGNUM* bn = BN_bin2bn(serial, sizeof(serial), nullptr);
  BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(cert.get()));
  BN_free(bn);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 3600L * 24 * 365);
  X509_set_pubkey(cert.get(), key);
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>(common_name), -1, -1,
                             0);
  X509* signer = issuer ? issuer : cert.get();
  X509_set_issuer_name(cert.get(), X509_get_subject_name(signer));
  bool ok = true;
  if (is_ca) {
    ok = AddExtension(cert.get(), signer, NID_basic_constraints, "critical,CA:TRUE") &&
         AddExtension(cert.get(), signer, NID_key_usage, "critical,keyCertSign,cRLSign");
  } else {
    ok = AddExtension(cert.get(), signer, NID_basic_constraints, "critical,CA:FALSE") &&
         AddExtension(cert.get(), signer, NID_ext_key_usage, usage) &&
         (!alt_names || AddExtension(cert.get(), signer, NID_subject_alt_name, alt_names));
  }
  ok = ok && AddExtension(cert.get(), signer, NID_subject_key_identifier, "hash");
  if (!ok || X509_sign(cert.get(), issuer_key ? issuer_key : key, EVP_sha256()) == 0) return nullptr;
  return cert;
}

constexpr const char* kLoopbackNames = "DNS:localhost,IP:127.0.0.1,IP:::1";

Status WritePem(const std::string& path, X509* cert, EVP_PKEY* key) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (!f) return Fail("cannot write " + path);
  if (key) ::fchmod(fileno(f), 0600);
  const bool ok = cert ? PEM_write_X509(f, cert) == 1
                       : PEM_write_PrivateKey(f, key, nullptr, nullptr, 0, nullptr, nullptr) == 1;
  if (std::fclose(f) != 0 || !ok) return Fail("cannot write " + path);
  return Status::Ok();
}

}  // namespace

Result<PkiFiles> WriteTestPki(const std::string& dir, const std::string& name) {
  Key ca_key(EVP_EC_gen("P-256")), server_key(EVP_EC_gen("P-256")), client_key(EVP_EC_gen("P-256"));
  if (!ca_key || !server_key || !client_key) return Fail("key generation failed");
  Cert ca = MakeCertificate(ca_key.get(), name.c_str(), nullptr, nullptr, true, nullptr, nullptr);
  if (!ca) return Fail("cannot sign the CA");
  Cert server = MakeCertificate(server_key.get(), "localhost", ca.get(), ca_key.get(), false, kLoopbackNames,
                                "serverAuth");
  Cert client =
      MakeCertificate(client_key.get(), "ldpgraph test client", ca.get(), ca_key.get(), false, nullptr, "clientAuth");
  if (!server || !client) return Fail("cannot sign the leaf certificates");
  PkiFiles files{dir + "/ca.crt", dir + "/server.crt", dir + "/server.key", dir + "/client.crt", dir + "/client.key"};
  LDPGRAPH_RETURN_IF_ERROR(WritePem(files.ca_certificate, ca.get(), nullptr));
  LDPGRAPH_RETURN_IF_ERROR(WritePem(files.server_certificate, server.get(), nullptr));
  LDPGRAPH_RETURN_IF_ERROR(WritePem(files.server_key, nullptr, server_key.get()));
  LDPGRAPH_RETURN_IF_ERROR(WritePem(files.client_certificate, client.get(), nullptr));
  LDPGRAPH_RETURN_IF_ERROR(WritePem(files.client_key, nullptr, client_key.get()));
  return files;
}

Result<FederationPkiFiles> WriteTestFederationPki(const std::string& dir, const std::vector<std::string>& parties,
                                                  const std::string& name) {
  Key ca_key(EVP_EC_gen("P-256"));
  if (!ca_key) return Fail("key generation failed");
  Cert ca = MakeCertificate(ca_key.get(), name.c_str(), nullptr, nullptr, true, nullptr, nullptr);
  if (!ca) return Fail("cannot sign the CA");
  FederationPkiFiles files;
  files.ca_certificate = dir + "/federation-ca.crt";
  LDPGRAPH_RETURN_IF_ERROR(WritePem(files.ca_certificate, ca.get(), nullptr));
  for (const std::string& party : parties) {
    Key key(EVP_EC_gen("P-256"));
    if (!key) return Fail("key generation failed");
    // One certificate per party, for both ends of its connections.
    Cert cert = MakeCertificate(key.get(), party.c_str(), ca.get(), ca_key.get(), false, kLoopbackNames,
                                "serverAuth,clientAuth");
    if (!cert) return Fail("cannot sign " + party + "'s certificate");
    const std::string stem = dir + "/" + party;
    LDPGRAPH_RETURN_IF_ERROR(WritePem(stem + ".crt", cert.get(), nullptr));
    LDPGRAPH_RETURN_IF_ERROR(WritePem(stem + ".key", nullptr, key.get()));
    files.certificates.push_back(stem + ".crt");
    files.keys.push_back(stem + ".key");
  }
  return files;
}

}  // namespace ldpgraph
