#include "jobs/training_memory.h"

#include <algorithm>

namespace ldpgraph {
namespace {

// Per report byte, at a training job's peak: the assembled rows, their
// normalised copy, KProp's aggregates over them and the model's sparse
// products (measured: 53 on a dense RR graph of 4,000 users, 7.5 MB of
// reports, `ldpgraph bench admin`; a prediction holds about half).
constexpr std::uint64_t kTrainingBytesPerReportByte = 64;
constexpr std::uint64_t kFloat = 4;
// Graphs in one of GIN's training batches (GraphTrainOptions::batch_size
// is 32), with room for the evaluation passes' larger ones.
constexpr std::uint64_t kGinBatchGraphs = 128;

// a + b, saturating: a graph of 2^32 users times a wide model must not wrap.
std::uint64_t Add(std::uint64_t a, std::uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }
std::uint64_t Mul(std::uint64_t a, std::uint64_t b) { return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b; }

}  // namespace

std::uint64_t TrainingMemoryEstimate(const GraphJobRequest& r, std::uint64_t report_bytes) {
  const bool node = r.task == JobTask::kNode;
  std::uint64_t users = 0, largest = 0, dims = 0, classes = 2;
  for (const GraphConfig& g : r.graphs) {
    users = Add(users, g.num_users);
    largest = std::max<std::uint64_t>(largest, g.num_users);
    if (g.features.enabled) dims = std::max<std::uint64_t>(dims, g.features.params.dims);
    if (g.label.enabled) classes = std::max<std::uint64_t>(classes, g.label.classes);
  }
  if (!node) classes = std::max<std::uint64_t>(classes, r.labels.size());
  const std::uint64_t hidden = r.hidden > 0 ? static_cast<std::uint64_t>(r.hidden) : node ? 16 : 64;
  const std::uint64_t layers = node ? 2 : static_cast<std::uint64_t>(std::max(r.layers, 1));
  // A node job trains on every user at once, its input the features; a
  // graph job (GIN) on batches of kGinBatchGraphs graphs, its input a few
  // columns a node (node_input).
  const std::uint64_t input = node ? dims : hidden;
  const std::uint64_t trained_at_once = node ? users : std::min(users, Mul(largest, kGinBatchGraphs));
  const std::uint64_t per_user = 128 + 4 * kFloat * input + 4 * kFloat * classes;
  const std::uint64_t per_trained_user = 16 * kFloat * hidden * layers;
  const std::uint64_t weights = (input * hidden + layers * hidden * hidden + hidden * classes) * 9 * kFloat;
  return Add(Add(Add(Mul(users, per_user), Mul(trained_at_once, per_trained_user)),
                 Mul(report_bytes, kTrainingBytesPerReportByte)),
             weights);
}

}  // namespace ldpgraph
