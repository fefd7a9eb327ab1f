#include "bench/machine_limits.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <numeric>

#include "bench/cpu_rate.h"
#include "engine/dropout_draws.h"
#include "engine/kernels/kernel_table.h"
#include "engine/parallel.h"
#include "ldpgraph/random_source.h"

namespace ldpgraph {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::int64_t kLine = 64;  // bytes in a cache line

double Seconds(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// The best wall time of `run` over repeats filling about `seconds` (at least 2).
template <typename Run>
double BestSeconds(double seconds, Run run) {
  double best = INFINITY, spent = 0;
  for (int repeat = 0; repeat < 2 || spent < seconds; ++repeat) {
    const auto start = Clock::now();
    run();
    const double took = Seconds(start);
    best = std::min(best, took);
    spent += took;
  }
  return best;
}

double FmaPeakAll(int threads, double seconds) {
  const KernelTable& kernels = Kernels();
  constexpr std::int64_t kSteps = 1 << 22;
  volatile float start = 1, sink = 0;
  const double flops = 2.0 * kernels.float_lanes * KernelTable::kFmaChains * static_cast<double>(kSteps) * threads;
  const double best = BestSeconds(seconds, [&] {
#pragma omp parallel num_threads(threads)
    {
      const float s = kernels.fma_chains(start, kSteps);
#pragma omp atomic
      sink += s;
    }
  });
  return flops / best;
}

// Four floats as one vector (SSE on the baseline x86-64, NEON on arm64):
// the limits below must measure the memory, not a chain of dependent adds,
// so each keeps kChains independent vector sums.
using Vec4 = float __attribute__((vector_size(16)));
constexpr int kChains = 8;

Vec4 Load(const float* p) {
  Vec4 v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}

float Total(const Vec4* acc) {
  Vec4 sum = {};
  for (int j = 0; j < kChains; ++j) sum += acc[j];
  return sum[0] + sum[1] + sum[2] + sum[3];
}

// Sequential sums and updates over `floats` values (a multiple of 32),
// split over the threads.
StreamRate Streams(int threads, double seconds, std::int64_t floats) {
  std::unique_ptr<float[]> buffer(new float[static_cast<std::size_t>(floats)]);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t i = 0; i < floats; ++i) buffer[i] = 1.0f;  // touched by the thread that reads it
  volatile float sink = 0;
  const double bytes = static_cast<double>(floats) * sizeof(float);
  constexpr std::int64_t kStep = 4 * kChains;
  const std::int64_t steps = floats / kStep;
  StreamRate rate;
  rate.footprint_bytes = bytes;
  rate.read_bytes_per_second = bytes / BestSeconds(seconds, [&] {
    float total = 0;
#pragma omp parallel num_threads(threads) reduction(+ : total)
    {
      Vec4 acc[kChains] = {};
#pragma omp for schedule(static)
      for (std::int64_t i = 0; i < steps; ++i) {
        for (int j = 0; j < kChains; ++j) acc[j] += Load(buffer.get() + i * kStep + 4 * j);
      }
      total += Total(acc);
    }
    sink = total;
  });
  rate.rmw_bytes_per_second = 2 * bytes / BestSeconds(seconds, [&] {
    const Vec4 scale = Vec4{} + 0.999f, shift = Vec4{} + 0.001f;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (std::int64_t i = 0; i < steps; ++i) {
      for (int j = 0; j < kChains; ++j) {
        float* p = buffer.get() + i * kStep + 4 * j;
        const Vec4 v = Load(p) * scale + shift;
        __builtin_memcpy(p, &v, sizeof v);
      }
    }
  });
  (void)sink;
  return rate;
}

// `value` of the rate measured nearest `footprint`, log-interpolated.
template <typename Rate, typename Value>
double Interpolated(const std::vector<Rate>& rates, double footprint, Value value) {
  if (rates.empty()) return 0;
  if (footprint <= rates.front().footprint_bytes) return value(rates.front());
  for (std::size_t i = 1; i < rates.size(); ++i) {
    const Rate& lo = rates[i - 1];
    const Rate& hi = rates[i];
    if (footprint <= hi.footprint_bytes) {
      const double t = std::log(footprint / lo.footprint_bytes) / std::log(hi.footprint_bytes / lo.footprint_bytes);
      return value(lo) + t * (value(hi) - value(lo));
    }
  }
  return value(rates.back());
}

// Lines in a random cycle (Sattolo's shuffle), each holding the index of the next.
std::unique_ptr<std::int64_t[]> RandomCycle(std::int64_t lines, SeededRandomSource& rng) {
  constexpr std::int64_t kPerLine = kLine / sizeof(std::int64_t);
  std::vector<std::int64_t> order(static_cast<std::size_t>(lines));
  std::iota(order.begin(), order.end(), 0);
  for (std::int64_t i = lines - 1; i > 0; --i) {
    const auto j = static_cast<std::int64_t>(rng.NextU64() % static_cast<std::uint64_t>(i));
    std::swap(order[static_cast<std::size_t>(i)], order[static_cast<std::size_t>(j)]);
  }
  std::unique_ptr<std::int64_t[]> next(new std::int64_t[static_cast<std::size_t>(lines * kPerLine)]());
  for (std::int64_t i = 0; i < lines; ++i) {
    next[order[static_cast<std::size_t>(i)] * kPerLine] = order[static_cast<std::size_t>((i + 1) % lines)] * kPerLine;
  }
  return next;
}

double LatencyNs(double seconds, std::int64_t bytes, SeededRandomSource& rng) {
  const std::int64_t lines = bytes / kLine;
  const auto next = RandomCycle(lines, rng);
  const std::int64_t steps = std::min<std::int64_t>(lines, 1 << 22);
  volatile std::int64_t sink = 0;
  const double best = BestSeconds(seconds, [&] {
    std::int64_t at = 0;
    for (std::int64_t s = 0; s < steps; ++s) at = next[at];
    sink = at;
  });
  return best * 1e9 / static_cast<double>(steps);
}

// Random lines of a `bytes` buffer, named by a sequential stream of 32-bit
// line numbers, as a neighbour sum reads its rows: the first 16 bytes of
// each are summed (the line is fetched whole all the same).
double GatherNs(int threads, double seconds, std::int64_t bytes, SeededRandomSource& rng) {
  constexpr std::int64_t kFloats = kLine / sizeof(float);
  const std::int64_t lines = bytes / kLine;
  std::unique_ptr<float[]> rows(new float[static_cast<std::size_t>(lines * kFloats)]);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t i = 0; i < lines * kFloats; ++i) rows[i] = 1.0f;
  const std::int64_t count = std::int64_t{1} << 23;
  std::vector<std::int32_t> index(static_cast<std::size_t>(count));
  for (auto& i : index) i = static_cast<std::int32_t>(rng.NextU64() % static_cast<std::uint64_t>(lines));
  volatile float sink = 0;
  const std::int64_t steps = count / kChains;
  const double best = BestSeconds(seconds, [&] {
    float total = 0;
#pragma omp parallel num_threads(threads) reduction(+ : total)
    {
      Vec4 acc[kChains] = {};
#pragma omp for schedule(static)
      for (std::int64_t i = 0; i < steps; ++i) {
        const std::int32_t* at = index.data() + i * kChains;
        for (int j = 0; j < kChains; ++j) acc[j] += Load(rows.get() + static_cast<std::int64_t>(at[j]) * kFloats);
      }
      total += Total(acc);
    }
    sink = total;
  });
  return best * 1e9 / static_cast<double>(count);
}

