#include "store/held_graph_store.h"

#include <nlohmann/json.hpp>

#include "store/file_documents.h"

namespace ldpgraph {

Result<std::unique_ptr<HeldGraphStore>> HeldGraphStore::Open(const std::string& dir) {
  Result<std::unique_ptr<DocumentStore>> documents = OpenFileDocuments(dir, ".graph", "held graph");
  if (!documents.ok()) return documents.status();
  return std::make_unique<HeldGraphStore>(std::move(documents).value());
}

std::string HeldGraphStore::Summary(const HeldGraph& g) {
  nlohmann::json summary{{"graph_id", g.id},
                         {"num_nodes", g.graph.num_nodes()},
                         {"edges", g.edges()},
                         {"feature_dims", g.features.cols},
                         {"classes", g.classes},
                         {"labelled", g.labelled()}};
  if (g.is_party_share()) {
    summary["border_edges"] = g.border.size();
    summary["border_parties"] = g.border_parties;
  }
  return summary.dump();
}

Status HeldGraphStore::Add(const HeldGraph& graph) {
  return documents_->AddAt(graph.id, EncodeHeldGraph(graph), Summary(graph));
}

Result<HeldGraph> HeldGraphStore::Load(std::uint64_t id) const {
  Result<std::vector<std::uint8_t>> bytes = documents_->Data(id);
  if (!bytes.ok()) return bytes.status();
  return DecodeHeldGraph(*bytes);
}

Status HeldGraphStore::Remove(std::uint64_t id) { return documents_->Remove(id); }

Result<std::map<std::uint64_t, std::string>> HeldGraphStore::List() const { return documents_->List(); }

Result<bool> HeldGraphStore::Has(std::uint64_t id) const {
  Result<std::string> summary = documents_->Summary(id);
  if (summary.status().code() == StatusCode::kFailedPrecondition) return false;
  if (!summary.ok()) return summary.status();
  return true;
}

}  // namespace ldpgraph
