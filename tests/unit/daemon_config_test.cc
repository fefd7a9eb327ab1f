// The daemon's TOML config and the graphs' JSON config: defaults, relative
// paths, and a precise error for every bad key.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>

#include "requests/graph_config_json.h"
#include "service/daemon_config.h"
#include "support/temp_dir.h"

using ldpgraph::testing::TempDir;

namespace {
std::string Minimal() {
  return "[tls]\ncertificate = \"s.crt\"\nprivate_key = \"s.key\"\n[store]\npath = \"db\"\n"
         "[auth]\nsecret_file = \"secret\"\nadmin_token_file = \"admin\"\n";
}
}  // namespace

TEST_CASE("DaemonConfig.DefaultsAndRelativePaths") {
  TempDir dir;
  dir.Write("secret", std::string(40, 's') + "\n");
  dir.Write("admin", "admin-token-123456\n");
  auto c = ldpgraph::ParseDaemonConfig(Minimal(), dir.path());
  REQUIRE_MESSAGE(c.ok(), c.status().message());
  CHECK(c->listen_port == 8443);
  CHECK(c->store_path == dir.path() + "/db");
  CHECK(c->certificate_file == dir.path() + "/s.crt");
  CHECK(c->secret == std::string(40, 's'));  // the trailing newline is not part of it
  CHECK(c->admin_token == "admin-token-123456");
  CHECK(c->per_token.per_second == 5);
  CHECK(c->max_connections_per_address == 1000);
  CHECK(c->max_pipelined_requests == 16);
  CHECK(c->tls12_ciphers == ldpgraph::kDefaultTls12Ciphers);
  CHECK(c->refusal_log_lines_per_second == 20);
  CHECK(c->store_backend == "sqlite");
  CHECK(c->state_dir == dir.path());
  CHECK(c->models_dir == dir.path() + "/models");
  CHECK(c->held_graphs_dir == dir.path() + "/held-graphs");
  const std::string path = dir.Write("d.toml", Minimal() + "[server]\nlisten_port = 9000\nthreads = 4\n");
  auto loaded = ldpgraph::LoadDaemonConfig(path);
  REQUIRE(loaded.ok());
  CHECK(loaded->listen_port == 9000);
  CHECK(loaded->threads == 4);
}

TEST_CASE("DaemonConfig.EveryBadKeyIsNamed") {
  TempDir dir;
  dir.Write("secret", std::string(40, 's'));
  dir.Write("short", "abc");
  dir.Write("admin", "admin-token-123456");
  struct Case {
    std::string text;
    const char* message;
  } cases[] = {
      {"[server\n", "line 1"},
      {Minimal() + "[serverz]\n", "serverz is not a known section"},
      {Minimal() + "[server]\nport = 1\n", "server.port is not a known key"},
      {Minimal() + "[server]\nlisten_port = 70000\n", "server.listen_port must be in [0, 65535]"},
      {Minimal() + "[server]\nthreads = \"two\"\n", "server.threads must be an integer"},
      {Minimal() + "[server]\nthreads = 0\n", "server.threads must be in [1, 256]"},
      {Minimal() + "[limits]\nper_token_rate = -1\n", "limits.per_token_rate must be a number in"},
      {Minimal() + "[limits]\nper_token_rate = 3\nper_token_burst = 0\n", "limits.per_token_burst must be at least 1"},
      {Minimal() + "[log]\nformat = \"xml\"\n", "log.format must be auto, json or text"},
      {Minimal() + "[server]\nmax_connections_per_address = -1\n", "server.max_connections_per_address must be in"},
      {Minimal() + "[server]\nmax_pipelined_requests = 0\n", "server.max_pipelined_requests must be in [1, 1024]"},
      {Minimal() + "[log]\nrefusal_lines_per_second = 200000\n", "log.refusal_lines_per_second must be in"},
      {"[tls]\ncertificate = \"a\"\nprivate_key = \"b\"\ntls12_ciphers = \"\"\n[store]\npath = \"db\"\n",
       "tls.tls12_ciphers must name at least one cipher suite"},
      {"[store]\npath = \"db\"\n", "tls.certificate is required"},
      {"[tls]\ncertificate = \"a\"\nprivate_key = \"b\"\n", "store.path is required"},
      {"[tls]\ncertificate = \"a\"\nprivate_key = \"b\"\n[store]\npath = \"db\"\n[auth]\nsecret_file = \"short\"\n"
       "admin_token_file = \"admin\"\n",
       "must hold at least 32 bytes"},
      {"[tls]\ncertificate = \"a\"\nprivate_key = \"b\"\n[store]\npath = \"db\"\n[auth]\nsecret_file = \"nope\"\n"
       "admin_token_file = \"admin\"\n",
       "cannot read"},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    auto parsed = ldpgraph::ParseDaemonConfig(c.text, dir.path());
    REQUIRE_FALSE(parsed.ok());
    CHECK_MESSAGE(parsed.status().message().find(c.message) != std::string::npos, parsed.status().message());
  }
  auto missing = ldpgraph::LoadDaemonConfig(dir.path() + "/none.toml");
  CHECK(missing.status().code() == ldpgraph::StatusCode::kUnavailable);
}

