#include "engine/allocator.h"

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

void TrainingMemoryScope::EpochEnded() {
  std::lock_guard<std::mutex> lock(scopes_mu);
  Tuning().epoch_ended();
}

}  // namespace ldpgraph
