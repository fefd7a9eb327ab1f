#include "internal/validation.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace ldpgraph {
namespace internal {

std::string FormatDouble(double v) {
#if defined(LDPGRAPH_BARE_METAL)
  return FormatDoubleCompact(v);
#else
  char buf[32];
  // The shortest text that reads back as the same double: 0.1, not 0.10000000000000001.
  auto result = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, result.ptr);
#endif
}

std::string FormatDoubleCompact(double v) {
  if (std::isnan(v)) return "nan";
  std::string out = std::signbit(v) ? "-" : "";
  v = std::fabs(v);
  if (std::isinf(v)) return out + "inf";
  if (v == 0) return out + "0";
  // Scale into [1e8, 1e9): nine significant digits and a decimal exponent.
  int exponent = 8;
  while (v >= 1e9) {
    v /= 10;
    ++exponent;
  }
  while (v < 1e8) {
    v *= 10;
    --exponent;
  }
  auto digits = static_cast<std::uint32_t>(v + 0.5);
  if (digits >= 1000000000u) {
    digits /= 10;
    ++exponent;
  }
  std::string d = std::to_string(digits);
  while (d.size() > 1 && d.back() == '0') d.pop_back();
  if (exponent < -4 || exponent >= 9) {  // 1.5e-07, 2.25e+12
    const std::string e = std::to_string(exponent < 0 ? -exponent : exponent);
    return out + d.substr(0, 1) + (d.size() > 1 ? "." + d.substr(1) : "") + (exponent < 0 ? "e-" : "e+") +
           (e.size() < 2 ? "0" : "") + e;
  }
  if (exponent < 0) return out + "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + d;
  const auto whole = static_cast<std::size_t>(exponent) + 1;
  if (d.size() <= whole) return out + d + std::string(whole - d.size(), '0');
  return out + d.substr(0, whole) + "." + d.substr(whole);
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
