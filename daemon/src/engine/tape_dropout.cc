// Tape operations that drop: a layer's input (dense or sparse) with
// dropout, and dropout on any node; masks from the tape's seeded source.
#include "engine/tape.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "engine/parallel.h"
#include "ldpgraph/samplers.h"

namespace ldpgraph {

namespace {

// Dropout's quantised p: an element is dropped when its 16-bit draw is below this.
std::uint16_t DropoutThreshold(float p) { return static_cast<std::uint16_t>(std::min(p * 65536.0f, 65535.0f)); }
// What survivors are multiplied by: 1 / the quantised keep probability.
float DropoutKeepScale(float p) { return 65536.0f / static_cast<float>(65536u - DropoutThreshold(p)); }

}  // namespace

Tape::InputVar Tape::Input(const SparseMatrix* x, float dropout) {
  InputNode node;
  node.sparse = x;
  if (training_ && dropout > 0.0f) {
    auto values = std::make_shared<std::vector<float>>(static_cast<std::size_t>(x->nnz()));
    DropoutMask(dropout, values->data(), x->nnz());
    if (!x->unit_weights()) {
      for (std::size_t k = 0; k < values->size(); ++k) (*values)[k] *= x->values[k];
    }
    node.values = std::move(values);
  }
  inputs_.push_back(std::move(node));
  return static_cast<InputVar>(inputs_.size() - 1);
}

Tape::InputVar Tape::Input(MatrixView x, float dropout) {
  InputNode node;
  node.dense.emplace(x);
  if (training_ && dropout > 0.0f) {
    auto mask = std::make_shared<DropoutBytes>();
    mask->scale = DropoutKeepScale(dropout);
    const std::int64_t size = x.size();
    mask->keep.reset(new std::uint8_t[static_cast<std::size_t>(size)]);
    // The draws Dropout would turn into its mask (see DropoutMask), as bytes.
    const std::uint16_t threshold = DropoutThreshold(dropout);
    std::uint16_t chunks[kDropoutBlock + 3];
    std::uint8_t* keep = mask->keep.get();
    for (std::int64_t i = 0; i < size; i += kDropoutBlock) {
      const std::int64_t count = std::min<std::int64_t>(kDropoutBlock, size - i);
      DropoutChunks(chunks, count);
      for (std::int64_t j = 0; j < count; ++j) keep[i + j] = chunks[j] >= threshold;
    }
    node.mask = std::move(mask);
  }
  inputs_.push_back(std::move(node));
  return static_cast<InputVar>(inputs_.size() - 1);
}

void Tape::DropoutChunks(std::uint16_t* chunks, Eigen::Index count) {
  // Element j takes the 16-bit chunk j % 4 of word j / 4, lowest first: a
  // block of words read as 16-bit values (little-endian), which vectorises.
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "16-bit chunks are read in memory order");
  std::uint64_t words[kDropoutBlock / 4];
  for (Eigen::Index w = 0; w < (count + 3) / 4; ++w) words[w] = rng_->NextU64();
  std::memcpy(chunks, words, static_cast<std::size_t>((count + 3) / 4) * sizeof(std::uint64_t));
}

void Tape::DropoutMask(float p, float* mask, Eigen::Index size) {
  // One 64-bit draw decides four elements: p is quantised down to a multiple
  // of 2^-16 and the survivors are scaled by the quantised keep probability,
  // so E[output] = input exactly. (Training noise, not a privacy mechanism.)
  const std::uint16_t threshold = DropoutThreshold(p);
  const float keep_scale = DropoutKeepScale(p);
  std::uint16_t chunks[kDropoutBlock + 3];
  for (Eigen::Index i = 0; i < size; i += kDropoutBlock) {
    const Eigen::Index count = std::min(kDropoutBlock, size - i);
    DropoutChunks(chunks, count);
    for (Eigen::Index j = 0; j < count; ++j) mask[i + j] = chunks[j] < threshold ? 0.0f : keep_scale;
  }
}

Tape::Var Tape::Dropout(Var x, float p) {
  if (!training_ || p <= 0.0f) return x;
  if (!Needs(x)) {
    // A constant input (node features): nothing needs the mask afterwards,
    // so it is drawn a block at a time and never held whole (n x F floats).
    const Matrix& in = value(x);
    Matrix y(in.rows(), in.cols());
    constexpr Eigen::Index kBlock = 4096;
    float mask[kBlock];
    for (Eigen::Index i = 0; i < in.size(); i += kBlock) {
      const Eigen::Index count = std::min(kBlock, in.size() - i);
      DropoutMask(p, mask, count);
      for (Eigen::Index j = 0; j < count; ++j) y.data()[i + j] = in.data()[i + j] * mask[j];
    }
    return Push(std::move(y), false);
  }
  const Matrix& in = value(x);
  auto mask = std::make_shared<Matrix>(in.rows(), in.cols());
  DropoutMask(p, mask->data(), mask->size());  // one stream, in row order
  Matrix y(in.rows(), in.cols());
  ForEachRowBlock(in.rows(), [&](int, Eigen::Index begin, Eigen::Index end) {
    const Eigen::Index len = end - begin;
    y.middleRows(begin, len) = in.middleRows(begin, len).cwiseProduct(mask->middleRows(begin, len));
  });
  Var out = Push(std::move(y), Needs(x));
  nodes_[out].backward = [this, x, out, mask] {
    if (!Needs(x)) return;
    bool fresh = false;
    Matrix& gx = GradSlot(x, &fresh);
    const Matrix& g = nodes_[out].grad;
    ForEachRowBlock(g.rows(), [&](int, Eigen::Index begin, Eigen::Index end) {
      const Eigen::Index len = end - begin;
      if (fresh) {
        gx.middleRows(begin, len) = g.middleRows(begin, len).cwiseProduct(mask->middleRows(begin, len));
      } else {
        gx.middleRows(begin, len) += g.middleRows(begin, len).cwiseProduct(mask->middleRows(begin, len));
      }
    });
  };
  return out;
}

}  // namespace ldpgraph
