#include "bench/cblas_library.h"

#include <dlfcn.h>

namespace ldpgraph {
namespace {

// CBLAS's enumerations, as every implementation numbers them.
constexpr int kRowMajor = 101, kNoTrans = 111, kTrans = 112;

}  // namespace

std::unique_ptr<CblasLibrary> CblasLibrary::Load(const std::string& name, const std::string& soname) {
  void* handle = dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) return nullptr;
  std::unique_ptr<CblasLibrary> library(new CblasLibrary);
  library->name_ = name;
  library->handle_ = handle;
  library->sgemm_ = reinterpret_cast<SgemmFn>(dlsym(handle, "cblas_sgemm"));
  if (library->sgemm_ == nullptr) return nullptr;
  // One thread, as the engine's kernels are timed: OpenBLAS and BLIS each name it their own way.
  if (auto set = reinterpret_cast<void (*)(int)>(dlsym(handle, "openblas_set_num_threads"))) set(1);
  if (auto set = reinterpret_cast<void (*)(long)>(dlsym(handle, "bli_thread_set_num_threads"))) set(1);
  return library;
}

CblasLibrary::~CblasLibrary() {
  if (handle_ != nullptr) dlclose(handle_);
}

void CblasLibrary::Sgemm(bool transpose_a, int m, int n, int k, const float* a, int lda, const float* b, int ldb,
                         float* c, int ldc) const {
  sgemm_(kRowMajor, transpose_a ? kTrans : kNoTrans, kNoTrans, m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c, ldc);
}

}  // namespace ldpgraph
