// Parameter checks shared by every mechanism factory, so each rejected value
// gets the same precise message everywhere.
#ifndef LDPGRAPH_INTERNAL_VALIDATION_H_
#define LDPGRAPH_INTERNAL_VALIDATION_H_

#include <cstdint>
#include <string>
#include <vector>

#include "ldpgraph/span.h"
#include "ldpgraph/status.h"

namespace ldpgraph {
namespace internal {

// NaN, infinite, zero and negative epsilons are all rejected; `what` names
// the parameter in the message ("epsilon", "feature epsilon", ...).
Status CheckEpsilon(double epsilon, const char* what = "epsilon");

// n >= 2: a graph of one user has no edges to protect.
Status CheckNumUsers(std::uint32_t n);

// CheckNumUsers(n), then the n_max a degree budget is allocated for: 0 means
// n itself; anything below n is rejected (a bound below the graph's size
// would understate the degree's sensitivity).
Status CheckNumUsersAndBound(std::uint32_t n, std::uint32_t* n_max);

// Copies `neighbours` into `sorted` in increasing order and checks that
// every id is < n, none repeats and none equals `user` (also < n).
Status SortAndCheckNeighbours(std::uint32_t n, std::uint32_t user,
                              Span<const std::uint32_t> neighbours,
                              std::vector<std::uint32_t>* sorted);

// The shortest text that reads back as `v`; where std::to_chars is too big
// (its tables take 115 KB of a microcontroller's flash) FormatDoubleCompact.
std::string FormatDouble(double v);
// Nine significant digits by integer arithmetic: 0.1, 1.5e-07, -2.25e+12, inf, nan.
std::string FormatDoubleCompact(double v);

}  // namespace internal
}  // namespace ldpgraph

#endif  // LDPGRAPH_INTERNAL_VALIDATION_H_
