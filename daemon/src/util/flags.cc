#include "util/flags.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>

namespace ldpgraph {

Result<Flags> Flags::Parse(const std::vector<std::string>& args, const std::set<std::string>& known,
                           const std::set<std::string>& switches) {
  Flags f;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.size() < 3 || a.compare(0, 2, "--") != 0) {
      return Status::InvalidArgument("unexpected argument '" + a + "' (options start with --)");
    }
    std::string name = a.substr(2), value;
    const std::size_t eq = name.find('=');
    const bool inline_value = eq != std::string::npos;
    if (inline_value) {
      value = name.substr(eq + 1);
      name.resize(eq);
    }
    if (!known.count(name) && !switches.count(name)) {
      return Status::InvalidArgument("unknown option --" + name);
    }
    if (switches.count(name)) {
      if (inline_value) return Status::InvalidArgument("--" + name + " takes no value");
      value = "1";
    } else if (!inline_value) {
      if (i + 1 >= args.size()) return Status::InvalidArgument("--" + name + " needs a value");
      value = args[++i];
    }
    if (!f.values_.emplace(name, value).second) {
      return Status::InvalidArgument("--" + name + " given twice");
    }
  }
  return f;
}

Result<std::string> Flags::String(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return Status::InvalidArgument("--" + name + " is required");
  return it->second;
}

std::string Flags::StringOr(const std::string& name, const std::string& fallback) const {
  auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

Result<double> Flags::Double(const std::string& name, double fallback) const {
  auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  const std::string& s = it->second;
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || *end != '\0' || errno == ERANGE) {
    return Status::InvalidArgument("--" + name + " expects a number, got '" + s + "'");
  }
  return v;
}

Result<std::uint64_t> Flags::Unsigned(const std::string& name, std::uint64_t fallback) const {
  auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  const std::string& text = it->second;
  const Status bad = Status::InvalidArgument("--" + name + " expects a non-negative integer, got '" + text + "'");
  // Digits alone are read exactly: a seed may be any 64-bit number, past
  // what a double holds.
  if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos) {
    errno = 0;
    const unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
    if (errno == ERANGE) return bad;
    return static_cast<std::uint64_t>(v);
  }
  // Otherwise read as a number, so 1e6-style counts work too: they are
  // common on benchmark command lines.
  const Result<double> v = Double(name, 0);
  if (!v.ok() || !(*v >= 0) || *v != std::floor(*v) || *v > 1.8e19) return bad;
  return static_cast<std::uint64_t>(*v);
}

Result<std::vector<std::string>> Flags::StringList(const std::string& name,
                                                  const std::vector<std::string>& fallback) const {
  auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  std::vector<std::string> items;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = it->second.find(',', start);
    items.push_back(it->second.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (items.back().empty()) return Status::InvalidArgument("--" + name + " has an empty item in '" + it->second + "'");
    if (comma == std::string::npos) return items;
    start = comma + 1;
  }
}

Result<std::vector<double>> Flags::DoubleList(const std::string& name, const std::vector<double>& fallback) const {
  Result<std::vector<std::string>> items = StringList(name, {});
  if (!items.ok()) return items.status();
  if (!Has(name)) return fallback;
  std::vector<double> out;
  for (const std::string& item : *items) {
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(item.c_str(), &end);
    if (*end != '\0' || errno == ERANGE || std::isnan(v)) {
      return Status::InvalidArgument("--" + name + " expects numbers, got '" + item + "'");
    }
    out.push_back(v);
  }
  return out;
}

double PeakRssMb() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.compare(0, 6, "VmHWM:") == 0) return std::atof(line.c_str() + 6) / 1024.0;
  }
  return 0.0;
}

}  // namespace ldpgraph
