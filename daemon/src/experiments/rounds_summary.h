// What `ldpgraph experiment rounds` shows of its summary: per private
// setting, accuracy over the rounds beside the bars (the true graph's model
// and the edge-free one) and each user's privacy loss beside the naive
// scheme's, as SVG charts and one line of key=value figures.
#ifndef LDPGRAPH_DAEMON_EXPERIMENTS_ROUNDS_SUMMARY_H_
#define LDPGRAPH_DAEMON_EXPERIMENTS_ROUNDS_SUMMARY_H_

#include <map>
#include <string>
#include <vector>

#include "experiments/summary.h"

namespace ldpgraph {

// The mechanism of the runs that need no reports (the true graph, no
// edges); their epsilon is inf. One such run per split serves every
// private setting.
inline constexpr const char* kNoReports = "-";

// The summary's rows (grouped by dataset, model, mechanism, edge_epsilon,
// method, round; metrics accuracy, val_accuracy, loss_mean, loss_p99,
// loss_max, ...) arranged by setting.
class RoundsView {
 public:
  // method -> the rows of its rounds, in increasing round (edge-free: one, round inf)
  using Methods = std::map<std::string, std::vector<const SummaryRow*>>;

  explicit RoundsView(const std::vector<SummaryRow>& summary);

  // (dataset, model, mechanism, edge_epsilon) -> its methods.
  const std::map<CsvRow, Methods>& settings() const { return settings_; }
  // The bars of a setting's (dataset, model): true-graph and edge-free.
  const Methods& BarsOf(const CsvRow& setting) const;

 private:
  std::map<CsvRow, Methods> settings_;
  std::map<CsvRow, Methods> bars_;  // (dataset, model) -> methods
  Methods none_;
};

// One row per method and setting, written to `path`:
//   dataset,model,mechanism,edge_epsilon,method,rounds,accuracy_mean,
//   accuracy_first_round,accuracy_last_round,loss_mean,loss_p99,loss_max
// the accuracy averaged over the rounds (each round's the mean over the
// splits), and the users' loss after the last round.
Status WriteRoundsSummary(const std::string& path, const RoundsView& view);

// Writes OUT_DIR/accuracy_vs_round__<setting>.svg and
// loss_vs_round__<setting>.svg for every private setting.
Status WriteRoundsCharts(const std::string& out_dir, const RoundsView& view);

// One line per private setting: "setting=DATASET/MODEL/MECHANISM/EPSILON"
// then accuracy_true_graph, accuracy_memoised, accuracy_fresh,
// accuracy_edge_free (means over rounds and splits), gap_to_true_graph, and
// after the last round: rounds, loss_mean, loss_p99, loss_max (the
// memoised users'), loss_first_round, loss_naive.
std::vector<std::string> RoundsFigures(const RoundsView& view);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_EXPERIMENTS_ROUNDS_SUMMARY_H_
