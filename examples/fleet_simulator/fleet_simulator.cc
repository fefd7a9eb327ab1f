// fleet_simulator: a dataset's users as a fleet of devices. For every graph of
// an s2v dataset it creates a graph on ldpgraphd (DPRR at --epsilon) and
// attaches the graph's label, then replays every user as her own device:
// her own TLS connection (the SDK's Uploader, server certificate verified),
// the graph's public configuration fetched from the daemon, her friend list
// randomized on the device by the SDK (ReportBuilder), and one upload.
// --clients devices run at once. Prints key=value lines. With --symmetrise,
// it also sets each graph's symmetrisation policy (how the daemon makes the
// directed noisy rows undirected).
//
//   fleet_simulator --daemon https://127.0.0.1:8443 --ca ca.crt --admin-token-file admin-token
//                   --dataset communities.txt [--epsilon 1] [--clients 256] [--first-graph-id 1]
//                   [--symmetrise none|or|and]   (each graph's symmetrisation policy)
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "dataset/graph_dataset.h"
#include "ldpgraph/report_builder.h"
#include "ldpgraph/transport/uploader.h"
#include "ldpgraph/wire_format.h"
#include "util/flags.h"
#include "util/https_url.h"

namespace lt = ldpgraph::transport;
using nlohmann::json;

namespace {

int Fail(const std::string& why) {
  std::fprintf(stderr, "fleet_simulator: %s\n", why.c_str());
  return 1;
}

// The admin calls: create the graphs, issue the users' tokens, set labels.
class Admin {
 public:
  Admin(std::unique_ptr<lt::HttpsClient> client, std::string token) : client_(std::move(client)), token_(std::move(token)) {}
  ldpgraph::Result<json> Call(const std::string& method, const std::string& path, const json& body, int expected) {
    auto answer = client_->Request(method, path, "application/json", body.dump(), token_);
    if (!answer.ok()) return answer.status();
    if (answer->status != expected) {
      return ldpgraph::Status::Unavailable(method + " " + path + ": HTTP " + std::to_string(answer->status) + " " +
                                           answer->body);
    }
    return json::parse(answer->body, nullptr, false);
  }

 private:
  std::unique_ptr<lt::HttpsClient> client_;
  std::string token_;
};

struct Device {
  std::uint64_t graph_id;
  std::uint32_t graph_index;
  std::uint32_t user;
  std::string token;
};

}  // namespace

