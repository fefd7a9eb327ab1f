// Directories of numbered files (<dir>/<number><extension>), where the
// daemon keeps one small JSON file per model version or held graph beside
// the data it describes.
#ifndef LDPGRAPH_DAEMON_STORE_NUMBERED_FILES_H_
#define LDPGRAPH_DAEMON_STORE_NUMBERED_FILES_H_

#include <cstdint>
#include <map>
#include <string>

#include "ldpgraph/status.h"

namespace ldpgraph {

// Creates `dir` if missing and reads every <number><extension> in it whole
// (other names are skipped): number -> content. Removes the *.tmp files a
// write cut short by a crash left (never renamed into place: no data).
// `what` names the directory in errors. Errors: kUnavailable when it cannot
// be made or read.
Result<std::map<std::uint64_t, std::string>> ReadNumberedFiles(const std::string& dir, const std::string& extension,
                                                               const std::string& what);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_STORE_NUMBERED_FILES_H_
