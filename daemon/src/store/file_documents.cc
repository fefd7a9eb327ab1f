#include "store/file_documents.h"

#include <filesystem>
#include <mutex>

#include "base/durable_file.h"
#include "store/numbered_files.h"

namespace ldpgraph {
namespace {

class FileDocuments final : public DocumentStore {
 public:
  FileDocuments(std::string dir, std::string extension, std::string what, std::map<std::uint64_t, std::string> s)
      : dir_(std::move(dir)), extension_(std::move(extension)), what_(std::move(what)), summaries_(std::move(s)) {}

  Result<std::uint64_t> AddNext(const std::vector<std::uint8_t>& data, const std::string& summary) override {
    std::lock_guard<std::mutex> lock(mu_);
    const std::uint64_t id = summaries_.empty() ? 1 : summaries_.rbegin()->first + 1;
    LDPGRAPH_RETURN_IF_ERROR(Write(id, data, summary));
    return id;
  }

  Status AddAt(std::uint64_t id, const std::vector<std::uint8_t>& data, const std::string& summary) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (summaries_.count(id)) return Status::FailedPrecondition(what_ + " " + std::to_string(id) + " exists");
    return Write(id, data, summary);
  }

  Result<std::vector<std::uint8_t>> Data(std::uint64_t id) const override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (summaries_.count(id) == 0) return Unknown(id);
    }
    std::vector<std::uint8_t> bytes;
    bool exists = false;
    LDPGRAPH_RETURN_IF_ERROR(base::ReadWholeFile(PathOf(id, extension_), &bytes, &exists));
    if (!exists) return Status::DataLoss(what_ + " " + std::to_string(id) + ": its file is missing");
    return bytes;
  }

  Result<std::map<std::uint64_t, std::string>> List() const override {
    std::lock_guard<std::mutex> lock(mu_);
    return summaries_;
  }

  Result<std::string> Summary(std::uint64_t id) const override {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = summaries_.find(id);
    if (it == summaries_.end()) return Unknown(id);
    return it->second;
  }

  Status SetSummary(std::uint64_t id, const std::string& summary) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (summaries_.count(id) == 0) return Unknown(id);
    LDPGRAPH_RETURN_IF_ERROR(
        base::WriteFileDurably(PathOf(id, ".json"), std::vector<std::uint8_t>(summary.begin(), summary.end())));
    summaries_[id] = summary;
    return Status::Ok();
  }

  Status Remove(std::uint64_t id) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (summaries_.count(id) == 0) return Unknown(id);
    // The summary first: once it is gone the document no longer exists, even
    // if the daemon dies before the data file follows (a new write replaces it).
    std::error_code error;
    std::filesystem::remove(PathOf(id, ".json"), error);
    if (error) return Status::Unavailable("cannot remove " + what_ + " " + std::to_string(id) + ": " + error.message());
    summaries_.erase(id);
    std::filesystem::remove(PathOf(id, extension_), error);
    if (error) {
      return Status::Unavailable(what_ + " " + std::to_string(id) + " is gone but its data file stays: " +
                                 error.message());
    }
    return Status::Ok();
  }

 private:
  Status Unknown(std::uint64_t id) const {
    return Status::FailedPrecondition("no " + what_ + " " + std::to_string(id));
  }

  std::string PathOf(std::uint64_t id, const std::string& extension) const {
    return dir_ + "/" + std::to_string(id) + extension;
  }

  // Under mu_: the data, then the summary that makes it exist.
  Status Write(std::uint64_t id, const std::vector<std::uint8_t>& data, const std::string& summary) {
    LDPGRAPH_RETURN_IF_ERROR(base::WriteFileDurably(PathOf(id, extension_), data));
    Status described =
        base::WriteFileDurably(PathOf(id, ".json"), std::vector<std::uint8_t>(summary.begin(), summary.end()));
    if (!described.ok()) {  // data without its summary is not listed: take it back
      std::error_code error;
      std::filesystem::remove(PathOf(id, extension_), error);
      return described;
    }
    summaries_[id] = summary;
    return Status::Ok();
  }

  const std::string dir_, extension_, what_;
  mutable std::mutex mu_;
  std::map<std::uint64_t, std::string> summaries_;
};

}  // namespace

Result<std::unique_ptr<DocumentStore>> OpenFileDocuments(const std::string& dir, const std::string& data_extension,
                                                         const std::string& what) {
  Result<std::map<std::uint64_t, std::string>> summaries = ReadNumberedFiles(dir, ".json", what);
  if (!summaries.ok()) return summaries.status();
  return std::unique_ptr<DocumentStore>(
      std::make_unique<FileDocuments>(dir, data_extension, what, std::move(summaries).value()));
}

}  // namespace ldpgraph
