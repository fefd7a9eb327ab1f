// ldpgraph predict: class and probabilities for every graph (GIN) or node
// (GCN, GraphSAGE, GAP) of a dataset, from a model file. A GAP model holds
// its predictions for the graph it was trained on (computing them again
// would aggregate with new noise and spend more budget): the dataset must
// be that graph, and its labels only score them.
#include <cstdio>
#include <fstream>
#include <iostream>

#include "cli/commands.h"
#include "store/model_file.h"
#include "train/node_trainer.h"
#include "train/task_data.h"
#include "util/flags.h"

namespace ldpgraph {
namespace {

void WriteRows(const Matrix& probs, const char* what, std::ostream& out) {
  out << what << ",class";
  for (Eigen::Index c = 0; c < probs.cols(); ++c) out << ",p" << c;
  out << "\n";
  for (Eigen::Index r = 0; r < probs.rows(); ++r) {
    Eigen::Index best;
    probs.row(r).maxCoeff(&best);
    out << r << "," << best;
    for (Eigen::Index c = 0; c < probs.cols(); ++c) out << "," << probs(r, c);
    out << "\n";
  }
}

}  // namespace

int RunPredictCommand(const std::vector<std::string>& args) {
  Result<Flags> flags = Flags::Parse(args, {"model", "dataset", "output"});
  if (!flags.ok()) {
    std::fprintf(stderr, "ldpgraph predict: %s\n", flags.status().message().c_str());
    return 2;
  }
  Result<std::string> model_path = flags->String("model");
  Result<std::string> dataset_path = flags->String("dataset");
  for (const Status* s : {&model_path.status(), &dataset_path.status()}) {
    if (!s->ok()) {
      std::fprintf(stderr, "ldpgraph predict: %s\n", s->message().c_str());
      return 2;
    }
  }
  Result<AnyModel> model = LoadModel(*model_path);
  if (!model.ok()) {
    std::fprintf(stderr, "ldpgraph predict: %s\n", model.status().ToString().c_str());
    return 1;
  }
  Result<GraphDataset> ds = ReadDataset(*dataset_path);
  if (!ds.ok()) {
    std::fprintf(stderr, "ldpgraph predict: %s\n", ds.status().ToString().c_str());
    return 1;
  }
  Matrix probs;
  double accuracy = -1;
  if (model->kind == ModelKind::kGin) {
    Result<GraphTaskData> data = MakeGraphTaskData(*ds, model->gin->config().degree_cap, model->gin->config().size_input);
    if (!data.ok()) {
      std::fprintf(stderr, "ldpgraph predict: %s\n", data.status().message().c_str());
      return 2;
    }
    std::vector<std::uint32_t> ids(data->graphs.size());
    for (std::uint32_t i = 0; i < ids.size(); ++i) ids[i] = i;
    const bool labelled = static_cast<int>(ds->num_classes) == model->gin->config().classes;
    Evaluation e = EvaluateGraphs(model->gin.get(), data->graphs, labelled ? ds->labels : std::vector<std::uint32_t>{},
                                  ids, 64);
    probs = std::move(e.probs);
    if (labelled) accuracy = e.accuracy;
  } else if (model->kind == ModelKind::kGap) {
    const GapModel& gap = *model->gap;
    if (ds->graphs.size() != 1 || static_cast<Eigen::Index>(ds->graphs[0].num_nodes()) != gap.node_probabilities.rows()) {
      std::fprintf(stderr, "ldpgraph predict: this GAP model was trained on a graph of %ld nodes and predicts for "
                   "that graph only; the dataset is not it\n", static_cast<long>(gap.node_probabilities.rows()));
      return 2;
    }
    probs = gap.node_probabilities;
    std::vector<std::uint32_t> labelled;
    std::vector<int> labels(ds->node_labels.begin(), ds->node_labels.end());
    for (std::uint32_t i = 0; i < labels.size(); ++i) {
      if (labels[i] >= 0) labelled.push_back(i);
    }
    if (!labelled.empty() && labels.size() == static_cast<std::size_t>(probs.rows())) {
      accuracy = Accuracy(probs, labels, labelled);
    }
    const GapPrivacyRecord& p = gap.privacy;
    std::cout << "privacy=" << GapPrivacyName(p.level) << "\nepsilon=" << p.epsilon << "\ndelta=" << p.delta
              << "\nnoise_multiplier=" << p.noise_multiplier << "\nnoise_stddev=" << p.noise_stddev << "\n";
  } else {
    Result<NodeTaskData> data = MakeNodeTaskData(*ds, AggregationFor(model->node->config().kind));
    if (!data.ok()) {
      std::fprintf(stderr, "ldpgraph predict: %s\n", data.status().message().c_str());
      return 2;
    }
    if (data->features.cols() != model->node->config().input_dim) {
      std::fprintf(stderr, "ldpgraph predict: the model expects %d features, the dataset has %ld\n",
                   model->node->config().input_dim, static_cast<long>(data->features.cols()));
      return 2;
    }
    std::vector<std::uint32_t> labelled;
    for (std::uint32_t i = 0; i < data->labels.size(); ++i) {
      if (data->labels[i] >= 0) labelled.push_back(i);
    }
    Evaluation e = EvaluateNodes(model->node.get(), data->graph, data->features, data->labels, labelled);
    probs = std::move(e.probs);
    if (!labelled.empty()) accuracy = e.accuracy;
  }
  const char* what = model->kind == ModelKind::kGin ? "graph" : "node";
  if (flags->Has("output")) {
    std::ofstream out(flags->StringOr("output", ""));
    WriteRows(probs, what, out);
    if (!out) {
      std::fprintf(stderr, "ldpgraph predict: cannot write %s\n", flags->StringOr("output", "").c_str());
      return 1;
    }
  }
  std::cout << "model=" << ModelKindName(model->kind) << "\npredictions=" << probs.rows() << "\n";
  if (accuracy >= 0) std::cout << "accuracy=" << accuracy << "\n";
  if (!flags->Has("output")) WriteRows(probs, what, std::cout);
  return 0;
}

}  // namespace ldpgraph
