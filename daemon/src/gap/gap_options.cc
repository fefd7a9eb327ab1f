#include "gap/gap_options.h"

#include <algorithm>

namespace ldpgraph {

GapOptions ResolveGapOptions(const GapOptions& o, std::size_t training_nodes) {
  GapOptions r = o;
  const bool node_level = o.privacy == GapPrivacy::kNode;
  if (r.classifier_epochs == 0) r.classifier_epochs = node_level ? 5 : r.encoder_epochs;
  if (r.batch_size == 0) r.batch_size = static_cast<int>(std::min<std::size_t>(512, training_nodes));
  return r;
}

}  // namespace ldpgraph
