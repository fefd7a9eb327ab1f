// TextReader: reads a text file line by line and parses integers, keeping
// the file name and line number for every error message.
#ifndef LDPGRAPH_DAEMON_DATASET_TEXT_READER_H_
#define LDPGRAPH_DAEMON_DATASET_TEXT_READER_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "ldpgraph/status.h"

namespace ldpgraph {

class TextReader {
 public:
  // Loads the whole file. Errors: kUnavailable if it cannot be read.
  static Result<TextReader> Open(const std::string& path);
  TextReader() = default;  // only for Result<>

  // The next line without its end-of-line; false at the end of the file.
  bool NextLine(std::string_view* line);
  std::size_t line_number() const { return line_; }
  const std::string& path() const { return path_; }

  // "PATH:LINE: message" as an invalid_argument error.
  Status Error(const std::string& message) const;

 private:
  std::string path_;
  std::string data_;
  std::size_t pos_ = 0;
  std::size_t line_ = 0;
};

// Splits off the next integer of `text` after spaces or tabs; it must end at
// a space, tab, comma or the end. False if there is none, it does not parse
// or it does not fit in int64.
bool NextInt(std::string_view* text, std::int64_t* value);
// Skips spaces and one required `sep` character; false if `sep` is missing.
bool SkipSeparator(std::string_view* text, char sep);
// True if only whitespace is left.
bool OnlySpace(std::string_view text);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_DATASET_TEXT_READER_H_
