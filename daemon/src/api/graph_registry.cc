#include "api/graph_registry.h"

#include <mutex>

#include "requests/graph_config_json.h"
#include "net/json_body.h"

namespace ldpgraph {
namespace {

Result<std::shared_ptr<const RegisteredGraph>> Register(const GraphConfig& config, const RoundSchedule& rounds) {
  auto expected = ExpectPolicy(config);
  if (!expected.ok()) return expected.status();
  return std::make_shared<const RegisteredGraph>(RegisteredGraph{config, *expected, rounds});
}

// A stored policy: the configuration and its schedule.
Result<std::shared_ptr<const RegisteredGraph>> Parse(const std::string& text) {
  Result<nlohmann::json> j = ParseStrictJson(text);
  if (!j.ok()) return j.status();
  auto config = GraphConfigFromJsonValue(*j);
  if (!config.ok()) return config.status();
  auto member = j->find("rounds");
  auto rounds = ParseRoundSchedule(member == j->end() ? nullptr : &*member, *config);
  if (!rounds.ok()) return rounds.status();
  return Register(*config, *rounds);
}

}  // namespace

std::string GraphPolicyJson(const GraphConfig& config, const RoundSchedule& rounds) {
  if (!rounds.enabled) return GraphConfigToJson(config);
  nlohmann::json j = nlohmann::json::parse(GraphConfigToJson(config));
  j["rounds"] = RoundScheduleJson(rounds);
  return j.dump();
}

Status GraphRegistry::Load() { return Refresh(false); }

Status GraphRegistry::Refresh(bool unless_recent) const {
  std::lock_guard<std::mutex> one_at_a_time(refresh_mu_);
  const auto now = std::chrono::steady_clock::now();
  if (unless_recent && now - last_refresh_ < std::chrono::milliseconds(100)) return Status::Ok();
  last_refresh_ = now;
  auto stored = store_->ListGraphs();
  if (!stored.ok()) return stored.status();
  std::map<std::uint64_t, std::shared_ptr<const RegisteredGraph>> fresh;
  for (const StoredGraph& g : *stored) {
    if (Find(g.graph_id, false) != nullptr) continue;
    const std::string where = "stored graph " + std::to_string(g.graph_id) + ": ";
    auto registered = Parse(g.config_json);
    if (!registered.ok()) return Status::DataLoss(where + registered.status().message());
    fresh[g.graph_id] = std::move(*registered);
  }
  std::unique_lock<std::shared_mutex> lock(mu_);
  graphs_.merge(fresh);
  return Status::Ok();
}

Status GraphRegistry::Create(const GraphConfig& config, const RoundSchedule& rounds) {
  // Serialised with readers only for the map update; the store arbitrates
  // between two admins creating the same id.
  auto registered = Register(config, rounds);
  if (!registered.ok()) return registered.status();
  StoredGraph g;
  g.graph_id = config.graph_id;
  g.config_json = GraphPolicyJson(config, rounds);
  g.history_rounds = rounds.enabled ? rounds.history : 0;
  Status stored = store_->CreateGraph(g);
  if (stored.code() == StatusCode::kFailedPrecondition) (void)Refresh(false);  // another daemon's: serve it too
  LDPGRAPH_RETURN_IF_ERROR(stored);
  std::unique_lock<std::shared_mutex> lock(mu_);
  graphs_[config.graph_id] = std::move(*registered);
  return Status::Ok();
}

std::shared_ptr<const RegisteredGraph> GraphRegistry::Find(std::uint64_t graph_id) const {
  return Find(graph_id, true);
}

std::shared_ptr<const RegisteredGraph> GraphRegistry::Find(std::uint64_t graph_id, bool ask_store) const {
  {
    std::shared_lock<std::shared_mutex> lock(mu_);
    auto it = graphs_.find(graph_id);
    if (it != graphs_.end()) return it->second;
  }
  if (!ask_store || !Refresh(true).ok()) return nullptr;
  std::shared_lock<std::shared_mutex> lock(mu_);
  auto it = graphs_.find(graph_id);
  return it == graphs_.end() ? nullptr : it->second;
}

std::vector<std::shared_ptr<const RegisteredGraph>> GraphRegistry::All() const {
  (void)Refresh(false);  // an admin listing: another daemon's new graphs too
  return Known();
}

std::vector<std::shared_ptr<const RegisteredGraph>> GraphRegistry::Known() const {
  std::shared_lock<std::shared_mutex> lock(mu_);
  std::vector<std::shared_ptr<const RegisteredGraph>> all;
  for (const auto& [id, g] : graphs_) all.push_back(g);
  return all;
}

}  // namespace ldpgraph
