// DaemonConfig: everything ldpgraphd reads from its TOML file
// (docs/ldpgraphd.example.toml documents every key and its default).
#ifndef LDPGRAPH_DAEMON_SERVICE_DAEMON_CONFIG_H_
#define LDPGRAPH_DAEMON_SERVICE_DAEMON_CONFIG_H_

#include <cstdint>
#include <string>

#include "federation/federation_config.h"
#include "ldpgraph/status.h"
#include "net/rate_limiter.h"
#include "net/tls_ciphers.h"

namespace ldpgraph {

struct DaemonConfig {
  // [server]
  std::string listen_address = "127.0.0.1";
  std::uint16_t listen_port = 8443;
  unsigned threads = 2;
  std::size_t max_body_bytes = 1 << 20;
  // A held graph's upload (PUT /v1/admin/held-graphs/{id}), for a request
  // whose admin token is right: a whole graph is larger than any report.
  std::size_t max_upload_bytes = std::size_t{256} << 20;
  std::uint32_t request_timeout_ms = 10000;  // each step: handshake, request, response
  std::uint32_t idle_timeout_ms = 30000;     // a keep-alive connection waiting for its next request
  std::uint32_t drain_timeout_ms = 10000;    // SIGTERM: how long in-flight requests may finish
  std::size_t max_connections = 10000;
  std::size_t max_connections_per_address = 1000;  // 0: no cap
  std::size_t max_pipelined_requests = 16;  // per connection, read before the first is answered
  // [tls]
  std::string certificate_file;
  std::string private_key_file;
  std::string client_ca_file;  // set: clients must present a certificate it signed
  std::string tls12_ciphers = kDefaultTls12Ciphers;  // OpenSSL list syntax
  // [store]
  std::string store_backend = "sqlite";  // or "postgresql": one database several daemons share
  std::string store_path;                 // sqlite: the database file
  // postgresql: a libpq connection string without the password (TLS to
  // the database: sslmode=verify-full sslrootcert=... in it), the password
  // (from password_file, else the environment's LDPGRAPH_STORE_PASSWORD;
  // never logged) and the connections for reads beside the writer's.
  std::string store_connection;
  std::string store_password;
  std::size_t store_pool_size = 4;
  // This daemon's own files (federation runs; models and held graphs by
  // default): the SQLite file's folder, or [store] state_dir.
  std::string state_dir;
  std::size_t max_reports_per_commit = 4096;
  std::string models_dir;       // trained model versions; empty: <state_dir>/models
  std::string held_graphs_dir;  // graphs uploaded whole; empty: <state_dir>/held-graphs
  // [auth]
  std::string secret;       // the HMAC key for user tokens (from secret_file)
  std::string admin_token;  // bearer token of /v1/admin (from admin_token_file)
  // [limits]
  RateLimit per_token{5, 20};
  RateLimit per_address{2000, 4000};
  // What the heavy admin work (GAP jobs, GW queries, predictions, held-graph
  // uploads) may hold at once (jobs/memory_budget.h); 0 in the file:
  // half the machine's memory.
  std::uint64_t memory_budget_bytes = 0;
  // The most users an embedding graph may have for GW to compare it: GW
  // holds n x n matrices (at 5000, about 3.6 GB for a pair).
  std::uint32_t gw_max_nodes = 5000;
  // [log]
  std::string log_format = "auto";  // auto (JSON unless stderr is a terminal), json, text
  std::string log_level = "info";   // debug, info, warning, error
  std::uint32_t refusal_log_lines_per_second = 20;  // the audit trail of refusals; 0: none
  // [federation]
  FederationConfig federation;
};

// Reads and checks the file; relative paths are taken from the file's
// directory. Errors: kUnavailable when a file cannot be read,
// kInvalidArgument naming the key (syntax errors name the line).
Result<DaemonConfig> LoadDaemonConfig(const std::string& path);

// The same from text; `base_dir` resolves relative paths.
Result<DaemonConfig> ParseDaemonConfig(const std::string& text, const std::string& base_dir);

// The folder of a SQLite store's file ("." for a bare name): its state
// folder unless one is configured.
std::string StoreDirectory(const std::string& store_path);


}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_SERVICE_DAEMON_CONFIG_H_
