// OpProfile: where a tape's time goes, by operation. A tape that records
// into one charges each operation's forward pass with the time since the
// tape's previous operation ended, and its backward pass with the time its
// gradient closure takes, under the operation's name and output width
// ("Selu/16", "AggregateBy/4"). Off unless asked for (a null profile costs
// one branch per operation); `ldpgraph bench roofline` reads it to know
// which kernels an epoch spends its time in.
#ifndef LDPGRAPH_DAEMON_ENGINE_OP_PROFILE_H_
#define LDPGRAPH_DAEMON_ENGINE_OP_PROFILE_H_

#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace ldpgraph {

struct OpTime {
  std::int64_t calls = 0;  // forward passes
  double forward_seconds = 0;
  double backward_seconds = 0;
  double seconds() const { return forward_seconds + backward_seconds; }
};

class OpProfile {
 public:
  // One forward pass of `op` with an output `width` wide, or (backward) its gradient.
  void AddForward(const char* op, std::int64_t width, double seconds);
  void AddBackward(const char* op, std::int64_t width, double seconds);
  // Every operation so far by "name/width".
  std::map<std::string, OpTime> Ops() const;
  void Clear();

 private:
  static std::string Key(const char* op, std::int64_t width);

  mutable std::mutex mu_;  // tapes on several threads may share a profile
  std::map<std::string, OpTime> ops_;
};

// The profile every new tape records into; null (the default) for none.
// The profile must outlive every tape made while it is set.
void SetDefaultOpProfile(OpProfile* profile);
OpProfile* DefaultOpProfile();

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_ENGINE_OP_PROFILE_H_
