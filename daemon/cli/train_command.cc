// ldpgraph train: train a classifier on a dataset and report its test metrics.
//   gin        graph classification (s2v or TU datasets), 75/10/15 split
//   gcn, sage  node classification (CSV datasets with features), 50/25/25 split
//   gap        node classification with edge- or node-level DP (GAP-EDP, GAP-NDP), 50/25/25 split
#include <cmath>
#include <cstdio>
#include <iostream>
#include <unistd.h>

#include "cli/commands.h"
#include "gap/gap_pipeline.h"
#include "gap/progap_pipeline.h"
#include "store/model_file.h"
#include "train/gin_pipeline.h"
#include "train/node_pipeline.h"
#include "train/task_data.h"
#include "util/flags.h"

namespace ldpgraph {
namespace {

int Usage(const std::string& message) {
  std::fprintf(stderr, "ldpgraph train: %s\n", message.c_str());
  return 2;
}

int Failure(const Status& s) {
  std::fprintf(stderr, "ldpgraph train: %s\n", s.ToString().c_str());
  return 1;
}

std::function<void(const EpochReport&)> ProgressBar(int max_epochs) {
  if (!::isatty(STDERR_FILENO)) return {};
  return [max_epochs](const EpochReport& r) {
    std::fprintf(stderr, "\repoch %4d/%d  train_loss %.4f  val_loss %.4f  val_acc %.4f  %.2fs/epoch  ", r.epoch,
                 max_epochs, r.train_loss, r.val_loss, r.val_accuracy, r.seconds);
    std::fflush(stderr);
  };
}

void PrintResult(const std::string& dataset, const std::string& model, std::uint64_t seed, const Split& split,
                 int epochs, int best_epoch, const Evaluation& val, const Evaluation& test, double seconds) {
  if (::isatty(STDERR_FILENO)) std::fputc('\n', stderr);
  std::cout << "dataset=" << dataset << "\nmodel=" << model << "\nseed=" << seed << "\ntrain=" << split.train.size()
            << "\nval=" << split.val.size() << "\ntest=" << split.test.size() << "\nepochs=" << epochs
            << "\nbest_epoch=" << best_epoch << "\nval_accuracy=" << val.accuracy
            << "\ntest_accuracy=" << test.accuracy << "\ntest_auc=" << test.auc << "\ntrain_seconds=" << seconds
            << "\n";
}

// GAP: edge- or node-level DP on a graph the server holds (gap/gap_pipeline.h).
// The lines `train --model gap|progap` prints before and after its own.
void PrintGapHead(const GraphDataset& ds, const char* model, const std::string& privacy, std::uint64_t seed,
                  std::uint64_t hops, const GapInputs& in, double epsilon, double delta, double sensitivity,
                  double noise_multiplier, double noise_stddev) {
  std::cout << "dataset=" << ds.name << "\nmodel=" << model << "\nprivacy=" << privacy << "\nseed=" << seed
            << "\nhops=" << hops << "\ntrain=" << in.split.train.size() << "\nval=" << in.split.val.size()
            << "\ntest=" << in.split.test.size() << "\nepsilon=" << epsilon << "\ndelta=" << delta
            << "\nsensitivity=" << sensitivity << "\nnoise_multiplier=" << noise_multiplier
            << "\nnoise_stddev=" << noise_stddev;
}

void PrintGapTail(double mlp_test_accuracy, double val_accuracy, double test_accuracy, double seconds) {
  std::cout << "\nmlp_test_accuracy=" << mlp_test_accuracy << "\nval_accuracy=" << val_accuracy
            << "\ntest_accuracy=" << test_accuracy << "\ntrain_seconds=" << seconds << "\n";
}

// GAP, or ProGAP when `progressive` (the same flags but --residual).
int RunGapTraining(const Flags& flags, bool progressive) {
  Result<std::string> path = flags.String("dataset");
  if (!path.ok()) return Usage(path.status().message());
  if (progressive && flags.Has("residual")) return Usage("--residual is for --model gap");
  const std::string privacy = flags.StringOr("privacy", "edge");
  if (privacy != "edge" && privacy != "node") return Usage("--privacy must be edge or node");
  const bool node_level = privacy == "node";
  if (!node_level) {
    for (const char* node_only : {"max-degree", "batch-size", "clip"}) {
      if (flags.Has(node_only)) return Usage(std::string("--") + node_only + " is for --privacy node");
    }
  }
  Result<double> epsilon = flags.Double("epsilon", INFINITY);
  Result<double> delta = flags.Double("delta", 0);
  Result<std::uint64_t> hops = flags.Unsigned("hops", 2);
  Result<std::uint64_t> epochs = flags.Unsigned("epochs", 100);
  Result<std::uint64_t> seed = flags.Unsigned("seed", 0);
  Result<std::uint64_t> hidden = flags.Unsigned("hidden", 16);
  Result<double> lr = flags.Double("lr", 0.01);
  Result<std::uint64_t> max_degree = flags.Unsigned("max-degree", 10);
  Result<std::uint64_t> batch = flags.Unsigned("batch-size", 0);  // 0: GapOptions' default
  Result<std::uint64_t> classifier_epochs = flags.Unsigned("classifier-epochs", 0);
  Result<double> clip = flags.Double("clip", 1.0);
  const std::string residual = flags.StringOr("residual", "auto");
  if (residual != "auto" && residual != "on" && residual != "off") return Usage("--residual must be auto, on or off");
  for (const Status* s : {&epsilon.status(), &delta.status(), &hops.status(), &epochs.status(), &seed.status(),
                          &hidden.status(), &lr.status(), &max_degree.status(), &batch.status(), &clip.status(),
                          &classifier_epochs.status()}) {
    if (!s->ok()) return Usage(s->message());
  }
  if (!(*epsilon > 0)) return Usage("--epsilon must be positive (inf: no privacy)");
  if (flags.Has("delta") && !(*delta > 0 && *delta < 1)) return Usage("--delta must be in (0, 1)");
  if (*hops < 1 || *hops > 16) return Usage("--hops must be in [1, 16]");
  if (*epochs < 1 || *epochs > 100000 || *hidden < 1 || *hidden > 4096 || !(*lr > 0)) {
    return Usage("--epochs, --hidden and --lr must be positive (epochs <= 10^5, hidden <= 4096)");
  }
  if (*max_degree < 1 || *max_degree > 1000000) return Usage("--max-degree must be in [1, 10^6]");
  if ((flags.Has("batch-size") && *batch < 1) || *batch > 1000000000 || !(*clip > 0) || !std::isfinite(*clip)) {
    return Usage("--batch-size and --clip must be positive");
  }
  if (flags.Has("classifier-epochs") && (*classifier_epochs < 1 || *classifier_epochs > 100000)) {
    return Usage("--classifier-epochs must be in [1, 10^5]");
  }
  Result<GraphDataset> ds = ReadDataset(*path);
  if (!ds.ok()) return Failure(ds.status());
  Result<NodeTaskData> data = MakeNodeTaskData(*ds, Aggregation::kMean);
  if (!data.ok()) return Usage(data.status().message());
  GapInputs in;
  in.graph = &ds->graphs[0];
  in.features = &data->features;
  in.labels = &data->labels;
  in.classes = data->classes;
  in.split = DefaultNodeSplit(data->labels, *seed);
  GapOptions o;
  o.privacy = node_level ? GapPrivacy::kNode : GapPrivacy::kEdge;
  o.model.hops = static_cast<int>(*hops);
  o.model.hidden = static_cast<int>(*hidden);
  o.epsilon = *epsilon;
  o.delta = *delta;
  o.encoder_epochs = static_cast<int>(*epochs);
  o.classifier_epochs = static_cast<int>(*classifier_epochs);
  o.residual = residual == "on" ? GapResidual::kOn : residual == "off" ? GapResidual::kOff : GapResidual::kAuto;
  o.lr = static_cast<float>(*lr);
  o.max_degree = static_cast<std::uint32_t>(*max_degree);
  o.batch_size = static_cast<int>(*batch);
  o.clip_norm = *clip;
  o.seed = *seed;
  std::unique_ptr<GapModel> model;
  if (progressive) {
    Result<ProGapRun> run = TrainProGap(in, o);
    if (!run.ok()) return Usage(run.status().message());
    PrintGapHead(*ds, "progap", privacy, *seed, *hops, in, run->epsilon, run->delta, run->sensitivity,
                 run->noise_multiplier, run->noise_stddev);
    std::cout << "\nstages=" << run->stages << "\nstage_test_accuracy=";
    for (std::size_t k = 0; k < run->stage_test_accuracy.size(); ++k) {
      std::cout << (k > 0 ? "," : "") << run->stage_test_accuracy[k];
    }
    if (node_level) std::cout << "\nmax_degree=" << run->max_degree << "\ndp_sgd_steps=" << run->dp_sgd_steps;
    PrintGapTail(run->mlp_test_accuracy, run->val_accuracy, run->test_accuracy, run->seconds);
    model = std::move(run->model);
  } else {
    Result<GapRun> run = TrainGap(in, o);
    if (!run.ok()) return Usage(run.status().message());
    PrintGapHead(*ds, "gap", privacy, *seed, *hops, in, run->epsilon, run->delta, run->sensitivity,
                 run->noise_multiplier, run->noise_stddev);
    std::cout << "\nresidual=" << (run->residual ? "on" : "off");
    if (node_level) std::cout << "\nmax_degree=" << run->max_degree << "\ndp_sgd_steps=" << run->dp_sgd_steps;
    PrintGapTail(run->mlp_test_accuracy, run->val_accuracy, run->test_accuracy, run->seconds);
    model = std::move(run->model);
  }
  if (flags.Has("out")) {
    AnyModel trained;
    trained.kind = ModelKind::kGap;
    trained.gap = std::move(model);
    const std::string out = flags.StringOr("out", "");
    if (Status saved = SaveModel(trained, out); !saved.ok()) return Failure(saved);
    std::cout << "model_file=" << out << "\n";
  }
  return 0;
}

}  // namespace

Result<bool> Bf16ProductsFlag(const Flags& flags) {
  const std::string products = flags.StringOr("products", "float");
  if (products != "float" && products != "bf16") {
    return Status::InvalidArgument("--products must be float or bf16, got '" + products + "'");
  }
  return products == "bf16";
}

Result<bool> ColourClassesFlag(const Flags& flags) {
  const std::string classes = flags.StringOr("colour-classes", "on");
  if (classes != "on" && classes != "off") {
    return Status::InvalidArgument("--colour-classes must be on or off, got '" + classes + "'");
  }
  return classes == "on";
}

Result<GatherPrecision> GathersFlag(const Flags& flags) {
  const std::string gathers = flags.StringOr("gathers", "auto");
  if (gathers == "auto") return GatherPrecision::kAuto;
  if (gathers == "float") return GatherPrecision::kFloat;
  if (gathers == "bf16") return GatherPrecision::kBf16;
  return Status::InvalidArgument("--gathers must be auto, float or bf16, got '" + gathers + "'");
}

int RunTrainCommand(const std::vector<std::string>& args) {
  Result<Flags> flags = Flags::Parse(args, {"dataset", "model", "epochs", "seed", "out", "hidden", "layers",
                                            "batch-size", "lr", "readout", "dropout", "node-input", "privacy",
                                            "epsilon", "delta", "hops", "max-degree", "clip", "residual",
                                            "classifier-epochs", "products", "colour-classes", "gathers"});
  if (!flags.ok()) return Usage(flags.status().message());
  Result<std::string> path = flags->String("dataset");
  if (!path.ok()) return Usage(path.status().message());
  const std::string model_name = flags->StringOr("model", "gin");
  const bool gap_family = model_name == "gap" || model_name == "progap";
  if (model_name != "gin" && model_name != "gcn" && model_name != "sage" && !gap_family) {
    return Usage("--model must be gin, gcn, sage, gap or progap");
  }
  if (model_name != "gin" && flags->Has("products")) return Usage("--products is for --model gin");
  if (model_name != "gin" && flags->Has("colour-classes")) return Usage("--colour-classes is for --model gin");
  if (gap_family && flags->Has("gathers")) {
    return Usage(
        "--gathers is not for --model gap or progap: their neighbour sums are a privacy mechanism and read floats");
  }
  Result<GatherPrecision> gathers = GathersFlag(*flags);
  if (!gathers.ok()) return Usage(gathers.status().message());
  SetDefaultGatherPrecision(*gathers);
  if (gap_family) return RunGapTraining(*flags, model_name == "progap");
  for (const char* gap_only : {"privacy", "epsilon", "delta", "hops", "max-degree", "clip", "residual",
                               "classifier-epochs"}) {
    if (flags->Has(gap_only)) return Usage(std::string("--") + gap_only + " is for --model gap or progap");
  }
  const bool gin = model_name == "gin";
  Result<std::uint64_t> epochs = flags->Unsigned("epochs", 500);
  Result<std::uint64_t> seed = flags->Unsigned("seed", 0);
  Result<std::uint64_t> hidden = flags->Unsigned("hidden", gin ? 64 : 16);
  Result<std::uint64_t> layers = flags->Unsigned("layers", gin ? 5 : 2);
  Result<std::uint64_t> batch = flags->Unsigned("batch-size", 32);
  Result<double> lr = flags->Double("lr", 0.01);
  Result<double> dropout = flags->Double("dropout", 0.5);
  Result<bool> bf16 = Bf16ProductsFlag(*flags);
  Result<bool> classes = ColourClassesFlag(*flags);
  for (const Status* s : {&epochs.status(), &seed.status(), &hidden.status(), &layers.status(), &batch.status(),
                          &lr.status(), &dropout.status(), &bf16.status(), &classes.status()}) {
    if (!s->ok()) return Usage(s->message());
  }
  const std::string readout = flags->StringOr("readout", "mean");
  if (readout != "mean" && readout != "sum") return Usage("--readout must be mean or sum");
  // GIN node inputs: the constant 1 or one-hot degrees capped at 127, each
  // optionally with ln(number of users).
  GinConfig gin_config;
  if (Status s = SetGinNodeInput(flags->StringOr("node-input", "constant"), &gin_config); !s.ok()) {
    return Usage(s.message());
  }
  if (*epochs < 1 || *batch < 1 || !(*lr > 0)) return Usage("--epochs, --batch-size and --lr must be positive");

  Result<GraphDataset> ds = ReadDataset(*path);
  if (!ds.ok()) return Failure(ds.status());

  AnyModel trained;
  if (gin) {
    GinRunOptions run_options;
    run_options.model = gin_config;
    run_options.model.hidden = static_cast<int>(*hidden);
    run_options.model.layers = static_cast<int>(*layers);
    run_options.model.dropout = static_cast<float>(*dropout);
    run_options.model.mean_readout = readout == "mean";
    run_options.train.max_epochs = static_cast<int>(*epochs);
    run_options.train.batch_size = static_cast<int>(*batch);
    run_options.train.lr = static_cast<float>(*lr);
    run_options.train.bf16_products = *bf16;
    run_options.colour_classes = *classes;
    run_options.seed = *seed;
    run_options.on_epoch = ProgressBar(run_options.train.max_epochs);
    Result<GinRun> run = TrainGinOnDataset(*ds, run_options);
    if (!run.ok()) return Usage(run.status().message());
    const GraphTrainResult& r = run->result;
    PrintResult(ds->name, model_name, *seed, run->split, r.epochs, r.best_epoch, r.val, r.test, r.seconds);
    trained.kind = ModelKind::kGin;
    trained.gin = std::move(run->model);
  } else {
    const NodeGnnKind kind = model_name == "gcn" ? NodeGnnKind::kGcn : NodeGnnKind::kSage;
    Result<NodeTaskData> data = MakeNodeTaskData(*ds, AggregationFor(kind));
    if (!data.ok()) return Usage(data.status().message());
    NodeRunOptions options;
    options.kind = kind;
    options.hidden = static_cast<int>(*hidden);
    options.layers = static_cast<int>(*layers);
    options.dropout = static_cast<float>(*dropout);
    options.train.max_epochs = static_cast<int>(*epochs);
    options.train.lr = static_cast<float>(*lr);
    options.seed = *seed;
    options.on_epoch = ProgressBar(options.train.max_epochs);
    const Split split = DefaultNodeSplit(data->labels, *seed);
    Result<NodeRun> run = TrainNodeModel(*data, split, options);
    if (!run.ok()) return Usage(run.status().message());
    const NodeTrainResult& r = run->result;
    PrintResult(ds->name, model_name, *seed, split, r.epochs, r.best_epoch, r.val, r.test, r.seconds);
    trained.kind = kind == NodeGnnKind::kGcn ? ModelKind::kGcn : ModelKind::kSage;
    trained.node = std::move(run->model);
  }
  if (flags->Has("out")) {
    const std::string out = flags->StringOr("out", "");
    Status saved = SaveModel(trained, out);
    if (!saved.ok()) return Failure(saved);
    std::cout << "model_file=" << out << "\n";
  }
  return 0;
}

}  // namespace ldpgraph
