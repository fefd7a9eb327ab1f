#include "util/flag_reader.h"

#include <cmath>
#include <cstdio>

namespace ldpgraph {
namespace {

std::string Shown(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

}  // namespace

bool FlagReader::Fail(const Status& s) {
  if (status_.ok()) status_ = s;
  return false;
}

bool FlagReader::Whole(const std::string& name, std::int64_t min, std::int64_t max, std::int64_t* value) {
  if (!status_.ok() || !flags_.Has(name)) return false;
  const std::string range = std::to_string(min) + " to " + std::to_string(max);
  Result<double> v = flags_.Double(name, 0);
  if (!v.ok() || !(*v == std::floor(*v)) || *v < static_cast<double>(min) || *v > static_cast<double>(max)) {
    return Fail(Status::InvalidArgument("--" + name + " takes a whole number from " + range + ", got '" +
                                        flags_.StringOr(name, "") + "'"));
  }
  *value = static_cast<std::int64_t>(*v);
  return true;
}

FlagReader& FlagReader::Int(const std::string& name, int* out, std::int64_t min, std::int64_t max) {
  std::int64_t v = 0;
  if (Whole(name, min, max, &v)) *out = static_cast<int>(v);
  return *this;
}

FlagReader& FlagReader::Unsigned(const std::string& name, std::uint32_t* out, std::uint64_t min, std::uint64_t max) {
  std::int64_t v = 0;
  if (Whole(name, static_cast<std::int64_t>(min), static_cast<std::int64_t>(max), &v)) {
    *out = static_cast<std::uint32_t>(v);
  }
  return *this;
}

FlagReader& FlagReader::Unsigned(const std::string& name, std::uint64_t* out, std::uint64_t min, std::uint64_t max) {
  if (!status_.ok() || !flags_.Has(name)) return *this;
  Result<std::uint64_t> v = flags_.Unsigned(name, 0);  // exact for 64-bit digits
  if (!v.ok() || *v < min || *v > max) {
    Fail(Status::InvalidArgument("--" + name + " takes a whole number from " + std::to_string(min) + " to " +
                                 std::to_string(max) + ", got '" + flags_.StringOr(name, "") + "'"));
    return *this;
  }
  *out = *v;
  return *this;
}

FlagReader& FlagReader::Double(const std::string& name, double* out, double min, double max) {
  if (!status_.ok() || !flags_.Has(name)) return *this;
  Result<double> v = flags_.Double(name, 0);
  if (!v.ok()) {
    Fail(v.status());
  } else if (!(*v >= min && *v <= max)) {
    Fail(Status::InvalidArgument("--" + name + " takes a number from " + Shown(min) + " to " +
                                 Shown(max) + ", got '" + flags_.StringOr(name, "") + "'"));
  } else {
    *out = *v;
  }
  return *this;
}

FlagReader& FlagReader::Fraction(const std::string& name, double* out) {
  if (!status_.ok() || !flags_.Has(name)) return *this;
  Result<double> v = flags_.Double(name, 0);
  if (!v.ok() || !(*v >= 0 && *v < 1)) {
    Fail(Status::InvalidArgument("--" + name + " takes a number in [0, 1), got '" + flags_.StringOr(name, "") + "'"));
  } else {
    *out = *v;
  }
  return *this;
}

FlagReader& FlagReader::Fraction(const std::string& name, float* out) {
  double v = *out;
  Fraction(name, &v);
  *out = static_cast<float>(v);
  return *this;
}

FlagReader& FlagReader::Choice(const std::string& name, std::string* out, std::initializer_list<const char*> choices) {
  if (!status_.ok() || !flags_.Has(name)) return *this;
  const std::string value = flags_.StringOr(name, "");
  std::string listed;
  for (const char* c : choices) {
    if (value == c) {
      *out = value;
      return *this;
    }
    listed += (listed.empty() ? "" : ", ") + std::string(c);
  }
  Fail(Status::InvalidArgument("--" + name + " takes one of " + listed + ", got '" + value + "'"));
  return *this;
}

FlagReader& FlagReader::Switch(const std::string& name, bool* out, const char* yes, const char* no) {
  std::string value;
  Choice(name, &value, {yes, no});
  if (!value.empty()) *out = value == yes;
  return *this;
}

FlagReader& FlagReader::Strings(const std::string& name, std::vector<std::string>* out) {
  if (!status_.ok() || !flags_.Has(name)) return *this;
  Result<std::vector<std::string>> v = flags_.StringList(name, {});
  if (v.ok()) {
    *out = std::move(v).value();
  } else {
    Fail(v.status());
  }
  return *this;
}

FlagReader& FlagReader::Doubles(const std::string& name, std::vector<double>* out) {
  if (!status_.ok() || !flags_.Has(name)) return *this;
  Result<std::vector<double>> v = flags_.DoubleList(name, {});
  if (v.ok()) {
    *out = std::move(v).value();
  } else {
    Fail(v.status());
  }
  return *this;
}

bool FlagReader::WholeList(const std::string& name, std::int64_t min, std::int64_t max,
                           std::vector<std::int64_t>* values) {
  std::vector<double> listed;
  Doubles(name, &listed);
  if (!status_.ok() || !flags_.Has(name)) return false;
  for (double v : listed) {
    if (!(v == std::floor(v)) || v < static_cast<double>(min) || v > static_cast<double>(max)) {
      return Fail(Status::InvalidArgument("--" + name + " takes whole numbers from " + std::to_string(min) + " to " +
                                          std::to_string(max) + ", got '" + flags_.StringOr(name, "") + "'"));
    }
    values->push_back(static_cast<std::int64_t>(v));
  }
  return true;
}

FlagReader& FlagReader::Ints(const std::string& name, std::vector<int>* out, std::int64_t min, std::int64_t max) {
  std::vector<std::int64_t> v;
  if (WholeList(name, min, max, &v)) out->assign(v.begin(), v.end());
  return *this;
}

FlagReader& FlagReader::Ints(const std::string& name, std::vector<std::uint32_t>* out, std::uint64_t min,
                             std::uint64_t max) {
  std::vector<std::int64_t> v;
  if (WholeList(name, static_cast<std::int64_t>(min), static_cast<std::int64_t>(max), &v)) {
    out->assign(v.begin(), v.end());
  }
  return *this;
}

FlagReader& FlagReader::String(const std::string& name, std::string* out) {
  if (status_.ok() && flags_.Has(name)) *out = flags_.StringOr(name, "");
  return *this;
}

FlagReader& FlagReader::Required(const std::string& name, std::string* out) {
  if (!status_.ok()) return *this;
  Result<std::string> v = flags_.String(name);
  if (v.ok()) {
    *out = std::move(v).value();
  } else {
    Fail(v.status());
  }
  return *this;
}

}  // namespace ldpgraph
