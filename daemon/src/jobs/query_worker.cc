#include "jobs/query_worker.h"

#include <string>

#include "net/json_response.h"

namespace ldpgraph {
namespace {

HttpResponse Busy(const std::string& message) {
  HttpResponse r = ErrorResponse(503, "busy", message);
  r.headers.emplace_back("Retry-After", "1");
  return r;
}

}  // namespace

QueryWorker::QueryWorker(std::size_t max_waiting, Metrics* metrics)
    : max_waiting_(max_waiting), metrics_(metrics), thread_([this] { Run(); }) {}

QueryWorker::~QueryWorker() {
  std::deque<std::pair<std::function<HttpResponse()>, Respond>> unanswered;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    unanswered.swap(waiting_);
  }
  wake_.notify_all();
  if (metrics_) {
    metrics_->queries_waiting.fetch_sub(static_cast<std::int64_t>(unanswered.size()));
    metrics_->queries_refused.fetch_add(unanswered.size());
  }
  for (auto& item : unanswered) item.second(Busy("the daemon is stopping"));
  thread_.join();
}

void QueryWorker::Submit(std::function<HttpResponse()> query, Respond respond) {
  bool stopping = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping = stopping_;
    if (!stopping && waiting_.size() < max_waiting_) {
      waiting_.emplace_back(std::move(query), std::move(respond));
      if (metrics_) metrics_->queries_waiting.fetch_add(1);
      wake_.notify_one();
      return;
    }
  }
  if (metrics_) metrics_->queries_refused.fetch_add(1);
  respond(Busy(stopping ? "the daemon is stopping"
                        : std::to_string(max_waiting_) + " long queries wait already; try again shortly"));
}

void QueryWorker::Run() {
  for (;;) {
    std::pair<std::function<HttpResponse()>, Respond> next;
    {
      std::unique_lock<std::mutex> lock(mu_);
      wake_.wait(lock, [this] { return stopping_ || !waiting_.empty(); });
      if (waiting_.empty()) return;  // stopping, nothing left
      next = std::move(waiting_.front());
      waiting_.pop_front();
      if (metrics_) metrics_->queries_waiting.fetch_sub(1);
    }
    next.second(next.first());
    if (metrics_) metrics_->queries_answered.fetch_add(1);
  }
}

}  // namespace ldpgraph
