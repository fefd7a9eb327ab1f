#include "net/refusal_log.h"

#include <algorithm>
#include <string>

namespace ldpgraph {

RefusalLog::RefusalLog(Logger* logger, std::uint32_t lines_per_second)
    : logger_(logger), lines_per_second_(lines_per_second) {}

bool RefusalLog::Audited(int status) {
  return (status >= 400 && status < 500 && status != 404 && status != 405) || status == 501;
}

void RefusalLog::Refused(int status, std::string_view remote, std::string_view method, std::string_view target,
                         std::string_view reason) {
  if (!Admit()) return;
  const std::string_view path = target.substr(0, std::min(target.find('?'), std::string_view::size_type{200}));
  logger_->Warning("request_refused", {{"status", std::to_string(status)},
                                       {"reason", std::string(reason)},
                                       {"remote", std::string(remote)},
                                       {"method", std::string(method.substr(0, 16))},
                                       {"path", std::string(path)}});
}

void RefusalLog::ConnectionRefused(std::string_view remote, std::string_view reason) {
  if (!Admit()) return;
  logger_->Warning("connection_refused", {{"reason", std::string(reason)}, {"remote", std::string(remote)}});
}

void RefusalLog::HandshakeFailed(std::string_view remote, std::string_view reason) {
  if (!Admit()) return;
  logger_->Warning("tls_handshake_failed",
                   {{"reason", std::string(reason.substr(0, 200))}, {"remote", std::string(remote)}});
}

bool RefusalLog::Admit() {
  if (lines_per_second_ == 0) return false;
  std::lock_guard<std::mutex> lock(mu_);
  const Clock::time_point now = Clock::now();
  if (now - window_start_ >= std::chrono::seconds(1)) {
    window_start_ = now;
    lines_in_window_ = 0;
  }
  if (lines_in_window_ >= lines_per_second_) {
    ++unlogged_;
    return false;
  }
  ++lines_in_window_;
  return true;
}

void RefusalLog::Flush() {
  std::uint64_t unlogged;
  {
    std::lock_guard<std::mutex> lock(mu_);
    unlogged = unlogged_;
    unlogged_ = 0;
  }
  if (unlogged > 0) logger_->Warning("requests_refused_unlogged", {{"count", std::to_string(unlogged)}});
}

}  // namespace ldpgraph
