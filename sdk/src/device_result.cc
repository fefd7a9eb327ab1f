#include "ldpgraph/device_result.h"

#include <cmath>
#include <string>

#include "base/byte_io.h"

namespace ldpgraph {
namespace {

// 'L' 'R', version 1, then the fields in the order of DeviceResult.
constexpr std::uint8_t kMagic0 = 0x4C;
constexpr std::uint8_t kMagic1 = 0x52;
constexpr std::uint8_t kVersion = 1;
constexpr std::uint64_t kMaxClasses = 1u << 16;

Status Check(const DeviceResult& r) {
  if (r.task != ResultTask::kNode && r.task != ResultTask::kGraph) {
    return Status::InvalidArgument("device result: task must be node (1) or graph (2)");
  }
  if (r.probabilities.empty() || r.probabilities.size() > kMaxClasses) {
    return Status::InvalidArgument("device result: 1 to 65536 class probabilities");
  }
  if (r.class_index >= r.probabilities.size()) {
    return Status::InvalidArgument("device result: class_index " + std::to_string(r.class_index) + " is not below " +
                                   std::to_string(r.probabilities.size()) + " classes");
  }
  for (double p : r.probabilities) {
    if (!(p >= 0 && p <= 1)) return Status::InvalidArgument("device result: a probability outside [0, 1]");
  }
  return Status::Ok();
}

}  // namespace

Status EncodeDeviceResult(const DeviceResult& r, std::vector<std::uint8_t>* out) {
  LDPGRAPH_RETURN_IF_ERROR(Check(r));
  using base::PutDouble;
  using base::PutFixed64;
  using base::PutU8;
  using base::PutVarint;
  PutU8(out, kMagic0);
  PutU8(out, kMagic1);
  PutU8(out, kVersion);
  PutVarint(out, r.graph_id);
  PutVarint(out, r.user_id);
  PutU8(out, static_cast<std::uint8_t>(r.task));
  PutVarint(out, r.model_version);
  PutFixed64(out, static_cast<std::uint64_t>(r.trained_at));
  PutVarint(out, r.class_index);
  PutFixed64(out, static_cast<std::uint64_t>(r.class_label));
  PutVarint(out, r.probabilities.size());
  for (double p : r.probabilities) PutDouble(out, p);
  return Status::Ok();
}

Result<DeviceResult> DecodeDeviceResult(const std::uint8_t* data, std::size_t size) {
  base::ByteReader in(data, size);
  auto fail = [&](const char* field) {
    return Status::InvalidArgument(std::string("device result: bad or missing ") + field + " at byte " +
                                   std::to_string(in.offset()));
  };
  std::uint8_t m0 = 0, m1 = 0, version = 0, task = 0;
  if (!in.ReadU8(&m0) || !in.ReadU8(&m1) || m0 != kMagic0 || m1 != kMagic1) return fail("magic");
  if (!in.ReadU8(&version) || version != kVersion) return fail("version");
  DeviceResult r;
  std::uint64_t user = 0, class_index = 0, classes = 0, trained = 0, label = 0;
  if (!in.ReadVarint(&r.graph_id)) return fail("graph_id");
  if (!in.ReadVarint(&user) || user > 0xFFFFFFFFull) return fail("user_id");
  r.user_id = static_cast<std::uint32_t>(user);
  if (!in.ReadU8(&task)) return fail("task");
  r.task = static_cast<ResultTask>(task);
  if (!in.ReadVarint(&r.model_version)) return fail("model_version");
  if (!in.ReadFixed64(&trained)) return fail("trained_at");
  r.trained_at = static_cast<std::int64_t>(trained);
  if (!in.ReadVarint(&class_index) || class_index > 0xFFFFFFFFull) return fail("class_index");
  r.class_index = static_cast<std::uint32_t>(class_index);
  if (!in.ReadFixed64(&label)) return fail("class_label");
  r.class_label = static_cast<std::int64_t>(label);
  if (!in.ReadVarint(&classes) || classes == 0 || classes > kMaxClasses || classes * 8 > in.remaining()) {
    return fail("classes");
  }
  r.probabilities.resize(static_cast<std::size_t>(classes));
  for (double& p : r.probabilities) {
    if (!in.ReadDouble(&p)) return fail("probabilities");
  }
  if (in.remaining() != 0) return fail("end (bytes after the last field)");
  LDPGRAPH_RETURN_IF_ERROR(Check(r));
  return r;
}

}  // namespace ldpgraph
