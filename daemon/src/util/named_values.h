// An enum's values with their names, the one table both directions read:
// FooName(value) and ParseFoo(name) cannot disagree, and a refusal lists
// every name. Each named option keeps its own two functions over its table:
//
//   constexpr NamedValue<Symmetrisation> kRules[] = {{Symmetrisation::kNone, "none"}, ...};
//   const char* SymmetrisationName(Symmetrisation r) { return NameIn(kRules, r); }
//   Result<Symmetrisation> ParseSymmetrisation(const std::string& n) { return ParseIn(kRules, n, "symmetrisation"); }
#ifndef LDPGRAPH_DAEMON_UTIL_NAMED_VALUES_H_
#define LDPGRAPH_DAEMON_UTIL_NAMED_VALUES_H_

#include <cstddef>
#include <string>

#include "ldpgraph/status.h"

namespace ldpgraph {

template <typename E>
struct NamedValue {
  E value;
  const char* name;
};

// The name of `value` ("?" for a value the table lacks).
template <typename E, std::size_t N>
const char* NameIn(const NamedValue<E> (&table)[N], E value) {
  for (const NamedValue<E>& entry : table) {
    if (entry.value == value) return entry.name;
  }
  return "?";
}

// The value named `name`; kInvalidArgument "unknown WHAT 'name' (one of a, b, c)" otherwise.
template <typename E, std::size_t N>
Result<E> ParseIn(const NamedValue<E> (&table)[N], const std::string& name, const char* what) {
  std::string listed;
  for (const NamedValue<E>& entry : table) {
    if (name == entry.name) return entry.value;
    listed += (listed.empty() ? "" : ", ") + std::string(entry.name);
  }
  return Status::InvalidArgument(std::string("unknown ") + what + " '" + name + "' (one of " + listed + ")");
}

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_UTIL_NAMED_VALUES_H_
