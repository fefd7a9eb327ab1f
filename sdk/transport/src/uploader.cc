#include "ldpgraph/transport/uploader.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "ldpgraph/graph_config_codec.h"
#include "ldpgraph/samplers.h"

namespace ldpgraph {
namespace transport {
namespace {

using Clock = std::chrono::steady_clock;

bool Retryable(int status) { return status == 408 || status == 429 || status >= 500; }

}  // namespace

Result<std::unique_ptr<Uploader>> Uploader::Create(const UploaderOptions& options, RandomSource* jitter) {
  if (options.retry.initial_backoff_ms == 0 || options.retry.max_backoff_ms < options.retry.initial_backoff_ms) {
    return Status::InvalidArgument("retry policy: need 0 < initial_backoff_ms <= max_backoff_ms");
  }
  std::unique_ptr<Uploader> u(new Uploader());
  u->options_ = options;
  auto client = HttpsClient::Create(options.server);
  if (!client.ok()) return client.status();
  u->client_ = std::move(*client);
  if (jitter) {
    u->jitter_ = jitter;
  } else {
    auto os = OsRandomSource::Create();
    if (!os.ok()) return os.status();
    u->own_jitter_ = std::move(*os);
    u->jitter_ = u->own_jitter_.get();
  }
  if (!options.queue_dir.empty()) {
    auto queue = UploadQueue::Open(options.queue_dir, options.max_queued_reports, options.max_queued_bytes);
    if (!queue.ok()) return queue.status();
    u->queue_ = std::move(*queue);
    u->has_queue_ = true;
  }
  return u;
}

unsigned Uploader::BackoffMs(unsigned attempt) {
  const double cap = std::min<double>(options_.retry.max_backoff_ms,
                                      static_cast<double>(options_.retry.initial_backoff_ms) *
                                          static_cast<double>(1ull << std::min(attempt, 30u)));
  return static_cast<unsigned>(UniformUnit(*jitter_) * cap);  // full jitter
}

Result<SendOutcome> Uploader::Send(const std::string& token, const std::vector<std::uint8_t>& report) {
  return WithRetries("POST", "/v1/reports", std::string(report.begin(), report.end()), token, "");
}

Result<GraphConfig> Uploader::FetchGraphConfig(std::uint64_t graph_id) {
  auto answer = WithRetries("GET", "/v1/graphs/" + std::to_string(graph_id), "", "", kGraphConfigMediaType);
  if (!answer.ok()) return answer.status();
  if (answer->http_status == 404) {
    return Status::FailedPrecondition("the daemon has no graph " + std::to_string(graph_id));
  }
  if (!answer->delivered) {
    return Status::FailedPrecondition("graph " + std::to_string(graph_id) + ": HTTP " +
                                      std::to_string(answer->http_status) + " " + answer->body);
  }
  return DecodeGraphConfig(reinterpret_cast<const std::uint8_t*>(answer->body.data()), answer->body.size());
}

Result<SendOutcome> Uploader::WithRetries(const std::string& method, const std::string& path,
                                          const std::string& body, const std::string& token,
                                          const std::string& accept) {
  const std::string content_type = body.empty() ? "" : "application/x-ldpgraph-report";
  const auto start = Clock::now();
  const auto budget = std::chrono::milliseconds(options_.retry.max_total_ms);
  SendOutcome outcome;
  std::string last_error;
  for (unsigned attempt = 0;; ++attempt) {
    ++outcome.attempts;
    auto answer = client_->Request(method, path, content_type, body, token, accept);
    unsigned retry_after_ms = 0;
    if (answer.ok()) {
      outcome.http_status = answer->status;
      outcome.body = answer->body;
      if (answer->status == 200) {
        outcome.delivered = true;
        return outcome;
      }
      if (!Retryable(answer->status)) return outcome;  // refused for good
      retry_after_ms = answer->retry_after_seconds * 1000;
      last_error = "HTTP " + std::to_string(answer->status) + " " + answer->body;
    } else if (answer.status().code() == StatusCode::kFailedPrecondition) {
      return answer.status();  // the certificate: retrying cannot help
    } else {
      last_error = answer.status().message();
    }
    const auto wait = std::chrono::milliseconds(std::max(BackoffMs(attempt), retry_after_ms));
    if (Clock::now() - start + wait > budget) {
      return Status::Unavailable("gave up after " + std::to_string(outcome.attempts) + " attempts: " + last_error);
    }
    std::this_thread::sleep_for(wait);
  }
}

Status Uploader::Enqueue(const std::string& token, const std::vector<std::uint8_t>& report) {
  if (!has_queue_) return Status::FailedPrecondition("the uploader has no queue directory");
  return queue_.Push(token, report);
}

Result<FlushSummary> Uploader::Flush() {
  if (!has_queue_) return Status::FailedPrecondition("the uploader has no queue directory");
  FlushSummary summary;
  // Copy the names: Remove() changes the list.
  std::vector<QueuedReport> items = queue_.items();
  for (const QueuedReport& item : items) {
    auto sent = Send(item.token, item.report);
    if (!sent.ok()) {
      if (sent.status().code() == StatusCode::kFailedPrecondition) return sent.status();
      break;  // the daemon stays unreachable: keep the rest for the next flush
    }
    LDPGRAPH_RETURN_IF_ERROR(queue_.Remove(item.file));
    if (sent->delivered) {
      ++summary.delivered;
    } else {
      ++summary.refused;
      summary.refusals.push_back(std::move(*sent));
    }
  }
  summary.remaining = queue_.size();
  return summary;
}

}  // namespace transport
}  // namespace ldpgraph
