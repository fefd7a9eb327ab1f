#include "store/model_file.h"

#include <cstring>

#include "base/byte_io.h"
#include "base/crc32.h"
#include "base/durable_file.h"

namespace ldpgraph {
namespace {

constexpr char kMagic[8] = {'L', 'G', 'M', 'O', 'D', 'E', 'L', '\0'};
constexpr std::uint32_t kVersion = 1;
// GIN's flag byte: bit 0 mean readout, bit 1 the graph-size input (files
// written before it existed have the bit clear, which is what they mean).
constexpr std::uint8_t kSizeInputBit = 2;
// GCN/SAGE's flag byte: bit 0 SELU, bit 1 the node probabilities follow the
// weights (a model trained on a denoised graph; earlier files lack them).
constexpr std::uint8_t kPredictionsBit = 2;
// GAP's flag bit 2: ProGAP's stages instead of GAP's encoder and classifier.
constexpr std::uint8_t kProgressiveBit = 4;

void PutFloat(std::vector<std::uint8_t>* out, float v) {
  std::uint32_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  base::PutFixed32(out, bits);
}

bool ReadFloat(base::ByteReader* in, float* v) {
  std::uint32_t bits;
  if (!in->ReadFixed32(&bits)) return false;
  std::memcpy(v, &bits, sizeof bits);
  return true;
}

template <typename Model>
void PutWeights(Model* model, std::vector<std::uint8_t>* out) {
  auto params = model->Parameters();
  base::PutFixed32(out, static_cast<std::uint32_t>(params.size()));
  for (Parameter* p : params) {
    base::PutFixed32(out, static_cast<std::uint32_t>(p->name.size()));
    out->insert(out->end(), p->name.begin(), p->name.end());
    base::PutFixed32(out, static_cast<std::uint32_t>(p->value.rows()));
    base::PutFixed32(out, static_cast<std::uint32_t>(p->value.cols()));
    for (Eigen::Index i = 0; i < p->value.size(); ++i) PutFloat(out, p->value.data()[i]);
  }
  auto stats = model->Stats();
  base::PutFixed32(out, static_cast<std::uint32_t>(stats.size()));
  for (BatchNormStats* s : stats) {
    base::PutFixed32(out, static_cast<std::uint32_t>(s->mean.size()));
    for (Eigen::Index i = 0; i < s->mean.size(); ++i) PutFloat(out, s->mean[i]);
    for (Eigen::Index i = 0; i < s->var.size(); ++i) PutFloat(out, s->var[i]);
  }
}

template <typename Model>
Status ReadWeights(base::ByteReader* in, Model* model) {
  auto params = model->Parameters();
  std::uint32_t count = 0;
  if (!in->ReadFixed32(&count) || count != params.size()) {
    return Status::DataLoss("model file: parameter count does not match the architecture");
  }
  for (Parameter* p : params) {
    std::uint32_t len = 0, rows = 0, cols = 0;
    if (!in->ReadFixed32(&len) || len > in->remaining()) return Status::DataLoss("model file: truncated");
    std::string name(len, '\0');
    if (!in->ReadBytes(reinterpret_cast<std::uint8_t*>(name.data()), len) || !in->ReadFixed32(&rows) ||
        !in->ReadFixed32(&cols)) {
      return Status::DataLoss("model file: truncated");
    }
    if (name != p->name || rows != p->value.rows() || cols != p->value.cols()) {
      return Status::DataLoss("model file: parameter '" + name + "' does not fit the architecture (expected '" +
                              p->name + "')");
    }
    for (Eigen::Index i = 0; i < p->value.size(); ++i) {
      if (!ReadFloat(in, &p->value.data()[i])) return Status::DataLoss("model file: truncated weights");
    }
  }
  auto stats = model->Stats();
  if (!in->ReadFixed32(&count) || count != stats.size()) {
    return Status::DataLoss("model file: statistics count does not match the architecture");
  }
  for (BatchNormStats* s : stats) {
    std::uint32_t width = 0;
    if (!in->ReadFixed32(&width) || width > in->remaining() / 8) return Status::DataLoss("model file: truncated");
    s->mean.resize(width);
    s->var.resize(width);
    for (std::uint32_t i = 0; i < width; ++i) {
      if (!ReadFloat(in, &s->mean[i])) return Status::DataLoss("model file: truncated");
    }
    for (std::uint32_t i = 0; i < width; ++i) {
      if (!ReadFloat(in, &s->var[i])) return Status::DataLoss("model file: truncated");
    }
  }
  return Status::Ok();
}

// Every node's class probabilities as a model made them when trained.
void PutProbabilities(const Matrix& probs, std::vector<std::uint8_t>* out) {
  base::PutFixed32(out, static_cast<std::uint32_t>(probs.rows()));
  base::PutFixed32(out, static_cast<std::uint32_t>(probs.cols()));
  for (Eigen::Index i = 0; i < probs.size(); ++i) PutFloat(out, probs.data()[i]);
}

Status ReadProbabilities(base::ByteReader* in, std::uint32_t classes, const std::string& what, Matrix* probs) {
  std::uint32_t rows = 0, cols = 0;
  if (!in->ReadFixed32(&rows) || !in->ReadFixed32(&cols) || cols != classes ||
      static_cast<std::uint64_t>(rows) * cols * 4 > in->remaining()) {
    return Status::DataLoss(what + ": bad node probabilities");
  }
  probs->resize(rows, cols);
  for (Eigen::Index i = 0; i < probs->size(); ++i) (void)ReadFloat(in, &probs->data()[i]);
  return Status::Ok();
}

void PutGap(GapModel& g, std::vector<std::uint8_t>* out) {  // non-const: Parameters() hands out pointers
  base::PutFixed32(out, static_cast<std::uint32_t>(g.encoder_config.layers));
  PutFloat(out, g.encoder_config.dropout);
  const GapModelConfig& c = g.classifier.config();
  base::PutFixed32(out, static_cast<std::uint32_t>(g.progressive() ? 0 : c.base_layers));
  const int head_layers = g.progressive() ? g.stages[0].config().head_layers : c.head_layers;
  base::PutFixed32(out, static_cast<std::uint32_t>(head_layers));
  base::PutU8(out, g.privacy.level == GapPrivacy::kNode ? 1 : 0);
  base::PutFixed32(out, g.privacy.max_degree);
  for (double v : {g.privacy.epsilon, g.privacy.delta, g.privacy.noise_multiplier, g.privacy.noise_stddev,
                   g.privacy.sensitivity}) {
    base::PutDouble(out, v);
  }
  if (g.progressive()) {
    for (ProGapStage& stage : g.stages) PutWeights(&stage, out);
  } else {
    PutWeights(&g.encoder, out);
    PutWeights(&g.encoder_head, out);
    PutWeights(&g.classifier, out);
  }
  PutProbabilities(g.node_probabilities, out);
}

// ProGAP's K + 1 stages, shaped as TrainProGap makes them.
Status ReadProGapStages(base::ByteReader* in, const std::uint32_t fields[4], std::uint32_t encoder_layers,
                        float encoder_dropout, std::uint32_t head_layers, bool residual, const std::string& path,
                        GapModel* g) {
  for (std::uint32_t k = 0; k <= fields[2]; ++k) {
    ProGapStageConfig c;
    c.input_dim = static_cast<int>(k == 0 ? fields[0] : fields[1]);
    c.hidden = static_cast<int>(fields[1]);
    c.encoder_layers = static_cast<int>(encoder_layers);
    c.head_layers = static_cast<int>(head_layers);
    c.earlier_stages = static_cast<int>(k);
    c.classes = static_cast<int>(fields[3]);
    c.dropout = k == 0 ? encoder_dropout : 0.0f;
    c.normalise = k > 0 || !residual;
    Result<ProGapStage> stage = ProGapStage::Create(c, 0);
    if (!stage.ok()) return Status::DataLoss(path + ": " + stage.status().message());
    g->stages.push_back(std::move(stage).value());
    LDPGRAPH_RETURN_IF_ERROR(ReadWeights(in, &g->stages.back()));
  }
  return Status::Ok();
}

// GAP's part after the common fields {input width, hidden, hops, classes}.
Result<std::unique_ptr<GapModel>> ReadGap(base::ByteReader* in, const std::uint32_t fields[4], float dropout,
                                         std::uint8_t flag, const std::string& path) {
  auto g = std::make_unique<GapModel>();
  std::uint32_t encoder_layers = 0, base_layers = 0, head_layers = 0, max_degree = 0;
  float encoder_dropout = 0;
  std::uint8_t level = 0;
  GapPrivacyRecord& p = g->privacy;
  if (!in->ReadFixed32(&encoder_layers) || !ReadFloat(in, &encoder_dropout) || !in->ReadFixed32(&base_layers) ||
      !in->ReadFixed32(&head_layers) || !in->ReadU8(&level) || !in->ReadFixed32(&max_degree) ||
      !in->ReadDouble(&p.epsilon) || !in->ReadDouble(&p.delta) || !in->ReadDouble(&p.noise_multiplier) ||
      !in->ReadDouble(&p.noise_stddev) || !in->ReadDouble(&p.sensitivity)) {
    return Status::DataLoss(path + ": truncated GAP record");
  }
  if (encoder_layers > 64 || base_layers > 64 || head_layers > 64 || fields[2] > 64 || level > 1 || !(p.epsilon > 0) ||
      !(p.delta >= 0 && p.delta < 1) || !(p.noise_multiplier >= 0) || !(p.noise_stddev >= 0)) {
    return Status::DataLoss(path + ": bad GAP record");
  }
  p.level = level == 1 ? GapPrivacy::kNode : GapPrivacy::kEdge;
  p.max_degree = max_degree;
  g->encoder_config = {static_cast<int>(fields[0]), static_cast<int>(fields[1]), static_cast<int>(encoder_layers),
                       static_cast<int>(fields[1]), encoder_dropout, /*activate_output=*/true};
  g->residual = (flag & 2) != 0;
  if ((flag & kProgressiveBit) != 0) {
    LDPGRAPH_RETURN_IF_ERROR(
        ReadProGapStages(in, fields, encoder_layers, encoder_dropout, head_layers, g->residual, path, g.get()));
    LDPGRAPH_RETURN_IF_ERROR(ReadProbabilities(in, fields[3], path + ": ProGAP", &g->node_probabilities));
    return g;
  }
  SeededRandomSource unused(0);
  Result<Mlp> encoder = Mlp::Create(g->encoder_config, "gap.encoder", unused);
  if (!encoder.ok()) return Status::DataLoss(path + ": " + encoder.status().message());
  g->encoder = std::move(encoder).value();
  Result<Mlp> head = Mlp::Create({static_cast<int>(fields[1]), static_cast<int>(fields[1]), 1, static_cast<int>(fields[3]), 0.0f, false},
                                 "gap.encoder_head", unused);
  if (!head.ok()) return Status::DataLoss(path + ": " + head.status().message());
  g->encoder_head = std::move(head).value();
  GapModelConfig c;
  c.hops = static_cast<int>(fields[2]);
  c.hidden = static_cast<int>(fields[1]);
  c.classes = static_cast<int>(fields[3]);
  c.base_layers = static_cast<int>(base_layers);
  c.head_layers = static_cast<int>(head_layers);
  c.concat = (flag & 1) != 0;
  c.dropout = dropout;
  Result<GapClassifier> classifier = GapClassifier::Create(c, 0);
  if (!classifier.ok()) return Status::DataLoss(path + ": " + classifier.status().message());
  g->classifier = std::move(classifier).value();
  LDPGRAPH_RETURN_IF_ERROR(ReadWeights(in, &g->encoder));
  LDPGRAPH_RETURN_IF_ERROR(ReadWeights(in, &g->encoder_head));
  LDPGRAPH_RETURN_IF_ERROR(ReadWeights(in, &g->classifier));
  LDPGRAPH_RETURN_IF_ERROR(ReadProbabilities(in, fields[3], path + ": GAP", &g->node_probabilities));
  return g;
}

}  // namespace

const char* ModelKindName(ModelKind kind) {
  switch (kind) {
    case ModelKind::kGin: return "gin";
    case ModelKind::kGcn: return "gcn";
    case ModelKind::kSage: return "sage";
    case ModelKind::kGap: return "gap";
  }
  return "unknown";
}

namespace {

template <typename Model>
bool WeightsFinite(Model* model) {
  for (Parameter* p : model->Parameters()) {
    if (!p->value.allFinite()) return false;
  }
  for (BatchNormStats* s : model->Stats()) {
    if (!s->mean.allFinite() || !s->var.allFinite()) return false;
  }
  return true;
}

}  // namespace

bool ModelIsFinite(const AnyModel& model) {
  // Parameters() hands out mutable pointers; nothing is changed here.
  switch (model.kind) {
    case ModelKind::kGin: return WeightsFinite(model.gin.get());
    case ModelKind::kGap: {
      GapModel& g = *model.gap;
      for (ProGapStage& stage : g.stages) {
        if (!WeightsFinite(&stage)) return false;
      }
      return WeightsFinite(&g.encoder) && WeightsFinite(&g.encoder_head) && WeightsFinite(&g.classifier) &&
             g.node_probabilities.allFinite();
    }
    case ModelKind::kGcn:
    case ModelKind::kSage: return WeightsFinite(model.node.get()) && model.node_probabilities.allFinite();
  }
  return false;
}

Result<std::vector<std::uint8_t>> EncodeModel(const AnyModel& model) {
  if (!ModelIsFinite(model)) {
    return Status::InvalidArgument("training diverged: the model's weights or predictions are not finite "
                                   "(NaN or infinity); no model is stored (a smaller lr may help)");
  }
  std::vector<std::uint8_t> out(kMagic, kMagic + sizeof kMagic);
  base::PutFixed32(&out, kVersion);
  base::PutU8(&out, static_cast<std::uint8_t>(model.kind));
  if (model.kind == ModelKind::kGin) {
    const GinConfig& c = model.gin->config();
    for (int v : {c.input_dim, c.hidden, c.layers, c.classes}) base::PutFixed32(&out, static_cast<std::uint32_t>(v));
    PutFloat(&out, c.dropout);
    base::PutU8(&out, (c.mean_readout ? 1 : 0) | (c.size_input ? kSizeInputBit : 0));
    base::PutFixed32(&out, static_cast<std::uint32_t>(c.degree_cap));
    PutWeights(model.gin.get(), &out);
  } else if (model.kind == ModelKind::kGap && model.gap->progressive()) {
    GapModel& g = *model.gap;
    const ProGapStageConfig& last = g.stages.back().config();
    for (int v : {g.encoder_config.input_dim, last.hidden, last.earlier_stages, last.classes}) {
      base::PutFixed32(&out, static_cast<std::uint32_t>(v));
    }
    PutFloat(&out, 0.0f);
    base::PutU8(&out, kProgressiveBit | (g.residual ? 2 : 0));
    PutGap(g, &out);
  } else if (model.kind == ModelKind::kGap) {
    GapModel& g = *model.gap;
    const GapModelConfig& c = g.classifier.config();
    for (int v : {g.encoder_config.input_dim, c.hidden, c.hops, c.classes}) {
      base::PutFixed32(&out, static_cast<std::uint32_t>(v));
    }
    PutFloat(&out, c.dropout);
    base::PutU8(&out, (c.concat ? 1 : 0) | (g.residual ? 2 : 0));
    PutGap(g, &out);
  } else {
    const NodeGnnConfig& c = model.node->config();
    for (int v : {c.input_dim, c.hidden, c.layers, c.classes}) base::PutFixed32(&out, static_cast<std::uint32_t>(v));
    PutFloat(&out, c.dropout);
    const bool predictions = model.node_probabilities.size() > 0;
    base::PutU8(&out, (c.selu ? 1 : 0) | (predictions ? kPredictionsBit : 0));
    base::PutFixed32(&out, static_cast<std::uint32_t>(c.kprop_steps));
    PutWeights(model.node.get(), &out);
    if (predictions) PutProbabilities(model.node_probabilities, &out);
  }
  base::PutFixed32(&out, base::Crc32(out.data(), out.size()));
  return out;
}

Status SaveModel(const AnyModel& model, const std::string& path) {
  Result<std::vector<std::uint8_t>> bytes = EncodeModel(model);
  if (!bytes.ok()) return bytes.status();
  return base::WriteFileDurably(path, *bytes);
}

Result<AnyModel> LoadModel(const std::string& path) {
  std::vector<std::uint8_t> data;
  bool exists = false;
  LDPGRAPH_RETURN_IF_ERROR(base::ReadWholeFile(path, &data, &exists));
  if (!exists) return Status::Unavailable("cannot open model file " + path + ": no such file");
  return DecodeModel(data, path);
}

Result<AnyModel> DecodeModel(const std::vector<std::uint8_t>& data, const std::string& path) {
  const std::uint8_t* bytes = data.data();
  if (data.size() < sizeof kMagic + 4 + 1 + 4 || std::memcmp(bytes, kMagic, sizeof kMagic) != 0) {
    return Status::DataLoss(path + " is not an ldpgraph model file");
  }
  base::ByteReader crc(bytes + data.size() - 4, 4);
  std::uint32_t stored = 0;
  (void)crc.ReadFixed32(&stored);
  if (stored != base::Crc32(bytes, data.size() - 4)) return Status::DataLoss(path + " fails its checksum");
  base::ByteReader in(bytes + sizeof kMagic, data.size() - sizeof kMagic - 4);
  std::uint32_t version = 0, fields[4] = {};
  std::uint8_t kind = 0, flag = 0;
  float dropout = 0;
  if (!in.ReadFixed32(&version) || version != kVersion) {
    return Status::DataLoss(path + ": unsupported model file version " + std::to_string(version));
  }
  if (!in.ReadU8(&kind) || kind < 1 || kind > 4) return Status::DataLoss(path + ": unknown model kind");
  for (auto& v : fields) {
    if (!in.ReadFixed32(&v) || v > (1u << 24)) return Status::DataLoss(path + ": bad architecture");
  }
  if (!ReadFloat(&in, &dropout) || !in.ReadU8(&flag)) return Status::DataLoss(path + ": truncated");
  AnyModel m;
  m.kind = static_cast<ModelKind>(kind);
  if (m.kind == ModelKind::kGin) {
    GinConfig c;
    c.input_dim = static_cast<int>(fields[0]);
    c.hidden = static_cast<int>(fields[1]);
    c.layers = static_cast<int>(fields[2]);
    c.classes = static_cast<int>(fields[3]);
    c.dropout = dropout;
    c.mean_readout = (flag & 1) != 0;
    c.size_input = (flag & kSizeInputBit) != 0;
    std::uint32_t cap = 0;
    if (!in.ReadFixed32(&cap) || cap > (1u << 24)) return Status::DataLoss(path + ": bad degree cap");
    c.degree_cap = static_cast<int>(cap);
    Result<GinModel> gin = GinModel::Create(c, 0);
    if (!gin.ok()) return Status::DataLoss(path + ": " + gin.status().message());
    m.gin = std::make_unique<GinModel>(std::move(gin).value());
    LDPGRAPH_RETURN_IF_ERROR(ReadWeights(&in, m.gin.get()));
  } else if (m.kind == ModelKind::kGap) {
    Result<std::unique_ptr<GapModel>> gap = ReadGap(&in, fields, dropout, flag, path);
    if (!gap.ok()) return gap.status();
    m.gap = std::move(gap).value();
  } else {
    NodeGnnConfig c;
    c.kind = m.kind == ModelKind::kGcn ? NodeGnnKind::kGcn : NodeGnnKind::kSage;
    c.input_dim = static_cast<int>(fields[0]);
    c.hidden = static_cast<int>(fields[1]);
    c.layers = static_cast<int>(fields[2]);
    c.classes = static_cast<int>(fields[3]);
    c.dropout = dropout;
    c.selu = (flag & 1) != 0;
    std::uint32_t steps = 0;
    if (!in.ReadFixed32(&steps) || steps > 1000) return Status::DataLoss(path + ": bad KProp steps");
    c.kprop_steps = static_cast<int>(steps);
    Result<NodeGnnModel> node = NodeGnnModel::Create(c, 0);
    if (!node.ok()) return Status::DataLoss(path + ": " + node.status().message());
    m.node = std::make_unique<NodeGnnModel>(std::move(node).value());
    LDPGRAPH_RETURN_IF_ERROR(ReadWeights(&in, m.node.get()));
    if ((flag & kPredictionsBit) != 0) {
      LDPGRAPH_RETURN_IF_ERROR(ReadProbabilities(&in, fields[3], path, &m.node_probabilities));
    }
  }
  if (in.remaining() != 0) return Status::DataLoss(path + ": trailing bytes");
  return m;
}

}  // namespace ldpgraph
