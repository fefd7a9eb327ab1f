// RefusalLog: the audit trail of refused requests (bad tokens, forbidden
// uploads, duplicates, policy mismatches, rate limits, malformed requests),
// one log line each with the client's address, the request's method and
// path, the status and the reason code. Never the token, the query or any
// byte of the body: the trail must be safe to ship to a log server.
//
// A flood of refusals must not become a flood of log lines (the disk fills,
// the journal drops the lines that matter), so at most `lines_per_second`
// are written per second; the rest are counted and their number logged by
// Flush(), which the server calls every second.
#ifndef LDPGRAPH_DAEMON_NET_REFUSAL_LOG_H_
#define LDPGRAPH_DAEMON_NET_REFUSAL_LOG_H_

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string_view>

#include "net/logger.h"

namespace ldpgraph {

class RefusalLog {
 public:
  // lines_per_second 0: no trail at all.
  RefusalLog(Logger* logger, std::uint32_t lines_per_second);

  // Whether a response with this status is part of the trail: every 4xx
  // the client caused except 404 and 405 (scanners), and 501.
  static bool Audited(int status);

  // `target` is cut at its query and at 200 bytes; `reason` is the API's
  // error code ("unauthenticated", "rate_limited", ...).
  void Refused(int status, std::string_view remote, std::string_view method, std::string_view target,
               std::string_view reason);
  // A connection closed unserved (`reason`: "max_connections",
  // "max_connections_per_address"), under the same limit.
  void ConnectionRefused(std::string_view remote, std::string_view reason);
  // A TLS handshake that failed on a listener that requires client
  // certificates (none sent, one of another CA, a timeout), under the same
  // limit: on such a listener a failed handshake is someone knocking.
  void HandshakeFailed(std::string_view remote, std::string_view reason);
  // Logs how many refusals the limit left out since the last Flush, if any.
  void Flush();

 private:
  using Clock = std::chrono::steady_clock;
  bool Admit();  // false: over this second's lines, counted instead

  Logger* logger_;
  std::uint32_t lines_per_second_;
  std::mutex mu_;
  Clock::time_point window_start_{};
  std::uint32_t lines_in_window_ = 0;
  std::uint64_t unlogged_ = 0;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_NET_REFUSAL_LOG_H_
