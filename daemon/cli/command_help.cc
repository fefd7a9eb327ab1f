#include "cli/command_help.h"

#include <algorithm>
#include <cstddef>

#include "cli/commands.h"

namespace ldpgraph {
namespace {

std::vector<CommandHelp> MakeEntries() {
  return {
      {"perturb", "perturb every user of a dataset as her device would",
       "  --input PATH                 a graph dataset (TU or s2v format)\n"
       "  --mechanism M                dprr | dprr-fixed | rr | rr-degree | locallap | none\n"
       "  --epsilon E                  edge epsilon per user\n"
       "  --output PATH                the perturbed dataset (s2v format)\n"
       "  [--non-private-fraction A]   share of users who disclose their lists (0)\n"
       "  [--seed S]                   (OS CSPRNG when absent)\n"
       "  [--n-max N]                  the public bound on a graph's users (each graph's own size)\n",
       "ldpgraph perturb --input ../shared/data/graphs/MUTAG/MUTAG.txt --mechanism dprr --epsilon 1 "
       "--output /tmp/mutag-dprr.txt"},
      {"train", "train a classifier and print test_accuracy= and test_auc=",
       "  --dataset PATH               a graph dataset (GIN) or a node dataset folder (GCN, SAGE, GAP, ProGAP)\n"
       "  [--model gin|gcn|sage|gap|progap] (gin)\n"
       "  [--epochs N] [--seed S]      (the model's defaults; 0)\n"
       "  [--out model.bin]            save the model file\n"
       "  gin: [--products float|bf16] (float; bf16: bfloat16 Linear products on Intel AMX)\n"
       "       [--colour-classes on|off] (on: layers run once per Weisfeiler-Lehman class)\n"
       "  gin, gcn, sage: [--gathers auto|float|bf16] (auto: bfloat16 neighbour sums past 32 MB)\n"
       "  gap, progap: --privacy edge|node --epsilon E [--delta D] [--hops K] [--classifier-epochs N]\n"
       "       node: [--max-degree D] [--batch-size B] [--clip C]; gap: [--residual auto|on|off]\n",
       "ldpgraph train --dataset ../shared/data/graphs/MUTAG/MUTAG.txt --model gin --epochs 50 --out /tmp/mutag.bin"},
      {"predict", "classes and probabilities from a model file",
       "  --model model.bin            a file written by train --out\n"
       "  --dataset PATH               the graphs or nodes to classify\n"
       "  [--output predictions.csv]   (standard output)\n",
       "ldpgraph predict --model /tmp/mutag.bin --dataset ../shared/data/graphs/MUTAG/MUTAG.txt"},
      {"generate", "synthetic datasets: communities, Barabasi-Albert or Erdos-Renyi graphs, or an SBM node dataset",
       "  --output PATH                a graph dataset (s2v), or for sbm a node dataset folder (CSV)\n"
       "  [--kind communities|ba|er|sbm] (communities)\n"
       "  [--graphs N] [--min-nodes A --max-nodes B] [--seed S]\n"
       "  ba: [--nodes N --m M]        er: [--nodes N --p P]      communities: [--degree D]\n"
       "  sbm: [--nodes N] [--degree D] [--classes C] [--homophily H] [--features F] [--words W]\n"
       "       [--signal S]            (10000, 10, 4, 0.6, 500, 10, 0.1)\n"
       "       [--class-shares A,B,..] each class's share of the users (equal)\n"
       "       [--degree-exponent G]   degree-corrected: power-law expected degrees, G in (2, 10] (0: off)\n"
       "       [--max-degree M]        their cap (n - 1)\n"
       "       [--bridge-fraction B]   degree-corrected: users whose friends ignore class (0)\n"
       "       [--misfit-fraction M]   users labelled regardless of their community (0)\n",
       "ldpgraph generate --kind sbm --nodes 22470 --degree 15.2 --degree-exponent 2.4 --max-degree 709 "
       "--class-shares 0.289,0.148,0.257,0.306 --homophily 0.885 --features 4714 --words 14 --output /tmp/social"},
      {"bench perturb", "the SDK's DPRR against a per-bit implementation",
       "  [--users N] [--degree D] [--epsilon E]       (1000000, 100, 1)\n"
       "  [--reports R] [--baseline-reports B]         timed reports (200000, 50)\n",
       "ldpgraph bench perturb --users 1000000 --degree 100 --epsilon 1"},
      {"bench gin", "seconds per GIN-0 training epoch on a dataset's 75% split",
       "  --dataset PATH\n"
       "  [--epochs E] [--threads T]                   (3, every core)\n"
       "  [--products float|bf16] [--colour-classes on|off] [--gathers auto|float|bf16] (float, on, auto)\n",
       "ldpgraph bench gin --dataset ../shared/data/graphs/REDDIT-BINARY.txt --epochs 3"},
      {"bench node", "seconds per GCN / GraphSAGE training epoch on a CSV node dataset",
       "  --dataset PATH\n"
       "  [--model gcn|sage] [--epochs E] [--hidden H] [--threads T] (gcn, 20, 16, every core)\n"
       "  [--gathers auto|float|bf16]                  (auto)\n",
       "ldpgraph bench node --dataset pages --model gcn --epochs 20"},
      {"bench lpgnn", "one LPGNN training with multi-bit features: the reports kept sparse against the dense path",
       "  --dataset PATH\n"
       "  [--model gcn|sage] [--feature-epsilon E] [--label-epsilon E] [--kx K]   (gcn, 1, 1, 4)\n"
       "  [--epochs E] [--paths factored,dense] [--threads T]                    (500, factored, every core)\n",
       "ldpgraph bench lpgnn --dataset /tmp/social --paths factored,dense"},
      {"bench gemm", "the Linear layers' products against one core's multiply-add peak",
       "  [--rows N] [--seconds S]                     (20000, 1)\n", "ldpgraph bench gemm"},
      {"bench gw", "predicts how long GW between every pair of a dataset's graphs takes, from a sample",
       "  --dataset PATH\n"
       "  [--pairs 2000] [--threads 2] [--seed 0]\n",
       "ldpgraph bench gw --dataset ../shared/data/graphs/PROTEINS/PROTEINS.txt"},
      {"bench ingest", "reports per second through TLS, the SDK uploader and the durable store",
       "  [--connections C] [--reports R] [--degree D] [--epsilon E] (64, 200000, 10, 1)\n"
       "  [--server-threads T] [--handshakes H] [--pipeline P]     (1, 256, 1)\n"
       "  [--dir DIR]                                  (a fresh directory under /tmp)\n"
       "  [--store sqlite,postgresql] [--daemons 1,2]  every setting in one run (sqlite: 1 daemon)\n"
       "  [--store-connection CONNINFO]                (postgresql; password: LDPGRAPH_STORE_PASSWORD;\n"
       "                                                default: a scratch cluster the run starts)\n",
       "ldpgraph bench ingest --connections 64 --reports 200000 --pipeline 16 --store sqlite,postgresql --daemons 1,2"},
      {"bench admin", "/healthz latency while an upload, a GAP job, a GW query and a prediction run at once",
       "  [--users N]                  the reported graph predicted whole (100000)\n"
       "  [--held-nodes N]             the held graph uploaded (200000)\n"
       "  [--gap-nodes N]              the held graph GAP trains on (20000)\n"
       "  [--gw-nodes N]               each embedding graph GW compares (1000)\n"
       "  [--probe-ms MS]              between two /healthz probes (5)\n"
       "  [--dir DIR]                  (a fresh directory under /tmp)\n",
       "ldpgraph bench admin"},
      {"bench assemble", "graph assembly from a real SQLite or PostgreSQL store",
       "  [--users N] [--degree D] [--epsilon E]       (1000000, 10, 1)\n"
       "  [--symmetrise none|or|and] [--dir DIR]       (none, a fresh directory under /tmp)\n"
       "  [--store sqlite|postgresql] [--store-connection CONNINFO]  (a scratch cluster by default)\n",
       "ldpgraph bench assemble --users 1000000"},
      {"bench linkldp", "link-LDP denoising at scale",
       "  [--users N] [--degree D]                     (1000000, 10)\n"
       "  [--mechanism dprr|rr-degree] [--epsilon E]   (dprr, 1)\n"
       "  [--output hard|soft|hybrid] [--threads T]    (hybrid, every core)\n"
       "  [--dataset PATH]     a node dataset's graph instead, then training on its reports\n"
       "  [--train ours|blink|none] [--model gcn|sage]  (ours, gcn; true features and labels)\n",
       "ldpgraph bench linkldp --users 1000000 --degree 10"},
      {"experiment dprr", "GIN-0 accuracy on graphs perturbed by each edge mechanism",
       "  --dataset PATH --out DIR\n"
       "  [--mechanisms LIST]          dprr,dprr-or,dprr-disclosed,dprr-disclosed-or,dprr-fixed,rr,locallap,\n"
       "                               nonpriv-part,nonpriv-full,no-edges\n"
       "  [--epsilons LIST] [--alphas LIST] [--splits K] [--epochs N] [--jobs J]\n"
       "  [--patience P] [--min-epochs M] early stopping on validation loss (30, 100)\n"
       "  [--reuse DIR,...]            copy rows of the same settings from earlier studies\n"
       "  [--node-input constant|degree|size|degree+size]\n",
       "ldpgraph experiment dprr --dataset ../shared/data/graphs/MUTAG/MUTAG.txt --out /tmp/dprr --splits 2"},
      {"experiment degree", "true against noisy degree of every user (CSV, SVG)",
       "  --dataset PATH --out DIR\n"
       "  [--mechanisms dprr,rr,locallap] [--epsilon E] [--seed S]\n",
       "ldpgraph experiment degree --dataset ../shared/data/graphs/MUTAG/MUTAG.txt --out /tmp/degree"},
      {"experiment scaling", "server time against n on Barabasi-Albert graphs (CSV, SVG)",
       "  --out DIR\n"
       "  [--ms 3,5] [--sizes LIST] [--mechanisms dprr,rr,locallap] [--graphs G] [--epochs E]\n"
       "  [--rr-max-nodes N] [--locallap-max-nodes N] [--gathers auto|float|bf16]\n",
       "ldpgraph experiment scaling --out /tmp/scaling --sizes 1000,10000"},
      {"experiment lpgnn", "node classification with private features, labels and edges (LPGNN)",
       "  --dataset PATH --out DIR\n"
       "  [--models sage,gcn] [--feature-mechanisms mbm,1bm,laplace] [--feature-epsilons LIST]\n"
       "  [--label-methods ce,fc,drop] [--label-epsilons LIST] [--edge-epsilons LIST]\n"
       "  [--kx LIST] [--ky LIST] [--splits K] [--jobs J]\n"
       "  [--hidden H] [--dropout P] [--weight-decay W] [--epochs E]\n"
       "  [--select-on loss|accuracy] [--patience P] [--min-epochs M] (loss, 30, 100)\n"
       "  [--validate-on propagated|noisy|estimated]  private labels: validate against the labels\n"
       "                               propagated by label KProp, as they are, or whichever is\n"
       "                               estimated right most often (estimated)\n"
       "  [--propagate-validation-labels yes|no]  whether Drop's KProp spreads them (yes)\n"
       "  [--node-order auto|as-given|rcm|degree]  users renumbered before training, each\n"
       "                               keeping what is hers (auto: rcm from 2^18 users)\n"
       "  inf in an epsilon list: no privacy for that part\n",
       "ldpgraph experiment lpgnn --dataset ../shared/data/nodes/cora --out /tmp/lpgnn --feature-epsilons 1 "
       "--label-epsilons 1 --splits 1"},
      {"experiment linkldp", "link LDP: node models on denoised graphs against raw DPRR and RR",
       "  --dataset PATH --out DIR\n"
       "  [--models gcn,sage]\n"
       "  [--methods LIST]             mlp,nonprivate,dprr,rr,blink-hard,blink-soft,blink-hybrid,\n"
       "                               ours-soft,ours-hybrid,ours (all)\n"
       "  [--epsilons 1,2,4,5,8]       edge epsilons\n"
       "  [--features true,private]    the features as they are, or multi-bit LDP with RR labels\n"
       "  [--feature-epsilon 1] [--label-epsilon 1] [--splits 10] [--jobs 2]\n"
       "  [--soft-degree-multiple M]   soft graphs: pairs kept per user, times her degree estimate\n"
       "                               (default: 4 to 64, as a budget of 2^21 pairs allows)\n",
       "ldpgraph experiment linkldp --dataset ../shared/data/nodes/cora --out /tmp/linkldp --epsilons 4 --splits 2"},
      {"experiment rounds", "reports over months: accuracy and each user's loss while friend lists change",
       "  --dataset PATH --out DIR     one node-classification graph (true features and labels)\n"
       "  [--rounds 20] [--change-users 0.1] [--change-friends 0.1]\n"
       "                               each round this share of users changes this share of friends\n"
       "  [--mechanisms rr-degree,dprr] [--epsilons 4] [--model gcn|sage] [--no-fresh]\n"
       "  [--splits 3] [--epochs 500] [--seed 1] [--jobs 2]\n"
       "                               key=value figures per setting; charts beside results.csv\n",
       "ldpgraph experiment rounds --dataset ../shared/data/nodes/cora --out /tmp/rounds --rounds 5 --splits 1"},
      {"experiment gap", "GAP (edge- and node-level DP) against the MLP without edges and non-private GCN/SAGE",
       "  --dataset PATH --out DIR\n"
       "  [--epsilons 0.5,1,2,4,8,inf] [--splits 5] [--hops 2] [--epochs 100] [--jobs J]\n"
       "  [--levels edge,node] [--max-degree D] [--batch-size B]\n"
       "  [--models gap,progap]        GAP (the paper's classifier and the residual one), ProGAP (gap)\n",
       "ldpgraph experiment gap --dataset ../shared/data/nodes/cora --out /tmp/gap --epsilons 1,8 --splits 2"},
      {"experiment audit",
       "attacks on every system's release (edge-inclusion game, membership) next to the AUC epsilon allows",
       "  --dataset PATH --out DIR\n"
       "  [--systems gcn,mlp,dprr,rr,blink,ours,gap-edp,gap-ndp,mlp-dp] [--epsilons 0.5,1,2,4,8]\n"
       "  [--splits 3] [--targets 1000] [--epochs 100] [--jobs 2]   exit 1 when an AUC is above its bound\n",
       "ldpgraph experiment audit --dataset ../shared/data/nodes/cora --out /tmp/audit --epsilons 1,4 --splits 1"},
      {"experiment fedcog", "FedCog: one GCN over a graph split among parties, against local and central training",
       "  --dataset PATH --out DIR\n"
       "  [--partitions random,community] [--parties 2,3,5,10]\n"
       "  [--methods LIST]             fedcog,fedcog-lnnc,local,centralised,gcn (these), or fedcog-tls\n"
       "                               (the parties as real ldpgraphd processes on loopback TLS)\n"
       "  [--steps 2] [--splits 5] [--jobs 2]\n"
       "  [--ldpgraphd PATH]           for fedcog-tls (the ldpgraphd beside this binary)\n",
       "ldpgraph experiment fedcog --dataset ../shared/data/nodes/cora --out /tmp/fedcog --parties 3 --splits 1"},
      {"experiment gw", "GW-LDP: SVM and k-NN on GW of graphs and of their LDP node embeddings, against epsilon",
       "  --dataset PATH --out DIR\n"
       "  [--methods adjacency,gin,gcn,blind] [--epsilons 0.1,1,8,64,512,inf]\n"
       "                               gin, gcn and blind also as gin-summary, ...: the summary encoder\n"
       "  and ldpgraph gw's solver and training flags (ldpgraph gw --help)\n",
       "ldpgraph experiment gw --dataset ../shared/data/graphs/MUTAG/MUTAG.txt --out /tmp/gw --methods gin "
       "--epsilons 8"},
      {"experiment report", "Markdown of every result folder (summary.csv, about.md, SVGs)",
       "  --results DIR [--link-prefix PATH]\n", "ldpgraph experiment report --results docs/results"},
      {"daemon", "a running ldpgraphd's admin API: graphs, tokens, jobs, models, predictions, held graphs",
       DaemonUsage(), "ldpgraph daemon graphs --daemon https://127.0.0.1:8443 --ca ca.crt --admin-token-file token"},
      {"federation", "FedCog among ldpgraphd parties: start, status, runs, cancel, models, model, predict, pki",
       FederationUsage(), "ldpgraph federation pki --dir /tmp/pki --parties north,east,west"},
      {"gw", "graph classification by Gromov-Wasserstein: every pair's (F)GW, an SVM and k-NN per fold", GwUsage(),
       "ldpgraph gw --dataset ../shared/data/graphs/MUTAG/MUTAG.txt --embeddings gin --epsilon 8"},
      {"audit mechanisms", "attack every shipped mechanism and bound its epsilon from below; broken doubles must be caught",
       "  [--trials 1000000] [--confidence 0.95] [--epsilon 1] [--only NAME] [--broken on|off] [--seed S]\n"
       "  exit 1 when a lower bound exceeds its claim or a broken double is missed\n",
       "ldpgraph audit mechanisms --trials 200000"},
      {"audit rounds", "the longitudinal edge game over 100 rounds, memoised and with fresh noise (which must lose)",
       "  [--mechanism rr|dprr|rr-degree] [--epsilon 1] [--trials 2000] [--seed 1]\n"
       "  exit 1 when memoised rounds tell more than one, or fresh noise does not\n",
       "ldpgraph audit rounds --mechanism dprr"},
      {"audit model", "attack a node model: link stealing (lsa), LinkTeller, membership inference (mia); AUC",
       "  --model FILE --dataset PATH [--attack lsa|linkteller|mia] [--pairs 100000 (linkteller 1000)] [--seed 0]\n"
       "  [--split-seed 0]   mia: the --seed the model was trained with (members: its training users)\n",
       "ldpgraph audit model --model /tmp/cora.model --dataset ../shared/data/nodes/cora"},
      {"version", "print the version", "", "ldpgraph version"},
      {"help", "list every command", "", "ldpgraph help"},
  };
}

// Whether `words` ("bench gin") is a prefix of `args`.
bool Names(const std::string& words, const std::vector<std::string>& args) {
  std::size_t at = 0;
  for (const std::string& arg : args) {
    if (at == words.size()) return true;
    if (words.compare(at, arg.size(), arg) != 0) return false;
    at += arg.size();
    if (at == words.size()) return true;
    if (words[at] != ' ') return false;
    ++at;
  }
  return at == words.size();
}

}  // namespace

const std::vector<CommandHelp>& AllCommandHelp() {
  static const std::vector<CommandHelp> entries = MakeEntries();
  return entries;
}

const CommandHelp* FindCommandHelp(const std::vector<std::string>& words) {
  const CommandHelp* best = nullptr;
  for (const CommandHelp& h : AllCommandHelp()) {
    if (Names(h.words, words) && (best == nullptr || h.words.size() > best->words.size())) best = &h;
  }
  if (best == nullptr && !words.empty()) {
    // A command whose subcommand is unknown or missing ("bench"): its first entry.
    for (const CommandHelp& h : AllCommandHelp()) {
      if (h.words.compare(0, words[0].size() + 1, words[0] + " ") == 0) return &h;
    }
  }
  return best;
}

std::string CommandHelpText(const CommandHelp& h) {
  std::string text = "ldpgraph " + h.words + ": " + h.summary + "\n";
  if (!h.options.empty()) text += "\n" + h.options;
  text += "\nexample:\n  " + h.example + "\n";
  // The other subcommands of the same command.
  const std::string command = h.words.substr(0, h.words.find(' '));
  std::string others;
  for (const CommandHelp& o : AllCommandHelp()) {
    if (&o != &h && o.words.compare(0, command.size() + 1, command + " ") == 0) others += "  ldpgraph " + o.words + "\n";
  }
  if (!others.empty()) text += "\nalso:\n" + others;
  return text;
}

std::string OverviewText() {
  std::string text = "usage: ldpgraph <command> [options]\n\ncommands:\n";
  for (const CommandHelp& h : AllCommandHelp()) {
    std::string name = "  " + h.words;
    name.resize(std::max<std::size_t>(22, name.size() + 1), ' ');  // at least two spaces before the summary
    text += name + " " + h.summary + "\n";
  }
  text += "\nldpgraph <command> --help: its options, defaults and an example. Results are printed as key=value "
          "lines.\n";
  return text;
}

}  // namespace ldpgraph
