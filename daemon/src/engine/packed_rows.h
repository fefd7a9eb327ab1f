// A node model's inputs held whole as bfloat16, in the layout Intel AMX
// multiplies from without a copy: KProp'd multi-bit features, standardised
// (train/factored_kprop.h), whose factored form costs a first layer k
// neighbour sums forward and k back every epoch (at 10^6 users and kx 4,
// 8 of an epoch's 11 wide sums, about 45 ms each, all waiting on random
// rows). Held packed, the layer's product and its weight gradient are each
// one stream over n x d bfloat16 values (1 GB at 10^6 x 500), on AMX tiles
// or, without AMX, with AVX2 or AVX-512 multiply-adds.
//
// The layout: users in pairs, pair q holding user 2q's and 2q + 1's value
// of each column side by side (one dword a column, the even user in the
// low half), columns padded with zeros to a multiple of 16, pairs to whole
// blocks of 16 (32 users). It is AMX's B layout for the weight gradient
// G^T Z as it stands, and read as A (a pair a row) it gives the product
// both users' outputs from one tile of inputs.
#ifndef LDPGRAPH_DAEMON_ENGINE_PACKED_ROWS_H_
#define LDPGRAPH_DAEMON_ENGINE_PACKED_ROWS_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "engine/matrix.h"

namespace ldpgraph {

class PackedRows {
 public:
  // rows x cols zeros.
  PackedRows(std::int64_t rows, std::int64_t cols);

  std::int64_t rows() const { return rows_; }
  std::int64_t cols() const { return cols_; }
  std::int64_t padded_cols() const { return padded_cols_; }
  std::int64_t pair_rows() const { return pair_rows_; }  // a multiple of 16
  const std::uint16_t* data() const { return data_.get(); }
  std::int64_t bytes() const { return BytesFor(rows_, cols_); }
  // What rows x cols packed values take, before making them.
  static std::int64_t BytesFor(std::int64_t rows, std::int64_t cols);

  // Columns [first, first + block.cols()) of every row from `block`
  // (rows() x its width), each value rounded to the nearest bfloat16, ties
  // to even.
  void SetColumns(const Matrix& block, std::int64_t first);
  // One value as stored, back in float (tests, and the plain loops).
  float At(std::int64_t row, std::int64_t col) const;

 private:
  std::int64_t rows_, cols_, padded_cols_, pair_rows_;
  struct Free {
    std::size_t mapped;  // bytes
    void operator()(std::uint16_t* p) const;
  };
  std::unique_ptr<std::uint16_t[], Free> data_;
};

// Whether the packed product is fast here: on AMX tiles (Bf16Kernels()),
// else with the ISA kernels' vector multiply-adds where they have 8 lanes or
// more. The plain loops below stand in elsewhere, exact but far slower than
// the factored route, so callers pack only where this holds.
bool PackedProductsFast();
// Which: "amx", "vectors" (AVX2 or AVX-512 multiply-adds) or "none".
const char* PackedProductRoute();

// y = Z W (y is resized to rows x W's columns), the sums in float; on AMX
// tiles W is rounded to bfloat16 first. Requires w.rows() == z.cols().
void PackedProduct(const PackedRows& z, const Matrix& w, Matrix* y);
// gw = Z^T g (fresh) or gw += Z^T g, the sums in float; on AMX tiles g is
// rounded to bfloat16 first. Requires g.rows() == z.rows(); gw is z.cols() x g.cols().
void PackedWeightGradient(const PackedRows& z, const Matrix& g, Matrix* gw, bool fresh);

// The same as plain loops over the stored values, in float throughout
// (what the tests compare the tiles with).
void PackedProductPlain(const PackedRows& z, const Matrix& w, Matrix* y);
void PackedWeightGradientPlain(const PackedRows& z, const Matrix& g, Matrix* gw, bool fresh);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_ENGINE_PACKED_ROWS_H_
