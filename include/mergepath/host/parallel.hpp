// The host backend's only threading primitive: run f(0..count) over the context's threads.
#pragma once

#include <algorithm>
#include <cstdint>
#include <exception>
#include <mutex>
#include <type_traits>
#include <vector>

#include "../context.hpp"
#include "../error.hpp"
#include "../thread/preconditions.hpp"

namespace mergepath {
namespace host {

// Calls f(i) for every i in [0, count), spread statically over up to ctx.num_threads()
// OpenMP threads. The first exception thrown by any f is rethrown here.
template <class F>
void parallel_for(const host_context& ctx, std::int64_t count, F f) {
#if defined(_OPENMP)
  int threads = static_cast<int>(std::min<std::int64_t>(ctx.num_threads(), count));
  // No team for one thread or none (num_threads(0) is not allowed, and took a team of the default size).
  if (threads <= 1) {
    for (std::int64_t i = 0; i < count; ++i) f(i);
    return;
  }
  std::exception_ptr error;
  std::mutex error_mutex;
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t i = 0; i < count; ++i) {
    try {
      f(i);
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
    }
  }
  if (error) std::rethrow_exception(error);
#else
  (void)ctx;
  for (std::int64_t i = 0; i < count; ++i) f(i);
#endif
}

// Splits work of `total` items into chunks for the context's threads; small work stays on one
// thread, where starting threads would cost more than it saves.
inline std::int64_t chunk_count(const host_context& ctx, std::int64_t total) {
  constexpr std::int64_t min_items_per_chunk = 1 << 15;
  std::int64_t by_size = std::max<std::int64_t>(1, total / min_items_per_chunk);
  return std::min<std::int64_t>(ctx.num_threads(), by_size);
}

// out[0, count) = in[0, count), in chunks over the context's threads (nothing to do where out is
// in itself).
template <class InIt, class OutIt>
void parallel_copy(const host_context& ctx, InIt in, std::int64_t count, OutIt out) {
  if constexpr (std::is_pointer_v<InIt> && std::is_pointer_v<OutIt>) {
    if (static_cast<const void*>(in) == static_cast<const void*>(out)) return;
  }
  const std::int64_t chunks = chunk_count(ctx, count);
  parallel_for(ctx, chunks, [&](std::int64_t c) {
    const std::int64_t begin = count * c / chunks, end = count * (c + 1) / chunks;
    std::copy(in + begin, in + end, out + begin);
  });
}

// The least i in [0, count) with bad(i), or -1: checked mode's search for the first position that
// breaks a precondition (thread/preconditions.hpp), in parallel chunks.
template <class Bad>
std::int64_t first_position_where(const host_context& ctx, std::int64_t count, Bad bad) {
  const std::int64_t chunks = chunk_count(ctx, count);
  std::vector<std::int64_t> first(static_cast<std::size_t>(chunks), -1);
  parallel_for(ctx, chunks, [&](std::int64_t c) {
    for (std::int64_t i = count * c / chunks, end = count * (c + 1) / chunks; i < end; ++i)
      if (bad(i)) {
        first[static_cast<std::size_t>(c)] = i;
        return;
      }
  });
  for (std::int64_t f : first)
    if (f >= 0) return f;
  return -1;
}

// Position of the first element of x[0, count) ordered before its predecessor, or -1 when sorted.
template <class It, class Comp>
std::int64_t first_unsorted(const host_context& ctx, It x, std::int64_t count, Comp comp) {
  return first_position_where(ctx, count, ordered_before_predecessor<It, Comp>{x, comp});
}

// Checked mode's test of one input that must be sorted by comp: throws naming its first
// position out of order.
template <class It, class Comp>
void check_sorted(const host_context& ctx, const char* algorithm, const char* name, It x, std::int64_t count,
                  Comp comp) {
  if (!ctx.checked()) return;
  if (std::int64_t i = first_unsorted(ctx, x, count, comp); i >= 0) detail::throw_unsorted(algorithm, name, i);
}

}  // namespace host

namespace backend {
using host::check_sorted;
}  // namespace backend
}  // namespace mergepath
