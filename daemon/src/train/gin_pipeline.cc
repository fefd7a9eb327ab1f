#include "train/gin_pipeline.h"

#include "train/task_data.h"

namespace ldpgraph {

Result<GinRun> TrainGinOnDataset(const GraphDataset& dataset, const GinRunOptions& options) {
  Result<GraphTaskData> data = MakeGraphTaskData(dataset, options.model.degree_cap, options.model.size_input);
  if (!data.ok()) return data.status();
  GinConfig config = options.model;
  config.input_dim = GinInputWidth(config);
  config.classes = data->classes;
  Result<GinModel> model = GinModel::Create(config, options.seed);
  if (!model.ok()) return model.status();
  GinRun run;
  run.split = StratifiedSplit(data->labels, options.train_fraction, options.val_fraction, options.seed);
  run.model = std::make_unique<GinModel>(std::move(model).value());
  run.model->ShareColourClasses(options.colour_classes);
  GraphTrainOptions train = options.train;
  train.seed = options.seed;
  run.result = TrainGraphClassifier(run.model.get(), data->graphs, dataset.labels, run.split, train, options.on_epoch);
  return run;
}

}  // namespace ldpgraph
