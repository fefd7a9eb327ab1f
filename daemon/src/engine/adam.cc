#include "engine/adam.h"

#include <cmath>

namespace ldpgraph {

Adam::Adam(std::vector<Parameter*> params, AdamOptions options) : params_(std::move(params)), options_(options) {
  for (Parameter* p : params_) {
    p->adam_m.setZero(p->value.rows(), p->value.cols());
    p->adam_v.setZero(p->value.rows(), p->value.cols());
    p->ZeroGrad();
  }
}

void Adam::ZeroGrad() {
  for (Parameter* p : params_) p->grad.setZero();
}

void Adam::Step() {
  ++t_;
  const float c1 = 1.0f - std::pow(options_.beta1, static_cast<float>(t_));
  const float c2 = 1.0f - std::pow(options_.beta2, static_cast<float>(t_));
  const float step = options_.lr / c1;
  for (Parameter* p : params_) {
    Matrix g = p->grad;
    if (options_.weight_decay > 0.0f && p->decay) g += options_.weight_decay * p->value;
    p->adam_m = options_.beta1 * p->adam_m + (1.0f - options_.beta1) * g;
    p->adam_v = options_.beta2 * p->adam_v + (1.0f - options_.beta2) * g.cwiseProduct(g);
    p->value.array() -= step * p->adam_m.array() / ((p->adam_v.array() / c2).sqrt() + options_.eps);
  }
}

}  // namespace ldpgraph
