// FedCog-SGC (seed 002, Algorithm 1): the parties of a coupled graph train
// one node classifier without sharing raw data.
//   1. Propagation, once: K rounds of the decoupled layer without weights
//      (internal propagation, exchange of partial sums, border propagation)
//      give every party its users' rows of (D^-1/2 (A + I) D^-1/2)^K X, as
//      SGC on the whole graph would.
//   2. Federated training: each round every party computes the gradient of
//      its own users' loss at the shared weights; the parameter server
//      averages them weighted by each party's share of the training users
//      (sum_i p_i g_i) and takes an Adam step. With every party in every
//      round this is the gradient of the whole training set's mean loss, so
//      the model is the centralised one's up to float rounding.
// Here every party runs in this process (the experiments and tests); the
// parties' own processes exchange the same messages over the network.
#ifndef LDPGRAPH_DAEMON_FEDERATION_FEDERATED_SGC_H_
#define LDPGRAPH_DAEMON_FEDERATION_FEDERATED_SGC_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "engine/matrix.h"
#include "federation/coupled_graph.h"

namespace ldpgraph {

// Step 1 for all parties: each party's users' propagated features.
// `features` holds each party's users' rows in its local order.
// Errors: kInvalidArgument for steps < 0 or a size mismatch; the layer's.
Result<std::vector<Matrix>> DecoupledPropagate(const std::vector<PartyGraph>& parties,
                                               const std::vector<Matrix>& features, int steps,
                                               std::uint64_t* bytes_exchanged = nullptr);

// What a party holds for training: its users' labels (-1 unknown) and which
// of its users (local ids) train, validate and test.
struct PartyTask {
  std::vector<int> labels;
  std::vector<std::uint32_t> train, val, test;
};

struct FederatedSgcOptions {
  int max_epochs = 200;  // rounds
  float lr = 0.2f;
  // GCN's usual 5e-4 (Kipf and Welling). On Cora (K = 2, 5 splits) 5e-5
  // gave 0.869, 5e-4 0.882, the same splits' GCN 0.881.
  float weight_decay = 5e-4f;
  std::uint64_t seed = 0;  // the weights' initialisation
};

struct FederatedSgcRun {
  double val_accuracy = 0, test_accuracy = 0;  // over all parties' users, at the best round
  int best_epoch = 0;
  std::uint64_t training_bytes = 0;  // gradients up and weights down, every round
  std::vector<Matrix> weights;       // the best round's: {W (width x classes), b (1 x classes)}
};

// What a party answers in one round, at the weights it was sent: the
// gradient of its own training users' mean loss (when asked), and how many
// of its validation and test users those weights classify right.
struct PartyRound {
  std::vector<Matrix> gradient;  // like the weights; empty when not asked
  std::size_t train = 0, val = 0, val_right = 0, test = 0, test_right = 0;
};

// The party's side: `weights` = {W, b}. Errors: kInvalidArgument when the
// weights do not fit the features or a label is outside [0, W's columns).
Result<PartyRound> PartyRoundAt(const Matrix& propagated, const PartyTask& task, const std::vector<Matrix>& weights,
                                bool gradient);

// Class scores of every row at `weights` (the party's predictions).
Matrix SgcScores(const Matrix& propagated, const std::vector<Matrix>& weights);

// How the parameter server reaches party p: in this process, or over the
// network (federation/coordinator.h).
using PartyRoundCall = std::function<Result<PartyRound>(std::size_t party, const std::vector<Matrix>& weights,
                                                        bool gradient)>;
// After each round: (round, its validation accuracy); false stops the training.
using RoundProgress = std::function<bool(int round, double val_accuracy)>;

// The parameter server's loop, shared by both: each round sends the
// weights, averages the parties' gradients by their share of the training
// users, takes an Adam step, and keeps the weights that validate best
// (round e's counts arrive with round e + 1's gradients; one last call
// without a gradient counts the final weights). Errors: kInvalidArgument
// for classes < 2, width < 1 or no training user; the calls' errors;
// kFailedPrecondition when `progress` says stop.
Result<FederatedSgcRun> DriveFederatedSgc(std::size_t parties, int width, int classes,
                                          const FederatedSgcOptions& options, const PartyRoundCall& call,
                                          const RoundProgress& progress = nullptr);

// Step 2 on the propagated features. Errors: kInvalidArgument when the
// parties' inputs disagree in number or width, classes < 2, or no party
// has a training user.
Result<FederatedSgcRun> TrainFederatedSgc(const std::vector<Matrix>& propagated, const std::vector<PartyTask>& tasks,
                                          int classes, const FederatedSgcOptions& options);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_FEDERATION_FEDERATED_SGC_H_
