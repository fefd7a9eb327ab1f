#include "privacy/label_randomization.h"

#include "ldpgraph/label_rr.h"

namespace ldpgraph {

Status RandomizeLabels(int classes, double epsilon, std::uint64_t seed, std::vector<int>* labels) {
  Result<LabelRandomizer> rr = LabelRandomizer::Create(static_cast<std::uint32_t>(classes), epsilon);
  if (!rr.ok()) return rr.status();
  SeededRandomSource rng(seed);
  for (int& y : *labels) {
    if (y < 0) continue;
    Result<std::uint32_t> out = rr->Perturb(static_cast<std::uint32_t>(y), rng);
    if (!out.ok()) return out.status();
    y = static_cast<int>(*out);
  }
  return Status::Ok();
}

}  // namespace ldpgraph
