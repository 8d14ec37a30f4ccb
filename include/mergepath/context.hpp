// Contexts say where an algorithm runs: host_context (CPU threads) or cuda_context (one GPU stream).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <utility>

#include "detail/config.hpp"
#include "error.hpp"

#if defined(_OPENMP)
#include <omp.h>
#endif
#if MERGEPATH_HAS_CUDA
#include <cuda_runtime_api.h>

#include "detail/launch.cuh"
#endif

namespace mergepath {

// The CPU: all its cores by default (OpenMP threads; one thread when built without OpenMP).
class host_context {
 public:
  host_context() : num_threads_(default_threads()) {}
  explicit host_context(int num_threads) : num_threads_(num_threads) {
    detail::require(num_threads > 0, "host_context", "num_threads must be positive");
  }
  int num_threads() const { return num_threads_; }
  // Checked mode verifies data preconditions (sorted inputs, ...) and throws before writing.
  void set_checked(bool on) { checked_ = on; }
  bool checked() const { return checked_; }

 private:
  static int default_threads() {
#if defined(_OPENMP)
    return std::max(1, omp_get_max_threads());
#else
    return 1;
#endif
  }
  int num_threads_;
  bool checked_ = false;
};

#if MERGEPATH_HAS_CUDA

inline namespace with_cuda {
// A usable GPU and driver are present.
inline bool cuda_available() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();  // no driver or no device: not sticky, clear it
    return false;
  }
  return count > 0;
}
}  // namespace with_cuda

class cuda_context;

// Device scratch memory from the context's pool, returned to the pool (stream-ordered) on destruction.
template <class T>
class temp_buffer {
 public:
  temp_buffer() = default;
  temp_buffer(const temp_buffer&) = delete;
  temp_buffer& operator=(const temp_buffer&) = delete;
  temp_buffer(temp_buffer&& o) noexcept : data_(std::exchange(o.data_, nullptr)), stream_(o.stream_) {}
  temp_buffer& operator=(temp_buffer&& o) noexcept {
    if (this != &o) {
      release();
      data_ = std::exchange(o.data_, nullptr);
      stream_ = o.stream_;
    }
    return *this;
  }
  ~temp_buffer() { release(); }
  T* data() const { return data_; }

 private:
  friend class cuda_context;
  temp_buffer(T* data, cudaStream_t stream) : data_(data), stream_(stream) {}
  void release() noexcept {
    // Stream-ordered: kernels already queued that use the block finish before it is reused.
    if (data_) (void)cudaFreeAsync(data_, stream_);
    data_ = nullptr;
  }
  T* data_ = nullptr;
  cudaStream_t stream_ = nullptr;
};

