// A first-fit allocator over one caller's buffer: the bare-metal build's
// only memory (embedded_arena.cc routes malloc and new here). Blocks tile the
// buffer, each an 8-byte header (its size with the header, in use or free)
// and its payload. Allocation walks the blocks from the start and takes the
// first free run that fits, merging free neighbours as it walks; a report
// holds a few dozen blocks, so the walk is short and the high water mark
// stays low. Built on every target, so its tests run everywhere.
#ifndef LDPGRAPH_INTERNAL_FIRST_FIT_ARENA_H_
#define LDPGRAPH_INTERNAL_FIRST_FIT_ARENA_H_

#include <cstddef>
#include <cstdint>

namespace ldpgraph::internal {

class FirstFitArena {
 public:
  // Takes `buffer` (any alignment). False for a null or too small buffer
  // (under 64 bytes), or one over 4 GiB.
  bool Install(void* buffer, std::size_t size);

  // nullptr when no free run fits (or before Install).
  void* Allocate(std::size_t n);
  // Aborts for a pointer this arena did not hand out or already took back:
  // that is memory corruption in the caller, and going on would spread it.
  void Release(void* p);
  // realloc()'s contract: in place when the blocks after it are free.
  void* Resize(void* p, std::size_t n);

  std::size_t in_use() const { return in_use_; }
  std::size_t high_water() const { return high_water_; }
  // The high water mark from now on (the highest block in use still counts).
  void ResetHighWater();

 private:
  struct Header {
    std::uint32_t size;  // of the block, header included; a multiple of 8
    std::uint32_t used;
  };
  static constexpr std::size_t kHeader = sizeof(Header);
  static constexpr std::size_t kAlign = 8;
  static constexpr std::size_t kMinSplit = kHeader + kAlign;  // the smallest block worth splitting off

  static Header* At(unsigned char* p) { return reinterpret_cast<Header*>(p); }
  static unsigned char* Next(Header* h) { return reinterpret_cast<unsigned char*>(h) + h->size; }
  void AbsorbFreeFollowers(Header* h) const;
  static void Split(Header* h, std::size_t size);
  void Use(Header* h);
  std::size_t BlockSize(std::size_t n) const;
  Header* OwnHeader(void* p) const;

  unsigned char* start_ = nullptr;
  unsigned char* end_ = nullptr;
  std::size_t in_use_ = 0;
  std::size_t high_water_ = 0;
};

}  // namespace ldpgraph::internal

#endif  // LDPGRAPH_INTERNAL_FIRST_FIT_ARENA_H_
