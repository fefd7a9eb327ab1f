// The bare-metal build's memory (ldpgraph/embedded_arena.h): the C library's
// allocator replaced by one FirstFitArena over the caller's buffer. Replacing
// malloc (not only operator new) keeps the C library's own allocations
// (newlib's number formatting) in the arena too, and _sbrk fails, so nothing
// can grow a heap beside it.
#include "ldpgraph/embedded_arena.h"

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "internal/first_fit_arena.h"

namespace {
ldpgraph::internal::FirstFitArena arena;

void* Failed() {
  errno = ENOMEM;
  return nullptr;
}
}  // namespace

extern "C" {

int ldpgraph_arena_install(void* buffer, std::size_t size) {
  if (arena.in_use() != 0) return -1;
  return arena.Install(buffer, size) ? 0 : -1;
}

std::size_t ldpgraph_arena_in_use(void) { return arena.in_use(); }
std::size_t ldpgraph_arena_high_water(void) { return arena.high_water(); }
void ldpgraph_arena_reset_high_water(void) { arena.ResetHighWater(); }

void* malloc(std::size_t n) {
  void* p = arena.Allocate(n);
  return p != nullptr ? p : Failed();
}
void free(void* p) { arena.Release(p); }
void* realloc(void* p, std::size_t n) {
  void* q = arena.Resize(p, n);
  return q != nullptr || n == 0 ? q : Failed();
}
void* calloc(std::size_t count, std::size_t size) {
  if (size != 0 && count > SIZE_MAX / size) return Failed();
  void* p = malloc(count * size);
  if (p != nullptr) std::memset(p, 0, count * size);
  return p;
}
// newlib's reentrant entry points, which its own functions call directly.
struct _reent;
void* _malloc_r(struct _reent*, std::size_t n) { return malloc(n); }
void _free_r(struct _reent*, void* p) { free(p); }
void* _realloc_r(struct _reent*, void* p, std::size_t n) { return realloc(p, n); }
void* _calloc_r(struct _reent*, std::size_t count, std::size_t size) { return calloc(count, size); }
// No heap beside the arena.
void* _sbrk(std::ptrdiff_t) {
  errno = ENOMEM;
  return reinterpret_cast<void*>(-1);
}

}  // extern "C"
