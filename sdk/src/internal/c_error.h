// The C ABI's per-thread error message, shared by the SDK's and the
// transport's C functions so ldpgraph_last_error() covers both.
#ifndef LDPGRAPH_INTERNAL_C_ERROR_H_
#define LDPGRAPH_INTERNAL_C_ERROR_H_

#include <string>

namespace ldpgraph {
namespace internal {

std::string& LastCError();

}  // namespace internal
}  // namespace ldpgraph

#endif  // LDPGRAPH_INTERNAL_C_ERROR_H_
