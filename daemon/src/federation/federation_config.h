// [federation] of ldpgraphd's config: this daemon as one party of a
// FedCog federation (docs/ldpgraphd.example.toml, docs/federation.md).
// Parties talk over their own listener, mutual TLS only: every party's
// certificate comes from the federation's CA and carries the party's name
// as its common name; a certificate whose name is not a configured party
// is refused.
#ifndef LDPGRAPH_DAEMON_FEDERATION_FEDERATION_CONFIG_H_
#define LDPGRAPH_DAEMON_FEDERATION_FEDERATION_CONFIG_H_

#include <cstdint>
#include <string>
#include <vector>

namespace ldpgraph {

struct FederationPeer {
  std::string name;  // its certificate's common name
  std::string host;  // of its federation listener
  std::uint16_t port = 0;
};

struct FederationConfig {
  std::string party;  // this daemon's name; empty: in no federation
  std::string listen_address = "127.0.0.1";
  std::uint16_t listen_port = 9443;  // 0: any free port (tests)
  std::string ca_file;               // signs every party's certificate
  std::string certificate_file;      // this party's (PEM chain), as server and as client
  std::string private_key_file;
  std::vector<FederationPeer> peers;  // the other parties
  std::size_t max_message_bytes = std::size_t{256} << 20;  // one exchanged body
  // How long a coordinator waits for a party that stopped answering
  // (restarts included) before the run fails.
  std::uint32_t party_timeout_ms = 60000;

  bool enabled() const { return !party.empty(); }
  // Whether `name` may talk to this party (a peer, or itself).
  bool Knows(const std::string& name) const {
    if (name == party) return true;
    for (const FederationPeer& p : peers) {
      if (p.name == name) return true;
    }
    return false;
  }
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_FEDERATION_FEDERATION_CONFIG_H_
