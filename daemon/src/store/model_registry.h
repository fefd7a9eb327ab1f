// ModelRegistry: the daemon's trained models, one version per finished
// training job, kept as files in a directory next to the store:
//   <dir>/<version>.model   the model file (models/model_file.h)
//   <dir>/<version>.json    what it was trained on and how well it did
// A version exists once its .json is durable (written after the model), so a
// crash between the two leaves no half version. Versions only grow.
// Thread-safety: every method may be called from any thread.
#ifndef LDPGRAPH_DAEMON_STORE_MODEL_REGISTRY_H_
#define LDPGRAPH_DAEMON_STORE_MODEL_REGISTRY_H_

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "store/model_file.h"

namespace ldpgraph {

class ModelRegistry {
 public:
  // Creates `dir` if missing and reads the versions it holds.
  // Errors: kUnavailable when the directory cannot be made or read.
  static Result<std::unique_ptr<ModelRegistry>> Open(const std::string& dir);

  // Stores a new version; `about_json` is a JSON object describing it.
  Result<std::uint64_t> Add(const AnyModel& model, const std::string& about_json);
  // Errors: kFailedPrecondition for an unknown version; LoadModel's.
  Result<AnyModel> Load(std::uint64_t version) const;
  // version -> about_json, increasing.
  std::map<std::uint64_t, std::string> List() const;
  // One version's about_json; nullopt for an unknown version.
  std::optional<std::string> About(std::uint64_t version) const;
  const std::string& dir() const { return dir_; }

 private:
  explicit ModelRegistry(std::string dir) : dir_(std::move(dir)) {}
  std::string PathOf(std::uint64_t version, const char* extension) const;

  std::string dir_;
  mutable std::mutex mu_;
  std::map<std::uint64_t, std::string> about_;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_STORE_MODEL_REGISTRY_H_
