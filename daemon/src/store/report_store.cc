#include "store/report_store.h"

namespace ldpgraph {

const char* InsertOutcomeName(InsertOutcome outcome) {
  switch (outcome) {
    case InsertOutcome::kStored: return "stored";
    case InsertOutcome::kDuplicate: return "duplicate";
    case InsertOutcome::kConflict: return "conflict";
    case InsertOutcome::kWrongRound: return "wrong_round";
  }
  return "unknown";
}

}  // namespace ldpgraph
