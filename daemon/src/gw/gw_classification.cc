#include "gw/gw_classification.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cmath>
#include <sstream>

#include "gw/graph_space.h"
#include "gw/gw_clustering.h"
#include "gw/gw_kmeans.h"
#include "gw/kernel_svm.h"
#include "gw/private_embedding.h"
#include "gw/private_summary.h"

namespace ldpgraph {
namespace {

using Clock = std::chrono::steady_clock;

double Since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

Status Score(const GraphDataset& ds, const std::vector<GraphSpace>& spaces, const Eigen::MatrixXd& d,
             const GraphFold& fold, std::size_t f, const GwClassificationOptions& o, GwFoldResult* r) {
  SvmProgress progress;
  if (o.svm_progress) progress = [&](std::size_t done, std::size_t total) { o.svm_progress(f, done, total); };
  const auto start = Clock::now();
  Result<SvmFit> fit =
      FitKernelSvm(d, ds.labels, fold.train, fold.test, o.svm_grid, o.inner_folds, f, o.pairwise.threads, progress);
  if (!fit.ok()) return fit.status();
  r->svm_seconds = Since(start);
  r->svm_accuracy = fit->test_accuracy;
  r->c = fit->c;
  r->gamma = fit->gamma;
  if (o.log) {
    std::ostringstream line;
    line << "fold " << f + 1 << ": SVM test accuracy " << fit->test_accuracy << " at C " << fit->c << ", gamma "
         << fit->gamma << " (cross-validation " << fit->validation_accuracy << ", " << r->svm_seconds << " s)";
    o.log(line.str());
  }
  r->knn_accuracy = KnnAccuracy(d, ds.labels, fold.train, fold.test, o.knn);
  const std::vector<int> truth(ds.labels.begin(), ds.labels.end());
  const int k = static_cast<int>(std::min<std::size_t>(ds.num_classes, ds.graphs.size()));
  Result<std::vector<int>> spectral = SpectralClusters(d, k, o.seed + f);
  if (!spectral.ok()) return spectral.status();
  Result<std::vector<int>> medoids = KMedoidClusters(d, k, o.seed + f);
  if (!medoids.ok()) return medoids.status();
  r->spectral_nmi = NormalizedMutualInformation(*spectral, truth);
  r->kmedoids_nmi = NormalizedMutualInformation(*medoids, truth);
  if (o.kmeans) {
    GwKMeansOptions km;
    km.k = k;
    km.alpha = o.pairwise.alpha;
    km.gw = o.pairwise.gw;
    km.threads = o.pairwise.threads;
    km.seed = o.seed + f;
    Result<GwKMeansResult> means = GwKMeans(spaces, km);
    if (!means.ok()) return means.status();
    r->kmeans_nmi = NormalizedMutualInformation(means->clusters, truth);
  }
  return Status::Ok();
}

// The summary encoder's grid for these embeddings (`dims` columns).
GraphSummaryParams SummaryParams(const GraphDataset& ds, std::uint32_t dims, const GwClassificationOptions& o) {
  std::uint32_t lo = o.summary_min_nodes, hi = o.summary_max_nodes;
  if (lo == 0 || hi == 0) {
    // The 5th and 95th percentiles of the sizes, so that the size bins cut
    // where graphs are rather than between outliers: PROTEINS' 4..620 put
    // 77% of its graphs in the lower of two bins, its 6..111 cuts them at
    // 26, its median.
    std::vector<std::uint32_t> sizes;
    for (const CsrGraph& g : ds.graphs) sizes.push_back(g.num_nodes());
    std::sort(sizes.begin(), sizes.end());
    auto percentile = [&](double q) -> std::uint32_t {
      if (sizes.empty()) return 1;
      return sizes[static_cast<std::size_t>(q * static_cast<double>(sizes.size() - 1))];
    };
    if (lo == 0) lo = std::max<std::uint32_t>(percentile(0.05), 1);
    if (hi == 0) hi = std::max(percentile(0.95), lo);
  }
  const bool priv = o.epsilon > 0 && std::isfinite(o.epsilon);
  GraphSummaryParams p = GraphSummaryParams::ForEpsilon(dims, priv ? o.epsilon : 1.0, lo, hi);
  if (o.summary_value_bins > 0) p.value_bins = o.summary_value_bins;
  if (o.summary_size_bins > 0) p.size_bins = o.summary_size_bins;
  return p;
}

// Every graph's summary as the server holds it: each client's one cell,
// denoised together; without LDP the exact point.
Result<std::vector<GraphSpace>> EncodedSummarySpaces(const GraphDataset& ds, const std::vector<Eigen::MatrixXd>& embeddings,
                                              std::size_t f, const GwClassificationOptions& o) {
  const GraphSummaryParams params = SummaryParams(ds, static_cast<std::uint32_t>(embeddings[0].cols()), o);
  Result<GraphSummaryEncoder> encoder = GraphSummaryEncoder::Create(params);
  if (!encoder.ok()) return encoder.status();
  std::vector<GraphSpace> spaces;
  spaces.reserve(embeddings.size());
  if (!(o.epsilon > 0 && std::isfinite(o.epsilon))) {
    for (const Eigen::MatrixXd& h : embeddings) spaces.push_back(SummarySpace(ExactSummary(params, h)));
    return spaces;
  }
  std::vector<std::uint32_t> reports;
  reports.reserve(embeddings.size());
  for (std::size_t g = 0; g < embeddings.size(); ++g) {
    // Each graph's client encodes with randomness of its own; rows one after another.
    SeededRandomSource rng(o.seed * 1000003ULL + f * 7919ULL + g);
    const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> rows = embeddings[g];
    const Span<const double> entries(rows.data(), static_cast<std::size_t>(rows.size()));
    Result<std::uint32_t> report = encoder->Encode(entries, static_cast<std::uint32_t>(rows.rows()), rng);
    if (!report.ok()) {
      return Status(report.status().code(), "graph " + std::to_string(g) + ": " + report.status().message());
    }
    reports.push_back(*report);
  }
  return SummarySpaces(*encoder, reports);
}

// The spaces of one fold's embeddings: trained on its training graphs (or
// `blind`: constant), then encoded by every graph's own client when
// epsilon is set.
Result<std::vector<GraphSpace>> EmbeddingSpaces(const GraphDataset& ds, const GraphFold& fold, std::size_t f,
                                                EmbeddingModel model, bool blind, const GwClassificationOptions& o,
                                                GwFoldResult* r) {
  Result<FederatedEmbeddings> e = FederatedEmbeddings();
  if (blind) {
    // Every node says nothing: what reaches the server is the encoder's
    // noise, shaped only by each graph's number of nodes.
    for (const CsrGraph& g : ds.graphs) e->embeddings.push_back(Eigen::MatrixXd::Constant(g.num_nodes(), ds.num_classes - 1, 0.5));
  } else {
    FederatedEmbeddingOptions fo = o.federated;
    fo.model = model;
    fo.seed = o.federated.seed + f;
    std::vector<std::uint32_t> train = fold.train;
    if (o.train_on_test_graphs) train.insert(train.end(), fold.test.begin(), fold.test.end());
    e = TrainFederatedEmbeddings(ds, train, fold.test, fo);
    if (!e.ok()) return e.status();
    r->model_accuracy = e->test_accuracy;
  }
  if (o.log && !blind) {
    std::ostringstream line;
    line << "fold " << f + 1 << ": embeddings after " << e->rounds << " rounds (best " << e->best_round
         << "), model test accuracy " << e->test_accuracy;
    o.log(line.str());
  }
  if (o.encoder == "summary") return EncodedSummarySpaces(ds, e->embeddings, f, o);
  std::vector<GraphSpace> spaces;
  spaces.reserve(e->embeddings.size());
  for (std::size_t g = 0; g < e->embeddings.size(); ++g) {
    if (o.epsilon > 0 && std::isfinite(o.epsilon)) {
      // Each graph's client encodes with randomness of its own.
      SeededRandomSource rng(o.seed * 1000003ULL + f * 7919ULL + g);
      Result<Eigen::MatrixXd> h = PrivateEmbedding(e->embeddings[g], o.epsilon, rng);
      if (!h.ok()) return Status(h.status().code(), "graph " + std::to_string(g) + ": " + h.status().message());
      spaces.push_back(EmbeddingSpace(*h));
    } else {
      spaces.push_back(EmbeddingSpace(e->embeddings[g]));
    }
  }
  return spaces;
}

}  // namespace

Result<GwClassification> ClassifyByGw(const GraphDataset& ds, const std::vector<GraphFold>& folds,
                                      const GwClassificationOptions& o) {
  if (folds.empty()) return Status::InvalidArgument("GW classification needs at least one fold");
  if (std::isnan(o.epsilon) || o.epsilon < 0) return Status::InvalidArgument("epsilon must be positive (or 0: no LDP)");
  const bool blind = o.embeddings == "blind";
  const bool learned = o.embeddings == "gin" || o.embeddings == "gcn" || blind;
  if (!learned && o.epsilon != 0) {
    return Status::InvalidArgument("--epsilon encodes embeddings (gin, gcn, blind); " + o.embeddings +
                                   " has none to encode");
  }
  if (o.encoder != "multibit" && o.encoder != "summary") {
    return Status::InvalidArgument("the embedding encoder must be multibit or summary, got '" + o.encoder + "'");
  }
  if (!learned && o.encoder == "summary") {
    return Status::InvalidArgument("the summary encoder encodes embeddings (gin, gcn, blind); " + o.embeddings +
                                   " has none to encode");
  }
  const bool summary_settings =
      o.summary_min_nodes != 0 || o.summary_max_nodes != 0 || o.summary_value_bins != 0 || o.summary_size_bins != 0;
  if (summary_settings && o.encoder != "summary") {
    return Status::InvalidArgument("the summary's size range and bins are for the summary encoder");
  }
  if (o.summary_min_nodes != 0 && o.summary_max_nodes != 0 && o.summary_min_nodes > o.summary_max_nodes) {
    return Status::InvalidArgument("the summary's size range must have min <= max");
  }
  if (blind && o.encoder == "multibit" && !(o.epsilon > 0 && std::isfinite(o.epsilon))) {
    return Status::InvalidArgument("blind embeddings are constant: only their LDP encoding (a finite epsilon) says anything");
  }
  if (o.encoder == "summary" && ds.num_classes >= 2) {  // refused now, not after the first fold's training
    LDPGRAPH_RETURN_IF_ERROR(SummaryParams(ds, static_cast<std::uint32_t>(ds.num_classes - 1), o).Validate());
  }
  GwClassification out;
  out.folds.resize(folds.size());
  if (!learned) {
    Result<GwStructure> structure = ParseGwStructure(o.embeddings);
    if (!structure.ok()) return structure.status();
    Result<std::vector<GraphSpace>> spaces = GraphSpaces(ds, *structure);
    if (!spaces.ok()) return spaces.status();
    const auto start = Clock::now();
    Result<Eigen::MatrixXd> d = PairwiseGw(*spaces, o.pairwise);
    if (!d.ok()) return d.status();
    out.gw_seconds = Since(start);
    out.fused = (*spaces)[0].features.size() != 0;
    for (std::size_t f = 0; f < folds.size(); ++f) {
      if (o.skip_fold && o.skip_fold(f)) continue;
      out.folds[f].gw_seconds = out.gw_seconds / static_cast<double>(folds.size());  // one matrix serves all
      LDPGRAPH_RETURN_IF_ERROR(Score(ds, *spaces, *d, folds[f], f, o, &out.folds[f]));
      if (o.fold_scored) LDPGRAPH_RETURN_IF_ERROR(o.fold_scored(f, out.folds[f]));
    }
    out.distances.push_back(std::move(d).value());
    return out;
  }
  Result<EmbeddingModel> model = blind ? EmbeddingModel::kGin : ParseEmbeddingModel(o.embeddings);
  if (!model.ok()) return model.status();
  out.fused = true;
  for (std::size_t f = 0; f < folds.size(); ++f) {
    GwFoldResult& r = out.folds[f];
    if (o.skip_fold && o.skip_fold(f)) {
      out.distances.emplace_back();
      continue;
    }
    Result<std::vector<GraphSpace>> spaces = EmbeddingSpaces(ds, folds[f], f, *model, blind, o, &r);
    if (!spaces.ok()) return spaces.status();
    const auto start = Clock::now();
    Result<Eigen::MatrixXd> d = PairwiseGw(*spaces, o.pairwise);
    if (!d.ok()) return d.status();
    r.gw_seconds = Since(start);
    out.gw_seconds += r.gw_seconds;
    LDPGRAPH_RETURN_IF_ERROR(Score(ds, *spaces, *d, folds[f], f, o, &r));
    if (o.fold_scored) LDPGRAPH_RETURN_IF_ERROR(o.fold_scored(f, r));
    out.distances.push_back(std::move(d).value());
  }
  return out;
}

}  // namespace ldpgraph