int main(int argc, char** argv) {
  auto flags = ldpgraph::Flags::Parse({argv + 1, argv + argc}, {"daemon", "ca", "admin-token-file", "dataset",
                                                                 "epsilon", "clients", "first-graph-id", "seed",
                                                                 "symmetrise"});
  if (!flags.ok()) return Fail(flags.status().message());
  const std::optional<ldpgraph::HttpsUrl> url = ldpgraph::ParseHttpsUrl(flags->StringOr("daemon", ""));
  if (!url || !url->port_given) return Fail("--daemon https://HOST:PORT is required");
  lt::ServerEndpoint endpoint;
  endpoint.host = url->host;
  endpoint.port = url->port;
  endpoint.ca_file = flags->StringOr("ca", "");
  std::ifstream token_file(flags->StringOr("admin-token-file", ""));
  std::string admin_token;
  std::getline(token_file, admin_token);
  if (admin_token.empty()) return Fail("--admin-token-file FILE with the admin token is required");
  auto epsilon = flags->Double("epsilon", 1.0);
  auto clients = flags->Unsigned("clients", 256);
  auto first_id = flags->Unsigned("first-graph-id", 1);
  auto seed = flags->Unsigned("seed", 0);
  if (!epsilon.ok() || !clients.ok() || !first_id.ok() || !seed.ok() || *clients == 0 || *clients > 4096) {
    return Fail("--epsilon E, --clients C in [1, 4096], --first-graph-id N, --seed S");
  }
  auto dataset = ldpgraph::ReadDataset(flags->StringOr("dataset", ""));
  if (!dataset.ok()) return Fail(dataset.status().ToString());

  // 1. The admin side: one graph per dataset graph, tokens for its users, its label.
  auto admin_client = lt::HttpsClient::Create(endpoint);
  if (!admin_client.ok()) return Fail(admin_client.status().ToString());
  Admin admin(std::move(*admin_client), admin_token);
  const std::uint32_t n_max = std::max(2u, dataset->max_nodes());
  std::vector<Device> devices;
  for (std::size_t g = 0; g < dataset->graphs.size(); ++g) {
    const std::uint64_t id = *first_id + g;
    const std::uint32_t n = dataset->graphs[g].num_nodes();
    if (n < 2) continue;  // nobody to be friends with
    const json config = {{"graph_id", id},
                         {"num_users", n},
                         {"edges", {{"mechanism", "dprr"}, {"epsilon", *epsilon}, {"n_max", n_max}}}};
    auto created = admin.Call("POST", "/v1/admin/graphs", config, 201);
    if (!created.ok()) return Fail(created.status().message());
    auto labelled = admin.Call("PUT", "/v1/admin/graphs/" + std::to_string(id) + "/label",
                               {{"label", dataset->raw_labels[g]}}, 200);
    if (!labelled.ok()) return Fail(labelled.status().message());
    if (flags->Has("symmetrise")) {
      auto policy = admin.Call("PUT", "/v1/admin/graphs/" + std::to_string(id) + "/symmetrise",
                               {{"rule", flags->StringOr("symmetrise", "")}}, 200);
      if (!policy.ok()) return Fail(policy.status().message());
    }
    auto tokens = admin.Call("POST", "/v1/admin/graphs/" + std::to_string(id) + "/tokens",
                             {{"first", 0}, {"count", n}}, 200);
    if (!tokens.ok()) return Fail(tokens.status().message());
    for (const json& t : (*tokens)["tokens"]) {
      devices.push_back({id, static_cast<std::uint32_t>(g), t["user_id"].get<std::uint32_t>(), t["token"]});
    }
  }

  // 2. The devices: each user her own TLS connection, configuration fetch,
  // on-device randomization and upload; --clients of them at a time.
  std::atomic<std::size_t> next{0}, delivered{0}, refused{0}, handshakes{0};
  std::mutex error_mu;
  std::string first_error;
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (std::uint64_t c = 0; c < *clients; ++c) {
    threads.emplace_back([&, c] {
      ldpgraph::SeededRandomSource rng(*seed * 1000003 + c);  // reproducible runs; a phone uses the OS CSPRNG
      for (std::size_t i = next++; i < devices.size(); i = next++) {
        const Device& d = devices[i];
        lt::UploaderOptions options;
        options.server = endpoint;
        auto uploader = lt::Uploader::Create(options, &rng);
        ldpgraph::Status failure;
        if (!uploader.ok()) {
          failure = uploader.status();
        } else {
          auto config = (*uploader)->FetchGraphConfig(d.graph_id);
          auto builder = config.ok() ? ldpgraph::ReportBuilder::Create(*config)
                                     : ldpgraph::Result<std::unique_ptr<ldpgraph::ReportBuilder>>(config.status());
          if (!builder.ok()) {
            failure = builder.status();
          } else {
            ldpgraph::UserData data;
            data.user_id = d.user;
            data.neighbours = dataset->graphs[d.graph_index].neighbours(d.user);
            auto report = (*builder)->Build(data, rng);
            std::vector<std::uint8_t> bytes;
            if (!report.ok() || !ldpgraph::EncodeReport(*report, &bytes).ok()) {
              failure = ldpgraph::Status::Internal("building a report failed");
            } else {
              auto sent = (*uploader)->Send(d.token, bytes);
              if (!sent.ok()) {
                failure = sent.status();
              } else if (sent->delivered) {
                ++delivered;
              } else {
                ++refused;
                failure = ldpgraph::Status::FailedPrecondition("refused: " + sent->body);
              }
            }
          }
          handshakes += (*uploader)->handshakes();
        }
        if (!failure.ok()) {
          std::lock_guard<std::mutex> lock(error_mu);
          if (first_error.empty()) first_error = failure.ToString();
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "graphs=" << dataset->graphs.size() << "\ndevices=" << devices.size() << "\nclients=" << *clients
            << "\ndelivered=" << delivered << "\nrefused=" << refused << "\nhandshakes=" << handshakes
            << "\nseconds=" << seconds << "\nreports_per_s=" << static_cast<double>(delivered) / seconds << "\n";
  if (!first_error.empty()) return Fail("first failure: " + first_error);
  return delivered == devices.size() ? 0 : 1;
}
