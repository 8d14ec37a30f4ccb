// Loading runs into shared memory with the copy engine (cp.async.bulk, sm_90): one thread hands
// it a run's 16-byte-aligned middle as one copy, which completes on an mbarrier. A block then
// spends a few instructions a run, where cp.async per thread spent a loop of them in every warp
// (the four-way merge tile's loads were a third of its instructions).
#pragma once

#include <cstdint>

#include "../detail/config.hpp"
#include "tile_io.cuh"

namespace mergepath {
namespace block {

// A block's load of several runs into shared memory, all landing together: every thread
// constructs it and calls copy() for each run and then finish(); once the block may go on only
// with the runs in place, every thread calls wait(), which includes a __syncthreads(). A loader
// serves one load after another (the barrier's phase alternates). `barrier` is 8 bytes of
// shared memory, 8-aligned, that nothing else uses.
//
// Where the copy engine can move a run (sm_90; a raw pointer to elements of 4, 8 or 16 bytes,
// whose shared position agrees with its global address modulo 16 bytes: aligned_position),
// thread 0 hands it the run's whole 16-byte pieces; the ragged ends, and runs it cannot move,
// go by cp.async (copy_run_to_shared).
class shared_run_loader {
 public:
  __device__ explicit shared_run_loader(std::uint64_t* barrier) : barrier_(barrier) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    if (threadIdx.x == 0) {
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(shared_address(barrier_)) : "memory");
      // The copy engine signals the barrier: its initialization must be visible to it.
      asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
#endif
  }

  // buffer[pos, pos + count) = src[0, count), count <= MaxCount.
  template <int BlockThreads, int MaxCount, class T, class It>
  __device__ void copy(It src, int count, T* buffer, int pos) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    constexpr int v = vector_items<T, It>;
    if constexpr (v > 1) {
      const T* from = src;
      if ((reinterpret_cast<std::uintptr_t>(from) - reinterpret_cast<std::uintptr_t>(buffer + pos)) % 16 == 0) {
        const piece_span span = piece_span::of<v>(pos, count);
        if (threadIdx.x == 0 && span.vectors > 0) bulk_copy(buffer + pos + span.head, from + span.head, span.vectors * 16);
        copy_span_ends_to_shared(from, count, buffer, pos, span, [](int i) { return i; });
        return;
      }
    }
#endif
    copy_run_to_shared<BlockThreads, MaxCount>(src, count, buffer, pos);
  }

  // After this load's last copy.
  __device__ void finish() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    if (threadIdx.x == 0) asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(shared_address(barrier_)) : "memory");
#endif
    commit_copies();
  }

  // Every thread: the load has landed and is visible to the block.
  __device__ void wait() {
    wait_for_copies<0>();
    __syncthreads();
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    const std::uint32_t address = shared_address(barrier_);
    std::uint32_t done = 0;
    while (!done) {
      asm volatile(
          "{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
          : "=r"(done)
          : "r"(address), "r"(phase_)
          : "memory");
    }
    phase_ ^= 1;
    first_load_ = false;
#endif
  }

 private:
  __device__ static std::uint32_t shared_address(const void* p) {
    return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
  }

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  // bytes (a multiple of 16) from 16-byte aligned `from` to 16-byte aligned shared `to`.
  __device__ void bulk_copy(void* to, const void* from, int bytes) const {
    const std::uint32_t address = shared_address(barrier_);
    // Whatever the block read from shared memory in an earlier load's wake (ordinary loads)
    // comes before the engine's writes.
    if (!first_load_) asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(address), "r"(bytes) : "memory");
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
            shared_address(to)),
        "l"(from), "r"(bytes), "r"(address)
        : "memory");
  }
#endif

  std::uint64_t* barrier_;
  std::uint32_t phase_ = 0;
  bool first_load_ = true;
};

}  // namespace block
}  // namespace mergepath
