// Uploader: delivers reports to ldpgraphd so that each counts exactly once.
//   - retries 5xx, 408, 429 and network failures with exponential backoff
//     and full jitter (sleep ~ U(0, min(cap, base * 2^attempt))), waiting at
//     least what Retry-After asks, and gives up after a total time cap;
//   - a report is resent byte for byte (same report id), so the daemon's
//     idempotency turns a retry after a lost answer into "duplicate";
//   - Enqueue() keeps a report on disk until it is delivered or refused for
//     good, across app restarts; Flush() sends what is queued, oldest first.
// Not thread-safe: one uploader per thread (each holds one connection).
#ifndef LDPGRAPH_TRANSPORT_UPLOADER_H_
#define LDPGRAPH_TRANSPORT_UPLOADER_H_

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "ldpgraph/device_result.h"
#include "ldpgraph/graph_config.h"
#include "ldpgraph/random_source.h"
#include "ldpgraph/transport/https_client.h"
#include "ldpgraph/transport/upload_queue.h"

namespace ldpgraph {
namespace transport {

struct RetryPolicy {
  std::uint32_t initial_backoff_ms = 200;
  std::uint32_t max_backoff_ms = 30000;
  std::uint32_t max_total_ms = 120000;  // across all attempts of one report
};

struct UploaderOptions {
  ServerEndpoint server;
  RetryPolicy retry;
  std::string queue_dir;  // empty: no on-disk queue (Send() only)
  std::size_t max_queued_reports = 1024;
  std::size_t max_queued_bytes = 16u << 20;
};

struct SendOutcome {
  bool delivered = false;  // 200: stored now or earlier (duplicate)
  int http_status = 0;     // the final answer's status
  std::string body;        // the final answer's JSON
  std::vector<std::pair<std::string, std::string>> headers;  // the final answer's (HttpAnswer::headers)
  unsigned attempts = 0;
  std::chrono::steady_clock::time_point answered;  // when the final answer arrived
};

struct OutgoingReport {
  std::string token;                 // the user token to send it with
  std::vector<std::uint8_t> report;  // wire bytes
};

struct FlushSummary {
  std::size_t delivered = 0;
  std::size_t refused = 0;    // permanently refused (4xx): removed from the queue
  std::size_t remaining = 0;  // still queued: the retry budget ran out
  std::vector<SendOutcome> refusals;
};

class Uploader {
 public:
  // `jitter` (optional, not owned) draws the backoff; default: the OS CSPRNG.
  // Errors: those of HttpsClient::Create and UploadQueue::Open.
  static Result<std::unique_ptr<Uploader>> Create(const UploaderOptions& options, RandomSource* jitter = nullptr);

  // Sends now, retrying as the policy allows. A permanent refusal (4xx other
  // than 408/429) is a SendOutcome with delivered = false, not an error.
  // Errors: kUnavailable when the retry budget ran out, kFailedPrecondition
  // when the server's certificate does not verify.
  Result<SendOutcome> Send(const std::string& token, const std::vector<std::uint8_t>& report);

  // Sends many reports, `window` (at most 64) at a time pipelined on the one connection
  // (one round trip per window instead of one per report), each with
  // Send()'s retry policy; the daemon commits a window's reports together.
  // results[i] is reports[i]'s outcome or error, as Send() gives them.
  std::vector<Result<SendOutcome>> SendMany(const std::vector<OutgoingReport>& reports, std::size_t window = 16);

  // Durably queues a report. Errors: kFailedPrecondition without a queue
  // directory, and UploadQueue::Push's.
  Status Enqueue(const std::string& token, const std::vector<std::uint8_t>& report);
  // Sends the queue, oldest first, `window` reports pipelined at a time (as
  // SendMany); a report whose retry budget runs out stays queued. Errors:
  // kFailedPrecondition (certificate, no queue).
  Result<FlushSummary> Flush(std::size_t window = 16);

  std::size_t queued() const { return queue_.size(); }
  std::size_t corrupt_queue_files() const { return queue_.corrupt_files(); }
  std::uint64_t handshakes() const { return client_->handshakes(); }
  // The graph's public configuration (binary, decoded and validated), with
  // the same retries as Send(); `open_round`, when given, gets the round the
  // daemon takes reports of now (its Ldpgraph-Round header; 0 for a graph
  // collected once), the round to pass BudgetLedger::ReportRound. Errors:
  // kFailedPrecondition for an unknown graph or certificate trouble,
  // kUnavailable when retries ran out, kInvalidArgument when the daemon's
  // answer does not decode.
  Result<GraphConfig> FetchGraphConfig(std::uint64_t graph_id, std::uint32_t* open_round = nullptr);
  // The round the daemon takes reports of now for graph `graph_id` (0 for a
  // graph collected once): the open round, as C (ldpgraph_uploader_fetch_open_round)
  // and Java (fetchOpenRound) name it. One request, FetchGraphConfig's; when
  // the device needs the configuration too, FetchGraphConfig's `open_round`
  // gives both at once. Errors: FetchGraphConfig's.
  Result<std::uint32_t> FetchOpenRound(std::uint64_t graph_id);
  // What the latest model covering graph `graph_id` says about the user
  // `user_token` belongs to (her class, or her graph's), with the same
  // retries as Send(): the daemon reads whose result from the token, never
  // from a parameter. Errors: kFailedPrecondition while no model covers her
  // yet (the message says so), for a token the daemon refuses or an unknown
  // graph; kUnavailable when retries ran out; kInvalidArgument when the
  // answer does not decode.
  Result<DeviceResult> FetchResult(std::uint64_t graph_id, const std::string& user_token);

 private:
  Uploader() = default;
  unsigned BackoffMs(unsigned attempt);
  // Requests with the retry policy, `window` pipelined at a time: each
  // one's final answer (2xx or a final 4xx), or kUnavailable when its budget
  // ran out (then the requests after it are not sent).
  std::vector<Result<SendOutcome>> PipelinedWithRetries(const std::vector<HttpRequestSpec>& requests,
                                                        std::size_t window);

  UploaderOptions options_;
  std::unique_ptr<HttpsClient> client_;
  std::unique_ptr<RandomSource> own_jitter_;
  RandomSource* jitter_ = nullptr;
  bool has_queue_ = false;
  UploadQueue queue_;
};

}  // namespace transport
}  // namespace ldpgraph

#endif  // LDPGRAPH_TRANSPORT_UPLOADER_H_
