// DocumentStore: numbered documents of one kind (model versions, held
// graphs), each its data (bytes) and a JSON summary of it. One daemon keeps
// them as files beside its SQLite store (file_documents.h); daemons sharing
// a PostgreSQL store keep them in it (postgres_documents.h), so that any
// daemon serves any model or graph.
//
// The contract both keep: a document exists once its summary does, and
// never half (a crash between the data and the summary leaves nothing
// listed); numbers handed out by AddNext only grow; Remove makes the
// document vanish at once.
// Thread-safety: every method may be called from any thread.
#ifndef LDPGRAPH_DAEMON_STORE_DOCUMENT_STORE_H_
#define LDPGRAPH_DAEMON_STORE_DOCUMENT_STORE_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ldpgraph/status.h"

namespace ldpgraph {

class DocumentStore {
 public:
  virtual ~DocumentStore() = default;

  // Stores a new document under the next number and returns it.
  // Errors: kUnavailable on I/O.
  virtual Result<std::uint64_t> AddNext(const std::vector<std::uint8_t>& data, const std::string& summary) = 0;
  // Stores a document under `id`. Errors: kFailedPrecondition when the id is
  // taken, kUnavailable on I/O.
  virtual Status AddAt(std::uint64_t id, const std::vector<std::uint8_t>& data, const std::string& summary) = 0;
  // Errors: kFailedPrecondition for an unknown id, kDataLoss when its data
  // is gone, kUnavailable on I/O.
  virtual Result<std::vector<std::uint8_t>> Data(std::uint64_t id) const = 0;
  // id -> summary, increasing. Errors: kUnavailable.
  virtual Result<std::map<std::uint64_t, std::string>> List() const = 0;
  // nullopt-like: kFailedPrecondition for an unknown id.
  virtual Result<std::string> Summary(std::uint64_t id) const = 0;
  // Replaces a document's summary (a status that changes as work goes on),
  // durably. Errors: kFailedPrecondition for an unknown id, kUnavailable on I/O.
  virtual Status SetSummary(std::uint64_t id, const std::string& summary) = 0;
  // Errors: kFailedPrecondition for an unknown id, kUnavailable on I/O.
  virtual Status Remove(std::uint64_t id) = 0;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_STORE_DOCUMENT_STORE_H_
