// Documents as files in a directory, beside the SQLite store:
//   <dir>/<id><data_extension>   the data
//   <dir>/<id>.json              its summary, written durably after the data
// A document exists once its summary does; removal deletes the summary
// first. The summaries are read at open and kept in memory: one daemon owns
// the directory.
#ifndef LDPGRAPH_DAEMON_STORE_FILE_DOCUMENTS_H_
#define LDPGRAPH_DAEMON_STORE_FILE_DOCUMENTS_H_

#include <memory>
#include <string>

#include "store/document_store.h"

namespace ldpgraph {

// Creates `dir` if missing and reads its summaries; `what` names the kind
// in errors ("model", "held graph"). Errors: kUnavailable when the
// directory cannot be made or read.
Result<std::unique_ptr<DocumentStore>> OpenFileDocuments(const std::string& dir, const std::string& data_extension,
                                                         const std::string& what);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_STORE_FILE_DOCUMENTS_H_
