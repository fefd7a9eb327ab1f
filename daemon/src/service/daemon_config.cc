#include "service/daemon_config.h"

#include <cstdlib>
#include <set>
#include <vector>

#include <toml++/toml.h>

#include "gap/held_graph.h"
#include "base/durable_file.h"
#include "store/pg_db.h"
#include "util/https_url.h"

namespace ldpgraph {
namespace {

Status Bad(const std::string& key, const std::string& what) {
  return Status::InvalidArgument("config: " + key + " " + what);
}

Result<std::string> ReadFile(const std::string& path, const std::string& key) {
  std::vector<std::uint8_t> bytes;
  bool exists = false;
  Status read = base::ReadWholeFile(path, &bytes, &exists);
  if (!read.ok() || !exists) {
    return Status::Unavailable("config: " + key + ": cannot read " + path + (exists ? ": " + read.message() : ""));
  }
  return std::string(bytes.begin(), bytes.end());
}

std::string Resolve(const std::string& base_dir, const std::string& path) {
  if (path.empty() || path[0] == '/' || base_dir.empty()) return path;
  return base_dir + "/" + path;
}

// Reads [table] with typed getters that reject unknown keys and wrong types.
class Section {
 public:
  Section(const toml::table& root, const char* name) : name_(name) {
    if (const toml::node* n = root.get(name)) {
      table_ = n->as_table();
      if (!table_) status_ = Bad(name_, "must be a table");
    }
  }

  Status CheckKnown(const std::set<std::string>& known) const {
    if (!status_.ok()) return status_;
    if (!table_) return Status::Ok();
    for (const auto& [key, value] : *table_) {
      (void)value;
      if (!known.count(std::string(key.str()))) return Bad(Key(std::string(key.str())), "is not a known key");
    }
    return Status::Ok();
  }

  Status String(const char* key, std::string* out) const {
    const toml::node* n = Find(key);
    if (!n) return Status::Ok();
    if (!n->is_string()) return Bad(Key(key), "must be a string");
    *out = n->as_string()->get();
    return Status::Ok();
  }

  template <typename T>
  Status Unsigned(const char* key, T min, T max, T* out) const {
    const toml::node* n = Find(key);
    if (!n) return Status::Ok();
    if (!n->is_integer()) return Bad(Key(key), "must be an integer");
    const std::int64_t v = n->as_integer()->get();
    if (v < static_cast<std::int64_t>(min) || static_cast<std::uint64_t>(v) > max) {
      return Bad(Key(key), "must be in [" + std::to_string(min) + ", " + std::to_string(max) + "]");
    }
    *out = static_cast<T>(v);
    return Status::Ok();
  }

  Status NonNegative(const char* key, double* out) const {
    const toml::node* n = Find(key);
    if (!n) return Status::Ok();
    if (!n->is_number()) return Bad(Key(key), "must be a number");
    const double v = n->is_integer() ? static_cast<double>(n->as_integer()->get()) : n->as_floating_point()->get();
    if (!(v >= 0) || v > 1e12) return Bad(Key(key), "must be a number in [0, 1e12]");
    *out = v;
    return Status::Ok();
  }

  bool Has(const char* key) const { return Find(key) != nullptr; }

 private:
  const toml::node* Find(const char* key) const { return table_ ? table_->get(key) : nullptr; }
  std::string Key(const std::string& key) const { return name_ + "." + key; }

