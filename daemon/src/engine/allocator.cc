#include "engine/allocator.h"

#include <cstdlib>  // defines __GLIBC__ on glibc systems
#include <mutex>

#include "engine/malloc_tuning.h"

namespace ldpgraph {
namespace {

std::mutex scopes_mu;
int open_scopes = 0;  // guarded by scopes_mu

const MallocTuning& Tuning() {
  static const MallocTuning& tuning = JemallocServesMalloc() ? JemallocTuning() : GlibcMallocTuning();
  return tuning;
}

}  // namespace

TrainingMemoryScope::TrainingMemoryScope() {
  std::lock_guard<std::mutex> lock(scopes_mu);
  if (open_scopes++ == 0) Tuning().start_training();
}

TrainingMemoryScope::~TrainingMemoryScope() {
  std::lock_guard<std::mutex> lock(scopes_mu);
  if (--open_scopes == 0) Tuning().end_training();
}

void ReleaseFreeMemory() {
  std::lock_guard<std::mutex> lock(scopes_mu);
  // What a training's end does: settings as outside training, free memory purged.
  if (open_scopes == 0) Tuning().end_training();
}

const char* MallocName() {
#if defined(__SANITIZE_ADDRESS__)
  constexpr bool kSanitizer = true;
#elif defined(__has_feature)
  constexpr bool kSanitizer = __has_feature(address_sanitizer);
#else
  constexpr bool kSanitizer = false;
#endif
  if (JemallocServesMalloc()) return "jemalloc";
  if (kSanitizer) return "sanitizer";
#if defined(__GLIBC__)
  return "glibc";
#else
  return "system";
#endif
}

void TrainingMemoryScope::EpochEnded() {
  std::lock_guard<std::mutex> lock(scopes_mu);
  Tuning().epoch_ended();
}

}  // namespace ldpgraph
