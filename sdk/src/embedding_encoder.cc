#include "ldpgraph/embedding_encoder.h"

#include <cmath>
#include <string>

namespace ldpgraph {

Status EmbeddingParams::Validate() const {
  if (nodes == 0 || dims == 0) return Status::InvalidArgument("an embedding needs at least one node and one dimension");
  if (static_cast<std::uint64_t>(nodes) * dims > (1ull << 28)) {
    return Status::InvalidArgument("an embedding of " + std::to_string(nodes) + " x " + std::to_string(dims) +
                                   " entries exceeds 2^28");
  }
  if (!std::isfinite(epsilon) || !(epsilon > 0)) return Status::InvalidArgument("embedding epsilon must be positive and finite");
  MultiBitParams row;
  row.dims = dims;
  row.epsilon = epsilon;
  row.ranges = {range};
  row.sampled_dims = sampled_per_node;
  return row.Validate();
}

MultiBitParams EmbeddingParams::RowParams() const {
  MultiBitParams row;
  row.dims = dims;
  row.ranges = {range};
  // The paper's m* comes from the whole budget; each row then spends eps / n.
  row.epsilon = epsilon;
  row.sampled_dims = sampled_per_node;
  row.sampled_dims = row.SampledDims();
  row.epsilon = epsilon / nodes;
  return row;
}

Result<EmbeddingEncoder> EmbeddingEncoder::Create(EmbeddingParams params) {
  LDPGRAPH_RETURN_IF_ERROR(params.Validate());
  Result<MultiBitEncoder> encoder = MultiBitEncoder::Create(params.RowParams());
  if (!encoder.ok()) return encoder.status();
  EmbeddingEncoder e;
  e.params_ = params;
  e.row_ = std::move(encoder).value();
  return e;
}

Status EmbeddingEncoder::Encode(Span<const double> h, RandomSource& rng,
                                std::vector<std::vector<EncodedFeature>>* out) const {
  const std::uint64_t expected = static_cast<std::uint64_t>(params_.nodes) * params_.dims;
  if (h.size() != expected) {
    return Status::InvalidArgument("expected " + std::to_string(expected) + " embedding values (" +
                                   std::to_string(params_.nodes) + " x " + std::to_string(params_.dims) + "), got " +
                                   std::to_string(h.size()));
  }
  for (std::uint32_t i = 0; i < params_.nodes; ++i) {  // every check before any randomness
    Status ok = row_.CheckInput(Span<const double>(h.data() + static_cast<std::size_t>(i) * params_.dims, params_.dims));
    if (!ok.ok()) return Status(ok.code(), "node " + std::to_string(i) + ": " + ok.message());
  }
  out->assign(params_.nodes, {});
  for (std::uint32_t i = 0; i < params_.nodes; ++i) {
    LDPGRAPH_RETURN_IF_ERROR(
        row_.Encode(Span<const double>(h.data() + static_cast<std::size_t>(i) * params_.dims, params_.dims), rng, &(*out)[i]));
  }
  return Status::Ok();
}

}  // namespace ldpgraph
