// The GPU backend's run_on: the call's device made current, and a cuda_context borrowing the
// caller's stream (cached per device and stream: a context owns a memory pool, too costly to
// build per call).
#pragma once

#include <mergepath/context.hpp>

#include "ops.hpp"

namespace mergepath_py {

// The context borrowing `stream` on `device` (created on first use, kept for the process).
mergepath::cuda_context& cached_context(int device, std::uintptr_t stream);
// A context with a stream of its own on `device`, for objects that outlive the caller's stream.
mergepath::cuda_context& private_context(int device);
// Throws std::runtime_error naming what is missing when no usable device has this number.
void require_device(int device);

// Makes `device` current for a scope, restoring the caller's device after.
class device_scope {
 public:
  explicit device_scope(int device) {
    MERGEPATH_CUDA_CHECK(cudaGetDevice(&previous_));
    if (previous_ != device) MERGEPATH_CUDA_CHECK(cudaSetDevice(device));
  }
  ~device_scope() {
    int now = -1;
    if (cudaGetDevice(&now) == cudaSuccess && now != previous_) (void)cudaSetDevice(previous_);
  }
  device_scope(const device_scope&) = delete;
  device_scope& operator=(const device_scope&) = delete;

 private:
  int previous_ = 0;
};

template <class F>
void run_on(cuda_tag, const call& c, F&& f) {
  require_device(c.device);
  device_scope scope(c.device);
  mergepath::cuda_context& ctx = cached_context(c.device, c.stream);
  ctx.set_checked(c.checked);
  f(ctx);
}

// Builds on the device's private stream once it has caught up with the caller's stream (the
// input is ready there), and waits: the result is then usable from any stream.
template <class F>
void build_on(cuda_tag, const call& c, F&& f) {
  require_device(c.device);
  device_scope scope(c.device);
  mergepath::cuda_context& caller = cached_context(c.device, c.stream);
  mergepath::cuda_context& own = private_context(c.device);
  cudaEvent_t ready = nullptr;
  MERGEPATH_CUDA_CHECK(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming));
  cudaError_t recorded = cudaEventRecord(ready, caller.stream());
  cudaError_t waited = recorded == cudaSuccess ? cudaStreamWaitEvent(own.stream(), ready, 0) : recorded;
  (void)cudaEventDestroy(ready);
  MERGEPATH_CUDA_CHECK(waited);
  own.set_checked(c.checked);
  f(own);
  own.synchronize();
}

}  // namespace mergepath_py
