// Logger: structured log lines on stderr. JSON lines (one object per line,
// for journald and log shippers) when stderr is not a terminal or the config
// says json; "time level event key=value ..." for a person otherwise.
#ifndef LDPGRAPH_DAEMON_NET_LOGGER_H_
#define LDPGRAPH_DAEMON_NET_LOGGER_H_

#include <initializer_list>
#include <mutex>
#include <string>
#include <utility>

namespace ldpgraph {

enum class LogLevel { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3 };

class Logger {
 public:
  using Field = std::pair<const char*, std::string>;

  // format: "auto", "json" or "text"; level: "debug", "info", "warning", "error".
  Logger(const std::string& format, const std::string& level);

  void Log(LogLevel level, const char* event, std::initializer_list<Field> fields = {});
  void Info(const char* event, std::initializer_list<Field> fields = {}) { Log(LogLevel::kInfo, event, fields); }
  void Warning(const char* event, std::initializer_list<Field> fields = {}) {
    Log(LogLevel::kWarning, event, fields);
  }
  void Error(const char* event, std::initializer_list<Field> fields = {}) { Log(LogLevel::kError, event, fields); }

 private:
  bool json_ = true;
  LogLevel min_level_ = LogLevel::kInfo;
  std::mutex mu_;
};

// JSON string escaping (quotes included). Bytes that are not well-formed
// UTF-8 (raw request bytes quoted in an error) become U+FFFD, so the result
// is valid JSON whatever `text` holds.
std::string JsonQuote(const std::string& text);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_NET_LOGGER_H_
