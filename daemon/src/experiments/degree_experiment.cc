#include "experiments/degree_experiment.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "experiments/results_table.h"
#include "experiments/setting_seed.h"
#include "experiments/svg_plot.h"
#include "base/durable_file.h"
#include "privacy/perturb_dataset.h"

namespace ldpgraph {
namespace {

struct Moments {
  double n = 0, sum_x = 0, sum_y = 0, sum_xx = 0, sum_yy = 0, sum_xy = 0, abs_err = 0, sq_err = 0;
  void Add(double x, double y) {
    n += 1;
    sum_x += x;
    sum_y += y;
    sum_xx += x * x;
    sum_yy += y * y;
    sum_xy += x * y;
    abs_err += std::fabs(y - x);
    sq_err += (y - x) * (y - x);
  }
  double Pearson() const {
    const double cov = sum_xy / n - (sum_x / n) * (sum_y / n);
    const double vx = sum_xx / n - (sum_x / n) * (sum_x / n), vy = sum_yy / n - (sum_y / n) * (sum_y / n);
    return vx > 0 && vy > 0 ? cov / std::sqrt(vx * vy) : 0.0;
  }
};

int Bin(std::uint32_t degree) {  // 0 -> 0, [2^k, 2^(k+1)) -> k + 1
  int b = 0;
  while (degree > 0) {
    degree >>= 1;
    ++b;
  }
  return b;
}

Status WriteText(const std::string& path, const std::string& text) {
  return base::WriteFileDurably(path, std::vector<std::uint8_t>(text.begin(), text.end()));
}

}  // namespace

Status RunDegreeExperiment(const GraphDataset& dataset, const DegreeExperimentOptions& o) {
  std::vector<PerturbOptions> settings;
  for (const std::string& m : o.mechanisms) {
    PerturbOptions p;
    if (!ParsePerturbMechanism(m, &p).ok() || p.mechanism == EdgeMechanism::kNone) {
      return Status::InvalidArgument("unknown mechanism '" + m + "' (dprr, dprr-fixed, rr or locallap)");
    }
    p.epsilon = o.epsilon;
    p.seeded = true;
    p.seed = SettingSeed("degree " + m + " " + FormatNumber(o.epsilon) + " seed=" + std::to_string(o.seed));
    settings.push_back(p);
  }
  if (!(o.epsilon > 0) || std::isinf(o.epsilon)) return Status::InvalidArgument("epsilon must be positive and finite");
  LDPGRAPH_RETURN_IF_ERROR(MakeOutputDirectory(o.out_dir));

  std::string all = "dataset,mechanism,epsilon,graph,user,true_degree,noisy_degree\n";
  std::string summary = "dataset,mechanism,epsilon,users,mean_true_degree,mean_noisy_degree,mean_abs_error,rmse,pearson\n";
  std::string binned = "dataset,mechanism,epsilon,bin_low,bin_high,users,mean_noisy_degree,std_noisy_degree\n";
  std::vector<PlotSeries> binned_series;
  for (std::size_t k = 0; k < settings.size(); ++k) {
    const std::string& name = o.mechanisms[k];
    std::fprintf(stderr, "experiment degree: %s on %zu graphs\n", name.c_str(), dataset.graphs.size());
    PerturbSummary perturb_summary;
    Result<GraphDataset> noisy = PerturbDataset(dataset, settings[k], &perturb_summary);
    if (!noisy.ok()) return noisy.status();
    const std::string prefix = dataset.name + "," + name + "," + FormatNumber(o.epsilon) + ",";
    Moments moments;
    std::map<int, Moments> bins;
    std::set<std::pair<std::uint32_t, std::uint32_t>> points;
    for (std::size_t g = 0; g < dataset.graphs.size(); ++g) {
      const CsrGraph& truth = dataset.graphs[g];
      const CsrGraph& out = noisy->graphs[g];
      for (std::uint32_t u = 0; u < truth.num_nodes(); ++u) {
        const std::uint32_t d = truth.degree(u), nd = out.degree(u);
        all += prefix + std::to_string(g) + "," + std::to_string(u) + "," + std::to_string(d) + "," +
               std::to_string(nd) + "\n";
        moments.Add(d, nd);
        bins[Bin(d)].Add(d, nd);
        points.insert({d, nd});
      }
    }
    summary += prefix + FormatNumber(moments.n) + "," + FormatNumber(moments.sum_x / moments.n) + "," +
               FormatNumber(moments.sum_y / moments.n) + "," + FormatNumber(moments.abs_err / moments.n) + "," +
               FormatNumber(std::sqrt(moments.sq_err / moments.n)) + "," + FormatNumber(moments.Pearson()) + "\n";
    PlotSeries line{name, {}, {}, {}};
    for (const auto& [bin, m] : bins) {
      const double low = bin == 0 ? 0 : std::ldexp(1.0, bin - 1), high = bin == 0 ? 0 : std::ldexp(1.0, bin) - 1;
      const double mean = m.sum_y / m.n;
      const double sd = std::sqrt(std::max(0.0, m.sum_yy / m.n - mean * mean));
      binned += prefix + FormatNumber(low) + "," + FormatNumber(high) + "," + FormatNumber(m.n) + "," +
                FormatNumber(mean) + "," + FormatNumber(sd) + "\n";
      line.x.push_back((low + high) / 2 + 1);
      line.y.push_back(mean + 1);
      line.err.push_back(sd);
    }
    binned_series.push_back(std::move(line));

    // The scatter: distinct (true, noisy) pairs, thinned evenly when there
    // are more than max_points (a browser draws a few thousand easily).
    PlotSeries scatter{name, {}, {}, {}};
    const std::size_t stride = points.size() / std::max<std::size_t>(1, o.max_points) + 1;
    std::size_t i = 0;
    for (const auto& [d, nd] : points) {
      if (i++ % stride != 0) continue;
      scatter.x.push_back(d + 1.0);
      scatter.y.push_back(nd + 1.0);
    }
    PlotSpec spec;
    spec.title = dataset.name + ": " + name + " at epsilon = " + FormatNumber(o.epsilon) + " (each point a degree pair)";
    spec.x_label = "true degree + 1";
    spec.y_label = "noisy degree + 1";
    spec.log_x = spec.log_y = spec.scatter = spec.diagonal = true;
    LDPGRAPH_RETURN_IF_ERROR(WriteSvg(o.out_dir + "/degree_" + name + ".svg", spec, {scatter}));
  }
  PlotSpec spec;
  spec.title = dataset.name + ": mean noisy degree per true-degree bin, epsilon = " + FormatNumber(o.epsilon);
  spec.x_label = "true degree + 1 (bins [2^k, 2^(k+1)))";
  spec.y_label = "mean noisy degree + 1";
  spec.log_x = spec.log_y = spec.diagonal = true;
  LDPGRAPH_RETURN_IF_ERROR(WriteSvg(o.out_dir + "/degree_binned.svg", spec, binned_series));
  LDPGRAPH_RETURN_IF_ERROR(WriteText(o.out_dir + "/degrees.csv", all));
  LDPGRAPH_RETURN_IF_ERROR(WriteText(o.out_dir + "/summary.csv", summary));
  return WriteText(o.out_dir + "/binned.csv", binned);
}

}  // namespace ldpgraph
