#include "gap/gap_model.h"

#include <string>

namespace ldpgraph {

const char* GapPrivacyName(GapPrivacy privacy) { return privacy == GapPrivacy::kEdge ? "edge" : "node"; }

Result<GapClassifier> GapClassifier::Create(const GapModelConfig& c, std::uint64_t seed) {
  if (c.hops < 1) return Status::InvalidArgument("GAP needs at least one hop (K >= 1)");
  SeededRandomSource rng(seed);
  GapClassifier g;
  g.config_ = c;
  for (int k = 0; k <= c.hops; ++k) {
    MlpConfig base{c.hidden, c.hidden, c.base_layers, c.hidden, c.dropout, /*activate_output=*/true};
    Result<Mlp> m = Mlp::Create(base, "gap.base." + std::to_string(k), rng);
    if (!m.ok()) return m.status();
    g.bases_.push_back(std::move(m).value());
  }
  const int combined = c.concat ? c.hidden * (c.hops + 1) : c.hidden;
  Result<Mlp> head = Mlp::Create({combined, c.hidden, c.head_layers, c.classes, c.dropout, false}, "gap.head", rng);
  if (!head.ok()) return head.status();
  g.head_ = std::move(head).value();
  return g;
}

Tape::Var GapClassifier::Forward(Tape& tape, const std::vector<Matrix>& aggregates) {
  std::vector<Tape::Var> inputs;
  for (const Matrix& a : aggregates) inputs.push_back(tape.ConstantView(&a));
  return Forward(tape, inputs);
}

Tape::Var GapClassifier::Forward(Tape& tape, const std::vector<Tape::Var>& aggregates) {
  std::vector<Tape::Var> hops;
  for (std::size_t k = 0; k < bases_.size(); ++k) hops.push_back(bases_[k].Forward(tape, aggregates[k]));
  Tape::Var combined = hops.front();
  if (config_.concat) {
    combined = tape.ConcatColumns(hops);
  } else {
    for (std::size_t k = 1; k < hops.size(); ++k) combined = tape.Add(combined, hops[k]);
  }
  return head_.Forward(tape, combined);
}

std::vector<Parameter*> GapClassifier::Parameters() {
  std::vector<Parameter*> params;
  for (Mlp& base : bases_) {
    for (Parameter* p : base.Parameters()) params.push_back(p);
  }
  for (Parameter* p : head_.Parameters()) params.push_back(p);
  return params;
}

}  // namespace ldpgraph
