#include "ldpgraph/budget_ledger.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "base/byte_io.h"
#include "base/crc32.h"
#include "internal/validation.h"

namespace ldpgraph {
namespace {

// State layout: "LGLEDGER" | version u8 | count varint | count x entry |
// CRC-32 of all preceding bytes, fixed32 little-endian. An entry is
//   version 1: graph id varint, epsilon f64, length varint, bytes
//   version 2: graph id varint, kind u8 (0 one report, 1 rounds), epsilon
//              f64, length varint, bytes, and for rounds: key (32 bytes),
//              config (varint length, bytes), naive epsilon f64, the history
//              (rounds, last round, then friends ever, both bits, degrees,
//              feature values, labels, each a varint count and its items).
// Version 1 states (written before rounds existed) still load.
constexpr char kMagic[8] = {'L', 'G', 'L', 'E', 'D', 'G', 'E', 'R'};
constexpr std::uint8_t kVersion = 2;
constexpr std::uint8_t kKindOnce = 0;
constexpr std::uint8_t kKindRounds = 1;

template <typename T>
void PutList(std::vector<std::uint8_t>* out, const std::vector<T>& items) {
  base::PutVarint(out, items.size());
  for (const T& v : items) base::PutVarint(out, v);
}

void PutHistory(std::vector<std::uint8_t>* out, const RoundHistory& h) {
  base::PutVarint(out, h.rounds);
  base::PutVarint(out, h.last_round);
  PutList(out, h.friends_ever);
  PutList(out, h.both_bits);
  PutList(out, h.degrees);
  base::PutVarint(out, h.feature_values.size());
  for (const auto& [dim, bits] : h.feature_values) {
    base::PutVarint(out, dim);
    base::PutFixed64(out, bits);
  }
  PutList(out, h.labels);
}

template <typename T>
bool ReadList(base::ByteReader& in, std::vector<T>* items) {
  std::uint64_t count = 0;
  if (!in.ReadVarint(&count) || count > in.remaining()) return false;
  items->resize(count);
  for (T& v : *items) {
    std::uint64_t x = 0;
    if (!in.ReadVarint(&x) || x > std::numeric_limits<T>::max()) return false;
    v = static_cast<T>(x);
  }
  return std::is_sorted(items->begin(), items->end()) &&
         std::adjacent_find(items->begin(), items->end()) == items->end();
}

bool ReadHistory(base::ByteReader& in, RoundHistory* h) {
  if (!in.ReadVarint(&h->rounds) || !in.ReadVarint(&h->last_round) || h->rounds == 0 ||
      !ReadList(in, &h->friends_ever) || !ReadList(in, &h->both_bits) || !ReadList(in, &h->degrees)) {
    return false;
  }
  std::uint64_t count = 0;
  if (!in.ReadVarint(&count) || count > in.remaining()) return false;
  h->feature_values.resize(count);
  for (auto& [dim, bits] : h->feature_values) {
    std::uint64_t d = 0;
    if (!in.ReadVarint(&d) || d > PermanentCoins::kMaxItem || !in.ReadFixed64(&bits)) return false;
    dim = static_cast<std::uint32_t>(d);
  }
  return std::is_sorted(h->feature_values.begin(), h->feature_values.end()) && ReadList(in, &h->labels);
}

// One entry of either version; false when malformed.
bool ReadEntry(base::ByteReader& in, std::uint8_t version, std::uint64_t* graph_id, LedgerEntry* e) {
  std::uint8_t kind = kKindOnce;
  std::uint64_t length = 0;
  if (!in.ReadVarint(graph_id) || (version >= 2 && !in.ReadU8(&kind)) || !in.ReadDouble(&e->epsilon) ||
      !in.ReadVarint(&length) || length > in.remaining() || std::isnan(e->epsilon) || e->epsilon < 0 ||
      (kind != kKindOnce && kind != kKindRounds)) {
    return false;
  }
  e->bytes.resize(length);
  (void)in.ReadBytes(e->bytes.data(), length);
  if (kind == kKindOnce) return true;
  e->in_rounds = true;
  std::uint64_t config_length = 0;
  if (!in.ReadBytes(e->key.data(), e->key.size()) || !in.ReadVarint(&config_length) ||
      config_length > in.remaining()) {
    return false;
  }
  e->config.resize(config_length);
  (void)in.ReadBytes(e->config.data(), config_length);
  return in.ReadDouble(&e->naive_epsilon) && !std::isnan(e->naive_epsilon) && ReadHistory(in, &e->history);
}

}  // namespace

std::vector<std::uint8_t> BudgetLedger::Serialize(const std::map<std::uint64_t, LedgerEntry>& entries) {
  std::vector<std::uint8_t> out(kMagic, kMagic + sizeof kMagic);
  base::PutU8(&out, kVersion);
  base::PutVarint(&out, entries.size());
  for (const auto& [graph_id, entry] : entries) {
    base::PutVarint(&out, graph_id);
    base::PutU8(&out, entry.in_rounds ? kKindRounds : kKindOnce);
    base::PutDouble(&out, entry.epsilon);
    base::PutVarint(&out, entry.bytes.size());
    out.insert(out.end(), entry.bytes.begin(), entry.bytes.end());
    if (!entry.in_rounds) continue;
    out.insert(out.end(), entry.key.begin(), entry.key.end());
    base::PutVarint(&out, entry.config.size());
    out.insert(out.end(), entry.config.begin(), entry.config.end());
    base::PutDouble(&out, entry.naive_epsilon);
    PutHistory(&out, entry.history);
  }
  base::PutFixed32(&out, base::Crc32(out.data(), out.size()));
  return out;
}

Result<std::map<std::uint64_t, LedgerEntry>> BudgetLedger::Parse(
    const std::vector<std::uint8_t>& state) {
  std::map<std::uint64_t, LedgerEntry> entries;
  if (state.empty()) return entries;
  if (state.size() < sizeof kMagic + 1 + 1 + 4) return Status::DataLoss("ledger state is truncated");
  const std::size_t body = state.size() - 4;
  base::ByteReader crc_reader(state.data() + body, 4);
  std::uint32_t stored_crc = 0;
  (void)crc_reader.ReadFixed32(&stored_crc);
  if (stored_crc != base::Crc32(state.data(), body)) {
    return Status::DataLoss("ledger state fails its checksum");
  }
  base::ByteReader in(state.data(), body);
  std::uint8_t magic[sizeof kMagic];
  std::uint8_t version = 0;
  if (!in.ReadBytes(magic, sizeof magic) || std::memcmp(magic, kMagic, sizeof kMagic) != 0) {
    return Status::DataLoss("ledger state has no LGLEDGER magic");
  }
  if (!in.ReadU8(&version) || version < 1 || version > kVersion) {
    return Status::DataLoss("ledger state has unsupported version " + std::to_string(version));
  }
  std::uint64_t count = 0;
  if (!in.ReadVarint(&count) || count > in.remaining()) {
    return Status::DataLoss("ledger state has a bad entry count");
  }
  for (std::uint64_t i = 0; i < count; ++i) {
    std::uint64_t graph_id = 0;
    LedgerEntry e;
    if (!ReadEntry(in, version, &graph_id, &e)) {
      return Status::DataLoss("ledger entry " + std::to_string(i) + " is malformed");
    }
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
  if (it != entries_.end() && it->second.in_rounds) {
    return Status::FailedPrecondition("graph " + std::to_string(graph_id) +
                                      " is reported in rounds: ask for its round's report (ReportRound)");
  }
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
  LedgerEntry entry;
  entry.epsilon = cost;
  entry.bytes = made->bytes;
  next[graph_id] = std::move(entry);
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
