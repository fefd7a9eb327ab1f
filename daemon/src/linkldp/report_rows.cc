#include "linkldp/report_rows.h"

#include <algorithm>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace ldpgraph {

ReportRowsBuilder::ReportRowsBuilder(std::uint32_t num_users)
    : n_(num_users), lists_(num_users), bits_(num_users), counts_(num_users, 0) {}

void ReportRowsBuilder::SetRow(std::uint32_t i, Span<const std::uint32_t> ids) {
  counts_[i] = ids.size();
  std::vector<std::uint32_t>().swap(lists_[i]);
  std::vector<std::uint64_t>().swap(bits_[i]);
  if (!IsBitRow(ids.size(), n_)) {
    lists_[i].assign(ids.begin(), ids.end());
    return;
  }
  bits_[i].assign((static_cast<std::size_t>(n_) + 63) / 64, 0);
  for (std::uint32_t j : ids) bits_[i][j / 64] |= std::uint64_t{1} << (j % 64);
}

ReportRows ReportRowsBuilder::Finish() {
  ReportRows r;
  r.n_ = n_;
  r.words_ = (static_cast<std::size_t>(n_) + 63) / 64;
  r.counts_ = std::move(counts_);
  r.slot_.assign(n_, ReportRows::kList);
  std::uint32_t bit_rows = 0;
  std::uint64_t list_entries = 0;
  for (std::uint32_t i = 0; i < n_; ++i) {
    r.entries_ += r.counts_[i];
    if (!bits_[i].empty()) {
      r.slot_[i] = bit_rows++;
    } else {
      list_entries += r.counts_[i];
    }
  }
  r.bits_.reserve(static_cast<std::size_t>(bit_rows) * r.words_);
  r.lists_.Reserve(n_, list_entries);
  for (std::uint32_t i = 0; i < n_; ++i) {
    r.lists_.AppendRow(lists_[i]);
    r.bits_.insert(r.bits_.end(), bits_[i].begin(), bits_[i].end());
    std::vector<std::uint32_t>().swap(lists_[i]);  // freed as packed
    std::vector<std::uint64_t>().swap(bits_[i]);
  }
  counts_.assign(n_, 0);
  lists_.assign(n_, {});
  bits_.assign(n_, {});
  return r;
}

ReportRows ReportRows::FromRows(const std::vector<std::vector<std::uint32_t>>& rows) {
  ReportRowsBuilder b(static_cast<std::uint32_t>(rows.size()));
  for (std::uint32_t i = 0; i < rows.size(); ++i) b.SetRow(i, rows[i]);
  return b.Finish();
}

bool ReportRows::Contains(std::uint32_t i, std::uint32_t j) const {
  if (const std::uint64_t* row = bit_row(i)) return (row[j / 64] >> (j % 64)) & 1;
  const auto row = ids(i);
  return std::binary_search(row.begin(), row.end(), j);
}

template <typename F>
void ReportRows::ForEachIn(std::uint32_t i, std::uint32_t lo, std::uint32_t hi, F&& f) const {
  if (const std::uint64_t* row = bit_row(i)) {
    for (std::size_t w = lo / 64; w < (static_cast<std::size_t>(hi) + 63) / 64; ++w) {
      ForEachSetBit(row[w], w * 64, [&](std::size_t j) { f(static_cast<std::uint32_t>(j)); });
    }
    return;
  }
  const auto row = ids(i);
  for (const std::uint32_t* j = std::lower_bound(row.begin(), row.end(), lo); j != row.end() && *j < hi; ++j) f(*j);
}

ReportRows ReportRows::Transposed() const {
  ReportRows t;
  t.n_ = n_;
  t.words_ = words_;
  t.entries_ = entries_;
  t.counts_.assign(n_, 0);
  t.slot_.assign(n_, kList);
  std::vector<std::uint64_t> offsets(static_cast<std::size_t>(n_) + 1, 0);
  std::vector<std::uint32_t> targets;
  // Each thread owns a range of the transpose's rows (whole 64-bit words of
  // the bit rows) and reads every row's part in it: no two threads write
  // the same word, and the rows come out sorted because i increases.
#pragma omp parallel
  {
#ifdef _OPENMP
    const auto threads = static_cast<std::uint32_t>(omp_get_num_threads());
    const auto me = static_cast<std::uint32_t>(omp_get_thread_num());
#else
    const std::uint32_t threads = 1, me = 0;
#endif
    const std::size_t per = (words_ + threads - 1) / threads * 64;
    const auto lo = static_cast<std::uint32_t>(std::min<std::size_t>(n_, me * per));
    const auto hi = static_cast<std::uint32_t>(std::min<std::size_t>(n_, (me + 1) * per));
    for (std::uint32_t i = 0; i < n_; ++i) ForEachIn(i, lo, hi, [&](std::uint32_t j) { ++t.counts_[j]; });
#pragma omp barrier
#pragma omp single
    {
      std::uint32_t bit_rows = 0;
      for (std::uint32_t j = 0; j < n_; ++j) {
        const bool dense = ReportRowsBuilder::IsBitRow(t.counts_[j], n_);
        if (dense) t.slot_[j] = bit_rows++;
        offsets[j + 1] = offsets[j] + (dense ? 0 : t.counts_[j]);
      }
      t.bits_.assign(static_cast<std::size_t>(bit_rows) * words_, 0);
      targets.resize(offsets[n_]);
    }
    std::vector<std::uint64_t> cursor(offsets.begin() + lo, offsets.begin() + hi);
    for (std::uint32_t i = 0; i < n_; ++i) {
      ForEachIn(i, lo, hi, [&](std::uint32_t j) {
        if (t.slot_[j] == kList) {
          targets[cursor[j - lo]++] = i;
        } else {
          t.bits_[static_cast<std::size_t>(t.slot_[j]) * words_ + i / 64] |= std::uint64_t{1} << (i % 64);
        }
      });
    }
  }
  t.lists_ = CsrGraph::FromCsr(std::move(offsets), std::move(targets));
  return t;
}

CsrGraph ReportRows::ToCsr() const {
  std::vector<std::uint64_t> offsets(static_cast<std::size_t>(n_) + 1, 0);
  for (std::uint32_t i = 0; i < n_; ++i) offsets[i + 1] = offsets[i] + counts_[i];
  std::vector<std::uint32_t> targets;
  targets.reserve(entries_);
  for (std::uint32_t i = 0; i < n_; ++i) ForEach(i, [&](std::uint32_t j) { targets.push_back(j); });
  return CsrGraph::FromCsr(std::move(offsets), std::move(targets));
}

std::size_t ReportRows::bytes() const {
  return counts_.size() * sizeof(std::uint64_t) + slot_.size() * sizeof(std::uint32_t) +
         bits_.size() * sizeof(std::uint64_t) + lists_.offsets().size() * sizeof(std::uint64_t) +
         lists_.targets().size() * sizeof(std::uint32_t);
}

}  // namespace ldpgraph
