#include "dataset/text_reader.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <sstream>

namespace ldpgraph {

Result<TextReader> TextReader::Open(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Unavailable("cannot open " + path + ": " + std::strerror(errno));
  std::ostringstream buf;
  buf << in.rdbuf();
  if (in.bad()) return Status::Unavailable("cannot read " + path);
  TextReader r;
  r.path_ = path;
  r.data_ = buf.str();
  return r;
}

bool TextReader::NextLine(std::string_view* line) {
  if (pos_ >= data_.size()) return false;
  std::size_t end = data_.find('\n', pos_);
  if (end == std::string::npos) end = data_.size();
  std::size_t stop = end;
  if (stop > pos_ && data_[stop - 1] == '\r') --stop;
  *line = std::string_view(data_.data() + pos_, stop - pos_);
  pos_ = end + 1;
  ++line_;
  return true;
}

Status TextReader::Error(const std::string& message) const {
  return Status::InvalidArgument(path_ + ":" + std::to_string(line_) + ": " + message);
}

bool SkipSeparator(std::string_view* text, char sep) {
  std::size_t i = 0;
  while (i < text->size() && ((*text)[i] == ' ' || (*text)[i] == '\t')) ++i;
  if (i >= text->size() || (*text)[i] != sep) return false;
  text->remove_prefix(i + 1);
  return true;
}

bool NextInt(std::string_view* text, std::int64_t* value) {
  std::size_t i = 0;
  while (i < text->size() && ((*text)[i] == ' ' || (*text)[i] == '\t')) ++i;
  const char* begin = text->data() + i;
  const char* end = text->data() + text->size();
  auto [ptr, ec] = std::from_chars(begin, end, *value);
  if (ec != std::errc() || ptr == begin) return false;
  if (ptr != end && *ptr != ' ' && *ptr != '\t' && *ptr != ',') return false;
  text->remove_prefix(static_cast<std::size_t>(ptr - text->data()));
  return true;
}

bool OnlySpace(std::string_view text) {
  for (char c : text) {
    if (c != ' ' && c != '\t') return false;
  }
  return true;
}

}  // namespace ldpgraph
