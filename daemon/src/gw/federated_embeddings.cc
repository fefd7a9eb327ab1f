#include "gw/federated_embeddings.h"

#include <algorithm>
#include <memory>

#include "engine/adam.h"
#include "engine/allocator.h"
#include "graph/graph_batch.h"
#include "gw/dirichlet_clients.h"
#include "gw/graph_space.h"
#include "ldpgraph/samplers.h"
#include "models/gin.h"
#include "models/graph_gcn.h"
#include "train/early_stopping.h"
#include "train/graph_trainer.h"
#include "train/model_state.h"

namespace ldpgraph {
namespace {

constexpr int kDegreeCap = 127;

// FedAvg's sum: sum += weight * s (sum empty: the first term).
void AddWeighted(const ModelState& s, float weight, ModelState* sum) {
  if (sum->params.empty()) {
    *sum = s;
    for (Matrix& m : sum->params) m *= weight;
    for (BatchNormStats& b : sum->stats) b.mean *= weight, b.var *= weight;
    return;
  }
  for (std::size_t i = 0; i < s.params.size(); ++i) sum->params[i] += weight * s.params[i];
  for (std::size_t i = 0; i < s.stats.size(); ++i) {
    sum->stats[i].mean += weight * s.stats[i].mean;
    sum->stats[i].var += weight * s.stats[i].var;
  }
}

Result<std::vector<PreparedGraph>> PrepareInputs(const GraphDataset& ds, Aggregation aggregation) {
  const std::vector<Eigen::MatrixXd> tags = OneHotNodeTags(ds);
  std::vector<PreparedGraph> graphs;
  graphs.reserve(ds.graphs.size());
  for (std::size_t g = 0; g < ds.graphs.size(); ++g) {
    if (ds.graphs[g].num_nodes() == 0) {
      return Status::InvalidArgument("graph " + std::to_string(g) + " has no nodes: it has no node embeddings");
    }
    graphs.push_back(PrepareGraph(ds.graphs[g], aggregation, tags.empty() ? kDegreeCap : 0, false));
    if (!tags.empty()) {
      graphs.back().inputs = tags[g].cast<float>();
      if (aggregation == Aggregation::kSumWithSelf) {
        graphs.back().colours = ComputeGraphColours(graphs.back().agg, graphs.back().inputs);
      }
    }
  }
  return graphs;
}

Result<std::unique_ptr<GraphModel>> MakeModel(EmbeddingModel kind, int input_dim, int classes, std::uint64_t seed) {
  if (kind == EmbeddingModel::kGin) {
    GinConfig c;  // the paper's: 5 GIN layers of 64 units
    c.input_dim = input_dim;
    c.classes = classes;
    c.layers = 6;
    c.hidden = 64;
    c.mean_readout = true;  // node scores average to the graph's exactly
    Result<GinModel> m = GinModel::Create(c, seed);
    if (!m.ok()) return m.status();
    return std::unique_ptr<GraphModel>(std::make_unique<GinModel>(std::move(m).value()));
  }
  GraphGcnConfig c;
  c.input_dim = input_dim;
  c.classes = classes;
  Result<GraphGcnModel> m = GraphGcnModel::Create(c, seed);
  if (!m.ok()) return m.status();
  return std::unique_ptr<GraphModel>(std::make_unique<GraphGcnModel>(std::move(m).value()));
}

Status CheckOptions(const GraphDataset& ds, const std::vector<std::uint32_t>& train,
                    const std::vector<std::uint32_t>& test, const FederatedEmbeddingOptions& o) {
  if (o.clients < 1 || !(o.dirichlet_alpha > 0) || o.rounds < 1 || o.local_epochs < 1 || o.batch_size < 1 ||
      !(o.val_fraction > 0 && o.val_fraction < 1) || o.patience < 1) {
    return Status::InvalidArgument("federated embeddings need clients, rounds, local epochs, batch size and patience "
                                   ">= 1, a Dirichlet alpha > 0 and a validation fraction in (0, 1)");
  }
  if (ds.num_classes < 2 || ds.labels.size() != ds.graphs.size()) {
    return Status::InvalidArgument("federated embeddings need a dataset with a label per graph and two classes");
  }
  for (const auto* ids : {&train, &test}) {
    for (std::uint32_t id : *ids) {
      if (id >= ds.graphs.size()) {
        return Status::InvalidArgument("graph index " + std::to_string(id) + " is out of range (" +
                                       std::to_string(ds.graphs.size()) + " graphs)");
      }
    }
  }
  if (train.size() < 2) return Status::InvalidArgument("federated embeddings need at least 2 training graphs");
  return Status::Ok();
}

}  // namespace

Result<EmbeddingModel> ParseEmbeddingModel(const std::string& name) {
  if (name == "gin") return EmbeddingModel::kGin;
  if (name == "gcn") return EmbeddingModel::kGcn;
  return Status::InvalidArgument("embedding model must be gin or gcn, got '" + name + "'");
}

Result<FederatedEmbeddings> TrainFederatedEmbeddings(const GraphDataset& ds, const std::vector<std::uint32_t>& train,
                                                     const std::vector<std::uint32_t>& test,
                                                     const FederatedEmbeddingOptions& o) {
  LDPGRAPH_RETURN_IF_ERROR(CheckOptions(ds, train, test, o));
  Result<std::vector<PreparedGraph>> graphs =
      PrepareInputs(ds, o.model == EmbeddingModel::kGin ? Aggregation::kSumWithSelf : Aggregation::kGcn);
  if (!graphs.ok()) return graphs.status();
  const int classes = static_cast<int>(ds.num_classes);
  Result<std::unique_ptr<GraphModel>> made =
      MakeModel(o.model, static_cast<int>((*graphs)[0].inputs.cols()), classes, o.seed);
  if (!made.ok()) return made.status();
  GraphModel* model = made->get();
  TrainingMemoryScope memory;

  // Each client: its graphs shuffled, the last val_fraction held out.
  SeededRandomSource rng(o.seed ^ 0xfeda7ULL);
  std::vector<std::vector<std::uint32_t>> clients =
      DirichletClients(train, ds.labels, o.clients, o.dirichlet_alpha, o.seed);
  std::vector<std::uint32_t> val;
  for (auto& c : clients) {
    for (std::size_t i = c.size(); i > 1; --i) std::swap(c[i - 1], c[UniformBelow(rng, i)]);
    const std::size_t held = c.size() < 2 ? 0 : std::max<std::size_t>(1, static_cast<std::size_t>(o.val_fraction * c.size()));
    val.insert(val.end(), c.end() - static_cast<std::ptrdiff_t>(held), c.end());
    c.resize(c.size() - held);
  }
  if (val.empty()) val = train;  // every client has one graph: validate on what there is

  ModelState global = SaveModelState(model);
  EarlyStopping<GraphModel> stopping(model, 1, o.patience, true);
  FederatedEmbeddings out;
  std::size_t total = 0;  // training graphs over all clients: FedAvg's weights
  for (const auto& c : clients) total += c.size();
  for (int round = 1; round <= o.rounds; ++round) {
    ModelState sum;
    for (std::vector<std::uint32_t> order : clients) {
      if (order.empty()) continue;
      LoadModelState(global, model);
      Adam adam(model->Parameters(), AdamWith(o.lr));
      for (int epoch = 0; epoch < o.local_epochs; ++epoch) {
        TrainGraphEpoch(model, *graphs, ds.labels, &order, o.batch_size, &adam, rng);
      }
      AddWeighted(SaveModelState(model), static_cast<float>(order.size()) / static_cast<float>(total), &sum);
    }
    global = std::move(sum);
    LoadModelState(global, model);
    const Evaluation v = EvaluateGraphs(model, *graphs, ds.labels, val, 64);
    if (o.on_round) o.on_round(round, v.loss, v.accuracy);
    out.rounds = round;
    if (stopping.Update(round, v.loss)) break;
  }
  stopping.RestoreBest();
  out.best_round = stopping.best_epoch();
  out.val_accuracy = EvaluateGraphs(model, *graphs, ds.labels, val, 64).accuracy;
  if (!test.empty()) out.test_accuracy = EvaluateGraphs(model, *graphs, ds.labels, test, 64).accuracy;

  // Every graph's node embeddings, a batch at a time.
  out.embeddings.resize(ds.graphs.size());
  std::vector<std::uint32_t> all(ds.graphs.size());
  for (std::uint32_t g = 0; g < all.size(); ++g) all[g] = g;
  for (std::size_t b = 0; b < all.size(); b += 64) {
    const std::vector<std::uint32_t> ids(all.begin() + static_cast<std::ptrdiff_t>(b),
                                         all.begin() + static_cast<std::ptrdiff_t>(std::min(all.size(), b + 64)));
    GraphBatch batch = MakeBatch(*graphs, ids, {});
    Tape tape(false, nullptr);
    const Matrix p = Softmax(tape.value(model->NodeScores(tape, batch, tape.Constant(batch.inputs))));
    // The last class's probability is one minus the others': the client
    // leaves it out rather than spend budget on it.
    const Eigen::Index dims = p.cols() - 1;
    for (std::size_t k = 0; k < ids.size(); ++k) {
      out.embeddings[ids[k]] =
          p.middleRows(batch.offsets[k], batch.offsets[k + 1] - batch.offsets[k]).leftCols(dims).cast<double>();
    }
  }
  return out;
}

}  // namespace ldpgraph
