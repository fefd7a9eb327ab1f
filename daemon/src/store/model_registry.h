// ModelRegistry: the daemon's trained models, one version per finished
// training job: the model file's bytes (store/model_file.h) and a JSON
// summary of what it was trained on and how well it did, as documents
// (document_store.h): files beside a SQLite store, rows of a shared
// PostgreSQL store. A version exists once whole; versions only grow (but
// for one withdrawn).
// Thread-safety: every method may be called from any thread.
#ifndef LDPGRAPH_DAEMON_STORE_MODEL_REGISTRY_H_
#define LDPGRAPH_DAEMON_STORE_MODEL_REGISTRY_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "ldpgraph/status.h"
#include "store/document_store.h"
#include "store/model_file.h"

namespace ldpgraph {

class ModelRegistry {
 public:
  explicit ModelRegistry(std::unique_ptr<DocumentStore> documents) : documents_(std::move(documents)) {}
  // Versions as files in `dir` (<version>.model, <version>.json), created if
  // missing. Errors: kUnavailable when the directory cannot be made or read.
  static Result<std::unique_ptr<ModelRegistry>> Open(const std::string& dir);

  // Stores a new version; `about_json` is a JSON object describing it.
  // Errors: EncodeModel's kInvalidArgument (a model that is not finite),
  // kUnavailable from the store.
  Result<std::uint64_t> Add(const AnyModel& model, const std::string& about_json);
  // Takes back a version its job could not end (a deposed leader's, issue
  // 66); its number is not handed out again. Errors: kFailedPrecondition
  // for an unknown version; the store's.
  Status Withdraw(std::uint64_t version) { return documents_->Remove(version); }
  // Errors: kFailedPrecondition for an unknown version; DecodeModel's; the store's.
  Result<AnyModel> Load(std::uint64_t version) const;
  // version -> about_json, increasing. Errors: kUnavailable.
  Result<std::map<std::uint64_t, std::string>> List() const;
  // One version's about_json; nullopt for an unknown version. Errors: kUnavailable.
  Result<std::optional<std::string>> About(std::uint64_t version) const;

 private:
  std::unique_ptr<DocumentStore> documents_;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_STORE_MODEL_REGISTRY_H_
