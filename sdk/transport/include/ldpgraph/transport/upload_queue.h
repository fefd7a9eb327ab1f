// UploadQueue: reports waiting to be sent, one file each in a directory of
// the app's, so they survive an app restart. Bounded by a count and a byte
// cap. A report is on disk (written, fsynced, renamed into place) when Push()
// returns; a file that fails its CRC is left alone and counted, never sent.
// Not thread-safe.
#ifndef LDPGRAPH_TRANSPORT_UPLOAD_QUEUE_H_
#define LDPGRAPH_TRANSPORT_UPLOAD_QUEUE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "ldpgraph/status.h"

namespace ldpgraph {
namespace transport {

struct QueuedReport {
  std::string file;   // its name in the queue directory
  std::string token;  // the user token to send it with
  std::vector<std::uint8_t> report;  // wire bytes
};

class UploadQueue {
 public:
  // Creates `dir` if needed and loads what an earlier run left.
  // Errors: kInvalidArgument for zero caps, kUnavailable when the directory
  // cannot be created or read.
  static Result<UploadQueue> Open(const std::string& dir, std::size_t max_reports, std::size_t max_bytes);
  UploadQueue() = default;

  // Errors: kResourceExhausted when a cap would be exceeded (nothing is
  // written), kUnavailable when the file cannot be written.
  Status Push(const std::string& token, const std::vector<std::uint8_t>& report);
  // Oldest first.
  const std::vector<QueuedReport>& items() const { return items_; }
  // Errors: kUnavailable when the file cannot be removed.
  Status Remove(const std::string& file);

  std::size_t size() const { return items_.size(); }
  std::size_t bytes() const { return bytes_; }
  std::size_t corrupt_files() const { return corrupt_; }

 private:
  std::string dir_;
  std::size_t max_reports_ = 0;
  std::size_t max_bytes_ = 0;
  std::vector<QueuedReport> items_;
  std::size_t bytes_ = 0;
  std::size_t corrupt_ = 0;
  std::uint64_t next_sequence_ = 0;
};

}  // namespace transport
}  // namespace ldpgraph

#endif  // LDPGRAPH_TRANSPORT_UPLOAD_QUEUE_H_
