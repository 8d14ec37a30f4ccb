// mergesort and mergesort_pairs on a host_context. Each thread sorts one contiguous chunk: runs of
// run_items keys by a sorting network (Batcher's where equal keys are identical, else the stable
// odd-even one), then rounds of serial_merge_chained that double them, ping-ponging with a scratch
// buffer. The sorted chunks are then merged pairwise, each merge split over the threads by Merge
// Path, until one run is left.
#pragma once

#include <algorithm>
#include <iterator>
#include <memory>
#include <type_traits>
#include <vector>

#include "../context.hpp"
#include "../error.hpp"
#include "../functional.hpp"
#include "../thread/merge_path.hpp"
#include "../thread/serial_merge.hpp"
#include "../thread/sorting_network.hpp"
#include "merge.hpp"
#include "parallel.hpp"

namespace mergepath {
namespace host {

// Keys that the first step sorts in registers before the merges take over.
constexpr int mergesort_run_items = 16;

// Where a sort's data lies: keys and, for pairs, values (Vals = detail::no_thread_values for keys).
template <class Keys, class Vals>
struct sort_data {
  static constexpr bool has_values = !std::is_same_v<Vals, detail::no_thread_values>;
  Keys keys;
  Vals vals;

  sort_data at(index_t i) const {
    if constexpr (has_values)
      return {keys + i, vals + i};
    else
      return {keys + i, vals};
  }
};

template <class Keys, class Vals>
sort_data<Keys, Vals> make_sort_data(Keys keys, Vals vals) {
  return {keys, vals};
}

// A scratch array of It's element type (nothing for no_thread_values).
template <class It>
class scratch_for {
 public:
  using value_type = typename std::iterator_traits<It>::value_type;
  explicit scratch_for(index_t count) : data_(new value_type[static_cast<std::size_t>(count)]) {}
  value_type* get() const { return data_.get(); }

