#include "engine/packed_rows.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <vector>

#include <sys/mman.h>

#include "engine/kernels/kernel_table.h"
#include "engine/parallel.h"

namespace ldpgraph {

namespace {

constexpr std::int64_t kColumnStep = 16;  // the tiles' columns
constexpr std::int64_t kPairBlock = 16;   // pair rows a tile reads

std::int64_t RoundUp(std::int64_t x, std::int64_t step) { return (x + step - 1) / step * step; }

float FromBf16(std::uint16_t v) {
  const std::uint32_t bits = std::uint32_t{v} << 16;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// Packed words from which the products split across threads: 1 MB, a
// product with 16 outputs of some 0.2 ms on one core, where a fork and join
// costs microseconds.
constexpr std::int64_t kParallelWords = std::int64_t{1} << 18;

// Pair rows [begin, end) of each thread's share, in whole blocks of 16.
// Whether to split goes by the words, not by ForEachRowBlock's default
// count of rows: a block holds 32 users' whole rows, and Twitch's 688
// blocks (22,470 users by 4,736 columns, 400 MB packed) had run on one
// thread.
template <typename F>
void ForEachPairBlock(const PackedRows& z, F&& f) {
  const std::int64_t block_words = kPairBlock * z.padded_cols();
  ForEachRowBlock(
      z.pair_rows() / kPairBlock,
      [&](int thread, Eigen::Index begin, Eigen::Index end) { f(thread, begin * kPairBlock, end * kPairBlock); },
      std::max<std::int64_t>(2, (kParallelWords + block_words - 1) / block_words));
}

// The values' own mapping: zero pages from the kernel, faulted in by
// mmap itself (MAP_POPULATE) rather than one by one as the first columns
// are written, which at 10^6 users took 2 to 3 s of the two threads'
// time, against 0.25 s (a VM here). Not marked for huge pages: the rows
// are read in streams, which ordinary pages do not slow, and a 1 GB buffer
// took 1.5 s to fault in as 2 MiB pages.
std::uint16_t* MapZeroed(std::size_t bytes) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  return static_cast<std::uint16_t*>(p);
}

}  // namespace

std::int64_t PackedRows::BytesFor(std::int64_t rows, std::int64_t cols) {
  return RoundUp((rows + 1) / 2, kPairBlock) * RoundUp(cols, kColumnStep) * 4;
}

void PackedRows::Free::operator()(std::uint16_t* p) const { munmap(p, mapped); }

PackedRows::PackedRows(std::int64_t rows, std::int64_t cols)
    : rows_(rows),
      cols_(cols),
      padded_cols_(RoundUp(cols, kColumnStep)),
      pair_rows_(RoundUp((rows + 1) / 2, kPairBlock)),
      data_(nullptr, Free{static_cast<std::size_t>(RoundUp(std::max<std::int64_t>(bytes(), 1), 4096))}) {
  data_.reset(MapZeroed(data_.get_deleter().mapped));
}

void PackedRows::SetColumns(const Matrix& block, std::int64_t first) {
  const std::int64_t width = block.cols();
  // A pair of rows at a time, so that each pair's values land as one
  // contiguous run of dwords.
  ForEachRowBlock(static_cast<Eigen::Index>((rows_ + 1) / 2), [&](int, Eigen::Index begin, Eigen::Index end) {
    std::vector<std::uint16_t> even(static_cast<std::size_t>(width)), odd(static_cast<std::size_t>(width), 0);
    for (Eigen::Index q = begin; q < end; ++q) {
      Kernels().round_to_bf16(block.row(2 * q).data(), width, even.data());
      if (2 * q + 1 < rows_) Kernels().round_to_bf16(block.row(2 * q + 1).data(), width, odd.data());
      std::uint16_t* to = data_.get() + q * padded_cols_ * 2 + first * 2;
      for (std::int64_t c = 0; c < width; ++c) {
        to[2 * c] = even[static_cast<std::size_t>(c)];
        to[2 * c + 1] = odd[static_cast<std::size_t>(c)];
      }
    }
  });
}

float PackedRows::At(std::int64_t row, std::int64_t col) const {
  return FromBf16(data_[static_cast<std::size_t>((row / 2) * padded_cols_ * 2 + col * 2 + (row % 2))]);
}

namespace {

// The kernels a product with `out` outputs runs on: AMX tiles, else the ISA
// kernels' vector FMAs where they have 8 lanes or more (AVX2, AVX-512; the
// baseline's 4 lanes lose to the factored route); both null: plain loops.
struct PackedKernels {
  decltype(KernelTable::packed_product) product = nullptr;
  decltype(KernelTable::packed_gradient) gradient = nullptr;
};

PackedKernels KernelsFor(std::int64_t out) {
  if (out % kColumnStep != 0) return {};
  const Bf16KernelTable* tiles = Bf16Kernels();
  if (tiles != nullptr && out <= Bf16KernelTable::kMaxCols) return {tiles->packed_product, tiles->packed_gradient};
  const KernelTable& k = Kernels();
  if (k.float_lanes >= 8) return {k.packed_product, k.packed_gradient};
  return {};
}

}  // namespace

bool PackedProductsFast() { return KernelsFor(kColumnStep).product != nullptr; }

const char* PackedProductRoute() {
  return Bf16Kernels() != nullptr ? "amx" : PackedProductsFast() ? "vectors" : "none";
}

void PackedProduct(const PackedRows& z, const Matrix& w, Matrix* y) {
  const std::int64_t out = w.cols();
  const PackedKernels kernels = KernelsFor(out);
  if (kernels.product == nullptr) return PackedProductPlain(z, w, y);
  // W with zero rows for the padded columns.
  Matrix padded = Matrix::Zero(z.padded_cols(), out);
  padded.topRows(w.rows()) = w;
  y->resize(z.rows(), out);
  ForEachPairBlock(z, [&](int, std::int64_t begin, std::int64_t end) {
    kernels.product(z.data(), z.padded_cols(), begin, end, padded.data(), out, out, y->data(), out, z.rows(), false);
  });
}

void PackedWeightGradient(const PackedRows& z, const Matrix& g, Matrix* gw, bool fresh) {
  const std::int64_t out = g.cols();
  const PackedKernels kernels = KernelsFor(out);
  if (kernels.gradient == nullptr) return PackedWeightGradientPlain(z, g, gw, fresh);
  // G^T Z per thread (out x padded columns), summed after.
  std::vector<Matrix> partial(static_cast<std::size_t>(EngineThreads()));
  ForEachPairBlock(z, [&](int thread, std::int64_t begin, std::int64_t end) {
    Matrix& gt = partial[static_cast<std::size_t>(thread)];
    gt.setZero(out, z.padded_cols());
    kernels.gradient(z.data(), z.padded_cols(), begin, end, g.data(), out, out, z.rows(), gt.data());
  });
  Matrix sum = Matrix::Zero(out, z.padded_cols());
  for (const Matrix& gt : partial) {
    if (gt.size() > 0) sum += gt;
  }
  if (fresh) {
    *gw = sum.leftCols(z.cols()).transpose();
  } else {
    *gw += sum.leftCols(z.cols()).transpose();
  }
}

void PackedProductPlain(const PackedRows& z, const Matrix& w, Matrix* y) {
  y->setZero(z.rows(), w.cols());
  ForEachRowBlock(static_cast<Eigen::Index>(z.rows()), [&](int, Eigen::Index begin, Eigen::Index end) {
    for (Eigen::Index r = begin; r < end; ++r) {
      for (Eigen::Index c = 0; c < w.rows(); ++c) y->row(r) += z.At(r, c) * w.row(c);
    }
  });
}

void PackedWeightGradientPlain(const PackedRows& z, const Matrix& g, Matrix* gw, bool fresh) {
  if (fresh) gw->setZero(z.cols(), g.cols());
  for (Eigen::Index r = 0; r < g.rows(); ++r) {
    for (Eigen::Index c = 0; c < z.cols(); ++c) gw->row(c) += z.At(r, c) * g.row(r);
  }
}

}  // namespace ldpgraph
