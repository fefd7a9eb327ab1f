#include "engine/op_profile.h"

#include <atomic>

namespace ldpgraph {
namespace {

std::atomic<OpProfile*> default_profile{nullptr};

}  // namespace

std::string OpProfile::Key(const char* op, std::int64_t width) {
  return std::string(op == nullptr ? "?" : op) + "/" + std::to_string(width);
}

void OpProfile::AddForward(const char* op, std::int64_t width, double seconds) {
  std::lock_guard<std::mutex> lock(mu_);
  OpTime& t = ops_[Key(op, width)];
  ++t.calls;
  t.forward_seconds += seconds;
}

void OpProfile::AddBackward(const char* op, std::int64_t width, double seconds) {
  std::lock_guard<std::mutex> lock(mu_);
  ops_[Key(op, width)].backward_seconds += seconds;
}

std::map<std::string, OpTime> OpProfile::Ops() const {
  std::lock_guard<std::mutex> lock(mu_);
  return ops_;
}

void OpProfile::Clear() {
  std::lock_guard<std::mutex> lock(mu_);
  ops_.clear();
}

void SetDefaultOpProfile(OpProfile* profile) { default_profile.store(profile); }
OpProfile* DefaultOpProfile() { return default_profile.load(); }

}  // namespace ldpgraph
