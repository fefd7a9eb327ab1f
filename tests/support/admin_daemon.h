// AdminDaemon: a real ldpgraphd (DaemonProcess) with an HTTPS client, for
// the integration tests that drive its admin API: requests with or without
// the admin token, and waiting for a training job to end.
#ifndef LDPGRAPH_TESTS_SUPPORT_ADMIN_DAEMON_H_
#define LDPGRAPH_TESTS_SUPPORT_ADMIN_DAEMON_H_

#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "support/daemon_process.h"
#include "support/temp_dir.h"

namespace ldpgraph {
namespace testing {

struct AdminDaemon {
  explicit AdminDaemon(DaemonSettings settings = {}) : process(LDPGRAPHD, dir.path(), std::move(settings)) { Start(); }

  // Starts (or restarts) the process and connects.
  void Start() {
    REQUIRE_MESSAGE(process.Start(), process.log());
    auto c = transport::HttpsClient::Create(process.endpoint());
    REQUIRE(c.ok());
    client = std::move(*c);
  }
  transport::HttpAnswer Call(const std::string& method, const std::string& path, const std::string& body,
                             const std::string& bearer) {
    auto answer = client->Request(method, path, body.empty() ? "" : "application/json", body, bearer);
    REQUIRE_MESSAGE(answer.ok(), answer.status().message());
    return *answer;
  }
  transport::HttpAnswer Admin(const std::string& method, const std::string& path, const std::string& body = "") {
    return Call(method, path, body, DaemonProcess::kAdminToken);
  }
  // Polls a job until it is over (two minutes at most); its last status.
  nlohmann::json Wait(std::uint64_t job) {
    for (int i = 0; i < 1200; ++i) {
      const nlohmann::json s = nlohmann::json::parse(Admin("GET", "/v1/admin/jobs/" + std::to_string(job)).body);
      const std::string state = s["state"];
      if (state == "succeeded" || state == "failed" || state == "cancelled") return s;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    FAIL("job " << job << " did not finish");
    return {};
  }

  TempDir dir;
  DaemonProcess process;
  std::unique_ptr<transport::HttpsClient> client;
};

}  // namespace testing
}  // namespace ldpgraph

#endif  // LDPGRAPH_TESTS_SUPPORT_ADMIN_DAEMON_H_
