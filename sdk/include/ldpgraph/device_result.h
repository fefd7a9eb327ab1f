// A device's own result: what the latest model covering its graph says about
// its user, as the daemon serves it at GET /v1/graphs/{id}/result (the
// user's own token decides whose) with "Accept: application/x-ldpgraph-result",
// so the SDK needs no JSON parser. Layout in docs/wire-format.md ("Device
// result").
#ifndef LDPGRAPH_DEVICE_RESULT_H_
#define LDPGRAPH_DEVICE_RESULT_H_

#include <cstdint>
#include <vector>

#include "ldpgraph/status.h"

namespace ldpgraph {

constexpr char kDeviceResultMediaType[] = "application/x-ldpgraph-result";

enum class ResultTask : std::uint8_t {
  kNode = 1,   // the user's own class
  kGraph = 2,  // the class of the graph she belongs to
};

struct DeviceResult {
  std::uint64_t graph_id = 0;
  std::uint32_t user_id = 0;
  ResultTask task = ResultTask::kNode;
  std::uint64_t model_version = 0;
  std::int64_t trained_at = 0;  // when the model was trained: seconds since 1970 (UTC)
  std::uint32_t class_index = 0;  // the most probable class: an index into probabilities
  std::int64_t class_label = 0;   // its label, as the graph's classes are named
  std::vector<double> probabilities;  // one per class, summing to 1
};

// Errors: kInvalidArgument for no class, a class_index out of range, or a
// probability outside [0, 1] (nothing invalid is encoded).
Status EncodeDeviceResult(const DeviceResult& result, std::vector<std::uint8_t>* out);

// From untrusted bytes. Errors: kInvalidArgument naming the field and byte
// offset, or what EncodeDeviceResult refuses.
Result<DeviceResult> DecodeDeviceResult(const std::uint8_t* data, std::size_t size);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DEVICE_RESULT_H_
