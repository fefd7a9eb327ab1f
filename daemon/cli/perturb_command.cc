// ldpgraph perturb: read a dataset, perturb every user, write the noisy one.
#include <cstdio>
#include <iostream>
#include <unistd.h>

#include "cli/commands.h"
#include "dataset/graph_dataset.h"
#include "privacy/perturb_dataset.h"
#include "util/flags.h"

namespace ldpgraph {
namespace {

int UsageError(const Status& s) {
  std::fprintf(stderr, "ldpgraph perturb: %s\n", s.message().c_str());
  return 2;
}

int Failure(const Status& s) {
  std::fprintf(stderr, "ldpgraph perturb: %s\n", s.ToString().c_str());
  return 1;
}

}  // namespace

int RunPerturbCommand(const std::vector<std::string>& args) {
  Result<Flags> flags = Flags::Parse(
      args, {"input", "output", "mechanism", "epsilon", "non-private-fraction", "seed", "n-max",
             "locallap-resolution"});
  if (!flags.ok()) return UsageError(flags.status());
  Result<std::string> input = flags->String("input");
  Result<std::string> output = flags->String("output");
  Result<std::string> mechanism_name = flags->String("mechanism");
  if (!input.ok()) return UsageError(input.status());
  if (!output.ok()) return UsageError(output.status());
  if (!mechanism_name.ok()) return UsageError(mechanism_name.status());

  PerturbOptions options;
  if (!ParsePerturbMechanism(*mechanism_name, &options).ok()) {
    return UsageError(Status::InvalidArgument("unknown --mechanism '" + *mechanism_name + "' (" +
                                              kPerturbMechanisms + ")"));
  }
  if (options.mechanism != EdgeMechanism::kNone && !flags->Has("epsilon")) {
    return UsageError(Status::InvalidArgument("--epsilon is required for --mechanism " + *mechanism_name));
  }
  Result<double> epsilon = flags->Double("epsilon", 1.0);
  Result<double> fraction = flags->Double("non-private-fraction", 0.0);
  Result<std::uint64_t> n_max = flags->Unsigned("n-max", 0);
  Result<std::uint64_t> resolution = flags->Unsigned("locallap-resolution", 16);
  if (!epsilon.ok()) return UsageError(epsilon.status());
  if (!fraction.ok()) return UsageError(fraction.status());
  if (!n_max.ok()) return UsageError(n_max.status());
  if (!resolution.ok()) return UsageError(resolution.status());
  if (*n_max > 0xFFFFFFFFull || *resolution > 0xFFFFFFFFull) {
    return UsageError(Status::InvalidArgument("--n-max and --locallap-resolution must fit 32 bits"));
  }
  options.epsilon = *epsilon;
  options.non_private_fraction = *fraction;
  options.n_max = static_cast<std::uint32_t>(*n_max);
  options.locallap_resolution = static_cast<std::uint32_t>(*resolution);
  if (flags->Has("seed")) {
    Result<std::uint64_t> seed = flags->Unsigned("seed", 0);
    if (!seed.ok()) return UsageError(seed.status());
    options.seeded = true;
    options.seed = *seed;
  }
  const bool tty = ::isatty(STDERR_FILENO);
  if (tty) {
    options.progress = [](std::size_t done, std::size_t total) {
      if (done == total || done % 50 == 0) {
        std::fprintf(stderr, "\rperturbing graphs %zu/%zu", done, total);
        if (done == total) std::fputc('\n', stderr);
      }
    };
  }

  Result<GraphDataset> dataset = ReadDataset(*input);
  if (!dataset.ok()) return Failure(dataset.status());
  PerturbSummary summary;
  Result<GraphDataset> noisy = PerturbDataset(*dataset, options, &summary);
  if (!noisy.ok()) return Failure(noisy.status());
  Status written = WriteDataset(*noisy, *output);
  if (!written.ok()) return Failure(written);

  const double users = static_cast<double>(summary.users == 0 ? 1 : summary.users);
  std::cout << "format=" << DatasetFormatName(dataset->format) << "\n"
            << "mechanism=" << *mechanism_name << "\n"
            << "epsilon=" << (options.mechanism == EdgeMechanism::kNone ? 0.0 : options.epsilon) << "\n"
            << "graphs=" << summary.graphs << "\n"
            << "users=" << summary.users << "\n"
            << "non_private_users=" << summary.non_private_users << "\n"
            << "true_edges=" << summary.true_edges << "\n"
            << "noisy_edges=" << summary.noisy_edges << "\n"
            << "mean_true_degree=" << static_cast<double>(summary.true_edges) / users << "\n"
            << "mean_noisy_degree=" << static_cast<double>(summary.noisy_edges) / users << "\n"
            << "seconds=" << summary.seconds << "\n"
            << "output=" << *output << "\n";
  return 0;
}

}  // namespace ldpgraph
