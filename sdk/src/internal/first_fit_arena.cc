#include "internal/first_fit_arena.h"

#include <cstdlib>
#include <cstring>

namespace ldpgraph::internal {

bool FirstFitArena::Install(void* buffer, std::size_t size) {
  if (buffer == nullptr || size < 64) return false;
  const auto first = reinterpret_cast<std::uintptr_t>(buffer);
  const std::uintptr_t start = (first + kAlign - 1) / kAlign * kAlign;
  const std::uintptr_t end = (first + size) / kAlign * kAlign;
  if (end - start > UINT32_MAX) return false;  // block sizes are 32-bit
  start_ = reinterpret_cast<unsigned char*>(start);
  end_ = reinterpret_cast<unsigned char*>(end);
  At(start_)->size = static_cast<std::uint32_t>(end - start);
  At(start_)->used = 0;
  in_use_ = 0;
  high_water_ = 0;
  return true;
}

void FirstFitArena::AbsorbFreeFollowers(Header* h) const {
  for (unsigned char* n = Next(h); n < end_ && !At(n)->used; n = Next(h)) h->size += At(n)->size;
}

void FirstFitArena::Split(Header* h, std::size_t size) {
  if (h->size - size < kMinSplit) return;
  Header* rest = At(reinterpret_cast<unsigned char*>(h) + size);
  rest->size = h->size - static_cast<std::uint32_t>(size);
  rest->used = 0;
  h->size = static_cast<std::uint32_t>(size);
}

void FirstFitArena::Use(Header* h) {
  h->used = 1;
  in_use_ += h->size;
  const auto top = static_cast<std::size_t>(Next(h) - start_);
  if (top > high_water_) high_water_ = top;
}

std::size_t FirstFitArena::BlockSize(std::size_t n) const {
  if (n > static_cast<std::size_t>(end_ - start_)) return 0;  // also keeps the sum below from wrapping
  return kHeader + ((n == 0 ? 1 : n) + kAlign - 1) / kAlign * kAlign;
}

FirstFitArena::Header* FirstFitArena::OwnHeader(void* p) const {
  auto* bytes = static_cast<unsigned char*>(p);
  if (bytes < start_ + kHeader || bytes >= end_ || !At(bytes - kHeader)->used) std::abort();
  return At(bytes - kHeader);
}

void* FirstFitArena::Allocate(std::size_t n) {
  const std::size_t size = BlockSize(n);
  if (size == 0 || start_ == nullptr) return nullptr;
  for (unsigned char* p = start_; p < end_; p = Next(At(p))) {
    Header* h = At(p);
    if (h->used) continue;
    AbsorbFreeFollowers(h);
    if (h->size < size) continue;
    Split(h, size);
    Use(h);
    return p + kHeader;
  }
  return nullptr;
}

void FirstFitArena::Release(void* p) {
  if (p == nullptr) return;
  Header* h = OwnHeader(p);
  h->used = 0;
  in_use_ -= h->size;
}

void* FirstFitArena::Resize(void* p, std::size_t n) {
  if (p == nullptr) return Allocate(n);
  if (n == 0) {
    Release(p);
    return nullptr;
  }
  Header* h = OwnHeader(p);
  const std::size_t size = BlockSize(n);
  if (size == 0) return nullptr;
  // Grow (or shrink) in place when the blocks that follow are free.
  const std::uint32_t old_size = h->size;
  h->used = 0;
  in_use_ -= old_size;
  AbsorbFreeFollowers(h);
  const bool fits = h->size >= size;
  Split(h, fits ? size : old_size);  // if it does not fit, give back what was absorbed
  Use(h);
  if (fits) return p;
  void* moved = Allocate(n);
  if (moved == nullptr) return nullptr;
  std::memcpy(moved, p, old_size - kHeader);
  Release(p);
  return moved;
}

void FirstFitArena::ResetHighWater() {
  high_water_ = 0;
  if (start_ == nullptr) return;
  for (unsigned char* p = start_; p < end_; p = Next(At(p))) {
    if (At(p)->used) high_water_ = static_cast<std::size_t>(Next(At(p)) - start_);
  }
}

}  // namespace ldpgraph::internal
