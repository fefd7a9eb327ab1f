// HeldGraphStore: the graphs owners upload whole (gap/held_graph.h), kept
// as files in a directory next to the report store:
//   <dir>/<id>.graph   the graph (EncodeHeldGraph)
//   <dir>/<id>.json    its summary; written after the graph, so a graph
//                      exists once its summary is durable, and a crash
//                      between the two leaves nothing half there
// Removal deletes the summary first. Owners can take their graph back:
// models trained on it keep only what they released (their predictions).
// Thread-safety: every method may be called from any thread.
#ifndef LDPGRAPH_DAEMON_STORE_HELD_GRAPH_STORE_H_
#define LDPGRAPH_DAEMON_STORE_HELD_GRAPH_STORE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "gap/held_graph.h"

namespace ldpgraph {

class HeldGraphStore {
 public:
  // Creates `dir` if missing and reads the summaries it holds.
  // Errors: kUnavailable when the directory cannot be made or read.
  static Result<std::unique_ptr<HeldGraphStore>> Open(const std::string& dir);

  // Errors: kFailedPrecondition when the id is taken; kUnavailable on I/O.
  Status Add(const HeldGraph& graph);
  // Errors: kFailedPrecondition for an unknown id; DecodeHeldGraph's.
  Result<HeldGraph> Load(std::uint64_t id) const;
  // Errors: kFailedPrecondition for an unknown id; kUnavailable on I/O.
  Status Remove(std::uint64_t id);
  // id -> summary JSON ({"graph_id", "num_nodes", "edges", "feature_dims",
  // "classes", "labelled"}), increasing.
  std::map<std::uint64_t, std::string> List() const;

  static std::string Summary(const HeldGraph& graph);

 private:
  explicit HeldGraphStore(std::string dir) : dir_(std::move(dir)) {}
  std::string PathOf(std::uint64_t id, const char* extension) const;

  std::string dir_;
  mutable std::mutex mu_;
  std::map<std::uint64_t, std::string> summaries_;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_STORE_HELD_GRAPH_STORE_H_
