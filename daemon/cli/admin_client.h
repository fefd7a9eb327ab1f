// What the CLI's admin commands (ldpgraph daemon, ldpgraph federation)
// share: a TLS connection to a daemon's admin API with the server's
// certificate verified, and the admin token.
#ifndef LDPGRAPH_DAEMON_CLI_ADMIN_CLIENT_H_
#define LDPGRAPH_DAEMON_CLI_ADMIN_CLIENT_H_

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "ldpgraph/transport/https_client.h"
#include "util/flags.h"

namespace ldpgraph {

struct AdminConnection {
  std::unique_ptr<transport::HttpsClient> https;
  std::string token;
};

// From --daemon https://HOST:PORT, --ca FILE, --admin-token-file FILE (or
// $LDPGRAPH_ADMIN_TOKEN) and --timeout SECONDS: how long one read or write
// may wait (default 300; an admin query such as GW nearest computes before
// it answers, and a held graph's upload is large). Errors:
// kInvalidArgument for a missing or bad flag (a usage error), kUnavailable
// when the token file cannot be read or the CA is unusable.
Result<AdminConnection> ConnectToAdmin(const Flags& flags);

class AdminClient {
 public:
  // `tool` prefixes the errors it prints ("ldpgraph daemon").
  AdminClient(AdminConnection connection, std::string tool)
      : client_(std::move(connection.https)), token_(std::move(connection.token)), tool_(std::move(tool)) {}

  // The answer's JSON when its status is `expected`; otherwise prints the
  // error (the daemon's message) and returns false.
  bool Call(const std::string& method, const std::string& path, const std::string& body, int expected,
            nlohmann::json* out);

 private:
  std::unique_ptr<transport::HttpsClient> client_;
  std::string token_;
  std::string tool_;
};

// A text file's contents without trailing newlines and spaces.
std::string ReadText(const std::string& path, bool* ok);
// A JSON object's scalar fields as key=value lines (nested values as JSON).
void PrintKeyValues(const nlohmann::json& j, const std::string& prefix = "");

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_CLI_ADMIN_CLIENT_H_
