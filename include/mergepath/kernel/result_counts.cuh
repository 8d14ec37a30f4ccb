// The kernel side of the counts a GPU call returns to the host (device/result_counts.cuh): a
// kernel that knows a count stores it to the context's mapped result words itself
// (store_counts), or publish_counts_kernel copies it there from device memory.
#pragma once

#include <cstdint>

#include "../detail/config.hpp"

namespace mergepath {
namespace kernel {

// Where a kernel publishes counts for the host: the context's mapped result words and the
// sequence the host waits for (device::reserve_counts).
struct count_words {
  std::uint64_t* words;
  std::uint64_t sequence;
};

// words[0] = value, words[1] = second, then words[2] = sequence: the host reads the counts once
// it sees the sequence. One thread calls it.
__device__ inline void store_counts(const count_words& to, index_t value, index_t second) {
  to.words[0] = static_cast<std::uint64_t>(value);
  to.words[1] = static_cast<std::uint64_t>(second);
  __threadfence_system();  // the counts reach the host before the sequence does
  *static_cast<volatile std::uint64_t*>(to.words + 2) = to.sequence;
}

// store_counts of *value and *second (0 when second is null), for counts that live in device
// memory. A template only to live in a header.
template <int = 0>
__global__ void __launch_bounds__(32)
    publish_counts_kernel(const index_t* value, const index_t* second, count_words to) {
  if (threadIdx.x == 0) store_counts(to, *value, second ? *second : 0);
}

}  // namespace kernel
}  // namespace mergepath
