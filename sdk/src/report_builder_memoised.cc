// ReportBuilder::BuildMemoised, apart from Build() so that a device image
// which never reports in rounds links none of the memoised forms.
#include "ldpgraph/edge_randomizers.h"
#include "ldpgraph/report_builder.h"

namespace ldpgraph {

Result<Report> ReportBuilder::BuildMemoised(const UserData& data, const PermanentCoins& coins,
                                            RandomSource& rng) const {
  LDPGRAPH_RETURN_IF_ERROR(CheckUserData(data));
  Report r = Header(data);
  LDPGRAPH_RETURN_IF_ERROR(PerturbMemoised(*edges_, data.user_id, data.neighbours, coins, &r.edges));
  if (r.has_features) LDPGRAPH_RETURN_IF_ERROR(features_.EncodeMemoised(data.features, coins, &r.features.encoded));
  if (r.has_label) {
    Result<std::uint32_t> y = label_.PerturbMemoised(data.label, coins);
    if (!y.ok()) return y.status();
    r.label.value = *y;
  }
  rng.FillBytes(r.report_id.data(), r.report_id.size());  // fresh: a report id reveals nothing
  return r;
}

}  // namespace ldpgraph
