#include "net/storage_failure.h"

#include <atomic>
#include <chrono>

#include "net/json_response.h"

namespace ldpgraph {
namespace {

std::atomic<std::uint64_t> storage_failures{0};

}  // namespace

void CountStorageFailure() { storage_failures.fetch_add(1, std::memory_order_relaxed); }

std::uint64_t StorageFailures() { return storage_failures.load(std::memory_order_relaxed); }

std::string ReportStorageFailure(Logger* logger, const std::string& what, const Status& status) {
  CountStorageFailure();
  static std::atomic<std::int64_t> last_logged{0};
  static std::atomic<std::uint64_t> unlogged{0};
  const std::int64_t now = std::chrono::duration_cast<std::chrono::seconds>(
                               std::chrono::steady_clock::now().time_since_epoch())
                               .count();
  std::int64_t last = last_logged.load();
  if (now > last && last_logged.compare_exchange_strong(last, now)) {
    logger->Error("storage_write_failed", {{"what", what},
                                           {"error", status.message()},
                                           {"unlogged_since_last", std::to_string(unlogged.exchange(0))}});
  } else {
    unlogged.fetch_add(1);
  }
  // The OS's reason ends the message ("cannot write /x/7.graph.tmp: No space left on device").
  const std::string& message = status.message();
  const std::size_t colon = message.rfind(": ");
  const std::string reason = colon == std::string::npos ? "the write failed" : message.substr(colon + 2);
  return what + " could not be stored: " + reason + " (the daemon's log has the details)";
}

HttpResponse StorageFailureResponse(Logger* logger, const std::string& what, const Status& status) {
  HttpResponse r = ErrorResponse(503, "unavailable", ReportStorageFailure(logger, what, status));
  r.headers.emplace_back("Retry-After", "60");
  return r;
}

}  // namespace ldpgraph
