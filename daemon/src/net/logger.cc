#include "net/logger.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <unistd.h>

namespace ldpgraph {
namespace {

const char* LevelName(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug: return "debug";
    case LogLevel::kInfo: return "info";
    case LogLevel::kWarning: return "warning";
    case LogLevel::kError: return "error";
  }
  return "info";
}

// RFC 3339 UTC with milliseconds.
std::string Timestamp() {
  const auto now = std::chrono::system_clock::now();
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  const long millis =
      static_cast<long>(std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, millis);
  return buf;
}

}  // namespace

namespace {

// The length of the well-formed UTF-8 sequence at text[i] (RFC 3629: no
// overlong forms, no surrogates, nothing above U+10FFFF), or 0.
std::size_t Utf8SequenceAt(const std::string& text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = byte(i);
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // the range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    length = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    length = 3;
    if (c == 0xE0) low = 0xA0;
    if (c == 0xED) high = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    length = 4;
    if (c == 0xF0) low = 0x90;
    if (c == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (i + length > text.size() || byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (std::size_t k = 2; k < length; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  return length;
}

}  // namespace

std::string JsonQuote(const std::string& text) {
  std::string out = "\"";
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", c);
          out += buf;
        } else if (c < 0x80) {
          out.push_back(static_cast<char>(c));
        } else if (const std::size_t length = Utf8SequenceAt(text, i)) {
          out.append(text, i, length);
          i += length - 1;
        } else {
          out += "\\ufffd";  // a byte that is not UTF-8 (raw request bytes): the replacement character
        }
    }
  }
  return out + "\"";
}

Logger::Logger(const std::string& format, const std::string& level) {
  json_ = format == "json" || (format != "text" && !::isatty(STDERR_FILENO));
  if (level == "debug") min_level_ = LogLevel::kDebug;
  if (level == "warning") min_level_ = LogLevel::kWarning;
  if (level == "error") min_level_ = LogLevel::kError;
}

void Logger::Log(LogLevel level, const char* event, std::initializer_list<Field> fields) {
  if (level < min_level_) return;
  std::string line;
  if (json_) {
    line = "{\"time\":" + JsonQuote(Timestamp()) + ",\"level\":\"" + LevelName(level) + "\",\"event\":" +
           JsonQuote(event);
    for (const Field& f : fields) line += std::string(",") + JsonQuote(f.first) + ":" + JsonQuote(f.second);
    line += "}\n";
  } else {
    line = Timestamp() + " " + LevelName(level) + " " + event;
    for (const Field& f : fields) line += std::string(" ") + f.first + "=" + f.second;
    line += "\n";
  }
  std::lock_guard<std::mutex> lock(mu_);
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
}

}  // namespace ldpgraph
