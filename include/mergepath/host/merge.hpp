// merge and merge_pairs on a host_context: Merge Path splits the output evenly over the
// threads, and each thread runs serial_merge on its share.
#pragma once

#include <cstddef>
#include <vector>

#include "../context.hpp"
#include "../detail/backend.hpp"
#include "../error.hpp"
#include "../functional.hpp"
#include "../thread/merge_path.hpp"
#include "../thread/serial_merge.hpp"
#include "parallel.hpp"

namespace mergepath {
namespace host {

template <class AIt, class BIt, class Comp>
void check_merge_inputs(const host_context& ctx, const char* algorithm, AIt a, index_t a_count, BIt b, index_t b_count,
                        Comp comp) {
  check_sorted(ctx, algorithm, "a", a, a_count, comp);
  check_sorted(ctx, algorithm, "b", b, b_count, comp);
}

// Diagonal c of a path of `total` steps cut into `chunks` equal chunks.
inline index_t chunk_diagonal(index_t total, index_t c, index_t chunks) { return total * c / chunks; }

// Clamps split[1, chunks], found at the chunk diagonals, in order (clamp_next_split), so that
// chunk c's ranges are valid and it ends exactly where chunk c + 1 begins, whatever the data or
// the comparator: chunks that clamped only their own ends overlapped or left gaps.
inline void clamp_chunk_splits(index_t* split, index_t total, index_t chunks) {
  for (index_t c = 1; c <= chunks; ++c)
    split[c] = clamp_next_split(split[c - 1], split[c], chunk_diagonal(total, c - 1, chunks),
                                chunk_diagonal(total, c, chunks));
}

// split[c] = split_at(diagonal c) for c in [0, chunks] (the inner ones searched in parallel),
// then clamped in order (clamp_chunk_splits): chunk c takes a[split[c], split[c + 1]) and the b
// between.
template <class SplitAt>
std::vector<index_t> chunk_splits(const host_context& ctx, index_t total, index_t chunks, SplitAt split_at) {
  std::vector<index_t> split(static_cast<std::size_t>(chunks) + 1);
  split.front() = split_at(index_t{0});
  split.back() = split_at(total);
  if (chunks > 1)
    parallel_for(ctx, chunks - 1, [&](index_t c) {
      split[static_cast<std::size_t>(c) + 1] = split_at(chunk_diagonal(total, c + 1, chunks));
    });
  clamp_chunk_splits(split.data(), total, chunks);
  return split;
}

// Calls merge_chunk(c, a_begin, a_end, b_begin, b_end, out_begin) for each chunk c of
// chunk_count(ctx, a_count + b_count), in parallel: spans of the Merge Path whose ties go as
// Bounds says, which together take every element once, whatever the data.
template <bounds Bounds = bounds::lower, class AIt, class BIt, class Comp, class MergeChunk>
void for_each_merge_chunk(const host_context& ctx, AIt a, index_t a_count, BIt b, index_t b_count, Comp comp,
                          MergeChunk merge_chunk) {
  const index_t total = a_count + b_count;
  const index_t chunks = chunk_count(ctx, total);
  const std::vector<index_t> split = chunk_splits(
      ctx, total, chunks, [&](index_t diag) { return merge_path<Bounds>(a, a_count, b, b_count, diag, comp); });
  parallel_for(ctx, chunks, [&](index_t c) {
    const index_t diag0 = chunk_diagonal(total, c, chunks), diag1 = chunk_diagonal(total, c + 1, chunks);
    const index_t a0 = split[static_cast<std::size_t>(c)], a1 = split[static_cast<std::size_t>(c) + 1];
    merge_chunk(c, a0, a1, diag0 - a0, diag1 - a1, diag0);
  });
}

// The calls of merge.hpp on a host_context, arguments already checked (Policy: a GPU tuning, unused).
template <class Policy, class AIt, class BIt, class OutIt, class Comp>
void merge(host_context& ctx, AIt a, index_t a_count, BIt b, index_t b_count, OutIt out, Comp comp) {
  for_each_merge_chunk(ctx, a, a_count, b, b_count, comp,
                       [&](index_t, index_t a0, index_t a1, index_t b0, index_t b1, index_t out0) {
                         serial_merge_chained(a + a0, a1 - a0, b + b0, b1 - b0, out + out0, comp);
                       });
}

template <class Policy, class AKeys, class AVals, class BKeys, class BVals, class OutKeys, class OutVals, class Comp>
void merge_pairs(host_context& ctx, AKeys a_keys, AVals a_vals, index_t a_count, BKeys b_keys, BVals b_vals,
                 index_t b_count, OutKeys out_keys, OutVals out_vals, Comp comp) {
  for_each_merge_chunk(ctx, a_keys, a_count, b_keys, b_count, comp,
                       [&](index_t, index_t a0, index_t a1, index_t b0, index_t b1, index_t out0) {
                         serial_merge_pairs_chained(a_keys + a0, a_vals + a0, a1 - a0, b_keys + b0, b_vals + b0,
                                                    b1 - b0, out_keys + out0, out_vals + out0, comp);
                       });
}

}  // namespace host

namespace backend {
using host::check_merge_inputs;
using host::merge;
using host::merge_pairs;
}  // namespace backend
}  // namespace mergepath
