// The query worker: queries run off the caller's thread, one at a time and
// in order, each answered exactly once; a full queue refuses at once with
// 503 and Retry-After; stopping lets the running query end and answers the
// waiting ones 503.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "jobs/query_worker.h"

using ldpgraph::HttpResponse;
using ldpgraph::QueryWorker;

namespace {

// Answers collected from any thread, in the order they arrive.
struct Answers {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<HttpResponse> got;

  ldpgraph::Respond Collect() {
    return [this](HttpResponse r) {
      std::lock_guard<std::mutex> lock(mu);
      got.push_back(std::move(r));
      cv.notify_all();
    };
  }
  std::vector<HttpResponse> WaitFor(std::size_t n) {
    std::unique_lock<std::mutex> lock(mu);
    REQUIRE(cv.wait_for(lock, std::chrono::seconds(30), [&] { return got.size() >= n; }));
    return got;
  }
};

HttpResponse Numbered(int i) {
  HttpResponse r;
  r.body = std::to_string(i);
  return r;
}

bool HasRetryAfter(const HttpResponse& r) {
  for (const auto& [name, value] : r.headers) {
    if (name == "Retry-After") return true;
  }
  return false;
}

}  // namespace

TEST_CASE("QueryWorker.RunsQueriesInOrderOffTheCallersThread") {
  Answers answers;
  std::atomic<int> running{0}, most_at_once{0};
  std::vector<std::thread::id> ran_on(20);
  {
    QueryWorker worker(32);
    for (int i = 0; i < 20; ++i) {
      worker.Submit(
          [&, i] {
            most_at_once = std::max(most_at_once.load(), ++running);
            ran_on[static_cast<std::size_t>(i)] = std::this_thread::get_id();
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
            --running;
            return Numbered(i);
          },
          answers.Collect());
    }
    const std::vector<HttpResponse> got = answers.WaitFor(20);
    for (int i = 0; i < 20; ++i) {
      CHECK(got[static_cast<std::size_t>(i)].status == 200);
      CHECK(got[static_cast<std::size_t>(i)].body == std::to_string(i));
      CHECK((ran_on[static_cast<std::size_t>(i)] != std::this_thread::get_id()));
    }
  }
  CHECK(answers.got.size() == 20);  // nothing answered twice
  CHECK(most_at_once.load() == 1);
}

TEST_CASE("QueryWorker.AFullQueueRefusesAtOnce") {
  Answers answers;
  std::promise<void> release;
  std::shared_future<void> gate = release.get_future().share();
  std::promise<void> started;
  ldpgraph::Metrics metrics;
  QueryWorker worker(2, &metrics);
  worker.Submit(
      [&] {
        started.set_value();
        gate.wait();
        return Numbered(0);
      },
      answers.Collect());
  started.get_future().wait();  // the first runs: two may wait behind it
  worker.Submit([] { return Numbered(1); }, answers.Collect());
  worker.Submit([] { return Numbered(2); }, answers.Collect());
  worker.Submit([] { return Numbered(3); }, answers.Collect());  // a third waiting: refused
  std::vector<HttpResponse> got = answers.WaitFor(1);
  CHECK(got[0].status == 503);
  CHECK(got[0].reason == "busy");
  CHECK(HasRetryAfter(got[0]));
  CHECK(got[0].body.find("2 long queries wait already") != std::string::npos);
  CHECK(metrics.queries_waiting.load() == 2);
  CHECK(metrics.queries_refused.load() == 1);
  release.set_value();
  got = answers.WaitFor(4);
  CHECK(metrics.queries_waiting.load() == 0);
  // Counted once its answer is given: the last may still be on its way.
  for (int i = 0; i < 1000 && metrics.queries_answered.load() < 3; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  CHECK(metrics.queries_answered.load() == 3);
  CHECK(got[1].body == "0");
  CHECK(got[2].body == "1");
  CHECK(got[3].body == "2");
}

TEST_CASE("QueryWorker.StoppingEndsTheRunningQueryAndRefusesTheWaitingOnes") {
  Answers answers;
  std::promise<void> started;
  std::atomic<bool> finish{false};
  ldpgraph::Metrics metrics;
  auto worker = std::make_unique<QueryWorker>(8, &metrics);
  worker->Submit(
      [&] {
        started.set_value();
        while (!finish.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        return Numbered(0);
      },
      answers.Collect());
  started.get_future().wait();
  worker->Submit([] { return Numbered(1); }, answers.Collect());
  worker->Submit([] { return Numbered(2); }, answers.Collect());
  std::thread stopper([&] { worker.reset(); });
  std::vector<HttpResponse> got = answers.WaitFor(2);  // the waiting two, refused before the join
  CHECK(got[0].status == 503);
  CHECK(got[1].status == 503);
  CHECK(got[0].body.find("stopping") != std::string::npos);
  CHECK(metrics.queries_refused.load() == 2);
  CHECK(metrics.queries_waiting.load() == 0);
  finish = true;
  stopper.join();
  got = answers.WaitFor(3);
  CHECK(got.size() == 3);
  CHECK(got[2].status == 200);  // the running one kept its own answer
  CHECK(got[2].body == "0");
}
