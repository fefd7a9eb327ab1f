#include "gap/progap_stage.h"

#include <string>

namespace ldpgraph {

Result<ProGapStage> ProGapStage::Create(const ProGapStageConfig& c, std::uint64_t seed) {
  if (c.earlier_stages < 0) return Status::InvalidArgument("a ProGAP stage cannot follow a negative number of stages");
  SeededRandomSource init(seed);
  const std::string name = "progap.stage" + std::to_string(c.earlier_stages);
  Result<Mlp> encoder =
      Mlp::Create({c.input_dim, c.hidden, c.encoder_layers, c.hidden, c.dropout, /*activate_output=*/true},
                  name + ".encoder", init);
  if (!encoder.ok()) return encoder.status();
  Result<Mlp> head = Mlp::Create({c.hidden * (c.earlier_stages + 1), c.hidden, c.head_layers, c.classes, 0.0f, false},
                                 name + ".head", init);
  if (!head.ok()) return head.status();
  ProGapStage stage;
  stage.config_ = c;
  stage.encoder_ = std::move(encoder).value();
  stage.head_ = std::move(head).value();
  return stage;
}

ProGapStage::Output ProGapStage::Join(Tape& tape, Tape::Var embedding, const std::vector<Tape::Var>& earlier) {
  Tape::Var joined = embedding;
  if (!earlier.empty()) {
    std::vector<Tape::Var> parts = earlier;
    parts.push_back(embedding);
    joined = tape.ConcatColumns(parts);
  }
  return {embedding, head_.Forward(tape, config_.normalise ? tape.NormaliseRows(joined) : joined)};
}

ProGapStage::Output ProGapStage::Forward(Tape& tape, Tape::Var input, const std::vector<Tape::Var>& earlier) {
  return Join(tape, encoder_.Forward(tape, input), earlier);
}

ProGapStage::Output ProGapStage::Forward(Tape& tape, const NodeFeatures& input, const std::vector<Tape::Var>& earlier) {
  return Join(tape, encoder_.Forward(tape, input), earlier);
}

std::vector<Parameter*> ProGapStage::Parameters() {
  std::vector<Parameter*> p = encoder_.Parameters();
  for (Parameter* q : head_.Parameters()) p.push_back(q);
  return p;
}

void ProGapStage::StartAtZero() {
  std::vector<Parameter*> p = head_.Parameters();
  for (std::size_t k = p.size() - 2; k < p.size(); ++k) p[k]->value.setZero();  // the output layer's weights and bias
}

Status ProGapStage::CopyEncoder(ProGapStage& other) {
  std::vector<Parameter*> to = encoder_.Parameters(), from = other.encoder_.Parameters();
  if (to.size() != from.size()) return Status::InvalidArgument("the two stages' encoders differ in shape");
  for (std::size_t i = 0; i < to.size(); ++i) {
    if (to[i]->value.rows() != from[i]->value.rows() || to[i]->value.cols() != from[i]->value.cols()) {
      return Status::InvalidArgument("the two stages' encoders differ in shape");
    }
  }
  for (std::size_t i = 0; i < to.size(); ++i) to[i]->value = from[i]->value;
  return Status::Ok();
}

}  // namespace ldpgraph
