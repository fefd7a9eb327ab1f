// ldpgraph train: train a classifier on a dataset and report its test metrics.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <unistd.h>

#include "cli/commands.h"
#include "dataset/graph_dataset.h"
#include "train/graph_trainer.h"
#include "util/flags.h"

namespace ldpgraph {
namespace {

int Usage(const std::string& message) {
  std::fprintf(stderr, "ldpgraph train: %s\n", message.c_str());
  return 2;
}

std::vector<PreparedGraph> PrepareAll(const GraphDataset& ds, Aggregation aggregation) {
  std::vector<PreparedGraph> graphs;
  graphs.reserve(ds.graphs.size());
  for (const CsrGraph& g : ds.graphs) graphs.push_back(PrepareGraph(g, aggregation));
  return graphs;
}

}  // namespace

int RunTrainCommand(const std::vector<std::string>& args) {
  Result<Flags> flags = Flags::Parse(args, {"dataset", "model", "epochs", "seed", "out", "hidden", "layers",
                                            "batch-size", "lr", "readout"});
  if (!flags.ok()) return Usage(flags.status().message());
  Result<std::string> path = flags->String("dataset");
  if (!path.ok()) return Usage(path.status().message());
  const std::string model_name = flags->StringOr("model", "gin");
  if (model_name != "gin") return Usage("--model " + model_name + " is not available yet (gin)");
  Result<std::uint64_t> epochs = flags->Unsigned("epochs", 500);
  Result<std::uint64_t> seed = flags->Unsigned("seed", 0);
  Result<std::uint64_t> hidden = flags->Unsigned("hidden", 64);
  Result<std::uint64_t> layers = flags->Unsigned("layers", 5);
  Result<std::uint64_t> batch = flags->Unsigned("batch-size", 32);
  Result<double> lr = flags->Double("lr", 0.01);
  for (const Status* s : {&epochs.status(), &seed.status(), &hidden.status(), &layers.status(), &batch.status(),
                          &lr.status()}) {
    if (!s->ok()) return Usage(s->message());
  }
  const std::string readout = flags->StringOr("readout", "mean");
  if (readout != "mean" && readout != "sum") return Usage("--readout must be mean or sum");
  if (*epochs < 1 || *batch < 1 || !(*lr > 0)) return Usage("--epochs, --batch-size and --lr must be positive");

  Result<GraphDataset> ds = ReadDataset(*path);
  if (!ds.ok()) {
    std::fprintf(stderr, "ldpgraph train: %s\n", ds.status().ToString().c_str());
    return 1;
  }
  if (ds->num_classes < 2) return Usage("the dataset needs graph labels of at least 2 classes");

  GinConfig config;
  config.hidden = static_cast<int>(*hidden);
  config.layers = static_cast<int>(*layers);
  config.classes = static_cast<int>(ds->num_classes);
  config.mean_readout = readout == "mean";
  Result<GinModel> model = GinModel::Create(config, *seed);
  if (!model.ok()) return Usage(model.status().message());

  std::vector<int> labels_int(ds->labels.begin(), ds->labels.end());
  const Split split = StratifiedSplit(labels_int, 0.75, 0.10, *seed);
  const std::vector<PreparedGraph> graphs = PrepareAll(*ds, Aggregation::kSumWithSelf);
  GraphTrainOptions options;
  options.max_epochs = static_cast<int>(*epochs);
  options.batch_size = static_cast<int>(*batch);
  options.lr = static_cast<float>(*lr);
  options.seed = *seed;
  const bool tty = ::isatty(STDERR_FILENO);
  auto progress = [&](const EpochReport& r) {
    if (!tty) return;
    std::fprintf(stderr, "\repoch %4d/%d  train_loss %.4f  val_loss %.4f  val_acc %.4f  %.2fs/epoch  ", r.epoch,
                 options.max_epochs, r.train_loss, r.val_loss, r.val_accuracy, r.seconds);
  };
  GraphTrainResult result = TrainGraphClassifier(&*model, graphs, ds->labels, split, options, progress);
  if (tty) std::fputc('\n', stderr);
  std::cout << "dataset=" << ds->name << "\nmodel=gin\nseed=" << *seed << "\ngraphs=" << ds->graphs.size()
            << "\ntrain_graphs=" << split.train.size() << "\nval_graphs=" << split.val.size()
            << "\ntest_graphs=" << split.test.size() << "\nepochs=" << result.epochs
            << "\nbest_epoch=" << result.best_epoch << "\nval_accuracy=" << result.val.accuracy
            << "\ntest_accuracy=" << result.test.accuracy << "\ntest_auc=" << result.test.auc
            << "\ntrain_seconds=" << result.seconds << "\n";
  return 0;
}

}  // namespace ldpgraph
