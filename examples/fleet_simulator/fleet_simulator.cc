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
#include <cstdio>
#include <iostream>

#include "dataset/graph_dataset.h"
#include "fleet.h"
#include "ldpgraph/report_builder.h"
#include "ldpgraph/wire_format.h"

using nlohmann::json;

namespace {

int Fail(const std::string& why) {
  std::fprintf(stderr, "fleet_simulator: %s\n", why.c_str());
  return 1;
}

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
  auto daemon = fleet::DaemonFromFlags(*flags);
  if (!daemon.ok()) return Fail(daemon.status().message());
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
  auto admin = fleet::Admin::Connect(*daemon);
  if (!admin.ok()) return Fail(admin.status().ToString());
  const std::uint32_t n_max = std::max(2u, dataset->max_nodes());
  std::vector<Device> devices;
  for (std::size_t g = 0; g < dataset->graphs.size(); ++g) {
    const std::uint64_t id = *first_id + g;
    const std::uint32_t n = dataset->graphs[g].num_nodes();
    if (n < 2) continue;  // nobody to be friends with
    const json config = {{"graph_id", id},
                         {"num_users", n},
                         {"edges", {{"mechanism", "dprr"}, {"epsilon", *epsilon}, {"n_max", n_max}}}};
    auto created = (*admin)->Call("POST", "/v1/admin/graphs", config, 201);
    if (!created.ok()) return Fail(created.status().message());
    auto labelled = (*admin)->Call("PUT", "/v1/admin/graphs/" + std::to_string(id) + "/label",
                                {{"label", dataset->raw_labels[g]}}, 200);
    if (!labelled.ok()) return Fail(labelled.status().message());
    if (flags->Has("symmetrise")) {
      auto policy = (*admin)->Call("PUT", "/v1/admin/graphs/" + std::to_string(id) + "/symmetrise",
                                {{"rule", flags->StringOr("symmetrise", "")}}, 200);
      if (!policy.ok()) return Fail(policy.status().message());
    }
    auto tokens = (*admin)->Call("POST", "/v1/admin/graphs/" + std::to_string(id) + "/tokens",
                              {{"first", 0}, {"count", n}}, 200);
    if (!tokens.ok()) return Fail(tokens.status().message());
    for (const json& t : (*tokens)["tokens"]) {
      devices.push_back({id, static_cast<std::uint32_t>(g), t["user_id"].get<std::uint32_t>(), t["token"]});
    }
  }

  // 2. The devices: each user her own TLS connection, configuration fetch,
  // on-device randomization and upload; --clients of them at a time.
  const fleet::Tally tally = fleet::RunDevices(
      *daemon, devices.size(), *clients, *seed,
      [&](std::size_t i, ldpgraph::RandomSource& rng, fleet::lt::Uploader& uploader)
          -> ldpgraph::Result<fleet::lt::SendOutcome> {
        const Device& d = devices[i];
        auto config = uploader.FetchGraphConfig(d.graph_id);
        if (!config.ok()) return config.status();
        auto builder = ldpgraph::ReportBuilder::Create(*config);
        if (!builder.ok()) return builder.status();
        ldpgraph::UserData data;
        data.user_id = d.user;
        data.neighbours = dataset->graphs[d.graph_index].neighbours(d.user);
        auto report = (*builder)->Build(data, rng);
        if (!report.ok()) return report.status();
        std::vector<std::uint8_t> bytes;
        if (auto s = ldpgraph::EncodeReport(*report, &bytes); !s.ok()) return s;
        return uploader.Send(d.token, bytes);
      });
  std::cout << "graphs=" << dataset->graphs.size() << "\ndevices=" << devices.size() << "\nclients=" << *clients
            << "\ndelivered=" << tally.delivered << "\nrefused=" << tally.refused
            << "\nhandshakes=" << tally.handshakes << "\nseconds=" << tally.seconds
            << "\nreports_per_s=" << static_cast<double>(tally.delivered) / tally.seconds << "\n";
  if (!tally.first_error.empty()) return Fail("first failure: " + tally.first_error);
  return tally.delivered == devices.size() ? 0 : 1;
}
