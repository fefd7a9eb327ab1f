// A FedCog coordinator's run statuses live in a document store that several
// daemons may share: every run is listed and read by every coordinator on
// it, and a restarted daemon reports failed only the runs it was itself
// coordinating when it stopped, never another daemon's.
#include <doctest/doctest.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include "federation/coordinator.h"
#include "net/logger.h"
#include "store/file_documents.h"
#include "support/temp_dir.h"

using namespace ldpgraph;
using nlohmann::json;

namespace {

std::unique_ptr<DocumentStore> Runs(const std::string& dir) {
  return OpenFileDocuments(dir, ".run", "federation run").value();
}

std::unique_ptr<Coordinator> CoordinatorOf(const std::string& dir, const std::string& instance, Logger* logger) {
  FederationConfig config;
  config.party = "north";
  return Coordinator::Create(config, 1, Runs(dir), instance, logger).value();
}

}  // namespace

TEST_CASE("CoordinatorRuns.EveryDaemonReadsEveryRunAndFailsOnlyItsOwn") {
  testing::TempDir dir;
  Logger logger("text", "error");
  {
    auto runs = Runs(dir.path());
    REQUIRE(runs->AddAt(11, {}, json{{"run", 11}, {"state", "running"}, {"instance", "host-a:/a"}}.dump()).ok());
    REQUIRE(runs->AddAt(12, {}, json{{"run", 12}, {"state", "running"}, {"instance", "host-b:/b"}}.dump()).ok());
    REQUIRE(runs->AddAt(13, {}, json{{"run", 13}, {"state", "succeeded"}, {"instance", "host-b:/b"}}.dump()).ok());
    REQUIRE(runs->AddAt(14, {}, json{{"run", 14}, {"state", "running"}}.dump()).ok());  // before instances
  }
  // Daemon a restarts: its own run 11 (and 14, which names no instance: a
  // single daemon's) failed, b's run 12 still running.
  auto a = CoordinatorOf(dir.path(), "host-a:/a", &logger);
  const json eleven = json::parse(a->RunStatus(11).value().value());
  CHECK(eleven["state"] == "failed");
  CHECK(eleven["error"] == "the coordinator stopped during the run");
  CHECK(json::parse(a->RunStatus(12).value().value())["state"] == "running");
  CHECK(json::parse(a->RunStatus(14).value().value())["state"] == "failed");
  CHECK_FALSE(a->RunStatus(99).value().has_value());
  // Daemon b, on the same store, lists every run and sees a's verdict.
  auto b = CoordinatorOf(dir.path(), "host-b:/b", &logger);
  Result<std::map<std::uint64_t, std::string>> all = b->Runs();
  REQUIRE(all.ok());
  CHECK(all->size() == 4);
  CHECK(json::parse(all->at(11))["state"] == "failed");
  CHECK(json::parse(b->RunStatus(12).value().value())["state"] == "failed");  // b's own, now restarted
  CHECK(json::parse(b->RunStatus(13).value().value())["state"] == "succeeded");
  CHECK(b->Cancel(13).code() == StatusCode::kFailedPrecondition);  // not running here
}

// Issue 66, defect 11: a weight decay of 1e19 was accepted and trained to
// chance; 1e300 got "must be a number >= 0". Bounded like the learning
// rate, and refused with the real range before anything starts.
TEST_CASE("CoordinatorRuns.WeightDecayIsBoundedAndTheMessageSaysTheRange") {
  testing::TempDir dir;
  Logger logger("text", "error");
  auto coordinator = CoordinatorOf(dir.path(), "host-a:/a", &logger);
  for (double decay : {1e19, 1e300, -1e-9, 1.5, std::nan("")}) {
    INFO(decay);
    FedCogRunRequest r;
    r.held_graph = 1;
    r.training.weight_decay = static_cast<float>(decay);
    Result<std::uint64_t> started = coordinator->Start(r);
    REQUIRE_FALSE(started.ok());
    CHECK(started.status().code() == StatusCode::kInvalidArgument);
    CHECK(started.status().message() == "weight_decay must be in [0, 1]");
  }
  CHECK(coordinator->Runs()->empty());
}
