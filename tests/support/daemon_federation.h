// DaemonFederation: real ldpgraphd processes as the parties of a FedCog
// federation on loopback, each with its own store, its own admin client and
// a certificate from one throwaway federation CA (its name = the party's).
// The federation listeners' ports are chosen before the start, since every
// party's config names the others'.
#ifndef LDPGRAPH_TESTS_SUPPORT_DAEMON_FEDERATION_H_
#define LDPGRAPH_TESTS_SUPPORT_DAEMON_FEDERATION_H_

#include <doctest/doctest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "federation/federated_model.h"
#include "gap/held_graph.h"
#include "gap/held_graph_json.h"
#include "base/durable_file.h"
#include "support/admin_daemon.h"
#include "testbed/loopback_federation.h"

namespace ldpgraph {
namespace testing {

class DaemonFederation {
 public:
  // `names[0]` coordinates. `extra_names` get certificates from the same CA
  // but are in no party's config (strangers for the refusal tests).
  explicit DaemonFederation(std::vector<std::string> names, std::uint32_t party_timeout_ms = 20000,
                            std::vector<std::string> extra_names = {})
      : names_(std::move(names)) {
    std::vector<std::string> all = names_;
    all.insert(all.end(), extra_names.begin(), extra_names.end());
    Result<FederationPkiFiles> files = WriteTestFederationPki(pki_dir_.path(), all);
    REQUIRE(files.ok());
    pki_ = *files;
    for (std::size_t i = 0; i < names_.size(); ++i) ports_.push_back(FreeLoopbackPort());
    for (std::size_t i = 0; i < names_.size(); ++i) {
      DaemonSettings s;
      s.extra_sections = LoopbackFederationToml(names_, ports_, i, pki_, party_timeout_ms);
      parties_.push_back(std::make_unique<AdminDaemon>(s));
    }
  }

  AdminDaemon& party(std::size_t i) { return *parties_[i]; }
  AdminDaemon& coordinator() { return *parties_[0]; }
  std::size_t size() const { return parties_.size(); }
  std::uint16_t federation_port(std::size_t i) const { return ports_[i]; }
  const FederationPkiFiles& pki() const { return pki_; }

  // Uploads each party's share (in `names` order) as held graph `id`.
  void Upload(const std::vector<HeldGraphParts>& shares, std::uint64_t id) {
    for (std::size_t i = 0; i < shares.size(); ++i) {
      const auto answer = party(i).Admin("PUT", "/v1/admin/held-graphs/" + std::to_string(id),
                                         HeldGraphUploadJson(shares[i]));
      REQUIRE_MESSAGE(answer.status == 201, answer.body);
    }
  }

  // Starts a run on the coordinator; its id.
  std::uint64_t Start(const nlohmann::json& request) {
    const auto answer = coordinator().Admin("POST", "/v1/admin/federation/runs", request.dump());
    REQUIRE_MESSAGE(answer.status == 202, answer.body);
    return nlohmann::json::parse(answer.body)["run"].get<std::uint64_t>();
  }

  // Polls the run until its training has reached `round` (or the run is
  // over); its status then.
  nlohmann::json WaitForRound(std::uint64_t run, int round) {
    return Poll(run, std::chrono::milliseconds(10), "reach round " + std::to_string(round),
                [&](const nlohmann::json& s) { return s["state"] != "running" || s.value("round", 0) >= round; });
  }

  // Polls the run until it is over; its status.
  nlohmann::json Wait(std::uint64_t run) {
    return Poll(run, std::chrono::milliseconds(100), "end",
                [](const nlohmann::json& s) { return s["state"] != "running"; });
  }

  // Party i's model file of `run`: nullopt when it holds none; a failed
  // check when the file is there but does not decode.
  std::optional<FederatedModel> Model(std::size_t i, std::uint64_t run) {
    std::vector<std::uint8_t> bytes;
    bool exists = false;
    REQUIRE(base::ReadWholeFile(ModelPath(i, run), &bytes, &exists).ok());
    if (!exists) return std::nullopt;
    Result<FederatedModel> m = DecodeFederatedModel(bytes);
    REQUIRE_MESSAGE(m.ok(), m.status().ToString());
    return std::move(m).value();
  }
  std::string ModelPath(std::size_t i, std::uint64_t run) {
    return party(i).dir.path() + "/models/federated/" + std::to_string(run) + ".fedmodel";
  }

 private:
  // Polls the run's status every `pause` until `done` says so (three
  // minutes at most); that status. `what`: what the run failed to do.
  nlohmann::json Poll(std::uint64_t run, std::chrono::milliseconds pause, const std::string& what,
                      const std::function<bool(const nlohmann::json&)>& done) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(3);
    while (std::chrono::steady_clock::now() < deadline) {
      const auto answer = coordinator().Admin("GET", "/v1/admin/federation/runs/" + std::to_string(run));
      REQUIRE(answer.status == 200);
      const nlohmann::json s = nlohmann::json::parse(answer.body);
      if (done(s)) return s;
      std::this_thread::sleep_for(pause);
    }
    FAIL("run " << run << " did not " << what);
    return {};
  }

  std::vector<std::string> names_;
  TempDir pki_dir_;
  FederationPkiFiles pki_;
  std::vector<std::uint16_t> ports_;
  std::vector<std::unique_ptr<AdminDaemon>> parties_;
};

}  // namespace testing
}  // namespace ldpgraph

#endif  // LDPGRAPH_TESTS_SUPPORT_DAEMON_FEDERATION_H_
