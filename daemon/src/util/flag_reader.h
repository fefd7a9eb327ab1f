// FlagReader: reads a command's flags straight into the options they set,
// each checked against its range, and keeps the first bad one as the error.
// A command names each flag once, where it stores it, instead of reading it
// into a Result, checking the Result and copying it over:
//
//   FlagReader read(*flags);
//   read.Int("epochs", &o.train.max_epochs, 1, 100000).Doubles("epsilons", &o.epsilons);
//   if (!read.ok()) return Usage(read.status().message());
//
// A flag that is absent leaves its option as it was: the option's default.
#ifndef LDPGRAPH_DAEMON_UTIL_FLAG_READER_H_
#define LDPGRAPH_DAEMON_UTIL_FLAG_READER_H_

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "ldpgraph/status.h"
#include "util/flags.h"

namespace ldpgraph {

class FlagReader {
 public:
  explicit FlagReader(const Flags& flags) : flags_(flags) {}

  // Whole numbers in [min, max] ("1e6" reads as 1000000).
  FlagReader& Int(const std::string& name, int* out, std::int64_t min, std::int64_t max);
  FlagReader& Unsigned(const std::string& name, std::uint32_t* out, std::uint64_t min, std::uint64_t max);
  FlagReader& Unsigned(const std::string& name, std::uint64_t* out, std::uint64_t min, std::uint64_t max);
  // Numbers in [min, max]; NaN is refused.
  FlagReader& Double(const std::string& name, double* out, double min, double max);
  // Numbers in [0, 1), as dropout and weight decay take them.
  FlagReader& Fraction(const std::string& name, float* out);
  FlagReader& Fraction(const std::string& name, double* out);
  // One of `choices`, as written.
  FlagReader& Choice(const std::string& name, std::string* out, std::initializer_list<const char*> choices);
  // yes/no (or on/off, as `choices` name them: the first is true).
  FlagReader& Switch(const std::string& name, bool* out, const char* yes = "yes", const char* no = "no");
  // Comma-separated lists.
  FlagReader& Strings(const std::string& name, std::vector<std::string>* out);
  FlagReader& Doubles(const std::string& name, std::vector<double>* out);
  // Comma-separated whole numbers, each in [min, max].
  FlagReader& Ints(const std::string& name, std::vector<int>* out, std::int64_t min, std::int64_t max);
  FlagReader& Ints(const std::string& name, std::vector<std::uint32_t>* out, std::uint64_t min, std::uint64_t max);
  // Any text (a path, a connection string).
  FlagReader& String(const std::string& name, std::string* out);
  // A flag that must be given.
  FlagReader& Required(const std::string& name, std::string* out);

  bool ok() const { return status_.ok(); }
  // The first bad flag (kInvalidArgument, naming it), or OK.
  const Status& status() const { return status_; }

 private:
  // The flag as a whole number in [min, max], or false (absent, or an error recorded).
  bool Whole(const std::string& name, std::int64_t min, std::int64_t max, std::int64_t* value);
  bool Fail(const Status& s);
  // The list as whole numbers in [min, max], or false (absent, or an error recorded).
  bool WholeList(const std::string& name, std::int64_t min, std::int64_t max, std::vector<std::int64_t>* values);

  const Flags& flags_;
  Status status_;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_UTIL_FLAG_READER_H_
