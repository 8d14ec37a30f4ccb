// The set operations on a host_context: the walk (thread/set_operations.hpp) is cut at set_path's
// points into a few walks per thread, stepped together; one pass counts what each walk keeps, a
// scan places them, a second pass writes each walk's output straight to its place.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "../context.hpp"
#include "../detail/backend.hpp"
#include "../error.hpp"
#include "../functional.hpp"
#include "../thread/set_operations.hpp"
#include "merge.hpp"
#include "parallel.hpp"

namespace mergepath {
namespace host {

// Walks a thread steps together, so that a core overlaps their waits; eight gained nothing over
// four (docs/design/join-and-set-operations.md#tuning).
constexpr int set_walks_per_thread = 4;

template <set_op Op, class AKeys, class AVals, class BKeys, class BVals, class OutKeys, class OutVals, class Comp>
index_t set_operation(const host_context& ctx, AKeys a_keys, AVals a_vals, index_t a_count, BKeys b_keys, BVals b_vals,
                      index_t b_count, OutKeys out_keys, OutVals out_vals, Comp comp) {
  constexpr int walks_per_thread = set_walks_per_thread;
  const index_t total = a_count + b_count;
  const index_t threads = chunk_count(ctx, total);
  const index_t walk_count = threads * walks_per_thread;
  std::vector<set_split<index_t>> splits(static_cast<std::size_t>(walk_count) + 1);
  parallel_for(ctx, threads, [&](index_t t) {  // thread t finds its walks' first points; the last, the end too
    for (index_t w = t * walks_per_thread, end = w + walks_per_thread + (t + 1 == threads); w < end; ++w)
      splits[static_cast<std::size_t>(w)] = set_path(a_keys, a_count, b_keys, b_count, total * w / walk_count, comp);
  });
  for (std::size_t w = 1; w < splits.size(); ++w) {  // monotone whatever the data (walks never overlap)
    splits[w].a = std::max(splits[w].a, splits[w - 1].a);
    splits[w].b = std::max(splits[w].b, splits[w - 1].b);
  }
  struct thread_walks {
    set_walk<index_t> walk[walks_per_thread];
  };
  std::vector<thread_walks> walks(static_cast<std::size_t>(threads));
  for (index_t w = 0; w < walk_count; ++w) {
    const set_split<index_t> s0 = splits[static_cast<std::size_t>(w)], s1 = splits[static_cast<std::size_t>(w) + 1];
    walks[static_cast<std::size_t>(w / walks_per_thread)].walk[w % walks_per_thread] = {s0.a, s1.a, s0.b, s1.b, 0, 0};
  }
  parallel_for(ctx, threads,
               [&](index_t t) { count_set_walks<Op>(a_keys, b_keys, walks[static_cast<std::size_t>(t)].walk, comp); });
  index_t offset = 0;
  for (thread_walks& group : walks)
    for (set_walk<index_t>& w : group.walk) {  // out_end - out: what the walk keeps
      const index_t kept = w.out_end - w.out;
      w.out = offset;
      w.out_end = offset += kept;
    }
  parallel_for(ctx, threads, [&](index_t t) {
    write_set_walks<Op>(a_keys, a_vals, b_keys, b_vals, out_keys, out_vals, walks[static_cast<std::size_t>(t)].walk,
                        comp);
  });
  return offset;
}

}  // namespace host

namespace backend {
using host::set_operation;
}  // namespace backend
}  // namespace mergepath
