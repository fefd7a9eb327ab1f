#include "fleet.h"

#include <atomic>
#include <chrono>
#include <fstream>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "util/https_url.h"

namespace fleet {

ldpgraph::Result<Daemon> DaemonFromFlags(const ldpgraph::Flags& flags) {
  const std::optional<ldpgraph::HttpsUrl> url = ldpgraph::ParseHttpsUrl(flags.StringOr("daemon", ""));
  if (!url || !url->port_given) return ldpgraph::Status::InvalidArgument("--daemon https://HOST:PORT is required");
  Daemon d;
  d.endpoint.host = url->host;
  d.endpoint.port = url->port;
  d.endpoint.ca_file = flags.StringOr("ca", "");
  std::ifstream token_file(flags.StringOr("admin-token-file", ""));
  std::getline(token_file, d.admin_token);
  if (d.admin_token.empty()) {
    return ldpgraph::Status::InvalidArgument("--admin-token-file FILE with the admin token is required");
  }
  return d;
}

ldpgraph::Result<std::unique_ptr<Admin>> Admin::Connect(const Daemon& daemon) {
  auto client = lt::HttpsClient::Create(daemon.endpoint);
  if (!client.ok()) return client.status();
  return std::unique_ptr<Admin>(new Admin(std::move(*client), daemon.admin_token));
}

ldpgraph::Result<nlohmann::json> Admin::Call(const std::string& method, const std::string& path,
                                             const nlohmann::json& body, int expected) {
  auto answer = client_->Request(method, path, "application/json", body.is_null() ? "" : body.dump(), token_);
  if (!answer.ok()) return answer.status();
  if (answer->status != expected) {
    return ldpgraph::Status::Unavailable(method + " " + path + ": HTTP " + std::to_string(answer->status) + " " +
                                         answer->body);
  }
  return nlohmann::json::parse(answer->body, nullptr, false);
}

std::uint64_t DeviceSeed(std::uint64_t seed, std::size_t device) {
  // splitmix64's finaliser over (seed, device): distinct devices, distinct streams.
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(device) + 1;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

Tally RunDevices(const Daemon& daemon, std::size_t count, std::size_t clients, std::uint64_t seed,
                 const DeviceWork& work) {
  std::atomic<std::size_t> next{0}, delivered{0}, refused{0}, failed{0}, handshakes{0};
  std::mutex error_mu;
  std::string first_error;
  const auto note = [&](const std::string& error) {
    std::lock_guard<std::mutex> lock(error_mu);
    if (first_error.empty()) first_error = error;
  };
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (std::size_t c = 0; c < clients; ++c) {
    threads.emplace_back([&] {
      for (std::size_t i = next++; i < count; i = next++) {
        // Each device its own stream, named by the seed and its index, not by
        // the thread that happens to take it: the same seed gives every
        // device the same noise however the threads are scheduled.
        ldpgraph::SeededRandomSource rng(DeviceSeed(seed, i));
        lt::UploaderOptions options;
        options.server = daemon.endpoint;
        auto uploader = lt::Uploader::Create(options, &rng);
        if (!uploader.ok()) {
          ++failed;
          note(uploader.status().ToString());
          continue;
        }
        ldpgraph::Result<lt::SendOutcome> sent = work(i, rng, **uploader);
        if (!sent.ok()) {
          ++failed;
          note(sent.status().ToString());
        } else if (sent->delivered) {
          ++delivered;
        } else {
          ++refused;
          note("refused: " + sent->body);
        }
        handshakes += (*uploader)->handshakes();
      }
    });
  }
  for (auto& t : threads) t.join();
  Tally tally;
  tally.delivered = delivered;
  tally.refused = refused;
  tally.failed = failed;
  tally.handshakes = handshakes;
  tally.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  tally.first_error = first_error;
  return tally;
}

}  // namespace fleet