TEST_CASE("DaemonConfig.PostgresqlStoreWithItsPasswordAndErrors") {
  TempDir dir;
  dir.Write("secret", std::string(40, 's'));
  dir.Write("admin", "admin-token-123456");
  dir.Write("dbpass", "db-pass-1\n");
  const std::string head = "[tls]\ncertificate = \"a\"\nprivate_key = \"b\"\n[auth]\nsecret_file = \"secret\"\n"
                           "admin_token_file = \"admin\"\n[store]\n";
  const std::string pg = "backend = \"postgresql\"\nconnection = \"host=db port=5432 dbname=ldpgraph user=l\"\n"
                         "state_dir = \"state\"\n";
  auto c = ldpgraph::ParseDaemonConfig(head + pg + "password_file = \"dbpass\"\npool_size = 8\n", dir.path());
  REQUIRE_MESSAGE(c.ok(), c.status().message());
  CHECK(c->store_backend == "postgresql");
  CHECK(c->store_connection == "host=db port=5432 dbname=ldpgraph user=l");
  CHECK(c->store_password == "db-pass-1");  // the file's newline is not part of it
  CHECK(c->store_pool_size == 8);
  CHECK(c->state_dir == dir.path() + "/state");
  CHECK(c->models_dir == dir.path() + "/state/models");
  ::setenv("LDPGRAPH_STORE_PASSWORD", "from-the-environment", 1);
  auto env = ldpgraph::ParseDaemonConfig(head + pg, dir.path());
  ::unsetenv("LDPGRAPH_STORE_PASSWORD");
  REQUIRE(env.ok());
  CHECK(env->store_password == "from-the-environment");
  struct Case {
    std::string store;
    const char* message;
  } cases[] = {
      {"backend = \"mysql\"\npath = \"db\"\n", "store.backend must be sqlite or postgresql"},
      {"path = \"db\"\nconnection = \"host=x\"\n", "store.connection is for backend = \"postgresql\""},
      {"path = \"db\"\npool_size = 2\n", "store.pool_size is for backend"},
      {"backend = \"postgresql\"\nstate_dir = \"s\"\n", "store.connection is required"},
      {"backend = \"postgresql\"\nconnection = \"host=x\"\n", "store.state_dir is required"},
      {pg + "path = \"db\"\n", "store.path is the SQLite file"},
      {pg + "pool_size = 0\n", "store.pool_size must be in [1, 256]"},
      {pg + "password_file = \"missing\"\n", "cannot read"},
      {"backend = \"postgresql\"\nconnection = \"host=x password=hunter2\"\nstate_dir = \"s\"\n",
       "must not hold the password"},
      // Issue 66: the URI forms, which a search for "password=" missed.
      {"backend = \"postgresql\"\nconnection = \"postgresql://ldpgraph:hunter2@127.0.0.1:55432/ldpgraph\"\n"
       "state_dir = \"s\"\n",
       "must not hold the password"},
      {"backend = \"postgresql\"\nconnection = \"postgres://db/ldpgraph?user=u&password=hunter2\"\nstate_dir = \"s\"\n",
       "must not hold the password"},
      {"backend = \"postgresql\"\nconnection = \"host=x hunter2\"\nstate_dir = \"s\"\n",
       "is not a libpq connection string"},
  };
  for (const Case& k : cases) {
    INFO(k.store);
    auto parsed = ldpgraph::ParseDaemonConfig(head + k.store, dir.path());
    REQUIRE_FALSE(parsed.ok());
    CHECK_MESSAGE(parsed.status().message().find(k.message) != std::string::npos, parsed.status().message());
    CHECK(parsed.status().message().find("hunter2") == std::string::npos);
  }
}

