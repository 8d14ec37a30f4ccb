// Counts a GPU call returns to the host (a set operation's size, a join's rows): a one-thread
// kernel stores them to the context's mapped result words, and the host waits for those words
// alone, not for the work queued after them.
#pragma once

#include <cstdint>
#include <utility>

#include "../context.hpp"
#include "../error.hpp"

namespace mergepath {
namespace kernel {

// words[0] = *value, words[1] = *second (0 when second is null), then words[2] = sequence: a count the
// host waits for (cuda_context::wait_for_result_word). A template only to live in a header.
template <int = 0>
__global__ void __launch_bounds__(32)
    publish_counts_kernel(const index_t* value, const index_t* second, std::uint64_t* words, std::uint64_t sequence) {
  if (threadIdx.x != 0) return;
  words[0] = static_cast<std::uint64_t>(*value);
  words[1] = second ? static_cast<std::uint64_t>(*second) : 0;
  __threadfence_system();  // the counts reach the host before the sequence does
  *static_cast<volatile std::uint64_t*>(words + 2) = sequence;
}

}  // namespace kernel

namespace device {

constexpr int result_counts_word = 3;  // words 0 .. 2 are sorted_search's match totals
static_assert(result_counts_word + 3 <= cuda_context::mapped_word_count, "the context has the words");

// Queues the publication of *value (and *second, when not null); returns the sequence to wait for.
inline std::uint64_t publish_counts(cuda_context& ctx, const index_t* value, const index_t* second = nullptr) {
  const std::uint64_t sequence = ctx.next_result_sequence();
  detail::launch("publish_counts_kernel", kernel::publish_counts_kernel<>, 1, 32, 0, ctx.stream(), value, second,
                 ctx.result_words().device + result_counts_word, sequence);
  return sequence;
}

// Waits for publish_counts' values and returns them (second is 0 where none was published).
inline std::pair<index_t, index_t> wait_for_counts(cuda_context& ctx, std::uint64_t sequence) {
  ctx.wait_for_result_word(result_counts_word + 2, sequence);
  const std::uint64_t* words = ctx.result_words().host + result_counts_word;
  return {static_cast<index_t>(words[0]), static_cast<index_t>(words[1])};
}

}  // namespace device
}  // namespace mergepath
