// A random source that counts the words it hands out: the tests that check
// a mechanism draws no randomness before it refuses bad input read it.
#ifndef LDPGRAPH_TESTS_SUPPORT_COUNTING_SOURCE_H_
#define LDPGRAPH_TESTS_SUPPORT_COUNTING_SOURCE_H_

#include <cstdint>

#include "ldpgraph/random_source.h"

namespace ldpgraph {
namespace testing {

class CountingSource final : public BufferedRandomSource {
 public:
  std::uint64_t words = 0;

 protected:
  void Refill(std::uint64_t* out, std::size_t count) override {
    words += count;
    for (std::size_t i = 0; i < count; ++i) out[i] = 0x9e3779b97f4a7c15ull * (words + i);
  }
};

}  // namespace testing
}  // namespace ldpgraph

#endif  // LDPGRAPH_TESTS_SUPPORT_COUNTING_SOURCE_H_