TEST_CASE("DaemonConfig.FederationSectionAndItsErrors") {
  TempDir dir;
  dir.Write("secret", std::string(40, 's'));
  dir.Write("admin", "admin-token-123456");
  const std::string federation =
      "[federation]\nparty = \"north\"\nlisten_port = 9443\nca = \"ca.crt\"\ncertificate = \"n.crt\"\n"
      "private_key = \"n.key\"\n";
  auto c = ldpgraph::ParseDaemonConfig(
      Minimal() + federation +
          "peers = [ { name = \"east\", url = \"https://10.0.0.2:9443\" }, { name = \"west\", url = \"https://w:1\" } ]\n",
      dir.path());
  REQUIRE_MESSAGE(c.ok(), c.status().message());
  CHECK(c->federation.enabled());
  CHECK(c->federation.ca_file == dir.path() + "/ca.crt");
  REQUIRE(c->federation.peers.size() == 2);
  CHECK(c->federation.peers[0].host == "10.0.0.2");
  CHECK(c->federation.peers[1].port == 1);
  CHECK(c->federation.Knows("west"));
  CHECK(c->federation.Knows("north"));
  CHECK(!c->federation.Knows("mallory"));
  CHECK(!ldpgraph::ParseDaemonConfig(Minimal(), dir.path())->federation.enabled());
  struct Case {
    std::string text;
    const char* message;
  } cases[] = {
      {"[federation]\nlisten_port = 1\n", "federation.party must be 1-64 of [a-z0-9_-]"},
      {"[federation]\nparty = \"North\"\n", "federation.party must be"},
      {"[federation]\nparty = \"n\"\n", "federation.ca is required"},
      {federation + "colour = 1\n", "federation.colour is not a known key"},
      {federation + "peers = 3\n", "federation.peers must be an array"},
      {federation + "peers = [ { name = \"east\" } ]\n", "federation.peers[0].url must be https://HOST:PORT"},
      {federation + "peers = [ { name = \"east\", url = \"https://e\" } ]\n", "federation.peers[0].url"},
      {federation + "peers = [ { name = \"north\", url = \"https://e:1\" } ]\n", "is named twice"},
      {federation + "peers = [ { name = \"e\", url = \"https://e:1\", port = 2 } ]\n",
       "federation.peers[0].port is not a known key"},
      {federation + "party_timeout_ms = 5\n", "federation.party_timeout_ms must be in"},
  };
  for (const Case& bad : cases) {
    INFO(bad.text);
    auto parsed = ldpgraph::ParseDaemonConfig(Minimal() + bad.text, dir.path());
    REQUIRE_FALSE(parsed.ok());
    CHECK_MESSAGE(parsed.status().message().find(bad.message) != std::string::npos, parsed.status().message());
  }
}

