// Span<T>: a non-owning view of contiguous elements (C++17 has no std::span).
// Thread-safety: a view; as safe as the memory it points to.
#ifndef LDPGRAPH_SPAN_H_
#define LDPGRAPH_SPAN_H_

#include <cstddef>
#include <vector>

namespace ldpgraph {

template <typename T>
class Span {
 public:
  constexpr Span() = default;
  constexpr Span(T* data, std::size_t size) : data_(data), size_(size) {}
  template <typename U>
  Span(const std::vector<U>& v) : data_(v.data()), size_(v.size()) {}  // NOLINT: implicit
  template <typename U>
  Span(std::vector<U>& v) : data_(v.data()), size_(v.size()) {}  // NOLINT: implicit

  constexpr T* data() const { return data_; }
  constexpr std::size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr T& operator[](std::size_t i) const { return data_[i]; }
  constexpr T* begin() const { return data_; }
  constexpr T* end() const { return data_ + size_; }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_SPAN_H_
