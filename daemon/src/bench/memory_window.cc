#include "bench/memory_window.h"

#include <cstdlib>
#include <fstream>
#include <string>

#include "engine/allocator.h"

namespace ldpgraph {
namespace {

// A field of /proc/self/status ("VmRSS:", "VmHWM:") in MiB.
double StatusMb(const char* field) {
  std::ifstream status("/proc/self/status");
  const std::string name(field);
  for (std::string line; std::getline(status, line);) {
    if (line.compare(0, name.size(), name) == 0) return std::atof(line.c_str() + name.size()) / 1024.0;
  }
  return 0;
}

}  // namespace

MemoryWindow::MemoryWindow() {
  ReleaseFreeMemory();
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";  // 5: reset the peak resident size to the current one (Linux 4.0)
  clear.flush();
  reset_ = static_cast<bool>(clear);
  start_mb_ = StatusMb("VmRSS:");
}

double MemoryWindow::PeakMb() const { return reset_ ? StatusMb("VmHWM:") - start_mb_ : -1; }

}  // namespace ldpgraph
