#include "store/model_registry.h"

#include "store/file_documents.h"

namespace ldpgraph {

Result<std::unique_ptr<ModelRegistry>> ModelRegistry::Open(const std::string& dir) {
  Result<std::unique_ptr<DocumentStore>> documents = OpenFileDocuments(dir, ".model", "model version");
  if (!documents.ok()) return documents.status();
  return std::make_unique<ModelRegistry>(std::move(documents).value());
}

Result<std::uint64_t> ModelRegistry::Add(const AnyModel& model, const std::string& about_json) {
  Result<std::vector<std::uint8_t>> bytes = EncodeModel(model);
  if (!bytes.ok()) return bytes.status();
  return documents_->AddNext(*bytes, about_json);
}

Result<AnyModel> ModelRegistry::Load(std::uint64_t version) const {
  Result<std::vector<std::uint8_t>> bytes = documents_->Data(version);
  if (!bytes.ok()) return bytes.status();
  return DecodeModel(*bytes, "model version " + std::to_string(version));
}

Result<std::optional<std::string>> ModelRegistry::About(std::uint64_t version) const {
  Result<std::string> summary = documents_->Summary(version);
  if (summary.status().code() == StatusCode::kFailedPrecondition) return std::optional<std::string>();
  if (!summary.ok()) return summary.status();
  return std::optional<std::string>(std::move(summary).value());
}

Result<std::map<std::uint64_t, std::string>> ModelRegistry::List() const { return documents_->List(); }

}  // namespace ldpgraph
