#include "federation/federation_wire.h"

#include <cmath>
#include <cstring>

#include "base/byte_io.h"

namespace ldpgraph {
namespace {

constexpr std::uint32_t kVersion = 1;

void PutBytes(std::string* out, const void* data, std::size_t n) {
  out->append(static_cast<const char*>(data), n);
}

void PutU32(std::string* out, std::uint32_t v) {
  const std::uint8_t b[4] = {static_cast<std::uint8_t>(v), static_cast<std::uint8_t>(v >> 8),
                             static_cast<std::uint8_t>(v >> 16), static_cast<std::uint8_t>(v >> 24)};
  PutBytes(out, b, 4);
}

void PutU64(std::string* out, std::uint64_t v) {
  PutU32(out, static_cast<std::uint32_t>(v));
  PutU32(out, static_cast<std::uint32_t>(v >> 32));
}

// Rows of a row-major matrix are contiguous; floats go as their bits.
void PutRows(std::string* out, const Matrix& m) {
  static_assert(sizeof(float) == 4, "f32");
  for (Eigen::Index i = 0; i < m.size(); ++i) {
    std::uint32_t bits;
    std::memcpy(&bits, m.data() + i, 4);
    PutU32(out, bits);
  }
}

class Reader {
 public:
  Reader(const std::string& bytes, const char magic[4])
      : in_(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()) {
    std::uint8_t head[4] = {};
    std::uint32_t version = 0;
    ok_ = in_.ReadBytes(head, 4) && std::memcmp(head, magic, 4) == 0 && in_.ReadFixed32(&version) &&
          version == kVersion;
  }
  bool ok() const { return ok_; }
  bool U32(std::uint32_t* v) { return in_.ReadFixed32(v); }
  bool U64(std::uint64_t* v) { return in_.ReadFixed64(v); }
  std::size_t remaining() const { return in_.remaining(); }
  // rows x cols finite floats; false when short or not finite.
  bool Rows(std::uint32_t rows, std::uint32_t cols, Matrix* m) {
    const std::uint64_t count = static_cast<std::uint64_t>(rows) * cols;
    if (count > in_.remaining() / 4) return false;
    m->resize(rows, cols);
    for (std::uint64_t i = 0; i < count; ++i) {
      std::uint32_t bits = 0;
      (void)in_.ReadFixed32(&bits);
      float v;
      std::memcpy(&v, &bits, 4);
      if (!std::isfinite(v)) return false;
      m->data()[i] = v;
    }
    return true;
  }

 private:
  base::ByteReader in_;
  bool ok_ = false;
};

Status Bad(const std::string& what) { return Status::InvalidArgument(what); }

void PutMatrices(std::string* out, const std::vector<Matrix>& matrices) {
  PutU32(out, static_cast<std::uint32_t>(matrices.size()));
  for (const Matrix& m : matrices) {
    PutU32(out, static_cast<std::uint32_t>(m.rows()));
    PutU32(out, static_cast<std::uint32_t>(m.cols()));
    PutRows(out, m);
  }
}

Result<std::vector<Matrix>> ReadMatrices(Reader& in) {
  std::uint32_t count = 0;
  if (!in.U32(&count) || count > in.remaining() / 8) return Bad("matrices: truncated count");
  std::vector<Matrix> out(count);
  for (Matrix& m : out) {
    std::uint32_t rows = 0, cols = 0;
    if (!in.U32(&rows) || !in.U32(&cols) || !in.Rows(rows, cols, &m)) {
      return Bad("matrices: a matrix is truncated or holds a value that is not finite");
    }
  }
  return out;
}

}  // namespace

std::string EncodeMatrices(const std::vector<Matrix>& matrices) {
  std::string out("LGFW");
  PutU32(&out, kVersion);
  PutMatrices(&out, matrices);
  return out;
}

Result<std::vector<Matrix>> DecodeMatrices(const std::string& bytes) {
  Reader in(bytes, "LGFW");
  if (!in.ok()) return Bad("not a matrices body (magic or version)");
  Result<std::vector<Matrix>> out = ReadMatrices(in);
  if (out.ok() && in.remaining() != 0) return Bad("matrices: trailing bytes");
  return out;
}

std::string EncodeMessages(const std::vector<BorderMessage>& messages) {
  std::string out("LGFM");
  PutU32(&out, kVersion);
  PutU32(&out, static_cast<std::uint32_t>(messages.size()));
  for (const BorderMessage& m : messages) {
    PutU32(&out, static_cast<std::uint32_t>(m.from_party));
    PutU32(&out, static_cast<std::uint32_t>(m.to_party));
    PutU32(&out, static_cast<std::uint32_t>(m.rows.rows()));
    PutU32(&out, static_cast<std::uint32_t>(m.rows.cols()));
    for (std::uint32_t u : m.users) PutU32(&out, u);
    PutRows(&out, m.rows);
  }
  return out;
}

Result<std::vector<BorderMessage>> DecodeMessages(const std::string& bytes) {
  Reader in(bytes, "LGFM");
  if (!in.ok()) return Bad("not a messages body (magic or version)");
  std::uint32_t count = 0;
  if (!in.U32(&count) || count > in.remaining() / 16) return Bad("messages: truncated count");
  std::vector<BorderMessage> out(count);
  for (std::size_t k = 0; k < out.size(); ++k) {
    BorderMessage& m = out[k];
    std::uint32_t from = 0, to = 0, rows = 0, cols = 0;
    if (!in.U32(&from) || !in.U32(&to) || !in.U32(&rows) || !in.U32(&cols) || rows > in.remaining() / 4) {
      return Bad("message " + std::to_string(k) + " is truncated");
    }
    if (from > 1u << 20 || to > 1u << 20) return Bad("message " + std::to_string(k) + " names a party out of range");
    m.from_party = static_cast<int>(from);
    m.to_party = static_cast<int>(to);
    m.users.resize(rows);
    for (std::uint32_t& u : m.users) (void)in.U32(&u);
    for (std::size_t i = 1; i < m.users.size(); ++i) {
      if (m.users[i] <= m.users[i - 1]) return Bad("message " + std::to_string(k) + "'s users are not increasing");
    }
    if (!in.Rows(rows, cols, &m.rows)) {
      return Bad("message " + std::to_string(k) + " is truncated or holds a value that is not finite");
    }
  }
  if (in.remaining() != 0) return Bad("messages: trailing bytes");
  return out;
}

std::string EncodePartyRound(const PartyRound& r) {
  std::string out("LGFR");
  PutU32(&out, kVersion);
  for (std::uint64_t v : {r.train, r.val, r.val_right, r.test, r.test_right}) PutU64(&out, v);
  PutMatrices(&out, r.gradient);
  return out;
}

Result<PartyRound> DecodePartyRound(const std::string& bytes) {
  Reader in(bytes, "LGFR");
  if (!in.ok()) return Bad("not a round body (magic or version)");
  PartyRound r;
  std::uint64_t counts[5] = {};
  for (std::uint64_t& c : counts) {
    if (!in.U64(&c)) return Bad("round: truncated counts");
  }
  if (counts[2] > counts[1] || counts[4] > counts[3]) return Bad("round: more right answers than users");
  r.train = counts[0];
  r.val = counts[1];
  r.val_right = counts[2];
  r.test = counts[3];
  r.test_right = counts[4];
  Result<std::vector<Matrix>> gradient = ReadMatrices(in);
  if (!gradient.ok()) return gradient.status();
  if (in.remaining() != 0) return Bad("round: trailing bytes");
  r.gradient = std::move(gradient).value();
  return r;
}

}  // namespace ldpgraph
