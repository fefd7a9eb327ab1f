// The widest float vector the build targets (-march), as a GCC/Clang vector
// extension: the compiler maps it to zmm (AVX-512), ymm (AVX) or xmm
// registers; `scalar * vector` broadcasts, and `+=` of a product contracts
// to a fused multiply-add. Shared by the Linear kernels and the benchmark
// that measures them against the core's peak, so both use the same width.
#ifndef LDPGRAPH_DAEMON_ENGINE_FLOAT_VECTOR_H_
#define LDPGRAPH_DAEMON_ENGINE_FLOAT_VECTOR_H_

namespace ldpgraph {

#if defined(__AVX512F__)
constexpr int kFloatLanes = 16;
#elif defined(__AVX__)
constexpr int kFloatLanes = 8;
#else
constexpr int kFloatLanes = 4;
#endif

typedef float FloatVector __attribute__((vector_size(kFloatLanes * sizeof(float))));

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_ENGINE_FLOAT_VECTOR_H_
