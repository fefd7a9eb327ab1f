#include "gw/private_embedding.h"

#include <string>

namespace ldpgraph {

Result<Eigen::MatrixXd> RectifyEmbedding(const EmbeddingParams& params,
                                         const std::vector<std::vector<EncodedFeature>>& rows) {
  LDPGRAPH_RETURN_IF_ERROR(params.Validate());
  if (rows.size() != params.nodes) {
    return Status::InvalidArgument("expected " + std::to_string(params.nodes) + " encoded rows, got " +
                                   std::to_string(rows.size()));
  }
  Result<MultiBitRectifier> rectifier = MultiBitRectifier::Create(params.RowParams());
  if (!rectifier.ok()) return rectifier.status();
  Eigen::MatrixXd out(params.nodes, params.dims);
  std::vector<double> row;
  for (std::uint32_t i = 0; i < params.nodes; ++i) {
    Status s = rectifier->Rectify(Span<const EncodedFeature>(rows[i].data(), rows[i].size()), &row);
    if (!s.ok()) return Status(s.code(), "node " + std::to_string(i) + ": " + s.message());
    for (std::uint32_t j = 0; j < params.dims; ++j) out(i, j) = row[j];
  }
  return out;
}

Result<Eigen::MatrixXd> PrivateEmbedding(const Eigen::MatrixXd& h, double epsilon, RandomSource& rng) {
  EmbeddingParams params;
  params.nodes = static_cast<std::uint32_t>(h.rows());
  params.dims = static_cast<std::uint32_t>(h.cols());
  params.epsilon = epsilon;
  Result<EmbeddingEncoder> encoder = EmbeddingEncoder::Create(params);
  if (!encoder.ok()) return encoder.status();
  // Row after row, as the device holds it.
  const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> rows = h;
  std::vector<std::vector<EncodedFeature>> encoded;
  LDPGRAPH_RETURN_IF_ERROR(
      encoder->Encode(Span<const double>(rows.data(), static_cast<std::size_t>(rows.size())), rng, &encoded));
  return RectifyEmbedding(params, encoded);
}

}  // namespace ldpgraph
