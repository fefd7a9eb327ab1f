// GW-LDP's encoding of a whole node-embedding matrix (seed 000, Algorithm
// 1): a client that holds a graph sends the server its n x h node
// embeddings H (each entry in [alpha, beta]) as the multi-bit encoder
// would a feature vector, row by row: m entries of each row are sampled
// without replacement, and each sends a sign with
//   Pr[+1] = 1/(e^(eps/(m n)) + 1) + (H_ij - alpha)/(beta - alpha) * (e^(eps/(m n)) - 1)/(e^(eps/(m n)) + 1).
// The m n signs spend eps/(m n) each: the matrix as a whole is eps-LDP
// (the paper's Theorem 1), whatever its rows hold. m defaults to the
// paper's m* = max(1, min(h, floor(eps / 2.18))).
// Thread-safety: immutable after creation; concurrent calls are safe with
// distinct RandomSources and outputs.
#ifndef LDPGRAPH_EMBEDDING_ENCODER_H_
#define LDPGRAPH_EMBEDDING_ENCODER_H_

#include <cstdint>
#include <vector>

#include "ldpgraph/multibit.h"

namespace ldpgraph {

struct EmbeddingParams {
  std::uint32_t nodes = 0;  // n
  std::uint32_t dims = 0;   // h
  double epsilon = 1.0;     // for the whole matrix
  FeatureRange range = {0.0, 1.0};  // [alpha, beta]: softmax outputs by default
  std::uint32_t sampled_per_node = 0;  // m; 0: the paper's m*

  // Errors: kInvalidArgument for nodes or dims of 0, nodes x dims above
  // 2^28, a bad epsilon or range, or sampled_per_node > dims.
  Status Validate() const;
  // What every row is encoded with (and rectified with, on the server): m
  // fixed from the whole budget, epsilon / n. Requires Validate().
  MultiBitParams RowParams() const;
};

class EmbeddingEncoder {
 public:
  static Result<EmbeddingEncoder> Create(EmbeddingParams params);
  EmbeddingEncoder() = default;  // only for Result<>; use Create()

  // Encodes `h` (nodes x dims, row after row, every value finite and in the
  // range) into one row of m (index, sign) pairs per node. Errors:
  // kInvalidArgument for a wrong length or a NaN, kOutOfRange for a value
  // outside the range (naming the entry); on error no randomness is used.
  Status Encode(Span<const double> h, RandomSource& rng, std::vector<std::vector<EncodedFeature>>* out) const;

  const EmbeddingParams& params() const { return params_; }
  std::uint32_t sampled_per_node() const { return row_.sampled_dims(); }
  double entry_epsilon() const { return params_.epsilon / (static_cast<double>(sampled_per_node()) * params_.nodes); }
  // Pr[+1] for an entry of value x.
  double SignProbability(double x) const { return row_.SignProbability(0, x); }

 private:
  EmbeddingParams params_;
  MultiBitEncoder row_;  // every row: epsilon / n over m sampled entries
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_EMBEDDING_ENCODER_H_
