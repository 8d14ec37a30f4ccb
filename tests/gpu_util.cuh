// GPU test helpers: a small owning device buffer and the GPU backend of the suites written once
// over both backends (backends.hpp), with the fixture that skips without a GPU.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <memory>
#include <string>
#include <mergepath/mergepath.hpp>
#include <vector>

#include "backends.hpp"

namespace mergepath_test {

// cudaMalloc'ed memory for `count` elements. Every transfer has finished when a call returns, so
// tests whose contexts borrow non-blocking streams need no ordering of their own.
template <class T>
class device_vector {
 public:
  explicit device_vector(std::size_t count) : size_(count) {
    if (count > 0) MERGEPATH_CUDA_CHECK(cudaMalloc(&data_, count * sizeof(T)));
  }
  explicit device_vector(const std::vector<T>& host) : device_vector(host.size()) { upload(host); }
  device_vector(const device_vector&) = delete;
  device_vector& operator=(const device_vector&) = delete;
  ~device_vector() {
    if (data_) (void)cudaFree(data_);
  }

  T* data() const { return data_; }
  std::size_t size() const { return size_; }

  // this[offset, offset + host.size()) = host
  void upload(const std::vector<T>& host, std::size_t offset = 0) {
    if (host.empty()) return;
    MERGEPATH_CUDA_CHECK(cudaMemcpy(data_ + offset, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
    MERGEPATH_CUDA_CHECK(cudaDeviceSynchronize());
  }
  // Waits for all work on the device first.
  std::vector<T> download() const {
    MERGEPATH_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<T> host(size_);
    if (size_ > 0) MERGEPATH_CUDA_CHECK(cudaMemcpy(host.data(), data_, size_ * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
  }
  // Every byte 0xA5, as poison<T>() (test_util.hpp).
  void fill_poison() {
    if (size_ > 0) MERGEPATH_CUDA_CHECK(cudaMemset(data_, 0xA5, size_ * sizeof(T)));
    MERGEPATH_CUDA_CHECK(cudaDeviceSynchronize());
  }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

// The work record() puts on a stream, captured once into a CUDA graph that launch() replays there.
class captured_graph {
 public:
  template <class Record>
  captured_graph(cudaStream_t stream, Record record) : stream_(stream) {
    MERGEPATH_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    try {
      record();
    } catch (...) {
      (void)cudaStreamEndCapture(stream, &graph_);  // leave the stream usable, then report
      if (graph_) (void)cudaGraphDestroy(graph_);
      throw;
    }
    MERGEPATH_CUDA_CHECK(cudaStreamEndCapture(stream, &graph_));
    MERGEPATH_CUDA_CHECK(cudaGraphInstantiate(&exec_, graph_, 0));
  }
  captured_graph(const captured_graph&) = delete;
  captured_graph& operator=(const captured_graph&) = delete;
  ~captured_graph() {
    if (exec_) EXPECT_EQ(cudaGraphExecDestroy(exec_), cudaSuccess);
    if (graph_) EXPECT_EQ(cudaGraphDestroy(graph_), cudaSuccess);
  }

  // New input for the next launch: host copied to device memory at to, ordered on the stream.
  template <class T>
  void upload(T* to, const std::vector<T>& host) const {
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(to, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice, stream_));
  }
  void launch() const { MERGEPATH_CUDA_CHECK(cudaGraphLaunch(exec_, stream_)); }

 private:
  cudaStream_t stream_;
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

struct gpu_backend {
  using context = mergepath::cuda_context;
  template <class T>
  using buffer = device_vector<T>;

  static bool available() { return mergepath::cuda_available(); }
  // Work is asynchronous on the context's stream: a launch's error shows here.
  static void finish(context& ctx) { ctx.synchronize(); }
  static std::vector<std::unique_ptr<context>> contexts() {
    std::vector<std::unique_ptr<context>> one;
    one.push_back(std::make_unique<context>());
    return one;
  }
  static std::string describe(const context&) { return "cuda_context"; }
};
template <>
struct backend_of<mergepath::cuda_context> {
  using type = gpu_backend;
};

// A suite's cases on the GPU backend.
template <class Cases = ::testing::Types<no_types>>
using on_gpu = on_backend<gpu_backend, Cases>;

// Every GPU-only test derives from this: without a usable GPU and driver it is skipped, not passed.
class gpu_test : public backend_test<gpu_backend> {};

}  // namespace mergepath_test
