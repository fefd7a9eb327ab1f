// A device's result in binary (ldpgraph/device_result.h): what the daemon
// encodes the SDK decodes exactly; every truncation, a stray byte, a wrong
// magic and every invalid field are refused with the field named.
#include <doctest/doctest.h>

#include <limits>
#include <string>
#include <vector>

#include "ldpgraph/device_result.h"

using ldpgraph::DeviceResult;
using ldpgraph::ResultTask;

namespace {

DeviceResult Sample() {
  DeviceResult r;
  r.graph_id = 500;
  r.user_id = 123456;
  r.task = ResultTask::kNode;
  r.model_version = 7;
  r.trained_at = 1795737600;
  r.class_index = 1;
  r.class_label = -3;
  r.probabilities = {0.25, 0.75};
  return r;
}

std::vector<std::uint8_t> Encoded(const DeviceResult& r) {
  std::vector<std::uint8_t> bytes;
  REQUIRE(ldpgraph::EncodeDeviceResult(r, &bytes).ok());
  return bytes;
}

}  // namespace

TEST_CASE("DeviceResult.RoundTripsEveryField") {
  for (ResultTask task : {ResultTask::kNode, ResultTask::kGraph}) {
    DeviceResult r = Sample();
    r.task = task;
    const std::vector<std::uint8_t> bytes = Encoded(r);
    auto back = ldpgraph::DecodeDeviceResult(bytes.data(), bytes.size());
    REQUIRE_MESSAGE(back.ok(), back.status().ToString());
    CHECK(back->graph_id == r.graph_id);
    CHECK(back->user_id == r.user_id);
    CHECK(back->task == task);
    CHECK(back->model_version == r.model_version);
    CHECK(back->trained_at == r.trained_at);
    CHECK(back->class_index == r.class_index);
    CHECK(back->class_label == r.class_label);
    CHECK(back->probabilities == r.probabilities);
  }
}

TEST_CASE("DeviceResult.RefusesWhatIsNotOne") {
  const std::vector<std::uint8_t> bytes = Encoded(Sample());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    INFO("first " << n << " bytes");
    auto cut = ldpgraph::DecodeDeviceResult(bytes.data(), n);
    CHECK(cut.status().code() == ldpgraph::StatusCode::kInvalidArgument);
  }
  std::vector<std::uint8_t> longer = bytes;
  longer.push_back(0);
  CHECK(ldpgraph::DecodeDeviceResult(longer.data(), longer.size()).status().message().find("end") !=
        std::string::npos);
  std::vector<std::uint8_t> magic = bytes;
  magic[1] = 'C';  // a graph configuration, not a result
  CHECK(ldpgraph::DecodeDeviceResult(magic.data(), magic.size()).status().message().find("magic") !=
        std::string::npos);
  std::vector<std::uint8_t> task = bytes;
  task[3 + 2 + 3] = 9;  // after magic, version, graph 500 (2 bytes), user 123456 (3 bytes)
  CHECK(ldpgraph::DecodeDeviceResult(task.data(), task.size()).status().message().find("task") !=
        std::string::npos);

  // Nothing invalid is encoded.
  std::vector<std::uint8_t> out;
  DeviceResult r = Sample();
  r.class_index = 2;
  CHECK(ldpgraph::EncodeDeviceResult(r, &out).message().find("class_index 2 is not below 2") != std::string::npos);
  r = Sample();
  r.probabilities = {};
  CHECK_FALSE(ldpgraph::EncodeDeviceResult(r, &out).ok());
  r = Sample();
  r.probabilities = {0.5, 1.5};
  CHECK_FALSE(ldpgraph::EncodeDeviceResult(r, &out).ok());
  r = Sample();
  r.probabilities = {0.5, std::numeric_limits<double>::quiet_NaN()};
  CHECK_FALSE(ldpgraph::EncodeDeviceResult(r, &out).ok());
  CHECK(out.empty());
}
