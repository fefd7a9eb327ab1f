#include "ldpgraph/transport/upload_queue.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/byte_io.h"
#include "base/crc32.h"
#include "base/durable_file.h"

namespace ldpgraph {
namespace transport {
namespace {

// File: 'L' 'Q' 1, varint token length, token, varint report length, report,
// CRC-32 (LE) of everything before it. Name: 16 hex digits of a sequence
// number (so names sort in arrival order) and ".lgq".
constexpr char kSuffix[] = ".lgq";
constexpr std::size_t kNameLength = 16 + sizeof(kSuffix) - 1;

std::vector<std::uint8_t> Encode(const std::string& token, const std::vector<std::uint8_t>& report) {
  std::vector<std::uint8_t> out = {'L', 'Q', 1};
  base::PutVarint(&out, token.size());
  out.insert(out.end(), token.begin(), token.end());
  base::PutVarint(&out, report.size());
  out.insert(out.end(), report.begin(), report.end());
  base::PutFixed32(&out, base::Crc32(out.data(), out.size()));
  return out;
}

bool Decode(const std::vector<std::uint8_t>& bytes, QueuedReport* out) {
  if (bytes.size() < 7) return false;
  const std::size_t body = bytes.size() - 4;
  base::ByteReader crc_reader(bytes.data() + body, 4);
  std::uint32_t crc = 0;
  if (!crc_reader.ReadFixed32(&crc) || crc != base::Crc32(bytes.data(), body)) return false;
  base::ByteReader in(bytes.data(), body);
  std::uint8_t l = 0, q = 0, version = 0;
  std::uint64_t token_length = 0, report_length = 0;
  if (!in.ReadU8(&l) || !in.ReadU8(&q) || !in.ReadU8(&version) || l != 'L' || q != 'Q' || version != 1) return false;
  if (!in.ReadVarint(&token_length) || token_length > in.remaining()) return false;
  out->token.resize(token_length);
  if (!in.ReadBytes(reinterpret_cast<std::uint8_t*>(&out->token[0]), token_length)) return false;
  if (!in.ReadVarint(&report_length) || report_length != in.remaining()) return false;
  out->report.resize(report_length);
  return in.ReadBytes(out->report.data(), report_length);
}

bool IsQueueFileName(const std::string& name) {
  if (name.size() != kNameLength || name.compare(16, std::string::npos, kSuffix) != 0) return false;
  return std::all_of(name.begin(), name.begin() + 16, [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
}

}  // namespace

Result<UploadQueue> UploadQueue::Open(const std::string& dir, std::size_t max_reports, std::size_t max_bytes) {
  if (dir.empty()) return Status::InvalidArgument("queue directory is empty");
  if (max_reports == 0 || max_bytes == 0) return Status::InvalidArgument("queue caps must be positive");
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    return Status::Unavailable("cannot create queue directory " + dir + ": " + std::strerror(errno));
  }
  DIR* d = ::opendir(dir.c_str());
  if (!d) return Status::Unavailable("cannot read queue directory " + dir + ": " + std::strerror(errno));
  std::vector<std::string> names;
  // readdir() ends with NULL both at the end and on an error; only errno tells
  // them apart. An error read as the end would hide queued reports (and the
  // next sequence number could then overwrite one).
  errno = 0;
  while (dirent* e = ::readdir(d)) {
    if (IsQueueFileName(e->d_name)) names.push_back(e->d_name);
  }
  const int read_error = errno;
  ::closedir(d);
  if (read_error != 0) {
    return Status::Unavailable("cannot list queue directory " + dir + ": " + std::strerror(read_error));
  }
  std::sort(names.begin(), names.end());
  UploadQueue q;
  q.dir_ = dir;
  q.max_reports_ = max_reports;
  q.max_bytes_ = max_bytes;
  for (const std::string& name : names) {
    std::vector<std::uint8_t> bytes;
    bool exists = false;
    LDPGRAPH_RETURN_IF_ERROR(base::ReadWholeFile(dir + "/" + name, &bytes, &exists));
    q.next_sequence_ = std::max<std::uint64_t>(q.next_sequence_, std::strtoull(name.substr(0, 16).c_str(), nullptr, 16) + 1);
    QueuedReport item;
    item.file = name;
    if (!exists) continue;
    if (!Decode(bytes, &item)) {
      ++q.corrupt_;  // kept for inspection, never sent
      continue;
    }
    q.bytes_ += item.report.size();
    q.items_.push_back(std::move(item));
  }
  return q;
}

Status UploadQueue::Push(const std::string& token, const std::vector<std::uint8_t>& report) {
  if (items_.size() + 1 > max_reports_) {
    return Status::ResourceExhausted("upload queue is full: " + std::to_string(items_.size()) + " reports");
  }
  if (bytes_ + report.size() > max_bytes_) {
    return Status::ResourceExhausted("upload queue is full: " + std::to_string(bytes_) + " of " +
                                     std::to_string(max_bytes_) + " bytes used");
  }
  char name[32];
  std::snprintf(name, sizeof(name), "%016llx%s", static_cast<unsigned long long>(next_sequence_), kSuffix);
  LDPGRAPH_RETURN_IF_ERROR(base::WriteFileDurably(dir_ + "/" + name, Encode(token, report)));
  ++next_sequence_;
  items_.push_back({name, token, report});
  bytes_ += report.size();
  return Status::Ok();
}

Status UploadQueue::Remove(const std::string& file) {
  auto it = std::find_if(items_.begin(), items_.end(), [&](const QueuedReport& r) { return r.file == file; });
  if (it == items_.end()) return Status::InvalidArgument("no queued report " + file);
  if (::unlink((dir_ + "/" + file).c_str()) != 0 && errno != ENOENT) {
    return Status::Unavailable("cannot remove " + dir_ + "/" + file + ": " + std::strerror(errno));
  }
  bytes_ -= it->report.size();
  items_.erase(it);
  return Status::Ok();
}

}  // namespace transport
}  // namespace ldpgraph
