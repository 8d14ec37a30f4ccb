// segmented_sort and locality_sort on a host_context. The CPU sorts segment by segment: threads
// take contiguous chunks of the array and sort every segment that starts in their chunk (short ones
// by insertion, the rest by serial_mergesort); segments too long for one thread are sorted after,
// each by the parallel mergesort. No merge passes, so there is no early exit to report: stats
// come back empty. locality_sort is the host mergesort, whose merges copy runs already in order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <vector>

#include "../context.hpp"
#include "../error.hpp"
#include "../segsort_stats.hpp"
#include "../thread/segment_heads.hpp"
#include "mergesort.hpp"
#include "parallel.hpp"

namespace mergepath {
namespace host {

// Segments up to this long are sorted by insertion: below it a merge sort's setup costs more.
constexpr index_t insertion_sort_items = 24;

// Checked mode: throws std::invalid_argument naming the first malformed head index.
template <class HeadsIt>
void check_heads(const host_context& ctx, const char* algorithm, HeadsIt heads, index_t num_heads, index_t count) {
  if (!ctx.checked()) return;
  if (index_t i = first_position_where(ctx, num_heads, bad_segment_head<HeadsIt>{heads, count}); i >= 0)
    detail::throw_bad_head(algorithm, i, static_cast<long long>(heads[i]),
                           i > 0 ? static_cast<long long>(heads[i - 1]) : 0, count);
}

// The head bitfield of a list of head indices. Indices out of [0, count) are dropped, and order
// and repeats do not matter: the heads are the set of in-range indices given.
template <class HeadsIt>
std::vector<std::uint32_t> head_flags_from_indices(HeadsIt heads, index_t num_heads, index_t count) {
  std::vector<std::uint32_t> flags(static_cast<std::size_t>(head_flag_words(count)), 0u);
  for (index_t i = 0; i < num_heads; ++i) {
    auto h = static_cast<long long>(heads[i]);
    if (h >= 0 && h < count) flags[static_cast<std::size_t>(h / 32)] |= 1u << (h % 32);
  }
  return flags;
}

// The first head after position i (i itself excluded), or count.
inline index_t next_head(const std::uint32_t* flags, index_t count, index_t i) {
  index_t j = i + 1;
  if (j >= count) return count;
  index_t word = j / 32;
  std::uint32_t bits = flags[word] & (~0u << (j % 32));
  const index_t words = head_flag_words(count);
  while (bits == 0) {
    if (++word >= words) return count;
    bits = flags[word];
  }
  int bit = 0;
  while (!((bits >> bit) & 1u)) ++bit;
  return std::min(word * 32 + bit, count);
}

// Stable insertion sort of data[0, count).
template <class Data, class Comp>
void insertion_sort(Data data, index_t count, Comp comp) {
  for (index_t i = 1; i < count; ++i) {
    auto key = data.keys[i];
    index_t j = i;
    if constexpr (Data::has_values) {
      auto value = data.vals[i];
      for (; j > 0 && comp(key, data.keys[j - 1]); --j) {
        data.keys[j] = data.keys[j - 1];
        data.vals[j] = data.vals[j - 1];
      }
      data.vals[j] = value;
    } else {
      for (; j > 0 && comp(key, data.keys[j - 1]); --j) data.keys[j] = data.keys[j - 1];
    }
    data.keys[j] = key;
  }
}

// Sorts each segment of keys (and vals) that flags mark, the long ones by the parallel mergesort.
template <class Keys, class Vals, class Comp>
void sort_segments(const host_context& ctx, Keys keys, Vals vals, index_t count, const std::uint32_t* flags, Comp comp,
                   segsort_stats* stats) {
  if (stats) *stats = {};
  if (count < 2) return;
  const auto data = make_sort_data(keys, vals);
  // A segment longer than a thread's fair share of the work waits for the parallel mergesort.
  const index_t long_segment = std::max<index_t>(index_t{1} << 15, count / (2 * ctx.num_threads()));
  // Many more chunks than threads, so that one crowded chunk does not hold the rest up.
  const index_t chunks = std::max<index_t>(1, std::min<index_t>(8 * ctx.num_threads(), count / 4096));
  std::vector<std::vector<std::pair<index_t, index_t>>> long_segments(static_cast<std::size_t>(chunks));

  parallel_for(ctx, chunks, [&](index_t c) {
    const index_t chunk_begin = count * c / chunks, chunk_end = count * (c + 1) / chunks;
    // The segment under chunk_begin belongs to the chunk where it starts.
    index_t begin = chunk_begin == 0 || is_head(flags, chunk_begin) ? chunk_begin : next_head(flags, count, chunk_begin);
    std::vector<typename std::iterator_traits<Keys>::value_type> key_scratch;
    scratch_for<Vals> value_scratch(0);
    while (begin < chunk_end) {
      index_t end = next_head(flags, count, begin);
      index_t length = end - begin;
      if (length > long_segment) {
        long_segments[static_cast<std::size_t>(c)].emplace_back(begin, end);
      } else if (length <= insertion_sort_items) {
        insertion_sort(data.at(begin), length, comp);
      } else {
        if (static_cast<index_t>(key_scratch.size()) < length) {
          key_scratch.resize(static_cast<std::size_t>(length));
          value_scratch = scratch_for<Vals>(length);
        }
        serial_mergesort(data.at(begin), make_sort_data(key_scratch.data(), value_scratch.get()), length, comp);
      }
      begin = end;
    }
  });
  for (const auto& chunk : long_segments)
    for (auto [begin, end] : chunk) {
      auto at = data.at(begin);
      sort_keys_and_values(ctx, at.keys, at.vals, end - begin, comp);
    }
}

template <class Keys, class Vals, class HeadsIt, class Comp>
void sort_segments_at_heads(const host_context& ctx, Keys keys, Vals vals, index_t count, HeadsIt heads,
                            index_t num_heads, Comp comp, segsort_stats* stats) {
  const auto flags = head_flags_from_indices(heads, num_heads, count);
  sort_segments(ctx, keys, vals, count, flags.data(), comp, stats);
}

// The calls of segmented_sort.hpp on a host_context, arguments already checked (Policy: unused).
// The CPU leaves stats empty.
template <class Policy, class KeysIt, class HeadsIt, class Comp>
void segmented_sort(host_context& ctx, KeysIt keys, index_t count, HeadsIt heads, index_t num_heads, Comp comp,
                    segsort_stats* stats) {
  sort_segments_at_heads(ctx, keys, detail::no_thread_values{}, count, heads, num_heads, comp, stats);
}

template <class Policy, class KeysIt, class ValsIt, class HeadsIt, class Comp>
void segmented_sort_pairs(host_context& ctx, KeysIt keys, ValsIt vals, index_t count, HeadsIt heads, index_t num_heads,
                          Comp comp, segsort_stats* stats) {
  sort_segments_at_heads(ctx, keys, vals, count, heads, num_heads, comp, stats);
}

template <class Policy, class KeysIt, class Comp>
void segmented_sort_flags(host_context& ctx, KeysIt keys, index_t count, const std::uint32_t* head_flags, Comp comp,
                          segsort_stats* stats) {
  sort_segments(ctx, keys, detail::no_thread_values{}, count, head_flags, comp, stats);
}

template <class Policy, class KeysIt, class ValsIt, class Comp>
void segmented_sort_pairs_flags(host_context& ctx, KeysIt keys, ValsIt vals, index_t count,
                                const std::uint32_t* head_flags, Comp comp, segsort_stats* stats) {
  sort_segments(ctx, keys, vals, count, head_flags, comp, stats);
}

template <class Policy, class KeysIt, class Comp>
void locality_sort(host_context& ctx, KeysIt keys, index_t count, Comp comp, segsort_stats* stats) {
  if (stats) *stats = {};
  sort_keys_and_values(ctx, keys, detail::no_thread_values{}, count, comp);
}

template <class Policy, class KeysIt, class ValsIt, class Comp>
void locality_sort_pairs(host_context& ctx, KeysIt keys, ValsIt vals, index_t count, Comp comp, segsort_stats* stats) {
  if (stats) *stats = {};
  sort_keys_and_values(ctx, keys, vals, count, comp);
}

}  // namespace host

namespace backend {
using host::check_heads;
using host::locality_sort;
using host::locality_sort_pairs;
using host::segmented_sort;
using host::segmented_sort_flags;
using host::segmented_sort_pairs;
using host::segmented_sort_pairs_flags;
}  // namespace backend
}  // namespace mergepath
