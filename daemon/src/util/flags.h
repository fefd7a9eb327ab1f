// Flags: "--name value" and "--name=value" command-line options with
// precise errors for unknown names, missing values and bad numbers.
#ifndef LDPGRAPH_DAEMON_UTIL_FLAGS_H_
#define LDPGRAPH_DAEMON_UTIL_FLAGS_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ldpgraph/status.h"

namespace ldpgraph {

class Flags {
 public:
  // Parses args; every name must be in `known` (without the leading "--").
  // Names in `switches` take no value. Errors name the offending argument.
  static Result<Flags> Parse(const std::vector<std::string>& args, const std::set<std::string>& known,
                             const std::set<std::string>& switches = {});
  Flags() = default;

  bool Has(const std::string& name) const { return values_.count(name) > 0; }
  Result<std::string> String(const std::string& name) const;  // required
  std::string StringOr(const std::string& name, const std::string& fallback) const;
  Result<double> Double(const std::string& name, double fallback) const;
  Result<std::uint64_t> Unsigned(const std::string& name, std::uint64_t fallback) const;
  // Comma-separated lists ("0.5,1,2"; "inf" is a number). Empty items are errors.
  Result<std::vector<std::string>> StringList(const std::string& name, const std::vector<std::string>& fallback) const;
  Result<std::vector<double>> DoubleList(const std::string& name, const std::vector<double>& fallback) const;

 private:
  std::map<std::string, std::string> values_;
};

// Peak resident set size of this process in MiB (from /proc/self/status).
double PeakRssMb();

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_UTIL_FLAGS_H_
