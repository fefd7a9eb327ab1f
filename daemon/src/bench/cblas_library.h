// A CBLAS sgemm loaded at run time (dlopen), for benchmarks that compare the
// engine's products with a BLAS library's: OpenBLAS and BLIS from Debian
// (libopenblas0-pthread, libblis4-pthread) when installed. Nothing links
// against them, so the engine gains no dependency until one earns it.
#ifndef LDPGRAPH_DAEMON_BENCH_CBLAS_LIBRARY_H_
#define LDPGRAPH_DAEMON_BENCH_CBLAS_LIBRARY_H_

#include <memory>
#include <string>

namespace ldpgraph {

class CblasLibrary {
 public:
  // The library at `soname`, told to use one thread; null when it is not
  // installed or lacks cblas_sgemm.
  static std::unique_ptr<CblasLibrary> Load(const std::string& name, const std::string& soname);
  ~CblasLibrary();
  CblasLibrary(const CblasLibrary&) = delete;
  CblasLibrary& operator=(const CblasLibrary&) = delete;

  const std::string& name() const { return name_; }
  // C (m x n, row-major, leading dimension ldc) = op(A) B, op(A) = A (m x k,
  // lda) or, with `transpose_a`, A^T for A stored k x m.
  void Sgemm(bool transpose_a, int m, int n, int k, const float* a, int lda, const float* b, int ldb, float* c,
             int ldc) const;

 private:
  using SgemmFn = void (*)(int, int, int, int, int, int, float, const float*, int, const float*, int, float, float*,
                           int);
  CblasLibrary() = default;
  std::string name_;
  void* handle_ = nullptr;
  SgemmFn sgemm_ = nullptr;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_BENCH_CBLAS_LIBRARY_H_