// Dropout's masks: rows of 16 multipliers, each row's words mixed from its
// elements' positions (engine/dropout_draws.h), into a buffer in cache.
double DropoutDrawsPerSecond(double seconds) {
  constexpr std::int64_t kCols = 16, kRows = 1 << 14;
  const DropoutDraws draws(5, 0.5f, kCols, nullptr);
  std::vector<float> out(kCols);
  volatile float sink = 0;
  return static_cast<double>(kCols * kRows) / BestSeconds(seconds, [&] {
    float total = 0;
    for (std::int64_t r = 0; r < kRows; ++r) {
      draws.Row(r, out.data());
      total += out[static_cast<std::size_t>(r % kCols)];
    }
    sink = total;
  });
}

// One libm function over a buffer in cache, calls independent of each other.
template <typename F>
double LibmCallsPerSecond(double seconds, float lo, float hi, F f) {
  std::vector<float> in(1 << 16), out(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = lo + (hi - lo) * static_cast<float>(i) / static_cast<float>(in.size());
  [[maybe_unused]] volatile float sink = 0;  // keeps the calls; clang counts a volatile store as no use
  return static_cast<double>(in.size()) / BestSeconds(seconds, [&] {
    for (std::size_t i = 0; i < in.size(); ++i) out[i] = f(in[i]);
    sink = out[in.size() / 2];
  });
}

}  // namespace

double MachineLimits::ReadBytesPerSecond(double footprint) const {
  return Interpolated(streams, footprint, [](const StreamRate& r) { return r.read_bytes_per_second; });
}

double MachineLimits::RmwBytesPerSecond(double footprint) const {
  return Interpolated(streams, footprint, [](const StreamRate& r) { return r.rmw_bytes_per_second; });
}

double MachineLimits::GatherNsPerLine(double footprint) const {
  return Interpolated(gathers, footprint, [](const GatherRate& r) { return r.ns_per_line; });
}

MachineLimits MeasureMachineLimits(int threads, double seconds, std::int64_t big_bytes) {
  MachineLimits limits;
  limits.threads = threads;
  SeededRandomSource rng(72);
  limits.fma_flops_core = FmaPeakPerCore(seconds);
  limits.fma_flops_all = FmaPeakAll(threads, seconds);
  limits.latency_ns = LatencyNs(seconds, big_bytes, rng);
  limits.dropout_draws_per_second = DropoutDrawsPerSecond(seconds);
  limits.libm_exps_per_second = LibmCallsPerSecond(seconds, -4.0f, 4.0f, [](float x) { return std::exp(x); });
  limits.libm_logs_per_second = LibmCallsPerSecond(seconds, 1e-3f, 1.0f, [](float x) { return std::log(x); });
  for (std::int64_t bytes = std::int64_t{1} << 20; bytes <= big_bytes; bytes *= 4) {
    limits.streams.push_back(Streams(threads, seconds, bytes / static_cast<std::int64_t>(sizeof(float))));
    limits.gathers.push_back({static_cast<double>(bytes), GatherNs(threads, seconds, bytes, rng)});
  }
  return limits;
}

}  // namespace ldpgraph
