// Counts a GPU call returns to the host (a set operation's size, a join's rows): the kernel that
// knows them, or a one-thread kernel after it, stores them to the context's mapped result words,
// and the host waits for those words alone, not for the work queued after them.
#pragma once

#include <cstdint>
#include <utility>

#include "../context.hpp"
#include "../detail/launch.cuh"
#include "../error.hpp"
#include "../kernel/result_counts.cuh"

namespace mergepath {
namespace device {

constexpr int result_counts_word = 3;  // words 0 .. 2 are sorted_search's match totals
static_assert(result_counts_word + 3 <= cuda_context::mapped_word_count, "the context has the words");

// The words and a fresh sequence for a kernel that publishes its counts itself (store_counts);
// wait for them with wait_for_counts(ctx, words.sequence).
inline kernel::count_words reserve_counts(cuda_context& ctx) {
  return {ctx.result_words().device + result_counts_word, ctx.next_result_sequence()};
}

// Queues the publication of *value (and *second, when not null); returns the sequence to wait for.
inline std::uint64_t publish_counts(cuda_context& ctx, const index_t* value, const index_t* second = nullptr) {
  const kernel::count_words to = reserve_counts(ctx);
  detail::launch("publish_counts_kernel", kernel::publish_counts_kernel<>, 1, 32, 0, ctx.stream(), value, second, to);
  return to.sequence;
}

// Waits for the counts published with this sequence and returns them (second is 0 where none
// was published).
inline std::pair<index_t, index_t> wait_for_counts(cuda_context& ctx, std::uint64_t sequence) {
  ctx.wait_for_result_word(result_counts_word + 2, sequence);
  const std::uint64_t* words = ctx.result_words().host + result_counts_word;
  return {static_cast<index_t>(words[0]), static_cast<index_t>(words[1])};
}

}  // namespace device
}  // namespace mergepath
