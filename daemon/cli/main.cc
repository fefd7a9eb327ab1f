// ldpgraph: the admin, experiment and benchmark CLI of ldpgraph.
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "engine/allocator.h"

namespace {

const char kUsage[] =
    "usage: ldpgraph <command> [options]\n"
    "\n"
    "commands:\n"
    "  perturb   perturb every user of a dataset as her device would\n"
    "            --input PATH --mechanism dprr|dprr-fixed|rr|locallap|none --epsilon E\n"
    "            [--non-private-fraction A] [--seed S] [--n-max N] --output PATH\n"
    "  train     train a classifier and print test_accuracy= and test_auc=\n"
    "            --dataset PATH [--model gin|gcn|sage|gap] [--epochs N] [--seed S] [--out model.bin]\n"
    "            gin: [--products float|bf16]  (bf16: bfloat16 Linear products on Intel AMX)\n"
    "                 [--colour-classes on|off]  (on: layers run once per Weisfeiler-Lehman class)\n"
    "            gin, gcn, sage: [--gathers auto|float|bf16]  (how neighbour sums read their rows; auto:\n"
    "                 bfloat16 past 32 MB of them, where memory bounds the sums)\n"
    "            gap: --privacy edge --epsilon E [--delta D] [--hops K]  (edge-level DP)\n"
    "  predict   classes and probabilities from a model file\n"
    "            --model model.bin --dataset PATH [--output predictions.csv]\n"
    "  bench perturb   the SDK's DPRR against a per-bit implementation\n"
    "            [--users N] [--degree D] [--epsilon E] [--reports R] [--baseline-reports B]\n"
    "  bench gin       seconds per GIN-0 training epoch on a dataset's 75% split\n"
    "            --dataset PATH [--epochs E] [--threads T] [--products float|bf16] [--colour-classes on|off]\n"
    "            [--gathers auto|float|bf16]\n"
    "  bench node      seconds per GCN / GraphSAGE training epoch on a CSV node dataset\n"
    "            --dataset PATH [--model gcn|sage] [--epochs E] [--hidden H] [--threads T]\n"
    "            [--gathers auto|float|bf16]\n"
    "  bench gemm      the Linear layers' products against one core's multiply-add peak\n"
    "            [--rows N] [--seconds S]\n"
    "  bench ingest    reports per second through TLS, the uploader and the durable store\n"
    "            [--connections C] [--reports R] [--degree D] [--server-threads T]\n"
    "  bench admin     /healthz latency while an upload, a GAP job, a GW query and a\n"
    "            prediction run at once; each one's memory estimate and peak\n"
    "            [--users N] [--held-nodes N] [--gap-nodes N] [--gw-nodes N] [--probe-ms MS]\n"
    "  generate  synthetic datasets: two kinds of community, or BA / ER graphs (s2v); a node\n"
    "            dataset (CSV folder): communities with bag-of-words features (sbm)\n"
    "            --output PATH [--kind communities|ba|er|sbm] [--graphs N] [--min-nodes A --max-nodes B]\n"
    "            [--nodes N --m M | --p P] [--degree D] [--seed S]\n"
    "            sbm: [--nodes N] [--degree D] [--classes C] [--homophily H] [--features F]\n"
    "            [--words W] [--signal S]  (defaults 10000, 10, 4, 0.6, 500, 10, 0.1)\n"
    "  experiment dprr     GIN-0 accuracy on graphs perturbed by each edge mechanism\n"
    "            --dataset PATH --out DIR [--mechanisms dprr,dprr-or,dprr-disclosed,dprr-disclosed-or,dprr-fixed,rr,locallap,nonpriv-part,nonpriv-full,no-edges]\n"
    "            [--epsilons LIST] [--alphas LIST] [--splits K] [--epochs N] [--jobs J]\n"
    "            [--patience P] [--min-epochs M]  (early stopping on validation loss; defaults 30, 100)\n"
    "            [--reuse DIR,...]  (copy rows of the same settings from studies run with the same options)\n"
    "            [--node-input constant|degree|size|degree+size]  (size: ln of the public number of users)\n"
    "  experiment degree   true vs noisy degree of every user (CSV, SVG)\n"
    "            --dataset PATH --out DIR [--mechanisms dprr,rr,locallap] [--epsilon E] [--seed S]\n"
    "  experiment scaling  server time vs n on Barabasi-Albert graphs (CSV, SVG)\n"
    "            --out DIR [--ms 3,5] [--sizes LIST] [--mechanisms dprr,rr,locallap] [--graphs G] [--epochs E]\n"
    "            [--rr-max-nodes N] [--locallap-max-nodes N] [--gathers auto|float|bf16]\n"
    "  experiment lpgnn    node classification with private features, labels and edges\n"
    "            --dataset PATH --out DIR [--models sage,gcn] [--feature-mechanisms mbm,1bm,laplace]\n"
    "            [--feature-epsilons LIST] [--label-methods ce,fc,drop] [--label-epsilons LIST]\n"
    "            [--edge-epsilons LIST] [--kx LIST] [--ky LIST] [--splits K] [--jobs J]\n"
    "            [--hidden H] [--dropout P] [--weight-decay W] [--epochs E]\n"
    "            [--select-on loss|accuracy] [--patience P] [--min-epochs M]  (which epoch is kept:\n"
    "            lowest validation loss, or LPGNN's best validation accuracy; defaults loss, 30, 100)\n"
    "            (inf in an epsilon list: no privacy for that part)\n"
    "  experiment gap      GAP (edge-level DP) against the MLP without edges and non-private GCN/SAGE\n"
    "            --dataset PATH --out DIR [--epsilons 0.5,1,2,4,8,inf] [--splits 5] [--hops 2] [--epochs 100]\n"
    "            [--jobs J]\n"
    "  experiment gw       GW-LDP: SVM and k-NN on GW of graphs, federated GIN/GCN embeddings and\n"
    "            their LDP encoding, vs epsilon; rows per dataset, one dataset per run\n"
    "            --dataset PATH --out DIR [--methods adjacency,gin,gcn,blind] [--epsilons 0.1,1,8,64,512,inf]\n"
    "            [and ldpgraph gw's solver and training flags]\n"
    "  experiment report   Markdown of every result folder (summary.csv, about.md, SVGs)\n"
    "            --results DIR [--link-prefix PATH]\n"
    "  bench assemble  graph assembly from a real SQLite store (10^6 users by default)\n"
    "            [--users N] [--degree D] [--epsilon E] [--symmetrise none|or|and]\n"
    "  daemon    a running ldpgraphd's admin API: graphs, create-graph, label, train,\n"
    "            job, cancel, models, predict (ldpgraph daemon --help)\n"
    "            --daemon https://HOST:PORT [--ca FILE] [--admin-token-file FILE]\n"
    "  gw        graph classification by Gromov-Wasserstein: every pair's (F)GW, an SVM on\n"
    "            exp(-gamma GW) and k-NN per fold (ldpgraph gw --help)\n"
    "            --dataset PATH [--embeddings adjacency|shortest-path|gin|gcn|blind] [--epsilon E]\n"
    "            [--alpha 0.5] [--out DIR]  (gin, gcn: FedAvg-trained node embeddings)\n"
    "  federation  FedCog among ldpgraphd parties: start, status, runs, cancel, models,\n"
    "            model, predict, pki (ldpgraph federation --help)\n"
    "  version   print the version\n"
    "\n"
    "Results are printed as key=value lines.\n";

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "help") || !std::strcmp(argv[1], "--help") ||
      !std::strcmp(argv[1], "-h")) {
    std::fputs(kUsage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  const std::string command = argv[1];
  // Before anything is allocated: the allocator's settings shape the heap.
  // A command that trains or predicts keeps its freed memory for its whole
  // run (the process ends with it).
  // `bench ingest` and `bench admin` measure the daemon, whose memory is
  // idle between jobs.
  std::vector<std::string> args(argv + 2, argv + argc);
  const bool measures_daemon = command == "bench" && !args.empty() && (args[0] == "ingest" || args[0] == "admin");
  std::optional<ldpgraph::TrainingMemoryScope> memory;
  if ((command == "train" || command == "bench" || command == "predict" || command == "experiment") &&
      !measures_daemon) {
    memory.emplace();
  }
  if (command == "perturb") return ldpgraph::RunPerturbCommand(args);
  if (command == "bench") return ldpgraph::RunBenchCommand(args);
  if (command == "train") return ldpgraph::RunTrainCommand(args);
  if (command == "predict") return ldpgraph::RunPredictCommand(args);
  if (command == "generate") return ldpgraph::RunGenerateCommand(args);
  if (command == "experiment") return ldpgraph::RunExperimentCommand(args);
  if (command == "daemon") return ldpgraph::RunDaemonCommand(args);
  if (command == "federation") return ldpgraph::RunFederationCommand(args);
  if (command == "gw") return ldpgraph::RunGwCommand(args);
  if (command == "version" || command == "--version") {
    std::printf("ldpgraph %s\n", LDPGRAPH_VERSION);
    return 0;
  }
  std::fprintf(stderr, "ldpgraph: unknown command '%s'\n\n%s", command.c_str(), kUsage);
  return 2;
}
