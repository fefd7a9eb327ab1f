#include "ldpgraph/budget_ledger.h"

#include <cmath>

#include <cstring>

#include "internal/byte_io.h"
#include "internal/crc32.h"
#include "internal/validation.h"

namespace ldpgraph {
namespace {

// State layout: "LGLEDGER" | version u8 = 1 | count varint | count x
// (graph id varint, epsilon f64, length varint, bytes) | CRC-32 of all
// preceding bytes, fixed32 little-endian.
constexpr char kMagic[8] = {'L', 'G', 'L', 'E', 'D', 'G', 'E', 'R'};
constexpr std::uint8_t kVersion = 1;

}  // namespace

std::vector<std::uint8_t> BudgetLedger::Serialize(const std::map<std::uint64_t, LedgerEntry>& entries) {
  std::vector<std::uint8_t> out(kMagic, kMagic + sizeof kMagic);
  internal::PutU8(&out, kVersion);
  internal::PutVarint(&out, entries.size());
  for (const auto& [graph_id, entry] : entries) {
    internal::PutVarint(&out, graph_id);
    internal::PutDouble(&out, entry.epsilon);
    internal::PutVarint(&out, entry.bytes.size());
    out.insert(out.end(), entry.bytes.begin(), entry.bytes.end());
  }
  internal::PutFixed32(&out, internal::Crc32(out.data(), out.size()));
  return out;
}

Result<std::map<std::uint64_t, LedgerEntry>> BudgetLedger::Parse(
    const std::vector<std::uint8_t>& state) {
  std::map<std::uint64_t, LedgerEntry> entries;
  if (state.empty()) return entries;
  if (state.size() < sizeof kMagic + 1 + 1 + 4) return Status::DataLoss("ledger state is truncated");
  const std::size_t body = state.size() - 4;
  internal::ByteReader crc_reader(state.data() + body, 4);
  std::uint32_t stored_crc = 0;
  (void)crc_reader.ReadFixed32(&stored_crc);
  if (stored_crc != internal::Crc32(state.data(), body)) {
    return Status::DataLoss("ledger state fails its checksum");
  }
  internal::ByteReader in(state.data(), body);
  std::uint8_t magic[sizeof kMagic];
  std::uint8_t version = 0;
  if (!in.ReadBytes(magic, sizeof magic) || std::memcmp(magic, kMagic, sizeof kMagic) != 0) {
    return Status::DataLoss("ledger state has no LGLEDGER magic");
  }
  if (!in.ReadU8(&version) || version != kVersion) {
    return Status::DataLoss("ledger state has unsupported version " + std::to_string(version));
  }
  std::uint64_t count = 0;
  if (!in.ReadVarint(&count) || count > in.remaining()) {
    return Status::DataLoss("ledger state has a bad entry count");
  }
  for (std::uint64_t i = 0; i < count; ++i) {
    std::uint64_t graph_id = 0, length = 0;
    LedgerEntry e;
    if (!in.ReadVarint(&graph_id) || !in.ReadDouble(&e.epsilon) || !in.ReadVarint(&length) ||
        length > in.remaining() || std::isnan(e.epsilon) || e.epsilon < 0) {
      return Status::DataLoss("ledger entry " + std::to_string(i) + " is malformed");
    }
    e.bytes.resize(length);
    (void)in.ReadBytes(e.bytes.data(), length);
    if (!entries.emplace(graph_id, std::move(e)).second) {
      return Status::DataLoss("ledger lists graph " + std::to_string(graph_id) + " twice");
    }
  }
  if (in.remaining() != 0) return Status::DataLoss("ledger state has trailing bytes");
  return entries;
}

Result<std::unique_ptr<BudgetLedger>> BudgetLedger::Open(LedgerStorage storage, double epsilon_cap) {
  if (std::isnan(epsilon_cap) || epsilon_cap <= 0) {
    return Status::InvalidArgument("ledger epsilon cap must be positive (or +infinity), got " +
                                   internal::FormatDouble(epsilon_cap));
  }
  if (!storage.load || !storage.store) {
    return Status::InvalidArgument("ledger storage needs both load and store callbacks");
  }
  std::vector<std::uint8_t> state;
  LDPGRAPH_RETURN_IF_ERROR(storage.load(&state));
  Result<std::map<std::uint64_t, LedgerEntry>> entries = Parse(state);
  if (!entries.ok()) return entries.status();
  std::unique_ptr<BudgetLedger> ledger(new BudgetLedger(std::move(storage), epsilon_cap));
  ledger->entries_ = std::move(entries).value();
  for (const auto& kv : ledger->entries_) ledger->spent_ += kv.second.epsilon;
  return ledger;
}

Result<std::vector<std::uint8_t>> BudgetLedger::ReportOnce(std::uint64_t graph_id,
                                                           const ReportMaker& make) {
  std::lock_guard<Mutex> lock(mu_);
  auto it = entries_.find(graph_id);
  if (it != entries_.end()) return it->second.bytes;

  Result<NewReport> made = make();
  if (!made.ok()) return made.status();
  const double cost = made->epsilon;
  if (std::isnan(cost) || cost < 0) {
    return Status::InvalidArgument("report epsilon must be >= 0, got " +
                                   internal::FormatDouble(cost));
  }
  if (spent_ + cost > cap_) {
    return Status::ResourceExhausted(
        "privacy budget cap " + internal::FormatDouble(cap_) + " would be exceeded: spent " +
        internal::FormatDouble(spent_) + ", this report needs " + internal::FormatDouble(cost));
  }
  std::map<std::uint64_t, LedgerEntry> next = entries_;
  next[graph_id] = LedgerEntry{cost, made->bytes};
  LDPGRAPH_RETURN_IF_ERROR(storage_.store(Serialize(next)));
  entries_ = std::move(next);
  spent_ += cost;
  return std::move(made).value().bytes;
}

Result<std::vector<std::uint8_t>> BudgetLedger::Find(std::uint64_t graph_id) const {
  std::lock_guard<Mutex> lock(mu_);
  auto it = entries_.find(graph_id);
  if (it == entries_.end()) {
    return Status::FailedPrecondition("no report stored for graph " + std::to_string(graph_id));
  }
  return it->second.bytes;
}

double BudgetLedger::spent() const {
  std::lock_guard<Mutex> lock(mu_);
  return spent_;
}

std::size_t BudgetLedger::size() const {
  std::lock_guard<Mutex> lock(mu_);
  return entries_.size();
}

}  // namespace ldpgraph