// One GPU: its device, a stream, its properties, and a pool that caches temporary memory.
// Work is asynchronous on stream(); nothing synchronizes unless it returns a value or checked
// mode is on. Not copyable: algorithms take it by reference.
class cuda_context {
 public:
  // The current device, with a stream of its own that keeps the legacy default stream's order
  // (a blocking stream), as CUB's and Thrust's stream 0 does: a plain cudaMemcpy or cudaMemset
  // before a call completes before it, and one after it waits for it. A non-blocking stream let
  // a user's plain uploads land after the kernels had read or written that memory (issue 67).
  cuda_context() : owns_stream_(true) {
    MERGEPATH_CUDA_CHECK(cudaGetDevice(&device_));
    try {
      MERGEPATH_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamDefault));
      init();
    } catch (...) {
      destroy();
      throw;
    }
  }
  // Borrow the caller's stream; it is not destroyed with the context.
  explicit cuda_context(cudaStream_t stream) : stream_(stream), owns_stream_(false) {
    MERGEPATH_CUDA_CHECK(cudaStreamGetDevice(stream, &device_));
    try {
      init();
    } catch (...) {
      destroy();
      throw;
    }
  }
  cuda_context(const cuda_context&) = delete;
  cuda_context& operator=(const cuda_context&) = delete;
  ~cuda_context() { destroy(); }

  cudaStream_t stream() const { return stream_; }
  int device() const { return device_; }
  const cudaDeviceProp& props() const { return props_; }
  // Compute capability as one number, e.g. 90 for sm_90: what the device is, not what a kernel
  // can do there (detail::running_code_arch says that).
  int arch() const { return props_.major * 10 + props_.minor; }
  // Whether the device launches thread block clusters (sm_90 and later).
  bool launches_clusters() const { return launches_clusters_; }
  // The architecture this translation unit's kernels run as on the device (75, 80, 90, ...): the
  // SASS or PTX its fat binary chose there, which may be older than the device (arch()). Asked
  // of the current device, which is the context's in the usual case.
  int compiled_arch() const { return detail::running_code_arch(); }
  // Waits for all work queued on the stream; throws cuda_error if any of it failed.
  void synchronize() { MERGEPATH_CUDA_CHECK(cudaStreamSynchronize(stream_)); }
  void set_checked(bool on) { checked_ = on; }
  bool checked() const { return checked_; }

  // Words of pinned host memory that kernels write directly (mapped), for the few numbers a call
  // returns to the host (sorted_search's match counts): read after synchronize() or
  // wait_for_result_word(), they cost no copy and no copy's latency. Allocated on first use; the
  // context's calls share them, as they share its stream.
  struct mapped_words {
    std::uint64_t* host;
    std::uint64_t* device;
  };
  static constexpr int mapped_word_count = 8;
  mapped_words result_words() {
    if (!result_words_.host) {
      void* host = nullptr;
      MERGEPATH_CUDA_CHECK(cudaHostAlloc(&host, mapped_word_count * sizeof(std::uint64_t), cudaHostAllocMapped));
      result_words_.host = static_cast<std::uint64_t*>(host);
      std::fill(result_words_.host, result_words_.host + mapped_word_count, std::uint64_t{0});
      void* device = nullptr;
      MERGEPATH_CUDA_CHECK(cudaHostGetDevicePointer(&device, host, 0));
      result_words_.device = static_cast<std::uint64_t*>(device);
    }
    return result_words_;
  }

  // A value no earlier call stored to a result word, for a kernel to store when its results are
  // written (wait_for_result_word).
  std::uint64_t next_result_sequence() { return ++result_sequence_; }

  // Waits until a kernel queued on the stream has stored `value` to result word `index`: the host
  // goes on as soon as the word lands instead of when the stream's end is signalled (sooner than
  // cudaStreamSynchronize returns). Throws cuda_error if the stream fails first.
  void wait_for_result_word(int index, std::uint64_t value) {
    const volatile std::uint64_t* word = result_words().host + index;
    for (unsigned spin = 1;; ++spin) {
      if (*word == value) break;
      if (spin % 1024 == 0) {  // now and then, ask whether the stream failed (or is done)
        cudaError_t status = cudaStreamQuery(stream_);
        if (status == cudaErrorNotReady) continue;
        MERGEPATH_CUDA_CHECK(status);
        if (*word != value) throw std::logic_error("mergepath: the stream finished without storing its result");
        break;
      }
    }
    std::atomic_thread_fence(std::memory_order_acquire);  // the words stored before this one are read after it
  }

  // Device counters that are zero between calls (zeroed_counter_count of them): the kernel that
  // reads them last clears them too, so a call clears nothing first. A call takes them here and
  // says counters_cleared() once that kernel is queued; if it throws in between, the next take
  // clears them.
  static constexpr int zeroed_counter_count = 128;
  unsigned long long* take_zeroed_counters() {
    if (counters_dirty_)
      MERGEPATH_CUDA_CHECK(
          cudaMemsetAsync(zeroed_counters_, 0, zeroed_counter_count * sizeof(unsigned long long), stream_));
    counters_dirty_ = true;
    return zeroed_counters_;
  }
  // Device words for flags that a kernel's blocks raise for one another (a look-back) and never
  // clear: each carries the number of the call that raised it, kept in one of the words by the
  // kernel itself (kernel::hand_on_words). Zero when the context is made; the context's calls share
  // them in its stream's order.
  static constexpr int flag_word_count = 4096;
  unsigned long long* numbered_flag_words() { return zeroed_counters_ + zeroed_counter_count; }
  void counters_cleared() { counters_dirty_ = false; }
  // A zero device word for a partition pass's last-block ticket (kernel/split_repair.cuh), which
  // leaves it at zero; apart from the zeroed counters above, so taking those never touches it.
  unsigned long long* split_repair_ticket() { return zeroed_counters_ + zeroed_counter_count + flag_word_count; }

  // Scratch memory for count elements, stream-ordered; reuses blocks the pool already holds.
  // Inside a stream capture the allocation becomes a graph node that the graph owns.
  template <class T>
  temp_buffer<T> allocate(index_t count) {
    void* p = nullptr;
    if (count > 0)
      MERGEPATH_CUDA_CHECK(cudaMallocFromPoolAsync(&p, static_cast<std::size_t>(count) * sizeof(T), pool_, stream_));
    return temp_buffer<T>(static_cast<T*>(p), stream_);
  }

 private:
  void init() {
    MERGEPATH_CUDA_CHECK(cudaGetDeviceProperties(&props_, device_));
    int clusters = 0;
    MERGEPATH_CUDA_CHECK(cudaDeviceGetAttribute(&clusters, cudaDevAttrClusterLaunch, device_));
    launches_clusters_ = clusters != 0;
    cudaMemPoolProps pool_props{};
    pool_props.allocType = cudaMemAllocationTypePinned;
    pool_props.location.type = cudaMemLocationTypeDevice;
    pool_props.location.id = device_;
    MERGEPATH_CUDA_CHECK(cudaMemPoolCreate(&pool_, &pool_props));
    // Keep freed blocks in the pool across synchronizations: that is what makes it a cache.
    std::uint64_t keep_all = std::numeric_limits<std::uint64_t>::max();
    MERGEPATH_CUDA_CHECK(cudaMemPoolSetAttribute(pool_, cudaMemPoolAttrReleaseThreshold, &keep_all));
    // The zeroed counters and the numbered flags, allocated here: a stream capture refuses cudaMalloc.
    constexpr std::size_t word_bytes = (zeroed_counter_count + flag_word_count + 1) * sizeof(unsigned long long);
    MERGEPATH_CUDA_CHECK(cudaMalloc(&zeroed_counters_, word_bytes));
    MERGEPATH_CUDA_CHECK(cudaMemsetAsync(zeroed_counters_, 0, word_bytes, stream_));
    counters_dirty_ = false;
  }

  void destroy() noexcept {
    if (pool_) {
      (void)cudaStreamSynchronize(stream_);  // outstanding temp blocks go back to the pool first
      (void)cudaMemPoolDestroy(pool_);
      pool_ = nullptr;
    }
    if (zeroed_counters_) (void)cudaFree(zeroed_counters_);
    zeroed_counters_ = nullptr;
    if (result_words_.host) (void)cudaFreeHost(result_words_.host);
    result_words_ = {};
    if (owns_stream_ && stream_) (void)cudaStreamDestroy(stream_);
    stream_ = nullptr;
  }

  int device_ = 0;
  bool launches_clusters_ = false;
  cudaStream_t stream_ = nullptr;
  bool owns_stream_ = false;
  bool checked_ = false;
  cudaDeviceProp props_{};
  cudaMemPool_t pool_ = nullptr;
  mapped_words result_words_{};
  std::uint64_t result_sequence_ = 0;
  unsigned long long* zeroed_counters_ = nullptr;
  bool counters_dirty_ = true;
};

#else

inline namespace without_cuda {
// Built without CUDA: the GPU backend does not exist.
inline bool cuda_available() { return false; }
}  // namespace without_cuda

#endif

}  // namespace mergepath
