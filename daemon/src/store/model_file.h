// Model files: a versioned binary holding the architecture, every parameter
// and the BatchNorm statistics. Floats are stored bit-exact, so a loaded model
// predicts exactly what the saved one did.
//
// Layout (little-endian): "LGMODEL\0" | u32 version = 1 | u8 kind (1 GIN,
// 2 GCN, 3 GraphSAGE, 4 GAP) | i32 config fields (GAP: input width, hidden,
// hops, classes) | f32 dropout | u8 flags (GIN: bit 0 mean readout, bit 1
// size input; GCN/SAGE: bit 0 SELU, bit 1 node probabilities; GAP: bit 0
// concatenation, bit 1 residual, bit 2 ProGAP) | then
//   GIN, GCN, SAGE: u32 GIN degree cap or node-model KProp steps | weights
//        (GCN/SAGE with bit 1: u32 nodes, u32 classes, node probabilities)
//   GAP: u32 encoder layers | f32 encoder dropout | u32 base layers |
//        u32 head layers | u8 privacy level (0 edge, 1 node) | u32 D |
//        f64 epsilon, delta, noise multiplier, noise stddev, sensitivity |
//        encoder weights | encoder head weights | classifier weights |
//        u32 nodes, u32 classes,
//        nodes*classes f32 node probabilities
//   ProGAP (GAP with bit 2; hops = K, dropout 0, base layers 0, bit 1: its
//        later stages are residual): as GAP, with the K + 1 stages' weights
//        in place of the encoder's, its head's and the classifier's
// where weights = u32 parameter count, each: u32 name length, name, u32
// rows, u32 cols, rows*cols f32 | u32 stats count, each: u32 width, mean
// f32s, var f32s; and last u32 CRC-32 of everything before.
#ifndef LDPGRAPH_DAEMON_STORE_MODEL_FILE_H_
#define LDPGRAPH_DAEMON_STORE_MODEL_FILE_H_

#include <memory>
#include <string>
#include <vector>

#include "gap/gap_model.h"
#include "models/gin.h"
#include "models/node_gnn.h"

namespace ldpgraph {

enum class ModelKind { kGin = 1, kGcn = 2, kSage = 3, kGap = 4 };

// A trained model of any kind: exactly one of gin / node / gap is set.
struct AnyModel {
  ModelKind kind = ModelKind::kGin;
  std::unique_ptr<GinModel> gin;
  std::unique_ptr<NodeGnnModel> node;
  std::unique_ptr<GapModel> gap;
  // GCN/SAGE trained on a denoised graph (linkldp/): every user's class
  // probabilities then, which it serves (building that graph again per
  // request would cost a training). Empty otherwise.
  Matrix node_probabilities;
};

const char* ModelKindName(ModelKind kind);  // "gin", "gcn", "sage", "gap"

// Whether every weight, BatchNorm statistic and stored prediction is finite.
bool ModelIsFinite(const AnyModel& model);

// Errors: kInvalidArgument for a model that is not finite (a diverged
// training: nothing is written); kUnavailable when the file cannot be written.
Status SaveModel(const AnyModel& model, const std::string& path);
// Errors: kUnavailable (cannot read), kDataLoss (bad magic, version,
// checksum, or parameters that do not fit the architecture).
Result<AnyModel> LoadModel(const std::string& path);

// The same file format in memory (a shared store keeps models as bytes).
// EncodeModel: SaveModel's kInvalidArgument. DecodeModel: LoadModel's
// kDataLoss, naming the model `name` in its messages.
Result<std::vector<std::uint8_t>> EncodeModel(const AnyModel& model);
Result<AnyModel> DecodeModel(const std::vector<std::uint8_t>& data, const std::string& name);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_STORE_MODEL_FILE_H_
