#include "federation/federated_model.h"

#include <cstring>

#include <nlohmann/json.hpp>

#include "federation/federation_wire.h"
#include "base/byte_io.h"
#include "base/crc32.h"

namespace ldpgraph {
namespace {

constexpr char kMagic[8] = {'L', 'G', 'F', 'E', 'D', 'M', 'D', 'L'};
constexpr std::uint32_t kVersion = 1;

nlohmann::json Metadata(const FederatedModel& m) {
  return {{"run", m.run},
          {"party", m.party},
          {"coordinator", m.coordinator},
          {"parties", m.parties},
          {"held_graph", m.held_graph},
          {"steps", m.steps},
          {"lnnc", m.lnnc},
          {"best_round", m.best_round},
          {"val_accuracy", m.val_accuracy},
          {"test_accuracy", m.test_accuracy}};
}

void PutString(std::vector<std::uint8_t>* out, const std::string& s) {
  base::PutFixed32(out, static_cast<std::uint32_t>(s.size()));
  out->insert(out->end(), s.begin(), s.end());
}

bool ReadString(base::ByteReader& in, std::string* s) {
  std::uint32_t n = 0;
  if (!in.ReadFixed32(&n) || n > in.remaining()) return false;
  std::vector<std::uint8_t> bytes(n);
  if (!in.ReadBytes(bytes.data(), n)) return false;
  s->assign(bytes.begin(), bytes.end());
  return true;
}

}  // namespace

std::string FederatedModel::Summary() const {
  nlohmann::json j = Metadata(*this);
  j["users"] = keys.size();
  j["classes"] = probabilities.cols();
  j["feature_dims"] = weights.empty() ? 0 : weights[0].rows();
  return j.dump();
}

std::vector<std::uint8_t> EncodeFederatedModel(const FederatedModel& m) {
  std::vector<std::uint8_t> out(kMagic, kMagic + sizeof kMagic);
  base::PutFixed32(&out, kVersion);
  PutString(&out, Metadata(m).dump());
  PutString(&out, EncodeMatrices(m.weights));
  base::PutFixed32(&out, static_cast<std::uint32_t>(m.keys.size()));
  for (std::uint32_t k : m.keys) base::PutFixed32(&out, k);
  PutString(&out, EncodeMatrices({m.probabilities}));
  base::PutFixed32(&out, base::Crc32(out.data(), out.size()));
  return out;
}

Result<FederatedModel> DecodeFederatedModel(const std::vector<std::uint8_t>& bytes) {
  if (bytes.size() < sizeof kMagic + 8 || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) {
    return Status::DataLoss("not a federated model file");
  }
  base::ByteReader crc(bytes.data() + bytes.size() - 4, 4);
  std::uint32_t stored = 0;
  (void)crc.ReadFixed32(&stored);
  if (stored != base::Crc32(bytes.data(), bytes.size() - 4)) {
    return Status::DataLoss("federated model fails its checksum");
  }
  base::ByteReader in(bytes.data() + sizeof kMagic, bytes.size() - sizeof kMagic - 4);
  std::uint32_t version = 0, users = 0;
  std::string metadata, weights, probabilities;
  if (!in.ReadFixed32(&version) || version != kVersion) return Status::DataLoss("unsupported federated model version");
  if (!ReadString(in, &metadata) || !ReadString(in, &weights) || !in.ReadFixed32(&users) ||
      users > in.remaining() / 4) {
    return Status::DataLoss("federated model truncated");
  }
  FederatedModel m;
  m.keys.resize(users);
  for (std::uint32_t& k : m.keys) (void)in.ReadFixed32(&k);
  if (!ReadString(in, &probabilities) || in.remaining() != 0) return Status::DataLoss("federated model truncated");
  const nlohmann::json j = nlohmann::json::parse(metadata, nullptr, false);
  Result<std::vector<Matrix>> w = DecodeMatrices(weights);
  Result<std::vector<Matrix>> p = DecodeMatrices(probabilities);
  if (j.is_discarded() || !j.is_object() || !w.ok() || !p.ok() || p->size() != 1 || w->size() != 2 ||
      (*p)[0].rows() != static_cast<Eigen::Index>(users)) {
    return Status::DataLoss("federated model has a malformed body");
  }
  try {
    m.run = j.at("run").get<std::string>();
    m.party = j.at("party").get<std::string>();
    m.coordinator = j.value("coordinator", std::string());
    m.parties = j.at("parties").get<std::vector<std::string>>();
    m.held_graph = j.at("held_graph").get<std::uint64_t>();
    m.steps = j.at("steps").get<int>();
    m.lnnc = j.at("lnnc").get<bool>();
    m.best_round = j.at("best_round").get<int>();
    m.val_accuracy = j.at("val_accuracy").get<double>();
    m.test_accuracy = j.at("test_accuracy").get<double>();
  } catch (const nlohmann::json::exception& e) {
    return Status::DataLoss(std::string("federated model metadata: ") + e.what());
  }
  m.weights = std::move(w).value();
  m.probabilities = std::move((*p)[0]);
  return m;
}

}  // namespace ldpgraph
