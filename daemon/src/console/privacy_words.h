// A graph's privacy policy in plain words, for the console: what its
// epsilons mean for one friendship, one user's features, her label, and her
// whole report, each with the largest AUC any attacker's test can reach
// between the two inputs it hides (audit/auc_bounds.h, the same bound
// `ldpgraph audit` measures attacks against).
#ifndef LDPGRAPH_DAEMON_CONSOLE_PRIVACY_WORDS_H_
#define LDPGRAPH_DAEMON_CONSOLE_PRIVACY_WORDS_H_

#include <string>
#include <vector>

#include "api/round_schedule.h"
#include "ldpgraph/graph_config.h"

namespace ldpgraph {

struct PrivacyClaim {
  std::string what;     // "one friendship", "her features", ...
  double epsilon = 0;   // infinite: not protected
  std::string meaning;  // one plain sentence
  bool per_item = false;  // epsilon for each of d items (friendships): d x epsilon in all
};

// The claims of `config`, in the order a reader needs them.
std::vector<PrivacyClaim> PrivacyClaims(const GraphConfig& config);

// Those claims as an HTML table with the AUC bound of each, then what
// rounds change (a paragraph, when the graph is collected in rounds).
std::string PrivacyInWords(const GraphConfig& config, const RoundSchedule& rounds);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_CONSOLE_PRIVACY_WORDS_H_
