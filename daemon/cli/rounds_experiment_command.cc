// ldpgraph experiment rounds: a graph collected in rounds while its friend
// lists change (experiments/rounds_experiment.h).

#include <cstdio>

#include "cli/commands.h"
#include "dataset/graph_dataset.h"
#include "experiments/rounds_experiment.h"
#include "util/flags.h"

namespace ldpgraph {
namespace {

int Usage(const std::string& message) {
  std::fprintf(stderr, "ldpgraph experiment rounds: %s\n", message.c_str());
  return 2;
}

}  // namespace

int RunRoundsExperimentCommand(const std::vector<std::string>& args) {
  Result<Flags> flags = Flags::Parse(args,
                                     {"dataset", "out", "rounds", "change-users", "change-friends", "mechanisms",
                                      "epsilons", "model", "splits", "epochs", "seed", "jobs", "no-fresh"},
                                     {"no-fresh"});
  if (!flags.ok()) return Usage(flags.status().message());
  RoundsExperimentOptions o;
  Result<std::string> path = flags->String("dataset");
  Result<std::string> out = flags->String("out");
  Result<std::uint64_t> rounds = flags->Unsigned("rounds", static_cast<std::uint64_t>(o.rounds));
  Result<double> users = flags->Double("change-users", o.churn.user_fraction);
  Result<double> friends = flags->Double("change-friends", o.churn.friend_fraction);
  Result<std::vector<std::string>> mechanisms = flags->StringList("mechanisms", o.mechanisms);
  Result<std::vector<double>> epsilons = flags->DoubleList("epsilons", o.edge_epsilons);
  Result<std::uint64_t> splits = flags->Unsigned("splits", static_cast<std::uint64_t>(o.splits));
  Result<std::uint64_t> epochs = flags->Unsigned("epochs", static_cast<std::uint64_t>(o.max_epochs));
  Result<std::uint64_t> seed = flags->Unsigned("seed", o.churn.seed);
  Result<std::uint64_t> jobs = flags->Unsigned("jobs", 2);
  for (const Status* s : {&path.status(), &out.status(), &rounds.status(), &users.status(), &friends.status(),
                          &mechanisms.status(), &epsilons.status(), &splits.status(), &epochs.status(),
                          &seed.status(), &jobs.status()}) {
    if (!s->ok()) return Usage(s->message());
  }
  if (*rounds < 1 || *rounds > 1000 || *splits < 1 || *splits > 1000 || *epochs < 1 || *epochs > 100000 ||
      *jobs < 1 || *jobs > 256) {
    return Usage("need 1 <= --rounds <= 1000, 1 <= --splits <= 1000, 1 <= --epochs <= 10^5, 1 <= --jobs <= 256");
  }
  o.rounds = static_cast<int>(*rounds);
  o.churn.user_fraction = *users;
  o.churn.friend_fraction = *friends;
  o.churn.seed = *seed;
  o.mechanisms = *mechanisms;
  o.edge_epsilons = *epsilons;
  o.model = flags->StringOr("model", o.model);
  o.fresh = !flags->Has("no-fresh");
  o.splits = static_cast<int>(*splits);
  o.max_epochs = static_cast<int>(*epochs);
  o.jobs = static_cast<int>(*jobs);
  o.out_dir = *out;
  Result<GraphDataset> ds = ReadDataset(*path);
  if (!ds.ok()) return Usage(ds.status().ToString());
  const Status s = RunRoundsExperiment(*ds, o);
  if (s.code() == StatusCode::kInvalidArgument) return Usage(s.message());
  if (!s.ok()) {
    std::fprintf(stderr, "ldpgraph experiment rounds: %s\n", s.ToString().c_str());
    return 1;
  }
  std::printf("results=%s/results.csv\nsummary=%s/summary.csv\n", out->c_str(), out->c_str());
  return 0;
}

}  // namespace ldpgraph
