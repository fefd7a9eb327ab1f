#include "graph/graph_colours.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace ldpgraph {
namespace {

// Dense ids for keys (sequences of 64-bit words), in order of first sight:
// open addressing on a hash of the key, every match confirmed on the stored
// key, so two classes never merge by a collision.
class KeyInterner {
 public:
  explicit KeyInterner(std::size_t max_keys) {
    std::size_t capacity = 16;
    while (capacity < 2 * max_keys) capacity *= 2;
    slots_.assign(capacity, Slot{-1, 0});
    starts_.reserve(max_keys + 1);
  }

  // The key's id, and whether it is new.
  std::pair<std::int32_t, bool> Intern(const std::uint64_t* key, std::size_t length) {
    const std::uint64_t hash = Hash(key, length);
    const auto tag = static_cast<std::uint32_t>(hash >> 32);
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t slot = hash & mask;; slot = (slot + 1) & mask) {
      Slot& s = slots_[slot];
      if (s.id < 0) {
        s = Slot{static_cast<std::int32_t>(starts_.size() - 1), tag};
        words_.insert(words_.end(), key, key + length);
        starts_.push_back(words_.size());
        return {s.id, true};
      }
      if (s.tag != tag) continue;
      const std::size_t begin = starts_[static_cast<std::size_t>(s.id)];
      const std::size_t stored = starts_[static_cast<std::size_t>(s.id) + 1] - begin;
      if (stored == length && std::equal(key, key + length, words_.begin() + static_cast<std::ptrdiff_t>(begin))) {
        return {s.id, false};
      }
    }
  }
  // A new id that no key will match.
  std::int32_t Unique() {
    starts_.push_back(words_.size());
    return static_cast<std::int32_t>(starts_.size() - 2);
  }
  std::size_t size() const { return starts_.size() - 1; }

 private:
  struct Slot {
    std::int32_t id;
    std::uint32_t tag;  // the hash's upper half: most mismatches end here
  };
  static std::uint64_t Hash(const std::uint64_t* key, std::size_t length) {
    std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ length;
    for (std::size_t i = 0; i < length; ++i) {
      h = (h ^ key[i]) * 0xbf58476d1ce4e5b9ULL;
      h ^= h >> 31;
    }
    return h ^ (h >> 29);
  }

  std::vector<Slot> slots_;
  std::vector<std::uint64_t> words_;
  std::vector<std::size_t> starts_ = {0};
};

// Keys are short (most rows name 1 to 3 nodes): insertion sort below 16.
void SortKey(std::vector<std::uint64_t>* key) {
  if (key->size() >= 16) {
    std::sort(key->begin(), key->end());
    return;
  }
  for (std::size_t i = 1; i < key->size(); ++i) {
    const std::uint64_t word = (*key)[i];
    std::size_t j = i;
    for (; j > 0 && (*key)[j - 1] > word; --j) (*key)[j] = (*key)[j - 1];
    (*key)[j] = word;
  }
}

std::uint64_t Bits(float f) {
  std::uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}
