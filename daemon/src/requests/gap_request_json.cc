#include "requests/gap_request_json.h"

#include <cmath>
#include <string>
#include <type_traits>

#include "train/graph_trainer.h"

namespace ldpgraph {

using nlohmann::json;

Status GapOptionsFromJson(const json& body, GraphJobRequest* job) {
  GapOptions& o = job->gap;
  for (const char* key : {"privacy", "residual", "model"}) {
    if (body.contains(key) && !body[key].is_string()) return Status::InvalidArgument(std::string(key) + " must be a string");
  }
  const std::string model = body.value("model", "gap");
  if (model != "gap" && model != "progap") return Status::InvalidArgument("model must be \"gap\" or \"progap\"");
  job->progap = model == "progap";
  if (job->progap && body.contains("residual")) return Status::InvalidArgument("residual is for \"model\": \"gap\"");
  const std::string privacy = body.value("privacy", "edge");
  if (privacy != "edge" && privacy != "node") return Status::InvalidArgument("privacy must be \"edge\" or \"node\"");
  o.privacy = privacy == "node" ? GapPrivacy::kNode : GapPrivacy::kEdge;
  if (!body.contains("epsilon")) return Status::InvalidArgument("a GAP job needs \"epsilon\" (a number, or \"inf\")");
  const json& e = body["epsilon"];
  if (e.is_string() && e.get<std::string>() == "inf") {
    o.epsilon = INFINITY;
  } else if (e.is_number() && e.get<double>() > 0 && std::isfinite(e.get<double>())) {
    o.epsilon = e.get<double>();
  } else {
    return Status::InvalidArgument("epsilon must be a positive number or \"inf\"");
  }
  if (body.contains("delta")) {
    if (!body["delta"].is_number() || !(body["delta"].get<double>() > 0 && body["delta"].get<double>() < 1)) {
      return Status::InvalidArgument("delta must be in (0, 1)");
    }
    o.delta = body["delta"].get<double>();
  }
  auto integer = [&](const char* key, std::int64_t lo, std::int64_t hi, auto* out) -> Status {
    if (!body.contains(key)) return Status::Ok();
    if (!body[key].is_number_integer() || body[key].get<std::int64_t>() < lo || body[key].get<std::int64_t>() > hi) {
      return Status::InvalidArgument(std::string(key) + " must be an integer in [" + std::to_string(lo) + ", " +
                                     std::to_string(hi) + "]");
    }
    *out = static_cast<std::remove_pointer_t<decltype(out)>>(body[key].get<std::int64_t>());
    return Status::Ok();
  };
  LDPGRAPH_RETURN_IF_ERROR(integer("hops", 1, 16, &o.model.hops));
  LDPGRAPH_RETURN_IF_ERROR(integer("hidden", 1, 4096, &o.model.hidden));
  LDPGRAPH_RETURN_IF_ERROR(integer("epochs", 1, 100000, &o.encoder_epochs));
  LDPGRAPH_RETURN_IF_ERROR(integer("classifier_epochs", 1, 100000, &o.classifier_epochs));
  LDPGRAPH_RETURN_IF_ERROR(integer("max_degree", 1, 1000000, &o.max_degree));
  LDPGRAPH_RETURN_IF_ERROR(integer("batch_size", 1, 1000000000, &o.batch_size));
  const std::string residual = body.value("residual", "auto");
  if (residual != "auto" && residual != "on" && residual != "off") {
    return Status::InvalidArgument("residual must be \"auto\", \"on\" or \"off\"");
  }
  o.residual = residual == "on" ? GapResidual::kOn : residual == "off" ? GapResidual::kOff : GapResidual::kAuto;
  if (body.contains("clip") &&
      (!body["clip"].is_number() || !(body["clip"].get<double>() > 0) || !std::isfinite(body["clip"].get<double>()))) {
    return Status::InvalidArgument("clip must be a positive number");
  }
  if (body.contains("lr")) {
    LDPGRAPH_RETURN_IF_ERROR(CheckLearningRate(body["lr"].is_number() ? body["lr"].get<double>() : NAN));
  }
  o.clip_norm = body.value("clip", o.clip_norm);
  o.lr = static_cast<float>(body.value("lr", static_cast<double>(o.lr)));
  if (o.privacy == GapPrivacy::kEdge) {
    for (const char* key : {"max_degree", "batch_size", "clip"}) {
      if (body.contains(key)) return Status::InvalidArgument(std::string(key) + " is for \"privacy\": \"node\"");
    }
  }
  if (body.contains("seed")) {
    if (!body["seed"].is_number_unsigned()) return Status::InvalidArgument("seed must be an unsigned integer");
    job->seed = body["seed"].get<std::uint64_t>();
  }
  return Status::Ok();
}

}  // namespace ldpgraph
