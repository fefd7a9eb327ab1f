#include "api/report_ingest.h"

#include <cctype>
#include <memory>
#include <mutex>

#include "api/policy_check.h"
#include "ldpgraph/wire_format.h"
#include "net/json_response.h"
#include "net/storage_failure.h"
#include "net/token_authority.h"

namespace ldpgraph {
namespace {

struct ItemResult {
  int status = 200;
  std::string json;  // the item's answer object
  const char* reason = "";  // a refusal's code
};

int StatusOf(RejectReason reason) {
  switch (reason) {
    case RejectReason::kUnauthenticated: return 401;
    case RejectReason::kForbidden: return 403;
    case RejectReason::kTooLarge: return 413;
    case RejectReason::kMalformed: return 400;
    case RejectReason::kUnknownGraph: return 404;
    case RejectReason::kOutOfRange: return 400;
    case RejectReason::kPolicyMismatch: return 422;
    case RejectReason::kConflict: return 409;
    case RejectReason::kWrongRound: return 409;
    case RejectReason::kRateLimited: return 429;
    case RejectReason::kUnavailable: return 503;
    case RejectReason::kCount: break;
  }
  return 500;
}

ItemResult Rejected(ServiceContext& ctx, RejectReason reason, const std::string& message) {
  ctx.metrics.Reject(reason);
  return {StatusOf(reason), ErrorJson(RejectReasonName(reason), message), RejectReasonName(reason)};
}

ItemResult Accepted(ServiceContext& ctx, InsertOutcome outcome, const ReportId& id) {
  (outcome == InsertOutcome::kStored ? ctx.metrics.reports_stored : ctx.metrics.reports_duplicate).fetch_add(1);
  return {200, std::string("{\"outcome\":\"") + InsertOutcomeName(outcome) + "\",\"report_id\":\"" +
                   ReportIdToHex(id) + "\"}"};
}

// Collects the answers of a request's reports; the last one to arrive responds.
class Answer {
 public:
  Answer(std::size_t count, bool batch, Respond respond)
      : results_(count), remaining_(count), batch_(batch), respond_(std::move(respond)) {}

  void Set(std::size_t index, ItemResult result) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      results_[index] = std::move(result);
      if (--remaining_ != 0) return;
    }
    Send();
  }

 private:
  void Send() {
    if (!batch_) {
      HttpResponse response = JsonResponse(results_[0].status, results_[0].json);
      response.reason = results_[0].reason;
      respond_(std::move(response));
      return;
    }
    int status = results_[0].status;
    const char* reason = "";  // a batch's refusal log line names its first refused item's reason
    std::string json = "{\"results\":[";
    for (std::size_t i = 0; i < results_.size(); ++i) {
      if (results_[i].status != status) status = 207;
      if (!*reason) reason = results_[i].reason;
      if (i) json += ",";
      json += "{\"status\":" + std::to_string(results_[i].status) + ",\"result\":" + results_[i].json + "}";
    }
    HttpResponse response = JsonResponse(status, json + "]}");
    response.reason = reason;
    respond_(std::move(response));
  }

  std::mutex mu_;
  std::vector<ItemResult> results_;
  std::size_t remaining_;
  bool batch_;
  Respond respond_;
};

// Everything up to the store: returns true and fills `record` when the report may be inserted.
bool Validate(ServiceContext& ctx, const TokenSubject& subject, const std::uint8_t* data, std::size_t size,
              ReportRecord* record, ItemResult* rejection) {
  auto report = DecodeReport(data, size);
  if (!report.ok()) {
    *rejection = Rejected(ctx, RejectReason::kMalformed, report.status().message());
    return false;
  }
  std::shared_ptr<const RegisteredGraph> graph = ctx.graphs.Find(report->graph_id);
  if (!graph) {
    *rejection = Rejected(ctx, RejectReason::kUnknownGraph, "no graph " + std::to_string(report->graph_id));
    return false;
  }
  Status ranges = CheckReportRanges(*report, graph->config);
  if (!ranges.ok()) {
    *rejection = Rejected(ctx, RejectReason::kOutOfRange, ranges.message());
    return false;
  }
  if (subject.graph_id != report->graph_id || subject.user_id != report->user_id) {
    *rejection = Rejected(ctx, RejectReason::kForbidden,
                          "the token is for graph " + std::to_string(subject.graph_id) + " user " +
                              std::to_string(subject.user_id) + ", the report for graph " +
                              std::to_string(report->graph_id) + " user " + std::to_string(report->user_id));
    return false;
  }
  Status policy = CheckReportPolicy(*report, graph->config, graph->expected);
  if (policy.ok()) policy = CheckReportRound(*report, graph->rounds.enabled);
  if (!policy.ok()) {
    *rejection = Rejected(ctx, RejectReason::kPolicyMismatch, policy.message());
    return false;
  }
  record->graph_id = report->graph_id;
  record->user_id = report->user_id;
  record->round = report->round;
  record->report_id = report->report_id;
  record->bytes.assign(data, data + size);
  return true;
}

