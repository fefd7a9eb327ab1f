// Status and Result<T>: how the SDK reports errors without exceptions.
//
// The SDK builds with -fno-exceptions and never throws across its API. Every
// fallible function returns a Status or a Result<T>, both [[nodiscard]].
// Thread-safety: values; safe to copy between threads.
#ifndef LDPGRAPH_STATUS_H_
#define LDPGRAPH_STATUS_H_

#include <string>
#include <utility>

namespace ldpgraph {

enum class StatusCode : int {
  kOk = 0,
  kInvalidArgument = 1,     // a parameter or input is malformed or out of its domain
  kOutOfRange = 2,          // an index (user or neighbour id, feature dimension) is outside [0, n)
  kFailedPrecondition = 3,  // the call is valid but the object's state forbids it
  kResourceExhausted = 4,   // a privacy budget cap or a buffer would be exceeded
  kDataLoss = 5,            // stored state (ledger file, report bytes) is corrupt
  kUnavailable = 6,         // an OS facility (CSPRNG, file) failed; retrying may help
  kInternal = 7,            // a broken invariant; a bug in ldpgraph
};

// Returns a stable lower-case name for `code`, e.g. "invalid_argument".
const char* StatusCodeName(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;  // OK
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status Ok() { return Status(); }
  static Status InvalidArgument(std::string m) { return {StatusCode::kInvalidArgument, std::move(m)}; }
  static Status OutOfRange(std::string m) { return {StatusCode::kOutOfRange, std::move(m)}; }
  static Status FailedPrecondition(std::string m) { return {StatusCode::kFailedPrecondition, std::move(m)}; }
  static Status ResourceExhausted(std::string m) { return {StatusCode::kResourceExhausted, std::move(m)}; }
  static Status DataLoss(std::string m) { return {StatusCode::kDataLoss, std::move(m)}; }
  static Status Unavailable(std::string m) { return {StatusCode::kUnavailable, std::move(m)}; }
  static Status Internal(std::string m) { return {StatusCode::kInternal, std::move(m)}; }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // "invalid_argument: epsilon must be finite, got nan"
  std::string ToString() const;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

// Either a value or a non-OK Status. Accessing the value of an error aborts
// (a programming error, not an input error), so check ok() first.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)), has_value_(true) {}  // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) {               // NOLINT: implicit by design
    if (status_.ok()) status_ = Status::Internal("Result built from an OK status without a value");
  }

  bool ok() const { return has_value_; }
  const Status& status() const { return status_; }
  const T& value() const& { CheckHasValue(); return value_; }
  T& value() & { CheckHasValue(); return value_; }
  T&& value() && { CheckHasValue(); return std::move(value_); }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

 private:
  void CheckHasValue() const;
  T value_{};
  Status status_;
  bool has_value_ = false;
};

namespace internal {
[[noreturn]] void DieOnBadResultAccess(const Status& status);
}  // namespace internal

template <typename T>
void Result<T>::CheckHasValue() const {
  if (!has_value_) internal::DieOnBadResultAccess(status_);
}

}  // namespace ldpgraph

// Propagates a non-OK Status from an expression to the caller.
#define LDPGRAPH_RETURN_IF_ERROR(expr)          \
  do {                                          \
    ::ldpgraph::Status ldpgraph_status_ = (expr); \
    if (!ldpgraph_status_.ok()) return ldpgraph_status_; \
  } while (0)

#endif  // LDPGRAPH_STATUS_H_
