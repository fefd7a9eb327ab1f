// Documents in the PostgreSQL store several daemons share: one row per
// document of a kind (data and summary together, so a document exists
// whole or not at all), numbers for AddNext from a per-kind counter updated
// in the same transaction (they only grow, across all daemons). Nothing is
// cached: another daemon's new model or graph is listed at once.
#ifndef LDPGRAPH_DAEMON_STORE_POSTGRES_DOCUMENTS_H_
#define LDPGRAPH_DAEMON_STORE_POSTGRES_DOCUMENTS_H_

#include <cstddef>
#include <memory>
#include <string>

#include "store/document_store.h"

namespace ldpgraph {

// `kind`: the documents' kind in the table ("model", "held_graph"); `what`
// names it in errors. The schema must be there (OpenPostgresReportStore
// makes it). Errors: kUnavailable when the server cannot be reached.
Result<std::unique_ptr<DocumentStore>> OpenPostgresDocuments(const std::string& conninfo, const std::string& password,
                                                             const std::string& kind, const std::string& what,
                                                             std::size_t pool_size = 2);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_STORE_POSTGRES_DOCUMENTS_H_
