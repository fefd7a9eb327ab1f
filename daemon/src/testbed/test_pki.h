// A throwaway PKI for tests, benchmarks and the demo: a CA and a server
// certificate it signs (P-256, SHA-256, valid for localhost and 127.0.0.1),
// written as PEM files. Not for production: there, certificates come from
// the operator's CA (paths in the daemon's config).
#ifndef LDPGRAPH_DAEMON_TESTBED_TEST_PKI_H_
#define LDPGRAPH_DAEMON_TESTBED_TEST_PKI_H_

#include <string>
#include <vector>

#include "ldpgraph/status.h"

namespace ldpgraph {

struct PkiFiles {
  std::string ca_certificate;      // dir/ca.crt
  std::string server_certificate;  // dir/server.crt
  std::string server_key;          // dir/server.key (mode 0600)
  std::string client_certificate;  // dir/client.crt, signed by the same CA
  std::string client_key;          // dir/client.key
};

// `name` goes into the CA's common name, so two PKIs are told apart in errors.
// Errors: kUnavailable when a file cannot be written or OpenSSL fails.
Result<PkiFiles> WriteTestPki(const std::string& dir, const std::string& name = "ldpgraph test CA");

// A federation's throwaway PKI (FedCog, federation/): a CA and, per party,
// a certificate whose common name is the party's name, usable as server
// and client, valid for localhost and 127.0.0.1.
struct FederationPkiFiles {
  std::string ca_certificate;             // dir/federation-ca.crt
  std::vector<std::string> certificates;  // dir/<party>.crt, in the order given
  std::vector<std::string> keys;          // dir/<party>.key (mode 0600)
};

Result<FederationPkiFiles> WriteTestFederationPki(const std::string& dir, const std::vector<std::string>& parties,
                                                  const std::string& name = "ldpgraph federation test CA");

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_TESTBED_TEST_PKI_H_
