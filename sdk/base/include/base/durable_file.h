// Whole-file reads and crash-safe whole-file writes, shared by the ledger's
// file storage and the uploader's queue.
#ifndef LDPGRAPH_BASE_DURABLE_FILE_H_
#define LDPGRAPH_BASE_DURABLE_FILE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "ldpgraph/status.h"

namespace ldpgraph {
namespace base {

// Reads all of `path` into `out`. A missing file is OK with *exists = false.
// Errors: kUnavailable with the path and errno text.
Status ReadWholeFile(const std::string& path, std::vector<std::uint8_t>* out, bool* exists);

// Writes `bytes` to path.tmp, fsyncs, renames onto `path` and fsyncs the
// directory: after a crash, `path` holds the old or the new bytes, whole.
Status WriteFileDurably(const std::string& path, const std::vector<std::uint8_t>& bytes);

}  // namespace base
}  // namespace ldpgraph

#endif  // LDPGRAPH_BASE_DURABLE_FILE_H_
