// What the fleet examples share: the daemon's address and admin token from
// the command line, the admin calls, and many devices reporting at once,
// each over her own TLS connection (the SDK's Uploader).
#ifndef LDPGRAPH_EXAMPLES_FLEET_SIMULATOR_FLEET_H_
#define LDPGRAPH_EXAMPLES_FLEET_SIMULATOR_FLEET_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "ldpgraph/random_source.h"
#include "ldpgraph/transport/uploader.h"
#include "util/flags.h"

namespace fleet {

namespace lt = ldpgraph::transport;

// --daemon https://HOST:PORT, --ca FILE, --admin-token-file FILE.
struct Daemon {
  lt::ServerEndpoint endpoint;
  std::string admin_token;
};
ldpgraph::Result<Daemon> DaemonFromFlags(const ldpgraph::Flags& flags);

// The admin calls: create graphs, issue the users' tokens, set labels...
class Admin {
 public:
  static ldpgraph::Result<std::unique_ptr<Admin>> Connect(const Daemon& daemon);
  // The answer's JSON; kUnavailable (with the status and body) for any
  // other status than `expected`.
  ldpgraph::Result<nlohmann::json> Call(const std::string& method, const std::string& path,
                                        const nlohmann::json& body, int expected);

 private:
  Admin(std::unique_ptr<lt::HttpsClient> client, std::string token)
      : client_(std::move(client)), token_(std::move(token)) {}
  std::unique_ptr<lt::HttpsClient> client_;
  std::string token_;
};

// One device's work: it reports through `uploader` (her own connection) and
// returns the daemon's answer; an error counts as a failure.
using DeviceWork = std::function<ldpgraph::Result<lt::SendOutcome>(std::size_t device, ldpgraph::RandomSource& rng,
                                                                   lt::Uploader& uploader)>;

struct Tally {
  std::size_t delivered = 0, refused = 0, failed = 0, handshakes = 0;
  double seconds = 0;
  std::string first_error;  // of the refused or failed devices, if any
};

// The seed of device `device`'s randomness in a run seeded by `seed`.
std::uint64_t DeviceSeed(std::uint64_t seed, std::size_t device);

// Runs `work` for devices 0 .. count - 1, `clients` at a time (threads),
// each with a fresh Uploader and its own random stream (DeviceSeed), so a
// run's noise depends on `seed` alone and repeats with it (a phone uses the
// OS CSPRNG).
Tally RunDevices(const Daemon& daemon, std::size_t count, std::size_t clients, std::uint64_t seed,
                 const DeviceWork& work);

}  // namespace fleet

#endif  // LDPGRAPH_EXAMPLES_FLEET_SIMULATOR_FLEET_H_
