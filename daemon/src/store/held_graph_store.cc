#include "store/held_graph_store.h"

#include <filesystem>

#include <nlohmann/json.hpp>

#include "internal/durable_file.h"
#include "store/numbered_files.h"

namespace ldpgraph {

Result<std::unique_ptr<HeldGraphStore>> HeldGraphStore::Open(const std::string& dir) {
  Result<std::map<std::uint64_t, std::string>> summaries = ReadNumberedFiles(dir, ".json", "held graph");
  if (!summaries.ok()) return summaries.status();
  std::unique_ptr<HeldGraphStore> store(new HeldGraphStore(dir));
  store->summaries_ = std::move(summaries).value();
  return store;
}

std::string HeldGraphStore::PathOf(std::uint64_t id, const char* extension) const {
  return dir_ + "/" + std::to_string(id) + extension;
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
  std::lock_guard<std::mutex> lock(mu_);
  if (summaries_.count(graph.id)) {
    return Status::FailedPrecondition("held graph " + std::to_string(graph.id) + " exists");
  }
  LDPGRAPH_RETURN_IF_ERROR(internal::WriteFileDurably(PathOf(graph.id, ".graph"), EncodeHeldGraph(graph)));
  const std::string summary = Summary(graph);
  Status described =
      internal::WriteFileDurably(PathOf(graph.id, ".json"), std::vector<std::uint8_t>(summary.begin(), summary.end()));
  if (!described.ok()) {  // a graph without its summary is not listed: take it back
    std::error_code error;
    std::filesystem::remove(PathOf(graph.id, ".graph"), error);
    return described;
  }
  summaries_[graph.id] = summary;
  return Status::Ok();
}

Result<HeldGraph> HeldGraphStore::Load(std::uint64_t id) const {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (summaries_.count(id) == 0) return Status::FailedPrecondition("no held graph " + std::to_string(id));
  }
  std::vector<std::uint8_t> bytes;
  bool exists = false;
  LDPGRAPH_RETURN_IF_ERROR(internal::ReadWholeFile(PathOf(id, ".graph"), &bytes, &exists));
  if (!exists) return Status::DataLoss("held graph " + std::to_string(id) + ": its file is missing");
  return DecodeHeldGraph(bytes);
}

Status HeldGraphStore::Remove(std::uint64_t id) {
  std::lock_guard<std::mutex> lock(mu_);
  if (summaries_.count(id) == 0) return Status::FailedPrecondition("no held graph " + std::to_string(id));
  // The summary first: once it is gone the graph no longer exists, even if
  // the daemon dies before the data file follows (Add overwrites it).
  std::error_code error;
  std::filesystem::remove(PathOf(id, ".json"), error);
  if (error) return Status::Unavailable("cannot remove held graph " + std::to_string(id) + ": " + error.message());
  summaries_.erase(id);
  std::filesystem::remove(PathOf(id, ".graph"), error);
  if (error) return Status::Unavailable("held graph " + std::to_string(id) + " is gone but its data file stays: " +
                                        error.message());
  return Status::Ok();
}

std::map<std::uint64_t, std::string> HeldGraphStore::List() const {
  std::lock_guard<std::mutex> lock(mu_);
  return summaries_;
}

}  // namespace ldpgraph
