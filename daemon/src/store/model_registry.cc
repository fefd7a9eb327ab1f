#include "store/model_registry.h"

#include <filesystem>

#include "internal/durable_file.h"
#include "store/numbered_files.h"

namespace ldpgraph {

Result<std::unique_ptr<ModelRegistry>> ModelRegistry::Open(const std::string& dir) {
  Result<std::map<std::uint64_t, std::string>> about = ReadNumberedFiles(dir, ".json", "model");
  if (!about.ok()) return about.status();
  std::unique_ptr<ModelRegistry> registry(new ModelRegistry(dir));
  registry->about_ = std::move(about).value();
  return registry;
}

std::string ModelRegistry::PathOf(std::uint64_t version, const char* extension) const {
  return dir_ + "/" + std::to_string(version) + extension;
}

Result<std::uint64_t> ModelRegistry::Add(const AnyModel& model, const std::string& about_json) {
  std::lock_guard<std::mutex> lock(mu_);
  const std::uint64_t version = about_.empty() ? 1 : about_.rbegin()->first + 1;
  LDPGRAPH_RETURN_IF_ERROR(SaveModel(model, PathOf(version, ".model")));
  Status described = internal::WriteFileDurably(PathOf(version, ".json"),
                                                std::vector<std::uint8_t>(about_json.begin(), about_json.end()));
  if (!described.ok()) {  // a model without its description is not listed: take it back
    std::error_code error;
    std::filesystem::remove(PathOf(version, ".model"), error);
    return described;
  }
  about_[version] = about_json;
  return version;
}

Result<AnyModel> ModelRegistry::Load(std::uint64_t version) const {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (about_.count(version) == 0) return Status::FailedPrecondition("no model version " + std::to_string(version));
  }
  return LoadModel(PathOf(version, ".model"));
}

std::optional<std::string> ModelRegistry::About(std::uint64_t version) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = about_.find(version);
  if (it == about_.end()) return std::nullopt;
  return it->second;
}

std::map<std::uint64_t, std::string> ModelRegistry::List() const {
  std::lock_guard<std::mutex> lock(mu_);
  return about_;
}

}  // namespace ldpgraph
