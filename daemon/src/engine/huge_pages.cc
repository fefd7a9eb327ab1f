#include "engine/huge_pages.h"

#include <fstream>
#include <sstream>
#include <string>
#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace ldpgraph {
namespace {

constexpr std::uintptr_t kPage = 4096;
constexpr std::uintptr_t kMinHugePagedBytes = std::uintptr_t{1} << 30;

// Every line of /proc/self/maps: "begin-end perms offset dev inode [name]".
template <typename Keep>
std::vector<AddressRange> Mappings(Keep keep) {
  std::vector<AddressRange> ranges;
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    std::istringstream fields(line);
    std::string span, perms, offset, device, inode, name;
    if (!(fields >> span >> perms >> offset >> device >> inode)) continue;
    std::getline(fields >> std::ws, name);
    const auto dash = span.find('-');
    if (dash == std::string::npos) continue;
    AddressRange r;
    r.begin = static_cast<std::uintptr_t>(std::stoull(span.substr(0, dash), nullptr, 16));
    r.end = static_cast<std::uintptr_t>(std::stoull(span.substr(dash + 1), nullptr, 16));
    if (keep(perms, inode, name, r)) ranges.push_back(r);
  }
  return ranges;
}

}  // namespace

std::vector<AddressRange> HeapMappings() {
  return Mappings([](const std::string&, const std::string&, const std::string& name, const AddressRange&) {
    return name == "[heap]";
  });
}

std::vector<AddressRange> AnonymousMappings(std::uintptr_t min_bytes) {
  return Mappings([min_bytes](const std::string& perms, const std::string& inode, const std::string& name,
                              const AddressRange& r) {
    return perms == "rw-p" && inode == "0" && name.empty() && r.size() >= min_bytes;
  });
}

bool AdviseHugePagesOnGrowth(const std::vector<AddressRange>& ranges, std::uintptr_t* marked_bytes) {
  std::uintptr_t total = 0;
  for (const AddressRange& r : ranges) total += r.size();
  if (total < kMinHugePagedBytes || total < *marked_bytes + *marked_bytes / 4) return false;
  *marked_bytes = total;
#if defined(__linux__)
  for (const AddressRange& r : ranges) {
    const std::uintptr_t begin = (r.begin + kHugePage - 1) & ~(kHugePage - 1), end = r.end & ~(kHugePage - 1);
    if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
  }
#endif
  return true;
}

#if defined(__linux__)

void DropPages(std::uintptr_t begin, std::uintptr_t end) {
  begin = (begin + kPage - 1) & ~(kPage - 1);
  end &= ~(kPage - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
}
#else
void DropPages(std::uintptr_t, std::uintptr_t) {}
#endif

}  // namespace ldpgraph
