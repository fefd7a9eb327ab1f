#include "internal/validation.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace ldpgraph {
namespace internal {

std::string FormatDouble(double v) {
  char buf[32];
  // The shortest text that reads back as the same double: 0.1, not 0.10000000000000001.
  auto result = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, result.ptr);
}

Status CheckEpsilon(double epsilon, const char* what) {
  if (std::isnan(epsilon)) return Status::InvalidArgument(std::string(what) + " must not be NaN");
  if (std::isinf(epsilon)) {
    return Status::InvalidArgument(std::string(what) + " must be finite, got " +
                                   FormatDouble(epsilon));
  }
  if (epsilon <= 0.0) {
    return Status::InvalidArgument(std::string(what) + " must be positive, got " +
                                   FormatDouble(epsilon));
  }
  return Status::Ok();
}

Status CheckNumUsers(std::uint32_t n) {
  if (n < 2) {
    return Status::InvalidArgument("a graph needs at least 2 users, got n = " + std::to_string(n));
  }
  return Status::Ok();
}

Status CheckNumUsersAndBound(std::uint32_t n, std::uint32_t* n_max) {
  LDPGRAPH_RETURN_IF_ERROR(CheckNumUsers(n));
  if (*n_max == 0) *n_max = n;
  if (*n_max < n) {
    return Status::InvalidArgument("n_max = " + std::to_string(*n_max) +
                                   " is below the graph's n = " + std::to_string(n));
  }
  return Status::Ok();
}

Status SortAndCheckNeighbours(std::uint32_t n, std::uint32_t user,
                              Span<const std::uint32_t> neighbours,
                              std::vector<std::uint32_t>* sorted) {
  if (user >= n) {
    return Status::OutOfRange("user id " + std::to_string(user) + " is not below n = " +
                              std::to_string(n));
  }
  sorted->assign(neighbours.begin(), neighbours.end());
  std::sort(sorted->begin(), sorted->end());
  for (std::size_t i = 0; i < sorted->size(); ++i) {
    const std::uint32_t v = (*sorted)[i];
    if (v >= n) {
      return Status::OutOfRange("neighbour id " + std::to_string(v) + " is not below n = " +
                                std::to_string(n));
    }
    if (v == user) {
      return Status::InvalidArgument("user " + std::to_string(user) +
                                     " is listed as her own neighbour");
    }
    if (i > 0 && v == (*sorted)[i - 1]) {
      return Status::InvalidArgument("neighbour id " + std::to_string(v) + " is listed twice");
    }
  }
  return Status::Ok();
}

}  // namespace internal
}  // namespace ldpgraph
