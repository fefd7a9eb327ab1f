// Adam with L2 weight decay added to the gradient (PyTorch's Adam
// weight_decay), and a step learning-rate schedule.
#ifndef LDPGRAPH_DAEMON_ENGINE_ADAM_H_
#define LDPGRAPH_DAEMON_ENGINE_ADAM_H_

#include <vector>

#include "engine/parameter.h"

namespace ldpgraph {

struct AdamOptions {
  float lr = 0.01f;
  float beta1 = 0.9f;
  float beta2 = 0.999f;
  float eps = 1e-8f;
  float weight_decay = 0.0f;
};

// The options most trainers set: a learning rate and an L2 weight decay,
// with the paper's betas and epsilon.
inline AdamOptions AdamWith(float lr, float weight_decay = 0.0f) {
  AdamOptions o;
  o.lr = lr;
  o.weight_decay = weight_decay;
  return o;
}

class Adam {
 public:
  Adam(std::vector<Parameter*> params, AdamOptions options);
  void ZeroGrad();
  void Step();
  void set_lr(float lr) { options_.lr = lr; }
  float lr() const { return options_.lr; }

 private:
  std::vector<Parameter*> params_;
  AdamOptions options_;
  int t_ = 0;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_ENGINE_ADAM_H_
