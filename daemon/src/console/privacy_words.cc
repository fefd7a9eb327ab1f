#include "console/privacy_words.h"

#include <cmath>
#include <cstdio>

#include "audit/auc_bounds.h"
#include "console/html.h"

namespace ldpgraph {
namespace {

std::string Number(double x) {
  if (!std::isfinite(x)) return "none";
  char text[32];
  std::snprintf(text, sizeof(text), "%.3g", x);
  return text;
}

// e^epsilon, the most any one report's probability may change between the
// two inputs a claim hides.
std::string Factor(double epsilon) {
  char text[48];
  std::snprintf(text, sizeof(text), "%.3g", std::exp(epsilon));
  return text;
}

}  // namespace

std::vector<PrivacyClaim> PrivacyClaims(const GraphConfig& config) {
  std::vector<PrivacyClaim> claims;
  if (config.embedding.enabled) {
    const double e = config.embedding.epsilon;
    claims.push_back({"the owner's graph, through its node embeddings", e,
                      std::string("One report of the whole graph (") +
                          (config.embedding.encoding == EmbeddingEncoding::kSummary
                               ? "one cell of a public grid over the pooled embedding and the size, so the size "
                                 "stays private too"
                               : "every node's row through the multi-bit encoder; the number of nodes is public") +
                          "): any two graphs' reports differ in probability by at most a factor of " + Factor(e) +
                          "."});
  } else if (config.edges.mechanism == EdgeMechanism::kNone) {
    claims.push_back({"one friendship", INFINITY,
                      "Not protected: each user sends her true friend list (a user who chose no privacy)."});
  } else {
    const double e = config.edges.epsilon;
    claims.push_back({"one friendship", e,
                      std::string("Each user's friend list is randomized on her phone by ") +
                          EdgeMechanismName(config.edges.mechanism) +
                          ". Whether any one friendship is on her list changes the probability of her report by "
                          "at most a factor of " +
                          Factor(e) + "."});
    claims.push_back({"a user's whole friend list, d friends", e,
                      "Protected as d friendships: up to d x epsilon for the whole list (group privacy). The "
                      "list's length is itself randomized, never sent as it is.",
                      true});
  }
  if (config.features.enabled) {
    const double e = config.features.params.epsilon;
    claims.push_back({"her features, all " + std::to_string(config.features.params.dims) + " together", e,
                      "Randomized by the multi-bit encoder: a few features, each sent as one noisy bit. Any two "
                      "feature vectors' reports differ by at most a factor of " +
                          Factor(e) + "."});
  }
  if (config.label.enabled) {
    const double e = config.label.epsilon;
    const double keep = std::exp(e) / (std::exp(e) + config.label.classes - 1);
    char kept[32];
    std::snprintf(kept, sizeof(kept), "%.3g", keep);
    claims.push_back({"her label (" + std::to_string(config.label.classes) + " classes)", e,
                      std::string("Randomized response: the true class is sent with probability ") + kept +
                          ", each other one with the rest shared equally."});
  }
  if (!config.embedding.enabled) {
    const bool edges = config.edges.mechanism != EdgeMechanism::kNone;
    double total = edges ? config.edges.epsilon : INFINITY;
    if (config.features.enabled) total += config.features.params.epsilon;
    if (config.label.enabled) total += config.label.epsilon;
    claims.push_back({"her whole report", total,
                      std::string("Features, label and one friendship together (the parts add up)") +
                          (edges ? "; each further friendship that differs adds epsilon for the friend list." : ".")});
  }
  return claims;
}

std::string PrivacyInWords(const GraphConfig& config, const RoundSchedule& rounds) {
  std::string html =
      "<table>\n<caption>What a report protects</caption>\n<thead><tr><th scope=\"col\">what</th>"
      "<th scope=\"col\" class=\"n\">epsilon</th><th scope=\"col\" class=\"n\">best attack, AUC at most</th>"
      "<th scope=\"col\">in words</th></tr></thead>\n<tbody>\n";
  for (const PrivacyClaim& c : PrivacyClaims(config)) {
    std::string auc = std::isfinite(c.epsilon) ? Fixed3(MaxAucUnderDp(c.epsilon, 0)) : "1 (no protection)";
    std::string epsilon = Number(c.epsilon);
    if (c.per_item) {  // grows with the list: shown for 1 and 10 friends
      epsilon = "d x " + epsilon;
      auc = auc + " for d = 1, " + Fixed3(MaxAucUnderDp(10 * c.epsilon, 0)) + " for d = 10";
    }
    html += "<tr><th scope=\"row\">" + EscapeMarkup(c.what) + "</th><td class=\"n\">" + epsilon +
            "</td><td class=\"n\">" + auc + "</td><td>" + EscapeMarkup(c.meaning) + "</td></tr>\n";
  }
  html += "</tbody>\n</table>\n<p>An AUC of 0.5 is a coin toss. The bound holds for any attacker, whatever else "
          "she knows: it is the largest area under the ROC curve of any test telling the two inputs apart from "
          "the report (<code>ldpgraph audit</code> measures real attacks against it).</p>\n";
  if (rounds.enabled) {
    html += "<p>Collected in rounds (" +
            (rounds.every_hours > 0 ? "one every " + Number(rounds.every_hours) + " hours" : std::string("opened by the admin")) +
            "). Each phone memoises its randomisation: a value sent again unchanged repeats its earlier noise "
            "and costs nothing more; values that change cost more, and each phone's budget ledger keeps her "
            "exact loss (docs/rounds.md).</p>\n";
  }
  return html;
}

}  // namespace ldpgraph
