#include "jobs/memory_budget.h"

#include <cstdio>
#include <unistd.h>

#include "net/json_response.h"

namespace ldpgraph {

MemoryBudget::MemoryBudget(std::uint64_t bytes, Metrics* metrics) : bytes_(bytes), metrics_(metrics) {
  if (metrics_ != nullptr) metrics_->memory_budget_bytes = bytes_;
}

MemoryBudget::Lease& MemoryBudget::Lease::operator=(Lease&& other) noexcept {
  if (this != &other) {
    if (budget_ != nullptr) budget_->Release(bytes_);
    budget_ = other.budget_;
    bytes_ = other.bytes_;
    other.budget_ = nullptr;
  }
  return *this;
}

MemoryBudget::Lease::~Lease() {
  if (budget_ != nullptr) budget_->Release(bytes_);
}

Status MemoryBudget::Fits(std::uint64_t bytes, const std::string& what) const {
  if (bytes <= bytes_) return Status::Ok();
  return Status::ResourceExhausted(what + " needs about " + ByteSize(bytes) + ", above the daemon's memory budget of " +
                                   ByteSize(bytes_) + " ([limits] memory_budget_mb)");
}

Result<MemoryBudget::Lease> MemoryBudget::TryReserve(std::uint64_t bytes, const std::string& what) {
  LDPGRAPH_RETURN_IF_ERROR(Fits(bytes, what));
  std::lock_guard<std::mutex> lock(mu_);
  if (held_ + bytes > bytes_) {
    return Status::Unavailable(what + " needs about " + ByteSize(bytes) + "; other admin work holds " +
                               ByteSize(held_) + " of the " + ByteSize(bytes_) + " budget now");
  }
  held_ += bytes;
  if (metrics_ != nullptr) metrics_->memory_leased_bytes = held_;
  return Lease(this, bytes);
}

Result<MemoryBudget::Lease> MemoryBudget::Reserve(std::uint64_t bytes, const std::string& what) {
  LDPGRAPH_RETURN_IF_ERROR(Fits(bytes, what));
  std::unique_lock<std::mutex> lock(mu_);
  released_.wait(lock, [&] { return held_ + bytes <= bytes_; });
  held_ += bytes;
  if (metrics_ != nullptr) metrics_->memory_leased_bytes = held_;
  return Lease(this, bytes);
}

void MemoryBudget::Release(std::uint64_t bytes) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    held_ -= bytes;
    if (metrics_ != nullptr) metrics_->memory_leased_bytes = held_;
  }
  released_.notify_all();
}

std::optional<HttpResponse> LeaseForRequest(MemoryBudget* budget, const std::string& what, std::uint64_t bytes,
                                            MemoryBudget::Lease* lease) {
  if (budget == nullptr) return std::nullopt;
  Result<MemoryBudget::Lease> leased = budget->TryReserve(bytes, what);
  if (leased.ok()) {
    *lease = std::move(leased).value();
    return std::nullopt;
  }
  if (leased.status().code() == StatusCode::kResourceExhausted) {
    return ErrorResponse(422, "over_memory_budget", leased.status().message());
  }
  HttpResponse busy = ErrorResponse(503, "busy", leased.status().message());
  busy.headers.emplace_back("Retry-After", "1");
  return busy;
}

std::string ByteSize(std::uint64_t bytes) {
  char text[32];
  const double mb = static_cast<double>(bytes) / (1 << 20);
  if (mb >= 1024) {
    std::snprintf(text, sizeof text, "%.1f GB", mb / 1024);
  } else {
    std::snprintf(text, sizeof text, "%.0f MB", mb < 1 ? 1 : mb);
  }
  return text;
}

std::uint64_t DefaultMemoryBudget() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return std::uint64_t{4} << 30;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) / 2;
}

}  // namespace ldpgraph
