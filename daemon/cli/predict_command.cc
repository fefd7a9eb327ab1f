// ldpgraph predict: class and probabilities for every graph (GIN) or node
// (GCN, GraphSAGE, GAP) of a dataset, from a model file
// (prediction/dataset_prediction.h).
#include <cstdio>
#include <fstream>
#include <iostream>

#include "cli/commands.h"
#include "prediction/dataset_prediction.h"
#include "store/model_file.h"
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
  Result<DatasetPrediction> prediction = PredictDataset(*model, *ds);
  if (!prediction.ok()) {
    std::fprintf(stderr, "ldpgraph predict: %s\n", prediction.status().message().c_str());
    return 2;
  }
  if (model->kind == ModelKind::kGap) {
    const GapPrivacyRecord& p = model->gap->privacy;
    std::cout << "privacy=" << GapPrivacyName(p.level) << "\nepsilon=" << p.epsilon << "\ndelta=" << p.delta
              << "\nnoise_multiplier=" << p.noise_multiplier << "\nnoise_stddev=" << p.noise_stddev << "\n";
  }
  const Matrix& probs = prediction->probabilities;
  const double accuracy = prediction->accuracy;
  const char* what = model->kind == ModelKind::kGin ? "graph" : "node";
  if (flags->Has("output")) {
    std::ofstream out(flags->StringOr("output", ""));
    WriteRows(probs, what, out);
    if (!out) {
      std::fprintf(stderr, "ldpgraph predict: cannot write %s\n", flags->StringOr("output", "").c_str());
      return 1;
    }
  }
  const bool progressive = model->kind == ModelKind::kGap && model->gap->progressive();
  std::cout << "model=" << (progressive ? "progap" : ModelKindName(model->kind)) << "\npredictions=" << probs.rows()
            << "\n";
  if (accuracy >= 0) std::cout << "accuracy=" << accuracy << "\n";
  if (!flags->Has("output")) WriteRows(probs, what, std::cout);
  return 0;
}

}  // namespace ldpgraph
