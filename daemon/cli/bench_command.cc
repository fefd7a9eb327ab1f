// ldpgraph bench <what>: benchmarks that print key=value figures.
#include <cstdio>
#include <iostream>

#include "bench/perturb_bench.h"
#include "cli/commands.h"
#include "util/flags.h"

namespace ldpgraph {

int RunBenchCommand(const std::vector<std::string>& args) {
  if (args.empty() || args[0] != "perturb") {
    std::fprintf(stderr, "usage: ldpgraph bench perturb [--users N] [--degree D] [--epsilon E] "
                         "[--reports R] [--baseline-reports B]\n");
    return 2;
  }
  Result<Flags> flags = Flags::Parse({args.begin() + 1, args.end()},
                                     {"users", "degree", "epsilon", "reports", "baseline-reports"});
  if (!flags.ok()) {
    std::fprintf(stderr, "ldpgraph bench perturb: %s\n", flags.status().message().c_str());
    return 2;
  }
  PerturbBenchOptions o;
  Result<std::uint64_t> users = flags->Unsigned("users", o.users);
  Result<std::uint64_t> degree = flags->Unsigned("degree", o.degree);
  Result<double> epsilon = flags->Double("epsilon", o.epsilon);
  Result<std::uint64_t> reports = flags->Unsigned("reports", o.reports);
  Result<std::uint64_t> baseline = flags->Unsigned("baseline-reports", o.baseline_reports);
  for (const Status* s : {&users.status(), &degree.status(), &epsilon.status(), &reports.status(),
                          &baseline.status()}) {
    if (!s->ok()) {
      std::fprintf(stderr, "ldpgraph bench perturb: %s\n", s->message().c_str());
      return 2;
    }
  }
  if (*users > 0xFFFFFFFFull || *degree > 0xFFFFFFFFull || *reports == 0 || *baseline == 0) {
    std::fprintf(stderr, "ldpgraph bench perturb: --users and --degree must fit 32 bits; "
                         "--reports and --baseline-reports must be positive\n");
    return 2;
  }
  o.users = static_cast<std::uint32_t>(*users);
  o.degree = static_cast<std::uint32_t>(*degree);
  o.epsilon = *epsilon;
  o.reports = *reports;
  o.baseline_reports = *baseline;
  Status s = RunPerturbBench(o, std::cout);
  if (!s.ok()) {
    std::fprintf(stderr, "ldpgraph bench perturb: %s\n", s.ToString().c_str());
    return 1;
  }
  return 0;
}

}  // namespace ldpgraph
