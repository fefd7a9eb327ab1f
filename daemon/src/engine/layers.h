// Layers with parameters: Linear and BatchNorm. Stateless operations
// (ReLU, SELU, dropout, aggregation, readout) are Tape operations.
#ifndef LDPGRAPH_DAEMON_ENGINE_LAYERS_H_
#define LDPGRAPH_DAEMON_ENGINE_LAYERS_H_

#include <string>
#include <vector>

#include "engine/factored_features.h"
#include "engine/propagated_product_cache.h"
#include "engine/tape.h"

namespace ldpgraph {

class LinearLayer {
 public:
  LinearLayer() = default;
  // PyTorch's default initialisation: U(-1/sqrt(in), 1/sqrt(in)) for both.
  LinearLayer(const std::string& name, int in, int out, RandomSource& rng);
  Tape::Var Forward(Tape& tape, Tape::Var x);
  // The layer in two halves, for products taken before an aggregation
  // (A (x W) + b, where A x W would aggregate the wider side):
  Tape::Var Product(Tape& tape, Tape::Var x) { return tape.Linear(x, tape.Param(&w_), Tape::kNone); }
  Tape::Var InputProduct(Tape& tape, Tape::InputVar x) { return tape.InputProduct(x, tape.Param(&w_)); }
  // x W for factored features: (P^k S + L R) W = P^k (S W) + L (R W), each
  // product on its narrow side; `s` is tape.Input(&x.sparse, ...). Where x
  // is packed (FactoredFeatures::packed), the packed values times W
  // instead, one stream each way and no neighbour sums. With `cache`, P^k
  // (S W) (or the packed product) is taken from it when it holds this x and
  // W, and an evaluation pass leaves its own there for the next pass.
  Tape::Var FactoredProduct(Tape& tape, Tape::InputVar s, const FactoredFeatures& x,
                            PropagatedProductCache::Entry* cache = nullptr);
  Tape::Var AddBias(Tape& tape, Tape::Var y) { return tape.AddBias(y, tape.Param(&b_)); }
  void Collect(std::vector<Parameter*>* params) { params->push_back(&w_); params->push_back(&b_); }
  Parameter* weight() { return &w_; }
  Parameter* bias() { return &b_; }
  int in() const { return static_cast<int>(w_.value.rows()); }
  int out() const { return static_cast<int>(w_.value.cols()); }

 private:
  Parameter w_, b_;
};

class BatchNormLayer {
 public:
  BatchNormLayer() = default;
  BatchNormLayer(const std::string& name, int features);
  Tape::Var Forward(Tape& tape, Tape::Var x) {
    return tape.BatchNorm(x, tape.Param(&gamma_), tape.Param(&beta_), &stats_);
  }
  // `linear` and this layer after it, for Tape::NormalisedMlp.
  Tape::NormalisedLinear After(Tape& tape, LinearLayer& linear) {
    const Tape::Var w = tape.Param(linear.weight()), b = tape.Param(linear.bias());
    const Tape::Var gamma = tape.Param(&gamma_), beta = tape.Param(&beta_);
    return {w, b, gamma, beta, &stats_};
  }
  void Collect(std::vector<Parameter*>* params) { params->push_back(&gamma_); params->push_back(&beta_); }
  BatchNormStats* stats() { return &stats_; }

 private:
  Parameter gamma_, beta_;
  BatchNormStats stats_;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_ENGINE_LAYERS_H_