float FromBits(std::uint64_t word) {
  const auto bits = static_cast<std::uint32_t>(word);
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// Refinement stops at the first level with more classes than this share of
// the nodes,
constexpr double kStopShare = 0.8;
// ... after this many levels (GIN's default: the inputs and 4 aggregations),
constexpr std::size_t kMaxLevels = 5;
// ... or before the stored steps would hold more than this many times the
// aggregation matrix's entries (a step keeps hub rows whole, each entry with
// its weight).
constexpr double kMaxStoredEntries = 2.0;
// A graph keeps its classes only if, over levels 1 to 4 (nodes where none
// was stored), they come to at most this share of its nodes: GIN's own bar
// for a batch (GinModel::kMaxClassShare), so a graph never holds memory for
// classes that would not be used. Under DPRR at 10^6 users they come to 0.55.
constexpr double kKeepShare = 0.5;

// Rows longer than this get a class of their own, without sorting or
// hashing their key: a finer partition is still exact, and such rows (the
// hubs) rarely have a twin.
constexpr std::size_t kMaxKeyLength = 32;

// Level 0: nodes with bit-equal input rows share a class.
GraphColours::Level InputLevel(const Matrix& inputs, std::vector<std::int32_t>* class_of) {
  const auto nodes = static_cast<std::size_t>(inputs.rows());
  const auto width = static_cast<std::size_t>(inputs.cols());
  GraphColours::Level level;
  class_of->resize(nodes);
  level.step.cols = inputs.rows();
  KeyInterner interner(nodes);
  std::vector<std::uint64_t> key(width);
  for (std::size_t v = 0; v < nodes; ++v) {
    const float* row = inputs.data() + v * width;
    for (std::size_t i = 0; i < width; ++i) key[i] = Bits(row[i]);
    const auto [id, fresh] = interner.Intern(key.data(), width);
    (*class_of)[v] = id;
    if (fresh) {
      level.step.indices.push_back(static_cast<std::int32_t>(v));
      level.step.offsets.push_back(static_cast<std::int64_t>(level.step.indices.size()));
    }
  }
  level.step.rows = static_cast<std::int64_t>(interner.size());
  return level;
}

// Level k from level k-1's classes: a node's key is its row's sorted
// (class, weight) pairs, each packed in one word (class above, weight bits below).
GraphColours::Level NextLevel(const SparseMatrix& a, std::int64_t previous_classes,
                              std::vector<std::int32_t>* class_of) {
  GraphColours::Level level;
  std::vector<std::int32_t> next(static_cast<std::size_t>(a.rows));
  level.step.cols = previous_classes;
  KeyInterner interner(static_cast<std::size_t>(a.rows));
  std::vector<std::uint64_t> key;
  auto append = [&level](std::uint64_t word, float weight) {
    level.step.indices.push_back(static_cast<std::int32_t>(word >> 32));
    level.step.values.push_back(weight);
  };
  for (std::int64_t r = 0; r < a.rows; ++r) {
    key.clear();
    for (std::int64_t e = a.offsets[r]; e < a.offsets[r + 1]; ++e) {
      const auto c = static_cast<std::uint64_t>((*class_of)[static_cast<std::size_t>(a.indices[e])]);
      key.push_back(c << 32 | Bits(a.unit_weights() ? 1.0f : a.values[e]));
    }
    if (key.size() > kMaxKeyLength) {
      next[static_cast<std::size_t>(r)] = interner.Unique();
      for (std::uint64_t word : key) append(word, FromBits(word));
      level.step.offsets.push_back(static_cast<std::int64_t>(level.step.indices.size()));
      continue;
    }
    SortKey(&key);
    const auto [id, fresh] = interner.Intern(key.data(), key.size());
    next[static_cast<std::size_t>(r)] = id;
    if (!fresh) continue;
    for (std::size_t i = 0; i < key.size();) {  // one entry per class, its weights added
      float weight = 0;
      std::size_t j = i;
      for (; j < key.size() && key[j] >> 32 == key[i] >> 32; ++j) weight += FromBits(key[j]);
      append(key[i], weight);
      i = j;
    }
    level.step.offsets.push_back(static_cast<std::int64_t>(level.step.indices.size()));
  }
  level.step.rows = static_cast<std::int64_t>(interner.size());
  *class_of = std::move(next);
  return level;
}

std::vector<float> Members(const std::vector<std::int32_t>& class_of, std::int64_t classes) {
  std::vector<float> members(static_cast<std::size_t>(classes), 0.0f);
  for (std::int32_t c : class_of) members[static_cast<std::size_t>(c)] += 1.0f;
  return members;
}

}  // namespace

std::shared_ptr<const GraphColours> ComputeGraphColours(const SparseMatrix& agg, const Matrix& inputs) {
  const auto nodes = static_cast<double>(inputs.rows());
  auto colours = std::make_shared<GraphColours>();
  std::vector<std::int32_t> class_of;
  colours->levels.push_back(InputLevel(inputs, &class_of));
  colours->levels.back().members = Members(class_of, colours->levels.back().classes());
  colours->levels.back().step_t = colours->levels.back().step.Transposed();
  if (static_cast<double>(colours->levels.back().classes()) > kStopShare * nodes) return nullptr;
  colours->input_class = class_of;
  double stored = 0;
  while (colours->levels.size() < kMaxLevels) {
    std::vector<std::int32_t> next = class_of;
    GraphColours::Level level = NextLevel(agg, colours->levels.back().classes(), &next);
    stored += static_cast<double>(level.step.nnz());
    if (static_cast<double>(level.classes()) > kStopShare * nodes ||
        stored > kMaxStoredEntries * static_cast<double>(agg.nnz())) {
      break;
    }
    level.members = Members(next, level.classes());
    level.step_t = level.step.Transposed();
    colours->levels.push_back(std::move(level));
    class_of = std::move(next);
  }
  double rows = 0;
  for (std::size_t k = 1; k < kMaxLevels; ++k) {
    rows += k < colours->levels.size() ? static_cast<double>(colours->levels[k].classes()) : nodes;
  }
  if (rows > kKeepShare * nodes * static_cast<double>(kMaxLevels - 1)) return nullptr;
  colours->last_class = std::move(class_of);
  return colours;
}

}  // namespace ldpgraph
