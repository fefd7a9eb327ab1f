// HeldGraphStore: the graphs owners upload whole (gap/held_graph.h), as
// documents (document_store.h): the graph (EncodeHeldGraph) with a JSON
// summary, files beside a SQLite store or rows of a shared PostgreSQL one.
// A graph exists once whole; removal makes it vanish at once. Owners can
// take their graph back: models trained on it keep only what they released
// (their predictions).
// Thread-safety: every method may be called from any thread.
#ifndef LDPGRAPH_DAEMON_STORE_HELD_GRAPH_STORE_H_
#define LDPGRAPH_DAEMON_STORE_HELD_GRAPH_STORE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "gap/held_graph.h"
#include "store/document_store.h"

namespace ldpgraph {

class HeldGraphStore {
 public:
  explicit HeldGraphStore(std::unique_ptr<DocumentStore> documents) : documents_(std::move(documents)) {}
  // Graphs as files in `dir` (<id>.graph, <id>.json), created if missing.
  // Errors: kUnavailable when the directory cannot be made or read.
  static Result<std::unique_ptr<HeldGraphStore>> Open(const std::string& dir);

  // Errors: kFailedPrecondition when the id is taken; kUnavailable on I/O.
  Status Add(const HeldGraph& graph);
  // Errors: kFailedPrecondition for an unknown id; DecodeHeldGraph's.
  Result<HeldGraph> Load(std::uint64_t id) const;
  // Errors: kFailedPrecondition for an unknown id; kUnavailable on I/O.
  Status Remove(std::uint64_t id);
  // id -> summary JSON ({"graph_id", "num_nodes", "edges", "feature_dims",
  // "classes", "labelled"}), increasing. Errors: kUnavailable.
  Result<std::map<std::uint64_t, std::string>> List() const;
  // Whether graph `id` is held. Errors: kUnavailable.
  Result<bool> Has(std::uint64_t id) const;

  static std::string Summary(const HeldGraph& graph);

 private:
  std::unique_ptr<DocumentStore> documents_;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_STORE_HELD_GRAPH_STORE_H_