TEST_CASE("GraphConfigJson.RoundTripsAndNamesBadFields") {
  const char* text = R"({"graph_id": 18446744073709551615, "num_users": 50,
      "edges": {"mechanism": "locallap", "epsilon": 2.5, "allocation": "fixed", "n_max": 80, "locallap_resolution": 8},
      "features": {"dims": 3, "epsilon": 4, "ranges": [[0, 1], [-1, 1], [0, 10]]},
      "label": {"classes": 5, "epsilon": 0.5}})";
  auto c = ldpgraph::GraphConfigFromJson(text);
  REQUIRE_MESSAGE(c.ok(), c.status().message());
  CHECK(c->graph_id == 18446744073709551615ull);
  CHECK(c->edges.mechanism == ldpgraph::EdgeMechanism::kLocalLap);
  CHECK(c->edges.allocation == ldpgraph::BudgetAllocation::kFixed);
  CHECK(c->edges.n_max == 80);
  CHECK(c->features.params.ranges[1].lo == -1);
  CHECK(c->label.classes == 5);
  auto again = ldpgraph::GraphConfigFromJson(ldpgraph::GraphConfigToJson(*c));
  REQUIRE(again.ok());
  CHECK(ldpgraph::GraphConfigToJson(*again) == ldpgraph::GraphConfigToJson(*c));
  auto none = ldpgraph::GraphConfigFromJson(R"({"graph_id": 1, "num_users": 5, "edges": {"mechanism": "none"}})");
  REQUIRE(none.ok());
  CHECK_FALSE(none->features.enabled);

  struct Case {
    const char* text;
    const char* message;
  } cases[] = {
      {"[1]", "must be a JSON object"},
      {"{", "body is not JSON: parse error at line 1, column 2"},
      {R"({"graph_id": 1, "graph_id": 2, "num_users": 5, "edges": {"mechanism": "none"}})", "key \"graph_id\" twice"},
      {R"({"graph_id": 1, "num_users": 5, "edges": {"mechanism": "rr", "epsilon": -1, "epsilon": 1}})",
       "key \"epsilon\" twice"},
      {R"({"num_users": 5, "edges": {"mechanism": "rr", "epsilon": 1}})", "graph_id is required"},
      {R"({"graph_id": -1, "num_users": 5, "edges": {"mechanism": "rr", "epsilon": 1}})", "graph_id must be an integer"},
      {R"({"graph_id": 1, "num_users": 5000000000, "edges": {"mechanism": "rr", "epsilon": 1}})", "num_users must be"},
      {R"({"graph_id": 1, "num_users": 5, "edges": {"mechanism": "magic", "epsilon": 1}})", "edges.mechanism"},
      {R"({"graph_id": 1, "num_users": 5, "edges": {"mechanism": "rr"}})", "edges.epsilon is required"},
      {R"({"graph_id": 1, "num_users": 5, "edges": {"mechanism": "rr", "epsilon": "1"}})", "edges.epsilon must be a number"},
      {R"({"graph_id": 1, "num_users": 5, "edges": {"mechanism": "rr", "epsilon": 1, "x": 1}})", "edges.x is not a known field"},
      {R"({"graph_id": 1, "num_users": 5, "colour": 1, "edges": {"mechanism": "rr", "epsilon": 1}})", "colour is not a known field"},
      {R"({"graph_id": 1, "num_users": 5, "edges": {"mechanism": "rr", "epsilon": -1}})", "epsilon"},
      {R"({"graph_id": 1, "num_users": 5, "edges": {"mechanism": "rr", "epsilon": 1}, "features": {"dims": 2, "epsilon": 1, "ranges": [[1]]}})", "features.ranges[0]"},
      {R"({"graph_id": 1, "num_users": 5, "edges": {"mechanism": "rr", "epsilon": 1}, "label": {"classes": 1, "epsilon": 1}})", "classes"},
  };
  for (const Case& k : cases) {
    INFO(k.text);
    auto parsed = ldpgraph::GraphConfigFromJson(k.text);
    REQUIRE_FALSE(parsed.ok());
    CHECK_MESSAGE(parsed.status().message().find(k.message) != std::string::npos, parsed.status().message());
  }
}

TEST_CASE("DaemonConfig.TheDocumentedExampleParses") {
  std::ifstream in(LDPGRAPH_EXAMPLE_CONFIG);
  REQUIRE(in.good());
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  TempDir dir;
  const std::string secret = dir.Write("secret", std::string(32, 's'));
  const std::string admin = dir.Write("admin", "admin-token-123456");
  for (auto [from, to] : {std::pair<std::string, std::string>{"/etc/ldpgraph/secret", secret},
                          {"/etc/ldpgraph/admin-token", admin}}) {
    const std::size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
  }
  auto c = ldpgraph::ParseDaemonConfig(text, dir.path());
  REQUIRE_MESSAGE(c.ok(), c.status().message());
  CHECK(c->listen_address == "0.0.0.0");
  CHECK(c->store_path == "/var/lib/ldpgraph/store.db");
  CHECK(c->per_address.burst == 4000);
}
