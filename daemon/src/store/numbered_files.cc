#include "store/numbered_files.h"

#include <filesystem>
#include <vector>

#include "base/durable_file.h"

namespace ldpgraph {

Result<std::map<std::uint64_t, std::string>> ReadNumberedFiles(const std::string& dir, const std::string& extension,
                                                               const std::string& what) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) return Status::Unavailable("cannot create the " + what + " directory " + dir + ": " + error.message());
  std::map<std::uint64_t, std::string> files;
  std::vector<std::filesystem::path> unfinished;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    const std::filesystem::path& p = entry.path();
    if (p.extension() == ".tmp") unfinished.push_back(p);  // a write a crash cut short: never renamed into place
    if (p.extension() != extension) continue;
    const std::string stem = p.stem().string();
    if (stem.empty() || stem.find_first_not_of("0123456789") != std::string::npos || stem.size() > 18) continue;
    std::vector<std::uint8_t> bytes;
    bool exists = false;
    LDPGRAPH_RETURN_IF_ERROR(base::ReadWholeFile(p.string(), &bytes, &exists));
    if (exists) files[std::stoull(stem)] = std::string(bytes.begin(), bytes.end());
  }
  if (error) return Status::Unavailable("cannot read the " + what + " directory " + dir + ": " + error.message());
  for (const std::filesystem::path& p : unfinished) std::filesystem::remove(p, error);
  return files;
}

}  // namespace ldpgraph
