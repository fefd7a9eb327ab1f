// What a stored model predicts now, for the admin's predictions
// (learning_api) and each device's own result (result_api): the graph is
// assembled from the reports as they are (those that arrived since the
// training count), as the model was trained.
#ifndef LDPGRAPH_DAEMON_API_MODEL_PREDICTIONS_H_
#define LDPGRAPH_DAEMON_API_MODEL_PREDICTIONS_H_

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/service_context.h"
#include "graph/symmetrise.h"
#include "ldpgraph/graph_config.h"
#include "store/model_file.h"

namespace ldpgraph {

// What predicting `answers` ids for graphs of `users` users in all holds at
// its peak: the assembled rows (128 bytes a user: ids, offsets), their
// edges (kPeakBytesPerReportByte for each byte of the stored reports, which
// bound the neighbour ids they list: a dense RR graph at a low epsilon is
// mostly edges, issue 66), each layer's input and output over every user,
// and the answer's text twice (written, then sent), about 48 + 24 bytes a
// class per prediction. `ldpgraph bench admin` compares it with the
// measured peak, on a sparse graph and on a dense RR graph.
std::uint64_t PredictionMemory(std::uint64_t users, int hidden, int layers, std::uint64_t input_width,
                               std::uint64_t answers, std::uint64_t classes, std::uint64_t report_bytes);

// Bytes held at the peak of assembling and predicting, for each byte of
// the graph's stored reports: a listed id becomes a row entry (4 bytes,
// doubled while its vector grows), its twin when the rule symmetrises
// (twice again), and the model's normalised copy of the adjacency
// (measured: 23 on a dense RR graph of 4,000 users, `ldpgraph bench admin`).
constexpr std::uint64_t kPeakBytesPerReportByte = 28;

// The bytes of the stored reports of `graphs` as of `round` (each user's
// newest up to it; a node model's or job's round), for PredictionMemory.
// Errors: the store's.
Result<std::uint64_t> StoredReportBytes(ServiceContext& ctx, const std::vector<GraphConfig>& graphs,
                                        std::uint32_t round = kNewestRound);

// Each graph's symmetrisation policy as its admin set it ("none" by
// default). Errors: the store's; kDataLoss for a stored rule it cannot read.
Result<std::vector<Symmetrisation>> SymmetrisationPolicies(ServiceContext& ctx, const std::vector<GraphConfig>& graphs);

// Every user's class probabilities (a row each) under node model `model`
// (about: its summary) on `graph`; a model trained on a denoised graph
// gives the ones it stored then. Errors: the assembly's; kDataLoss for a
// model file that predicts fewer users than the graph has.
Result<Matrix> NodeModelProbabilities(ServiceContext& ctx, const nlohmann::json& about, const AnyModel& model,
                                      const GraphConfig& graph);

// Each graph's class probabilities (a row each) under graph model `model`
// (GIN), symmetrised as the model was trained or by each graph's policy.
Result<Matrix> GraphModelProbabilities(ServiceContext& ctx, const nlohmann::json& about, const AnyModel& model,
                                       const std::vector<GraphConfig>& graphs);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_API_MODEL_PREDICTIONS_H_
