#include "api/graph_registry.h"

#include <mutex>

#include "api/graph_config_json.h"

namespace ldpgraph {
namespace {

Result<std::shared_ptr<const RegisteredGraph>> Register(const GraphConfig& config) {
  auto expected = ExpectPolicy(config);
  if (!expected.ok()) return expected.status();
  return std::make_shared<const RegisteredGraph>(RegisteredGraph{config, *expected});
}

}  // namespace

Status GraphRegistry::Load() {
  auto stored = store_->ListGraphs();
  if (!stored.ok()) return stored.status();
  std::map<std::uint64_t, std::shared_ptr<const RegisteredGraph>> graphs;
  for (const StoredGraph& g : *stored) {
    const std::string where = "stored graph " + std::to_string(g.graph_id) + ": ";
    auto config = GraphConfigFromJson(g.config_json);
    if (!config.ok()) return Status::DataLoss(where + config.status().message());
    auto registered = Register(*config);
    if (!registered.ok()) return Status::DataLoss(where + registered.status().message());
    graphs[g.graph_id] = std::move(*registered);
  }
  std::unique_lock<std::shared_mutex> lock(mu_);
  graphs_ = std::move(graphs);
  return Status::Ok();
}

Status GraphRegistry::Create(const GraphConfig& config) {
  // Serialised with readers only for the map update; the store arbitrates
  // between two admins creating the same id.
  auto registered = Register(config);
  if (!registered.ok()) return registered.status();
  StoredGraph g;
  g.graph_id = config.graph_id;
  g.config_json = GraphConfigToJson(config);
  LDPGRAPH_RETURN_IF_ERROR(store_->CreateGraph(g));
  std::unique_lock<std::shared_mutex> lock(mu_);
  graphs_[config.graph_id] = std::move(*registered);
  return Status::Ok();
}

std::shared_ptr<const RegisteredGraph> GraphRegistry::Find(std::uint64_t graph_id) const {
  std::shared_lock<std::shared_mutex> lock(mu_);
  auto it = graphs_.find(graph_id);
  return it == graphs_.end() ? nullptr : it->second;
}

std::vector<std::shared_ptr<const RegisteredGraph>> GraphRegistry::All() const {
  std::shared_lock<std::shared_mutex> lock(mu_);
  std::vector<std::shared_ptr<const RegisteredGraph>> all;
  for (const auto& [id, g] : graphs_) all.push_back(g);
  return all;
}

}  // namespace ldpgraph
