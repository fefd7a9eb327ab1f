#include "service/model_registry.h"

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "internal/durable_file.h"

namespace ldpgraph {

Result<std::unique_ptr<ModelRegistry>> ModelRegistry::Open(const std::string& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) return Status::Unavailable("cannot create the model directory " + dir + ": " + error.message());
  std::unique_ptr<ModelRegistry> registry(new ModelRegistry(dir));
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    const std::filesystem::path& p = entry.path();
    if (p.extension() != ".json") continue;
    const std::string stem = p.stem().string();
    if (stem.empty() || stem.find_first_not_of("0123456789") != std::string::npos || stem.size() > 18) continue;
    std::vector<std::uint8_t> bytes;
    bool exists = false;
    LDPGRAPH_RETURN_IF_ERROR(internal::ReadWholeFile(p.string(), &bytes, &exists));
    if (exists) registry->about_[std::stoull(stem)] = std::string(bytes.begin(), bytes.end());
  }
  if (error) return Status::Unavailable("cannot read the model directory " + dir + ": " + error.message());
  return registry;
}

std::string ModelRegistry::PathOf(std::uint64_t version, const char* extension) const {
  return dir_ + "/" + std::to_string(version) + extension;
}

Result<std::uint64_t> ModelRegistry::Add(const AnyModel& model, const std::string& about_json) {
  std::lock_guard<std::mutex> lock(mu_);
  const std::uint64_t version = about_.empty() ? 1 : about_.rbegin()->first + 1;
  LDPGRAPH_RETURN_IF_ERROR(SaveModel(model, PathOf(version, ".model")));
  LDPGRAPH_RETURN_IF_ERROR(
      internal::WriteFileDurably(PathOf(version, ".json"), std::vector<std::uint8_t>(about_json.begin(), about_json.end())));
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
