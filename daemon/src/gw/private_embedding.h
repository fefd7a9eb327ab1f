// The server's side of GW-LDP's embedding encoder (sdk embedding_encoder.h):
// a graph's encoded rows become the unbiased estimate of its embeddings,
// each row rectified as LPGNN's server rectifies a feature vector, with the
// row parameters the device encoded with (m fixed from the whole budget,
// epsilon / n per row). GW then compares graphs by these estimates.
#ifndef LDPGRAPH_DAEMON_GW_PRIVATE_EMBEDDING_H_
#define LDPGRAPH_DAEMON_GW_PRIVATE_EMBEDDING_H_

#include <vector>

#include <Eigen/Core>

#include "ldpgraph/embedding_encoder.h"

namespace ldpgraph {

// nodes x dims. Errors: kInvalidArgument for bad params, a row count other
// than params.nodes, or a row that is not m (index, sign) pairs (naming the
// node).
Result<Eigen::MatrixXd> RectifyEmbedding(const EmbeddingParams& params,
                                         const std::vector<std::vector<EncodedFeature>>& rows);

// What the server holds of `h` (every entry in [0, 1]) once its client has
// encoded it at `epsilon` for the whole matrix: the device's encoding and the
// server's rectification in one step, for experiments. Errors: the
// encoder's and RectifyEmbedding's.
Result<Eigen::MatrixXd> PrivateEmbedding(const Eigen::MatrixXd& h, double epsilon, RandomSource& rng);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_GW_PRIVATE_EMBEDDING_H_
