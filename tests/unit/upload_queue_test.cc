// The uploader's on-disk queue: order, caps, survival across reopen, and
// corrupt files left alone.
#include <doctest/doctest.h>

#include <chrono>
#include <fstream>

#include "ldpgraph/transport/upload_queue.h"
#include "ldpgraph/transport/uploader.h"
#include "support/temp_dir.h"

using ldpgraph::transport::UploadQueue;
using ldpgraph::testing::TempDir;

TEST_CASE("UploadQueue.KeepsOrderAcrossReopenAndHonoursCaps") {
  TempDir dir;
  const std::string q = dir.path() + "/q";
  CHECK_FALSE(UploadQueue::Open(q, 0, 10).ok());
  {
    auto queue = UploadQueue::Open(q, 3, 100);
    REQUIRE(queue.ok());
    CHECK(queue->Push("t1", {1, 2, 3}).ok());
    CHECK(queue->Push("t2", std::vector<std::uint8_t>(50, 9)).ok());
    CHECK(queue->Push("t3", std::vector<std::uint8_t>(60, 9)).code() == ldpgraph::StatusCode::kResourceExhausted);
    CHECK(queue->Push("t3", {4}).ok());
    CHECK(queue->Push("t4", {5}).code() == ldpgraph::StatusCode::kResourceExhausted);
    CHECK(queue->size() == 3);
    CHECK(queue->bytes() == 54);
  }
  auto queue = UploadQueue::Open(q, 3, 100);  // an app restart
  REQUIRE(queue.ok());
  REQUIRE(queue->size() == 3);
  CHECK(queue->items()[0].token == "t1");
  CHECK(queue->items()[0].report == std::vector<std::uint8_t>{1, 2, 3});
  CHECK(queue->items()[2].token == "t3");
  const std::string first = queue->items()[0].file;
  CHECK(queue->Remove(first).ok());
  CHECK(queue->Remove(first).code() == ldpgraph::StatusCode::kInvalidArgument);
  CHECK(queue->Push("t5", {6}).ok());  // room again; sorts after the others
  auto reopened = UploadQueue::Open(q, 3, 100);
  REQUIRE(reopened.ok());
  REQUIRE(reopened->size() == 3);
  CHECK(reopened->items()[0].token == "t2");
  CHECK(reopened->items()[2].token == "t5");
}

TEST_CASE("UploadQueue.SkipsCorruptFiles") {
  TempDir dir;
  const std::string q = dir.path() + "/q";
  {
    auto queue = UploadQueue::Open(q, 10, 1000);
    REQUIRE(queue.ok());
    REQUIRE(queue->Push("good", {1, 2, 3}).ok());
    REQUIRE(queue->Push("flipped", {4, 5, 6}).ok());
  }
  // Flip a byte of the second file: its CRC no longer matches.
  const std::string victim = q + "/0000000000000001.lgq";
  std::fstream f(victim, std::ios::in | std::ios::out | std::ios::binary);
  REQUIRE(f.good());
  f.seekp(6);
  f.put('X');
  f.close();
  std::ofstream(q + "/unrelated.txt") << "ignored";
  auto queue = UploadQueue::Open(q, 10, 1000);
  REQUIRE(queue.ok());
  CHECK(queue->size() == 1);
  CHECK(queue->items()[0].token == "good");
  CHECK(queue->corrupt_files() == 1);
  CHECK(queue->Push("next", {7}).ok());  // new names never collide with the corrupt file
  CHECK(queue->items().back().file == "0000000000000002.lgq");
}

TEST_CASE("Uploader.GivesUpWithinItsBudgetWhenNothingListens") {
  ldpgraph::transport::UploaderOptions o;
  o.server.host = "127.0.0.1";
  o.server.port = 1;  // nothing listens on port 1
  o.retry = {10, 40, 300};
  auto uploader = ldpgraph::transport::Uploader::Create(o);
  REQUIRE(uploader.ok());
  const auto start = std::chrono::steady_clock::now();
  auto sent = (*uploader)->Send("token", {1, 2, 3});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  REQUIRE_FALSE(sent.ok());
  CHECK(sent.status().code() == ldpgraph::StatusCode::kUnavailable);
  CHECK(sent.status().message().find("gave up after") != std::string::npos);
  CHECK(seconds < 1.0);
  // A window of 2 over 3 reports: the first two give up, the third is never
  // sent and says so (it does not wait out a budget of its own).
  const auto many = (*uploader)->SendMany({{"a", {1}}, {"b", {2}}, {"c", {3}}}, 2);
  REQUIRE(many.size() == 3);
  for (std::size_t i = 0; i < 2; ++i) {
    REQUIRE_FALSE(many[i].ok());
    CHECK(many[i].status().message().find("gave up after") == 0);
  }
  REQUIRE_FALSE(many[2].ok());
  CHECK(many[2].status().code() == ldpgraph::StatusCode::kUnavailable);
  CHECK(many[2].status().message().find("not sent: an earlier request gave up after") == 0);
  CHECK((*uploader)->Enqueue("t", {1}).code() == ldpgraph::StatusCode::kFailedPrecondition);
  ldpgraph::transport::UploaderOptions bad = o;
  bad.retry.initial_backoff_ms = 0;
  CHECK_FALSE(ldpgraph::transport::Uploader::Create(bad).ok());
  bad = o;
  bad.server.ca_file = "/nonexistent/ca.pem";
  CHECK(ldpgraph::transport::Uploader::Create(bad).status().code() == ldpgraph::StatusCode::kInvalidArgument);
}
