#include "ldpgraph/status.h"

#include <cstdio>
#include <cstdlib>

namespace ldpgraph {

const char* StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return "ok";
    case StatusCode::kInvalidArgument: return "invalid_argument";
    case StatusCode::kOutOfRange: return "out_of_range";
    case StatusCode::kFailedPrecondition: return "failed_precondition";
    case StatusCode::kResourceExhausted: return "resource_exhausted";
    case StatusCode::kDataLoss: return "data_loss";
    case StatusCode::kUnavailable: return "unavailable";
    case StatusCode::kInternal: return "internal";
  }
  return "unknown";
}

std::string Status::ToString() const {
  if (ok()) return "ok";
  return std::string(StatusCodeName(code_)) + ": " + message_;
}

namespace internal {
void DieOnBadResultAccess(const Status& status) {
#if defined(LDPGRAPH_BARE_METAL)
  (void)status;  // no stderr on a board, and stdio would cost 6 KB of flash
#else
  std::fprintf(stderr, "ldpgraph: value of a failed Result accessed: %s\n",
               status.ToString().c_str());
#endif
  std::abort();
}
}  // namespace internal

}  // namespace ldpgraph