 private:
  std::unique_ptr<value_type[]> data_;
};
template <>
class scratch_for<detail::no_thread_values> {
 public:
  explicit scratch_for(index_t) {}
  detail::no_thread_values get() const { return {}; }
};

// dst[0, count) = src[0, count).
template <class Src, class Dst>
void copy_sort_data(Src src, Dst dst, index_t count) {
  std::copy(src.keys, src.keys + count, dst.keys);
  if constexpr (Src::has_values) std::copy(src.vals, src.vals + count, dst.vals);
}

// dst[0, a_count + b_count) = the stable merge of a[0, a_count) and b[0, b_count).
// Runs already in order (b's first key not before a's last) are copied: near-sorted input
// (locality_sort) merges at copy speed.
template <class A, class B, class Dst, class Comp>
void merge_sort_data(A a, index_t a_count, B b, index_t b_count, Dst dst, Comp comp) {
  if (a_count == 0 || b_count == 0 || !comp(b.keys[0], a.keys[a_count - 1])) {
    copy_sort_data(a, dst, a_count);
    copy_sort_data(b, dst.at(a_count), b_count);
    return;
  }
  if constexpr (A::has_values)
    serial_merge_pairs_chained(a.keys, a.vals, a_count, b.keys, b.vals, b_count, dst.keys, dst.vals, comp);
  else
    serial_merge_chained(a.keys, a_count, b.keys, b_count, dst.keys, comp);
}

// Sorts src[0, count) into dst[0, count) in runs of up to mergesort_run_items (src may be dst).
template <class Src, class Dst, class Comp>
void sort_runs(Src src, Dst dst, index_t count, Comp comp) {
  using Key = typename std::iterator_traits<decltype(src.keys)>::value_type;
  constexpr int run = mergesort_run_items;
  for (index_t begin = 0; begin < count; begin += run) {
    int valid = static_cast<int>(std::min<index_t>(run, count - begin));
    Key keys[run];
    std::copy(src.keys + begin, src.keys + begin + valid, keys);
    if constexpr (Src::has_values) {
      using Val = typename std::iterator_traits<decltype(src.vals)>::value_type;
      Val vals[run];
      std::copy(src.vals + begin, src.vals + begin + valid, vals);
      sort_network(keys, vals, valid, comp);
      std::copy(vals, vals + valid, dst.vals + begin);
    } else if constexpr (equal_keys_are_identical<Key, Comp>::value) {
      sort_network_unstable(keys, valid, comp);  // nobody can tell equal keys apart: Batcher's network
    } else {
      sort_network(keys, valid, comp);
    }
    std::copy(keys, keys + valid, dst.keys + begin);
  }
}

// One thread sorts data[0, count), with scratch[0, count) as its buffer; the result lands in data.
template <class Data, class Scratch, class Comp>
void serial_mergesort(Data data, Scratch scratch, index_t count, Comp comp) {
  index_t runs = detail::ceil_div<index_t>(count, mergesort_run_items);
  int rounds = 0;
  while ((index_t{1} << rounds) < runs) ++rounds;
  // Rounds ping-pong between the two buffers, so start in the one that makes the last land in data.
  bool in_scratch = rounds % 2 == 1;
  if (in_scratch)
    sort_runs(data, scratch, count, comp);
  else
    sort_runs(data, data, count, comp);
  for (index_t width = mergesort_run_items; width < count; width *= 2, in_scratch = !in_scratch) {
    auto merge_round = [&](auto src, auto dst) {
      for (index_t a0 = 0; a0 < count; a0 += 2 * width) {
        index_t b0 = std::min(a0 + width, count);
        index_t b1 = std::min(b0 + width, count);
        merge_sort_data(src.at(a0), b0 - a0, src.at(b0), b1 - b0, dst.at(a0), comp);
      }
    };
    if (in_scratch)
      merge_round(scratch, data);
    else
      merge_round(data, scratch);
  }
}

// Merges neighbouring sorted runs of src pairwise into dst, every merge split over the threads by
// Merge Path. bounds[r] is where run r starts (bounds.back() == count); returns the new bounds.
template <class Src, class Dst, class Comp>
std::vector<index_t> merge_run_pairs(const host_context& ctx, Src src, Dst dst, const std::vector<index_t>& bounds,
                                     Comp comp) {
  const index_t runs = static_cast<index_t>(bounds.size()) - 1;
  const index_t pairs = detail::ceil_div<index_t>(runs, 2);
  const index_t parts_per_pair = detail::ceil_div<index_t>(ctx.num_threads(), pairs);
  struct merge_pair {
    index_t a0, b0, a_count, b_count;
  };
  auto pair_at = [&](index_t pair) {
    const index_t a0 = bounds[2 * pair];
    const index_t b0 = bounds[std::min(2 * pair + 1, runs)];
    return merge_pair{a0, b0, b0 - a0, bounds[std::min(2 * pair + 2, runs)] - b0};
  };
  // Pair p's part k takes a[split[p][k], split[p][k + 1]): every pair's splits searched at once.
  const index_t splits_per_pair = parts_per_pair + 1;
  std::vector<index_t> split(static_cast<std::size_t>(pairs * splits_per_pair));
  parallel_for(ctx, pairs * splits_per_pair, [&](index_t job) {
    const merge_pair p = pair_at(job / splits_per_pair);
    split[static_cast<std::size_t>(job)] =
        merge_path(src.keys + p.a0, p.a_count, src.keys + p.b0, p.b_count,
                   chunk_diagonal(p.a_count + p.b_count, job % splits_per_pair, parts_per_pair), comp);
  });
  for (index_t pair = 0; pair < pairs; ++pair) {
    const merge_pair p = pair_at(pair);
    clamp_chunk_splits(split.data() + pair * splits_per_pair, p.a_count + p.b_count, parts_per_pair);
  }
  parallel_for(ctx, pairs * parts_per_pair, [&](index_t job) {
    const index_t pair = job / parts_per_pair, part = job % parts_per_pair;
    const merge_pair p = pair_at(pair);
    const index_t total = p.a_count + p.b_count;
    const index_t diag0 = chunk_diagonal(total, part, parts_per_pair);
    const index_t diag1 = chunk_diagonal(total, part + 1, parts_per_pair);
    const index_t i0 = split[static_cast<std::size_t>(pair * splits_per_pair + part)];
    const index_t i1 = split[static_cast<std::size_t>(pair * splits_per_pair + part + 1)];
    merge_sort_data(src.at(p.a0 + i0), i1 - i0, src.at(p.b0 + diag0 - i0), (diag1 - i1) - (diag0 - i0),
                    dst.at(p.a0 + diag0), comp);
  });
  std::vector<index_t> merged;
  for (index_t r = 0; r < runs; r += 2) merged.push_back(bounds[r]);
  merged.push_back(bounds.back());
  return merged;
}

template <class Keys, class Vals, class Comp>
void sort_keys_and_values(const host_context& ctx, Keys keys, Vals vals, index_t count, Comp comp) {
  if (count < 2) return;
  const auto data = make_sort_data(keys, vals);
  // Scratch as large as the input, in plain arrays whatever the caller's iterators are.
  scratch_for<Keys> key_scratch(count);
  scratch_for<Vals> value_scratch(count);
  const auto buffer = make_sort_data(key_scratch.get(), value_scratch.get());

  index_t chunks = chunk_count(ctx, count);
  std::vector<index_t> bounds(static_cast<std::size_t>(chunks) + 1);
  for (index_t c = 0; c <= chunks; ++c) bounds[static_cast<std::size_t>(c)] = count * c / chunks;
  parallel_for(ctx, chunks, [&](index_t c) {
    index_t begin = bounds[static_cast<std::size_t>(c)], end = bounds[static_cast<std::size_t>(c) + 1];
    serial_mergesort(data.at(begin), buffer.at(begin), end - begin, comp);
  });

  bool in_buffer = false;
  while (bounds.size() > 2) {
    bounds = in_buffer ? merge_run_pairs(ctx, buffer, data, bounds, comp) : merge_run_pairs(ctx, data, buffer, bounds, comp);
    in_buffer = !in_buffer;
  }
  if (in_buffer) {
    parallel_for(ctx, chunks, [&](index_t c) {
      index_t begin = count * c / chunks, end = count * (c + 1) / chunks;
      copy_sort_data(buffer.at(begin), data.at(begin), end - begin);
    });
  }
}

// The calls of mergesort.hpp on a host_context, arguments already checked (Policy: unused).
template <class Policy, class KeysIt, class Comp>
void mergesort(host_context& ctx, KeysIt keys, index_t count, Comp comp) {
  sort_keys_and_values(ctx, keys, detail::no_thread_values{}, count, comp);
}

template <class Policy, class KeysIt, class ValsIt, class Comp>
void mergesort_pairs(host_context& ctx, KeysIt keys, ValsIt vals, index_t count, Comp comp) {
  sort_keys_and_values(ctx, keys, vals, count, comp);
}

}  // namespace host

namespace backend {
using host::mergesort;
using host::mergesort_pairs;
}  // namespace backend
}  // namespace mergepath
