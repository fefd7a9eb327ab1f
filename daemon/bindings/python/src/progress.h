// Progress from a long call that runs without the GIL: each report takes
// the GIL to call the user's Python callable. The first exception the
// callable raises is kept (later reports are skipped) and raised again
// once the call is over, never thrown through the engine's frames.
#ifndef LDPGRAPH_DAEMON_BINDINGS_PYTHON_PROGRESS_H_
#define LDPGRAPH_DAEMON_BINDINGS_PYTHON_PROGRESS_H_

#include <optional>
#include <utility>

#include <pybind11/pybind11.h>

namespace ldpgraph_python {

class Progress {
 public:
  explicit Progress(pybind11::object callable) : callable_(std::move(callable)) {}
  ~Progress() {
    pybind11::gil_scoped_acquire gil;
    callable_ = pybind11::object();
    error_.reset();
  }
  bool enabled() const { return !callable_.is_none(); }

  // Calls the callable with `args` (built under the GIL by `make`).
  template <typename MakeArgs>
  void Report(MakeArgs make) {
    pybind11::gil_scoped_acquire gil;
    if (error_) return;
    try {
      callable_(make());
    } catch (pybind11::error_already_set& e) {
      error_.emplace(std::move(e));
    }
  }
  // After the call, with the GIL held: raise what the callable raised.
  void RaiseIfFailed() {
    if (error_) {
      pybind11::error_already_set e = std::move(*error_);
      error_.reset();
      throw e;
    }
  }

 private:
  pybind11::object callable_;
  std::optional<pybind11::error_already_set> error_;
};

}  // namespace ldpgraph_python

#endif  // LDPGRAPH_DAEMON_BINDINGS_PYTHON_PROGRESS_H_
