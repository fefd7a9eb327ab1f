// The file-backed default storage of the budget ledger.
#include <string>

#include "base/durable_file.h"
#include "ldpgraph/budget_ledger.h"

namespace ldpgraph {

LedgerStorage FileLedgerStorage(const std::string& path) {
  LedgerStorage s;
  s.load = [path](std::vector<std::uint8_t>* out) {
    bool exists = false;  // no file yet: an empty ledger
    return base::ReadWholeFile(path, out, &exists);
  };
  s.store = [path](const std::vector<std::uint8_t>& state) { return base::WriteFileDurably(path, state); };
  return s;
}

}  // namespace ldpgraph
