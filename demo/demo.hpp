// mergepath-demo's pieces: the backend the demonstrations run on (CPU or GPU), arrays that live
// where it computes, deterministic inputs, and the list of demonstrations.
//
// The same source builds with a plain C++17 compiler (host backend only) and with nvcc (both).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <mergepath/mergepath.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#if MERGEPATH_HAS_CUDA
#include <cuda_runtime_api.h>
#endif

#include "print.hpp"

namespace demo {

enum class backend_choice { automatic, cpu, gpu };

// An array where the backend computes: a std::vector on the CPU, device memory on the GPU.
template <class T>
class array {
 public:
  T* data() { return device_ ? device_.get() : host_.data(); }
  const T* data() const { return device_ ? device_.get() : host_.data(); }
  std::size_t size() const { return size_; }

 private:
  friend class backend;
  struct device_free {
    void operator()(T* p) const noexcept {
#if MERGEPATH_HAS_CUDA
      (void)cudaFree(p);
#else
      (void)p;
#endif
    }
  };
  std::vector<T> host_;
  std::unique_ptr<T, device_free> device_;
  std::size_t size_ = 0;
};

// Where the demonstrations run. On the GPU every call is followed by a synchronize, so errors
// surface at the call that caused them.
class backend {
 public:
  // Throws std::runtime_error when the choice cannot be honoured (--gpu without a GPU).
  explicit backend(backend_choice choice) {
    bool have_gpu = mergepath::cuda_available();
    if (choice == backend_choice::gpu && !have_gpu) {
#if MERGEPATH_HAS_CUDA
      throw std::runtime_error("--gpu: no usable CUDA device (" + cuda_problem() + ")");
#else
      throw std::runtime_error(
          "--gpu: this mergepath-demo was built without CUDA (no nvcc), so it runs on the CPU only");
#endif
    }
    gpu_ = choice == backend_choice::gpu || (choice == backend_choice::automatic && have_gpu);
    if (choice == backend_choice::cpu) {
      why_cpu_ = "--cpu";
    } else if (!gpu_) {
#if MERGEPATH_HAS_CUDA
      why_cpu_ = "no usable CUDA device: " + cuda_problem();
#else
      why_cpu_ = "built without CUDA";
#endif
    }
#if MERGEPATH_HAS_CUDA
    if (gpu_) cuda_ = std::make_unique<mergepath::cuda_context>();
#endif
  }

  bool gpu() const { return gpu_; }

  // "GPU (NVIDIA H100 ..., sm_90, 132 SMs, kernels compiled for sm_90)" or "CPU, 16 threads (why)".
  std::string describe() const {
#if MERGEPATH_HAS_CUDA
    if (gpu_) {
      const cudaDeviceProp& p = cuda_->props();
      return std::string("GPU (") + p.name + ", sm_" + std::to_string(cuda_->arch()) + ", " +
             std::to_string(p.multiProcessorCount) + " SMs, kernels compiled for sm_" +
             std::to_string(cuda_->compiled_arch()) + ")";
    }
#endif
    return "CPU, " + std::to_string(host_.num_threads()) + " thread" + (host_.num_threads() == 1 ? "" : "s") + " (" +
           why_cpu_ + ")";
  }

  mergepath::host_context& host() { return host_; }
#if MERGEPATH_HAS_CUDA
  mergepath::cuda_context& cuda() { return *cuda_; }
#endif

  // Runs f(ctx) with this backend's context (a generic lambda: `[&](auto& ctx) { ... }`) and
  // waits for it to finish.
  template <class F>
  void run(F&& f) {
#if MERGEPATH_HAS_CUDA
    if (gpu_) {
      f(*cuda_);
      cuda_->synchronize();
      return;
    }
#endif
    f(host_);
  }

  template <class T>
  array<T> make_array(std::size_t count) {
    array<T> a;
    a.size_ = count;
#if MERGEPATH_HAS_CUDA
    if (gpu_) {
      T* p = nullptr;
      MERGEPATH_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&p), std::max<std::size_t>(count, 1) * sizeof(T)));
      a.device_.reset(p);
      return a;
    }
#endif
    a.host_.resize(count);
    return a;
  }

  template <class T>
  array<T> to_backend(const std::vector<T>& values) {
    array<T> a = make_array<T>(values.size());
#if MERGEPATH_HAS_CUDA
    if (gpu_) {
      // On the context's stream, then wait: the copy is complete before any kernel reads it.
      MERGEPATH_CUDA_CHECK(
          cudaMemcpyAsync(a.data(), values.data(), values.size() * sizeof(T), cudaMemcpyHostToDevice, cuda_->stream()));
      cuda_->synchronize();
      return a;
    }
#endif
    a.host_ = values;
    return a;
  }

  template <class T>
  std::vector<T> to_host(const array<T>& a) {
#if MERGEPATH_HAS_CUDA
    if (gpu_) {
      std::vector<T> values(a.size());
      MERGEPATH_CUDA_CHECK(
          cudaMemcpyAsync(values.data(), a.data(), values.size() * sizeof(T), cudaMemcpyDeviceToHost, cuda_->stream()));
      cuda_->synchronize();
      return values;
    }
#endif
    return a.host_;
  }

 private:
#if MERGEPATH_HAS_CUDA
  static std::string cuda_problem() {
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    (void)cudaGetLastError();
    if (e != cudaSuccess) return cudaGetErrorString(e);
    return count == 0 ? "no devices" : "unknown";
  }
  std::unique_ptr<mergepath::cuda_context> cuda_;
#endif
  mergepath::host_context host_;
  bool gpu_ = false;
  std::string why_cpu_;
};

// count values in [lo, hi] in random order, from a fixed seed (splitmix64): the same on every
// machine and backend.
inline std::vector<int> random_values(int count, int lo, int hi, std::uint64_t seed) {
  std::vector<int> v(static_cast<std::size_t>(count));
  std::uint64_t state = seed;
  for (int& x : v) {
    state += 0x9e3779b97f4a7c15ull;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    x = lo + static_cast<int>(z % static_cast<std::uint64_t>(hi - lo + 1));
  }
  return v;
}

// The same values, sorted.
inline std::vector<int> sorted_random(int count, int lo, int hi, std::uint64_t seed) {
  std::vector<int> v = random_values(count, lo, hi, seed);
  std::sort(v.begin(), v.end());
  return v;
}

// A demonstration prints its title and results, and throws if a result is wrong.
struct demonstration {
  const char* name;  // for --only
  const char* what;
  void (*run)(backend&);
};

void demo_merge(backend& be);           // demo_merge.cpp
void demo_sorted_search(backend& be);   // demo_sorted_search.cpp
void demo_mergesort(backend& be);       // demo_mergesort.cpp
void demo_segmented_sort(backend& be);  // demo_segmented_sort.cpp
void demo_segsort_stats(backend& be);   // demo_segmented_sort.cpp
void demo_binary_search(backend& be);   // demo_binary_search.cpp
void demo_load_balance(backend& be);    // demo_load_balance.cpp
void demo_join(backend& be);            // demo_join.cpp

}  // namespace demo
