// A ledger's storage in memory, with a switch that makes stores fail: what
// the ledger tests persist to when the file is not the point.
#ifndef LDPGRAPH_TESTS_SUPPORT_MEMORY_LEDGER_STORAGE_H_
#define LDPGRAPH_TESTS_SUPPORT_MEMORY_LEDGER_STORAGE_H_

#include <cstdint>
#include <vector>

#include "ldpgraph/budget_ledger.h"

namespace ldpgraph {
namespace testing {

struct MemoryStore {
  std::vector<std::uint8_t> state;
  int stores = 0;
  bool fail_store = false;
  LedgerStorage Storage() {
    LedgerStorage s;
    s.load = [this](std::vector<std::uint8_t>* out) {
      *out = state;
      return Status::Ok();
    };
    s.store = [this](const std::vector<std::uint8_t>& st) {
      if (fail_store) return Status::Unavailable("disk full");
      state = st;
      ++stores;
      return Status::Ok();
    };
    return s;
  }
};

}  // namespace testing
}  // namespace ldpgraph

#endif  // LDPGRAPH_TESTS_SUPPORT_MEMORY_LEDGER_STORAGE_H_