// A report of a round that is not open. (Answered on the store's thread,
// which must not wait for a read of the store: the message points the
// device to where the open round is.)
ItemResult WrongRound(ServiceContext& ctx, std::uint64_t graph_id, std::uint32_t round) {
  return Rejected(ctx, RejectReason::kWrongRound,
                  "round " + std::to_string(round) + " of graph " + std::to_string(graph_id) +
                      " is not open: the open round is at GET /v1/graphs/" + std::to_string(graph_id));
}

void RespondNow(ServiceContext& ctx, RejectReason reason, const std::string& message, const Respond& respond,
                unsigned retry_after = 0) {
  ItemResult r = Rejected(ctx, reason, message);
  HttpResponse response = JsonResponse(r.status, r.json);
  response.reason = r.reason;
  if (reason == RejectReason::kUnauthenticated) response.headers.emplace_back("WWW-Authenticate", "Bearer");
  if (retry_after) response.headers.emplace_back("Retry-After", std::to_string(retry_after));
  respond(std::move(response));
}

}  // namespace

void IngestReports(ServiceContext& ctx, const HttpRequest& request, Respond respond) {
  if (ctx.draining.load()) {
    RespondNow(ctx, RejectReason::kUnavailable, "the daemon is shutting down; retry shortly", respond, 1);
    return;
  }
  if (unsigned wait = ctx.per_address_limit.Admit(request.remote_address)) {
    RespondNow(ctx, RejectReason::kRateLimited, "too many requests from " + request.remote_address, respond, wait);
    return;
  }
  const std::string token = BearerToken(request.authorization);
  if (token.empty()) {
    RespondNow(ctx, RejectReason::kUnauthenticated, "an Authorization: Bearer user token is required", respond);
    return;
  }
  auto subject = ctx.tokens.Verify(token);
  if (!subject.ok()) {
    // A MAC OpenSSL could not compute (out of memory) is the daemon's fault, not the token's.
    const bool ours = subject.status().code() == StatusCode::kUnavailable;
    RespondNow(ctx, ours ? RejectReason::kUnavailable : RejectReason::kUnauthenticated, subject.status().message(),
               respond, ours ? 1 : 0);
    return;
  }
  const std::string token_key = std::to_string(subject->graph_id) + ":" + std::to_string(subject->user_id);
  if (unsigned wait = ctx.per_token_limit.Admit(token_key)) {
    RespondNow(ctx, RejectReason::kRateLimited, "too many requests for this token", respond, wait);
    return;
  }

  const auto* data = reinterpret_cast<const std::uint8_t*>(request.body.data());
  const std::size_t size = request.body.size();
  std::vector<ByteRange> items;
  const bool batch = IsBatch(data, size);
  if (batch) {
    auto split = SplitBatch(data, size);
    if (!split.ok()) {
      RespondNow(ctx, RejectReason::kMalformed, split.status().message(), respond);
      return;
    }
    items = std::move(*split);
  } else {
    items.push_back({0, size});
  }

  auto answer = std::make_shared<Answer>(items.size(), batch, std::move(respond));
  for (std::size_t i = 0; i < items.size(); ++i) {
    ReportRecord record;
    ItemResult rejection;
    if (!Validate(ctx, *subject, data + items[i].offset, items[i].size, &record, &rejection)) {
      answer->Set(i, std::move(rejection));
      continue;
    }
    const ReportId id = record.report_id;
    const std::uint64_t graph_id = record.graph_id;
    const std::uint32_t round = record.round;
    ctx.store->Insert(std::move(record), [&ctx, answer, i, id, graph_id, round](Result<InsertOutcome> outcome) {
      if (!outcome.ok()) {
        CountStorageFailure();
        answer->Set(i, Rejected(ctx, RejectReason::kUnavailable, outcome.status().message()));
      } else if (*outcome == InsertOutcome::kWrongRound) {
        answer->Set(i, WrongRound(ctx, graph_id, round));
      } else if (*outcome == InsertOutcome::kConflict) {
        answer->Set(i, Rejected(ctx, RejectReason::kConflict,
                                round == 0 ? "this user already sent a different report for this graph; a second one "
                                             "would spend her privacy budget twice"
                                           : "this user already sent a different report in round " +
                                                 std::to_string(round) + "; a second one would spend her "
                                                 "privacy budget twice"));
      } else {
        if (*outcome == InsertOutcome::kStored) ctx.report_rate.Count(graph_id, ReportRate::Now());
        answer->Set(i, Accepted(ctx, *outcome, id));
      }
    });
  }
}

}  // namespace ldpgraph
