#include "ldpgraph/transport/uploader.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <deque>
#include <string>
#include <thread>

#include "ldpgraph/graph_config_codec.h"
#include "ldpgraph/samplers.h"

namespace ldpgraph {
namespace transport {
namespace {

using Clock = std::chrono::steady_clock;

bool Retryable(int status) { return status == 408 || status == 429 || status >= 500; }

constexpr char kReportMediaType[] = "application/x-ldpgraph-report";

// A window's answers (about 150 bytes each) must fit the receive buffer while
// the window is still being written: a daemon that reads ahead less than a
// window answers the first requests before it reads the last, and a client
// blocked in its write never reads them.
constexpr std::size_t kMaxWindow = 64;

HttpRequestSpec ReportRequest(const std::string& token, const std::vector<std::uint8_t>& report) {
  return {"POST", "/v1/reports", kReportMediaType, std::string(report.begin(), report.end()), token, ""};
}

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
  return std::move(PipelinedWithRetries({ReportRequest(token, report)}, 1).front());
}

std::vector<Result<SendOutcome>> Uploader::SendMany(const std::vector<OutgoingReport>& reports, std::size_t window) {
  std::vector<HttpRequestSpec> requests;
  requests.reserve(reports.size());
  for (const OutgoingReport& r : reports) requests.push_back(ReportRequest(r.token, r.report));
  return PipelinedWithRetries(requests, window);
}

Result<GraphConfig> Uploader::FetchGraphConfig(std::uint64_t graph_id, std::uint32_t* open_round) {
  auto answer = std::move(
      PipelinedWithRetries({{"GET", "/v1/graphs/" + std::to_string(graph_id), "", "", "", kGraphConfigMediaType}}, 1)
          .front());
  if (!answer.ok()) return answer.status();
  if (answer->http_status == 404) {
    return Status::FailedPrecondition("the daemon has no graph " + std::to_string(graph_id));
  }
  if (!answer->delivered) {
    return Status::FailedPrecondition("graph " + std::to_string(graph_id) + ": HTTP " +
                                      std::to_string(answer->http_status) + " " + answer->body);
  }
  if (open_round != nullptr) {
    *open_round = 0;
    if (const std::string* round = FindHeader(answer->headers, "Ldpgraph-Round")) {
      char* end = nullptr;
      const unsigned long long r = std::strtoull(round->c_str(), &end, 10);
      if (round->empty() || *end != '\0' || r > 0xFFFFFFFFull) {
        return Status::InvalidArgument("graph " + std::to_string(graph_id) + ": a bad Ldpgraph-Round header '" +
                                       *round + "'");
      }
      *open_round = static_cast<std::uint32_t>(r);
    }
  }
  return DecodeGraphConfig(reinterpret_cast<const std::uint8_t*>(answer->body.data()), answer->body.size());
}

Result<std::uint32_t> Uploader::FetchOpenRound(std::uint64_t graph_id) {
  std::uint32_t open = 0;
  auto config = FetchGraphConfig(graph_id, &open);
  if (!config.ok()) return config.status();
  return open;
}

Result<DeviceResult> Uploader::FetchResult(std::uint64_t graph_id, const std::string& user_token) {
  const std::string path = "/v1/graphs/" + std::to_string(graph_id) + "/result";
  auto answer = std::move(PipelinedWithRetries({{"GET", path, "", "", user_token, kDeviceResultMediaType}}, 1).front());
  if (!answer.ok()) return answer.status();
  if (!answer->delivered) {
    return Status::FailedPrecondition("the result of graph " + std::to_string(graph_id) + ": HTTP " +
                                      std::to_string(answer->http_status) + " " + answer->body);
  }
  return DecodeDeviceResult(reinterpret_cast<const std::uint8_t*>(answer->body.data()), answer->body.size());
}

// Sends `window` requests at a time, pipelined; what is answered 2xx or a
// final 4xx is done, what failed or was asked to retry goes into the next
// window after a backoff (the longest Retry-After of the round, at least).
// Each request's time budget counts from its first attempt.
std::vector<Result<SendOutcome>> Uploader::PipelinedWithRetries(const std::vector<HttpRequestSpec>& requests,
                                                                std::size_t window) {
  window = std::clamp<std::size_t>(window, 1, kMaxWindow);
  std::vector<Result<SendOutcome>> results(requests.size(), Status::Unavailable("not sent"));
  std::vector<SendOutcome> outcomes(requests.size());
  std::vector<std::string> last_error(requests.size());
  std::vector<Clock::time_point> first_try(requests.size());
  const auto budget = std::chrono::milliseconds(options_.retry.max_total_ms);
  std::deque<std::size_t> pending;
  for (std::size_t i = 0; i < requests.size(); ++i) pending.push_back(i);
  unsigned failed_rounds = 0;  // in a row: the backoff's exponent
  while (!pending.empty()) {
    const std::size_t n = std::min(window, pending.size());
    std::vector<std::size_t> round(pending.begin(), pending.begin() + static_cast<std::ptrdiff_t>(n));
    pending.erase(pending.begin(), pending.begin() + static_cast<std::ptrdiff_t>(n));
    std::vector<HttpRequestSpec> batch;
    batch.reserve(n);
    const auto now = Clock::now();
    for (std::size_t i : round) {
      if (outcomes[i].attempts == 0) first_try[i] = now;
      ++outcomes[i].attempts;
      batch.push_back(requests[i]);
    }
    std::vector<Result<HttpAnswer>> answers = client_->Pipeline(batch);
    std::vector<std::size_t> again;
    unsigned retry_after_ms = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t i = round[k];
      SendOutcome& outcome = outcomes[i];
      if (answers[k].ok()) {
        outcome.http_status = answers[k]->status;
        outcome.body = std::move(answers[k]->body);
        outcome.headers = std::move(answers[k]->headers);
        outcome.answered = answers[k]->received;
        if (answers[k]->status == 200 || !Retryable(answers[k]->status)) {
          outcome.delivered = answers[k]->status == 200;
          results[i] = std::move(outcome);  // delivered, or refused for good
          continue;
        }
        retry_after_ms = std::max(retry_after_ms, answers[k]->retry_after_seconds * 1000);
        last_error[i] = "HTTP " + std::to_string(answers[k]->status) + " " + outcome.body;
      } else if (answers[k].status().code() == StatusCode::kFailedPrecondition) {
        results[i] = answers[k].status();  // the certificate: retrying cannot help
        continue;
      } else {
        last_error[i] = answers[k].status().message();
      }
      again.push_back(i);
    }
    if (again.empty()) {
      failed_rounds = 0;
      continue;
    }
    const auto wait = std::chrono::milliseconds(std::max(BackoffMs(failed_rounds++), retry_after_ms));
    const auto resume = Clock::now() + wait;
    // Retried first, before the requests not yet tried: oldest first.
    std::string gave_up;
    for (auto it = again.rbegin(); it != again.rend(); ++it) {
      if (resume - first_try[*it] > budget) {
        gave_up = "gave up after " + std::to_string(outcomes[*it].attempts) + " attempts: " + last_error[*it];
        results[*it] = Status::Unavailable(gave_up);
      } else {
        pending.push_front(*it);
      }
    }
    if (!gave_up.empty()) {
      // The daemon stays unreachable: the rest would each wait out a budget too.
      for (std::size_t i : pending) {
        results[i] = Status::Unavailable(outcomes[i].attempts == 0
                                             ? "not sent: an earlier request " + gave_up
                                             : "stopped after " + std::to_string(outcomes[i].attempts) +
                                                   " attempts, as an earlier request " + gave_up +
                                                   "; this one's last error: " + last_error[i]);
      }
      break;
    }
    if (!pending.empty()) std::this_thread::sleep_for(wait);
  }
  return results;
}

Status Uploader::Enqueue(const std::string& token, const std::vector<std::uint8_t>& report) {
  if (!has_queue_) return Status::FailedPrecondition("the uploader has no queue directory");
  return queue_.Push(token, report);
}

Result<FlushSummary> Uploader::Flush(std::size_t window) {
  if (!has_queue_) return Status::FailedPrecondition("the uploader has no queue directory");
  FlushSummary summary;
  // Copy the names: Remove() changes the list.
  std::vector<QueuedReport> items = queue_.items();
  std::vector<HttpRequestSpec> requests;
  requests.reserve(items.size());
  for (const QueuedReport& item : items) requests.push_back(ReportRequest(item.token, item.report));
  std::vector<Result<SendOutcome>> sent = PipelinedWithRetries(requests, window);
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (!sent[i].ok()) {
      if (sent[i].status().code() == StatusCode::kFailedPrecondition) return sent[i].status();
      continue;  // the daemon stays unreachable: kept for the next flush
    }
    LDPGRAPH_RETURN_IF_ERROR(queue_.Remove(items[i].file));
    if (sent[i]->delivered) {
      ++summary.delivered;
    } else {
      ++summary.refused;
      summary.refusals.push_back(std::move(*sent[i]));
    }
  }
  summary.remaining = queue_.size();
  return summary;
}

}  // namespace transport
}  // namespace ldpgraph
