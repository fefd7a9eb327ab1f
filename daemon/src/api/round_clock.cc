#include "api/round_clock.h"

#include <cmath>
#include <map>
#include <pthread.h>

#include "api/round_api.h"

namespace ldpgraph {

RoundClock::RoundClock(ServiceContext* ctx, std::chrono::milliseconds tick) : ctx_(ctx), tick_(tick) {
  thread_ = std::thread([this] {
    pthread_setname_np(pthread_self(), "ldpgraphd-rounds");
    Loop();
  });
}

RoundClock::~RoundClock() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void RoundClock::Loop() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_) {
    lock.unlock();
    CloseDueRounds();
    lock.lock();
    wake_.wait_for(lock, tick_, [this] { return stop_; });
  }
}

void RoundClock::CloseDueRounds() {
  const auto tick = std::chrono::steady_clock::now();
  const bool refresh = tick - refreshed_ >= kRefresh;
  if (refresh) refreshed_ = tick;
  const auto graphs = refresh ? ctx_->graphs.All() : ctx_->graphs.Known();
  bool timed = false;
  for (const auto& g : graphs) timed = timed || g->rounds.every_hours > 0;
  if (!timed) return;  // nothing to read from the store
  Result<std::map<std::uint64_t, RoundState>> rounds = ctx_->store->Rounds();
  if (!rounds.ok()) {
    ctx_->logger->Warning("round_clock_store_unavailable", {{"error", rounds.status().message()}});
    return;
  }
  const auto now = std::chrono::system_clock::now();
  for (const auto& g : graphs) {
    auto state = rounds->find(g->config.graph_id);
    if (g->rounds.every_hours <= 0 || state == rounds->end()) continue;
    const auto opened = std::chrono::system_clock::time_point(std::chrono::seconds(state->second.opened_unix));
    const auto length = std::chrono::milliseconds(static_cast<std::int64_t>(std::llround(g->rounds.every_hours * 3.6e6)));
    if (now < opened + length) continue;
    nlohmann::json retrain;
    Result<RoundState> closed = CloseRound(*ctx_, *g, state->second.current, "schedule", &retrain);
    // Another daemon (or the admin) closing it first is the schedule kept, not a failure.
    if (!closed.ok() && closed.status().code() != StatusCode::kFailedPrecondition) {
      ctx_->logger->Warning("round_clock_close_failed", {{"graph_id", std::to_string(g->config.graph_id)},
                                                         {"error", closed.status().message()}});
    }
  }
}

}  // namespace ldpgraph