  std::string name_;
  const toml::table* table_ = nullptr;
  Status status_;
};

Status ReadRateLimit(const Section& s, const char* rate_key, const char* burst_key, RateLimit* out) {
  LDPGRAPH_RETURN_IF_ERROR(s.NonNegative(rate_key, &out->per_second));
  LDPGRAPH_RETURN_IF_ERROR(s.NonNegative(burst_key, &out->burst));
  if (out->per_second > 0 && out->burst < 1) {
    return Bad(std::string("limits.") + burst_key, "must be at least 1 when the rate is limited");
  }
  return Status::Ok();
}

// [federation]: see federation/federation_config.h.
Status ReadFederation(const toml::table& root, const std::string& base_dir, FederationConfig* f) {
  Section s(root, "federation");
  LDPGRAPH_RETURN_IF_ERROR(s.CheckKnown({"party", "listen_address", "listen_port", "ca", "certificate", "private_key",
                                         "peers", "max_message_bytes", "party_timeout_ms"}));
  LDPGRAPH_RETURN_IF_ERROR(s.String("party", &f->party));
  if (!root.get("federation")) return Status::Ok();
  if (!ValidPartyName(f->party)) return Bad("federation.party", "must be 1-64 of [a-z0-9_-]");
  LDPGRAPH_RETURN_IF_ERROR(s.String("listen_address", &f->listen_address));
  LDPGRAPH_RETURN_IF_ERROR(s.Unsigned<std::uint16_t>("listen_port", 0, 65535, &f->listen_port));
  LDPGRAPH_RETURN_IF_ERROR(s.String("ca", &f->ca_file));
  LDPGRAPH_RETURN_IF_ERROR(s.String("certificate", &f->certificate_file));
  LDPGRAPH_RETURN_IF_ERROR(s.String("private_key", &f->private_key_file));
  for (auto [key, value] : {std::pair<const char*, std::string*>{"ca", &f->ca_file},
                            {"certificate", &f->certificate_file},
                            {"private_key", &f->private_key_file}}) {
    if (value->empty()) return Bad(std::string("federation.") + key, "is required");
    *value = Resolve(base_dir, *value);
  }
  LDPGRAPH_RETURN_IF_ERROR(
      s.Unsigned<std::size_t>("max_message_bytes", 1024, std::size_t{16} << 30, &f->max_message_bytes));
  LDPGRAPH_RETURN_IF_ERROR(s.Unsigned<std::uint32_t>("party_timeout_ms", 100, 3600000, &f->party_timeout_ms));
  const toml::node* peers = root["federation"]["peers"].node();
  if (peers == nullptr) return Status::Ok();  // a federation of one
  const toml::array* list = peers->as_array();
  if (list == nullptr) return Bad("federation.peers", "must be an array of {name, url} tables");
  std::set<std::string> names = {f->party};
  for (std::size_t i = 0; i < list->size(); ++i) {
    const std::string key = "federation.peers[" + std::to_string(i) + "]";
    const toml::table* peer = list->get(i)->as_table();
    if (peer == nullptr) return Bad(key, "must be a table {name = \"...\", url = \"https://HOST:PORT\"}");
    for (const auto& [k, v] : *peer) {
      (void)v;
      if (k.str() != "name" && k.str() != "url") return Bad(key + "." + std::string(k.str()), "is not a known key");
    }
    const std::optional<std::string> name = peer->get("name") ? peer->get("name")->value<std::string>() : std::nullopt;
    const std::optional<std::string> url = peer->get("url") ? peer->get("url")->value<std::string>() : std::nullopt;
    if (!name || !ValidPartyName(*name)) return Bad(key + ".name", "must be 1-64 of [a-z0-9_-]");
    if (!names.insert(*name).second) return Bad(key + ".name", "\"" + *name + "\" is named twice (or is this party)");
    const std::optional<HttpsUrl> parsed = url ? ParseHttpsUrl(*url) : std::nullopt;
    if (!parsed || !parsed->port_given) return Bad(key + ".url", "must be https://HOST:PORT");
    f->peers.push_back({*name, parsed->host, parsed->port});
  }
  return Status::Ok();
}

Result<std::string> SecretFromFile(const std::string& path, const char* key, std::size_t min_bytes) {
  if (path.empty()) return Bad(std::string("auth.") + key, "is required");
  auto text = ReadFile(path, std::string("auth.") + key);
  if (!text.ok()) return text.status();
  std::string secret = *text;
  while (!secret.empty() && (secret.back() == '\n' || secret.back() == '\r')) secret.pop_back();
  if (secret.size() < min_bytes) {
    return Bad(std::string("auth.") + key, "(" + path + ") must hold at least " + std::to_string(min_bytes) +
                                                 " bytes");
  }
  return secret;
}

}  // namespace

std::string StoreDirectory(const std::string& store_path) {
  const std::size_t slash = store_path.rfind('/');
  return slash == std::string::npos ? std::string(".") : store_path.substr(0, slash);
}

Result<DaemonConfig> ParseDaemonConfig(const std::string& text, const std::string& base_dir) {
  toml::table root;
  try {
    root = toml::parse(text);
  } catch (const toml::parse_error& e) {
    return Status::InvalidArgument("config: line " + std::to_string(e.source().begin.line) + ": " +
                                   std::string(e.description()));
  }
  for (const auto& [key, value] : root) {
    (void)value;
    static const std::set<std::string> kSections = {"server", "tls", "store", "auth", "limits", "log", "federation"};
    if (!kSections.count(std::string(key.str()))) return Bad(std::string(key.str()), "is not a known section");
  }
  DaemonConfig c;
  Section server(root, "server");
  LDPGRAPH_RETURN_IF_ERROR(server.CheckKnown({"listen_address", "listen_port", "threads", "max_body_bytes",
                                              "request_timeout_ms", "idle_timeout_ms", "drain_timeout_ms",
                                              "max_connections", "max_connections_per_address",
                                              "max_upload_bytes", "max_pipelined_requests"}));
  LDPGRAPH_RETURN_IF_ERROR(server.String("listen_address", &c.listen_address));
  LDPGRAPH_RETURN_IF_ERROR(server.Unsigned<std::uint16_t>("listen_port", 0, 65535, &c.listen_port));
  LDPGRAPH_RETURN_IF_ERROR(server.Unsigned<unsigned>("threads", 1, 256, &c.threads));
  LDPGRAPH_RETURN_IF_ERROR(server.Unsigned<std::size_t>("max_body_bytes", 64, 64u << 20, &c.max_body_bytes));
  LDPGRAPH_RETURN_IF_ERROR(server.Unsigned<std::uint32_t>("request_timeout_ms", 10, 600000, &c.request_timeout_ms));
  LDPGRAPH_RETURN_IF_ERROR(server.Unsigned<std::uint32_t>("idle_timeout_ms", 10, 3600000, &c.idle_timeout_ms));
  LDPGRAPH_RETURN_IF_ERROR(server.Unsigned<std::uint32_t>("drain_timeout_ms", 0, 600000, &c.drain_timeout_ms));
  LDPGRAPH_RETURN_IF_ERROR(server.Unsigned<std::size_t>("max_connections", 1, 1000000, &c.max_connections));
  LDPGRAPH_RETURN_IF_ERROR(server.Unsigned<std::size_t>("max_connections_per_address", 0, 1000000,
                                                        &c.max_connections_per_address));
  LDPGRAPH_RETURN_IF_ERROR(
      server.Unsigned<std::size_t>("max_pipelined_requests", 1, 1024, &c.max_pipelined_requests));
  LDPGRAPH_RETURN_IF_ERROR(
      server.Unsigned<std::size_t>("max_upload_bytes", 64, std::size_t{16} << 30, &c.max_upload_bytes));

  Section tls(root, "tls");
  LDPGRAPH_RETURN_IF_ERROR(tls.CheckKnown({"certificate", "private_key", "client_ca", "tls12_ciphers"}));
  LDPGRAPH_RETURN_IF_ERROR(tls.String("tls12_ciphers", &c.tls12_ciphers));
  if (c.tls12_ciphers.empty()) return Bad("tls.tls12_ciphers", "must name at least one cipher suite");
  LDPGRAPH_RETURN_IF_ERROR(tls.String("certificate", &c.certificate_file));
  LDPGRAPH_RETURN_IF_ERROR(tls.String("private_key", &c.private_key_file));
  LDPGRAPH_RETURN_IF_ERROR(tls.String("client_ca", &c.client_ca_file));
  if (c.certificate_file.empty()) return Bad("tls.certificate", "is required");
  if (c.private_key_file.empty()) return Bad("tls.private_key", "is required");
  c.certificate_file = Resolve(base_dir, c.certificate_file);
  c.private_key_file = Resolve(base_dir, c.private_key_file);
  c.client_ca_file = Resolve(base_dir, c.client_ca_file);

  Section store(root, "store");
  LDPGRAPH_RETURN_IF_ERROR(store.CheckKnown({"backend", "path", "max_reports_per_commit", "models_dir",
                                             "held_graphs_dir", "connection", "password_file", "pool_size",
                                             "state_dir"}));
  LDPGRAPH_RETURN_IF_ERROR(store.String("backend", &c.store_backend));
  LDPGRAPH_RETURN_IF_ERROR(store.String("path", &c.store_path));
  LDPGRAPH_RETURN_IF_ERROR(store.String("models_dir", &c.models_dir));
  LDPGRAPH_RETURN_IF_ERROR(store.String("held_graphs_dir", &c.held_graphs_dir));
  LDPGRAPH_RETURN_IF_ERROR(store.String("state_dir", &c.state_dir));
  LDPGRAPH_RETURN_IF_ERROR(
      store.Unsigned<std::size_t>("max_reports_per_commit", 1, 1000000, &c.max_reports_per_commit));
  if (c.store_backend == "sqlite") {
    for (const char* key : {"connection", "password_file", "pool_size", "state_dir"}) {
      if (store.Has(key)) return Bad(std::string("store.") + key, "is for backend = \"postgresql\"");
    }
    if (c.store_path.empty()) return Bad("store.path", "is required");
    c.store_path = Resolve(base_dir, c.store_path);
    c.state_dir = StoreDirectory(c.store_path);
  } else if (c.store_backend == "postgresql") {
    if (store.Has("path")) return Bad("store.path", "is the SQLite file; backend = \"postgresql\" takes connection");
    LDPGRAPH_RETURN_IF_ERROR(store.String("connection", &c.store_connection));
    if (c.store_connection.empty()) return Bad("store.connection", "is required (a libpq connection string)");
    if (Status conninfo = pg::CheckConninfo(c.store_connection); !conninfo.ok()) {
      return Bad("store.connection", conninfo.message());
    }
    LDPGRAPH_RETURN_IF_ERROR(store.Unsigned<std::size_t>("pool_size", 1, 256, &c.store_pool_size));
    std::string password_file;
    LDPGRAPH_RETURN_IF_ERROR(store.String("password_file", &password_file));
    if (!password_file.empty()) {
      auto password = ReadFile(Resolve(base_dir, password_file), "store.password_file");
      if (!password.ok()) return password.status();
      c.store_password = *password;
      while (!c.store_password.empty() && (c.store_password.back() == '\n' || c.store_password.back() == '\r')) {
        c.store_password.pop_back();
      }
    } else if (const char* env = std::getenv("LDPGRAPH_STORE_PASSWORD")) {
      c.store_password = env;
    }
    if (c.state_dir.empty()) return Bad("store.state_dir", "is required: the folder for this daemon's own files");
    c.state_dir = Resolve(base_dir, c.state_dir);
  } else {
    return Bad("store.backend", "must be sqlite or postgresql");
  }
  c.models_dir = c.models_dir.empty() ? c.state_dir + "/models" : Resolve(base_dir, c.models_dir);
  c.held_graphs_dir = c.held_graphs_dir.empty() ? c.state_dir + "/held-graphs" : Resolve(base_dir, c.held_graphs_dir);

  Section auth(root, "auth");
  LDPGRAPH_RETURN_IF_ERROR(auth.CheckKnown({"secret_file", "admin_token_file"}));
  std::string secret_file, admin_file;
  LDPGRAPH_RETURN_IF_ERROR(auth.String("secret_file", &secret_file));
  LDPGRAPH_RETURN_IF_ERROR(auth.String("admin_token_file", &admin_file));
  auto secret = SecretFromFile(Resolve(base_dir, secret_file), "secret_file", 32);
  if (!secret.ok()) return secret.status();
  c.secret = *secret;
  auto admin = SecretFromFile(Resolve(base_dir, admin_file), "admin_token_file", 16);
  if (!admin.ok()) return admin.status();
  c.admin_token = *admin;

  Section limits(root, "limits");
  LDPGRAPH_RETURN_IF_ERROR(limits.CheckKnown({"per_token_rate", "per_token_burst", "per_address_rate",
                                              "per_address_burst", "memory_budget_mb", "gw_max_nodes"}));
  std::uint64_t budget_mb = 0;
  LDPGRAPH_RETURN_IF_ERROR(limits.Unsigned<std::uint64_t>("memory_budget_mb", 0, std::uint64_t{1} << 30, &budget_mb));
  if (budget_mb > 0) c.memory_budget_bytes = budget_mb << 20;
  LDPGRAPH_RETURN_IF_ERROR(limits.Unsigned<std::uint32_t>("gw_max_nodes", 2, 1u << 20, &c.gw_max_nodes));
  LDPGRAPH_RETURN_IF_ERROR(ReadRateLimit(limits, "per_token_rate", "per_token_burst", &c.per_token));
  LDPGRAPH_RETURN_IF_ERROR(ReadRateLimit(limits, "per_address_rate", "per_address_burst", &c.per_address));

  Section log(root, "log");
  LDPGRAPH_RETURN_IF_ERROR(log.CheckKnown({"format", "level", "refusal_lines_per_second"}));
  LDPGRAPH_RETURN_IF_ERROR(
      log.Unsigned<std::uint32_t>("refusal_lines_per_second", 0, 100000, &c.refusal_log_lines_per_second));
  LDPGRAPH_RETURN_IF_ERROR(log.String("format", &c.log_format));
  LDPGRAPH_RETURN_IF_ERROR(log.String("level", &c.log_level));
  if (c.log_format != "auto" && c.log_format != "json" && c.log_format != "text") {
    return Bad("log.format", "must be auto, json or text");
  }
  if (c.log_level != "debug" && c.log_level != "info" && c.log_level != "warning" && c.log_level != "error") {
    return Bad("log.level", "must be debug, info, warning or error");
  }
  LDPGRAPH_RETURN_IF_ERROR(ReadFederation(root, base_dir, &c.federation));
  return c;
}

Result<DaemonConfig> LoadDaemonConfig(const std::string& path) {
  auto text = ReadFile(path, "--config");
  if (!text.ok()) return text.status();
  const std::size_t slash = path.rfind('/');
  const std::string base_dir = slash == std::string::npos ? "." : path.substr(0, slash);
  auto config = ParseDaemonConfig(*text, base_dir);
  if (!config.ok()) return Status(config.status().code(), path + ": " + config.status().message());
  return config;
}

}  // namespace ldpgraph
