// Real ldpgraphd processes on loopback as the parties of one federation,
// each with its own folder, store, admin API and federation certificate
// (a throwaway CA, testbed/test_pki.h): what `ldpgraph experiment fedcog`
// runs FedCog on, so that its numbers are those of real parties over
// mutual TLS. Not a deployment tool: the operator's parties have their own
// configs (docs/federation.md).
#ifndef LDPGRAPH_DAEMON_TESTBED_LOOPBACK_FEDERATION_H_
#define LDPGRAPH_DAEMON_TESTBED_LOOPBACK_FEDERATION_H_

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gap/held_graph.h"
#include "ldpgraph/transport/https_client.h"
#include "net/loopback_port.h"  // FreeLoopbackPort: the ports every party's config names
#include "testbed/test_pki.h"

namespace ldpgraph {

// The [federation] section of party `self` (an index into `names`) when the
// parties listen on 127.0.0.1 at `ports`, with certificates from `pki`.
std::string LoopbackFederationToml(const std::vector<std::string>& names, const std::vector<std::uint16_t>& ports,
                                   std::size_t self, const FederationPkiFiles& pki, std::uint32_t party_timeout_ms);

class LoopbackFederation {
 public:
  // Starts `parties` daemons (`ldpgraphd`: the binary) in `dir` (created;
  // one folder per party, named p0, p1, ...; p0 coordinates) and waits
  // until each listens. Errors: kUnavailable when one cannot start (its
  // log is named).
  static Result<std::unique_ptr<LoopbackFederation>> Start(const std::string& ldpgraphd, const std::string& dir,
                                                           int parties);
  // Stops every daemon (SIGTERM).
  ~LoopbackFederation();

  const std::vector<std::string>& names() const { return names_; }
  // Uploads party i's share as held graph `id`. Errors: the daemon's answer.
  Status Upload(std::size_t party, std::uint64_t id, const HeldGraphParts& share);
  // Starts a run on p0 (`request`: the JSON of POST /v1/admin/federation/runs)
  // and waits for its end; its final status JSON. Errors: the daemon's
  // refusal; kUnavailable when it stops answering.
  Result<std::string> Run(const std::string& request);

 private:
  LoopbackFederation() = default;
  Result<transport::HttpAnswer> Admin(std::size_t party, const std::string& method, const std::string& path,
                                      const std::string& body);

  std::vector<std::string> names_;
  std::vector<pid_t> pids_;
  std::vector<std::unique_ptr<transport::HttpsClient>> admins_;
  std::string token_;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_TESTBED_LOOPBACK_FEDERATION_H_
