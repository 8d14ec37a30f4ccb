// group_multiway_split: multiway_split (thread/multiway_split.hpp) run by K lanes of a warp
// together, lane s holding sequence s, for searches through global memory.
#pragma once

#include <cstring>
#include <type_traits>

#include "../detail/config.hpp"
#include "warp_reduce.cuh"

namespace mergepath {
namespace block {

// __shfl_xor_sync for any trivially copyable T, a 32-bit word at a time.
template <class T>
__device__ T shuffle_xor(const T& value, int lane_mask, unsigned lanes) {
  static_assert(std::is_trivially_copyable_v<T>, "shuffled values must be trivially copyable");
  constexpr int words = (sizeof(T) + 3) / 4;
  unsigned bits[words] = {};
  std::memcpy(bits, &value, sizeof(T));
  MERGEPATH_UNROLL
  for (int w = 0; w < words; ++w) bits[w] = __shfl_xor_sync(lanes, bits[w], lane_mask);
  T out;
  std::memcpy(&out, bits, sizeof(T));
  return out;
}

// Varman et al.'s level-by-level selection (thread/multiway_split.hpp says how) with the K
// sequences spread over K consecutive lanes (K a power of two, at most 32, groups aligned to K),
// 32 / K selections per warp: each lane keeps its own sequence's edge, and the comparisons among
// the sequences are shuffles. A level costs one read per lane, all in flight together, plus a few
// shuffle rounds. The search is bound by the latency of its chain of dependent instructions, not
// by memory, and that chain is much shorter than one thread's doing all K sequences. The whole
// warp runs every level and every move together (a group with fewer moves idles through the
// others'), so that its groups never diverge: diverged, they took turns
// (docs/design/merge-and-mergesort.md#what-was-tried).
template <int K, class It, class Index, class Comp>
class group_multiway_selection {
  static_assert(K >= 1 && K <= 32 && (K & (K - 1)) == 0, "K lanes: a power of two up to a warp");
  using value_type = std::remove_cv_t<std::remove_reference_t<decltype(*std::declval<It>())>>;

 public:
  // Lane s of each group holds sequence s (seq, count); a group with no selection to make passes
  // count 0.
  __device__ group_multiway_selection(It seq, Index count, Comp comp)
      : seq_(seq), count_(count), comp_(comp), lane_(static_cast<int>(threadIdx.x % 32) % K) {}

  // How many of this lane's sequence are among the first `rank` elements of the stable merge of
  // the group's sequences (rank in [0, sum of the counts], the same on the group's lanes). All 32
  // lanes of the warp call it together. On unsorted input: unspecified, but in [0, count],
  // summing to rank, and reading only inside the sequences.
  __device__ Index split(Index rank) const {
    // Every group starts at the warp's coarsest level: a block past a sequence's end is padding.
    const Index longest = reduce<32>(count_, [](Index x, Index y) { return detail::max_of(x, y); });
    const Index total = reduce<K>(count_, [](Index x, Index y) { return x + y; });
    const bool everything = rank >= total;  // (and the case of all sequences empty)
    if (everything) rank = 0;
    int shift = 0;  // block size 2^shift
    while ((Index{1} << shift) < longest) ++shift;
    edge e;
    e.taken = 0;
    e.before = e.last = e.after = value_type{};
    e.next = read((Index{1} << shift) - 1);
    e.before_known = e.after_known = false;
    settle(e, shift, rank >> shift, 0);
    while (shift > 0) {
      // The largest kept representative: everything kept at the finer level is no greater. It
      // never keeps its new representative, and is the likely one to leave: its lane reads the
      // representative before its last along with the new one.
      const candidate largest = best(last_of(e, shift), true);
      --shift;
      const int largest_seq = seq_of(largest);
      const Index at = ((2 * e.taken + 1) << shift) - 1;
      const candidate fresh{lane_ + (at >= count_ ? padding : 0), read(at)};
      const value_type guess = lane_ == largest_seq ? read(((2 * e.taken - 1) << shift) - 1) : fresh.value;
      if (largest_seq >= 0 && largest_seq != lane_ && !before(largest, fresh)) {
        e.taken = 2 * e.taken + 1;
        e.before = e.last, e.before_known = true;
        e.last = fresh.value;
        e.after_known = false;
      } else {
        e.taken = 2 * e.taken;
        e.after = e.next, e.after_known = true;
        e.next = fresh.value;
        e.before = guess, e.before_known = lane_ == largest_seq;
      }
      // Too many kept: the largest leaves first, and its lane knows the value before it.
      const Index want = rank >> shift;
      Index kept = reduce<K>(e.taken, [](Index x, Index y) { return x + y; });
      if (kept > want) {  // then largest_seq >= 0: something was kept
        if (lane_ == largest_seq) {
          --e.taken;
          e.after = e.next, e.after_known = true;
          e.next = e.last;
          e.last = e.before, e.before_known = false;
        }
        --kept;
      }
      settle(e, shift, want, kept);
    }
    if (everything) return count_;
    // Sorted input keeps only elements at the finest level; unsorted input may keep padding,
    // which goes back to the sequences with elements to spare, lowest lane first.
    Index split = detail::min_of(e.taken, count_);
    const Index deficit = rank - reduce<K>(split, [](Index x, Index y) { return x + y; });
    const Index spare = count_ - split;
    Index spare_through = spare;  // over the lanes up to this one
    MERGEPATH_UNROLL
    for (int offset = 1; offset < K; offset *= 2) {
      const Index up = __shfl_up_sync(~0u, spare_through, offset, K);
      if (lane_ >= offset) spare_through += up;
    }
    const Index spare_before = spare_through - spare;
    return split + detail::max_of<Index>(0, detail::min_of(deficit - spare_before, spare));
  }

 private:
  // This lane's edge of the kept prefix at block size 2^shift: `taken` representatives kept; the
  // values of the last kept (position taken * block - 1), the first dropped (next), and of their
  // outer neighbours where known. Padding's values are never read.
  struct edge {
    Index taken;
    value_type before, last, next, after;
    bool before_known, after_known;
  };
  // A representative in the padded order: tag -1 for none, else its sequence, plus `padding`
  // when it lies past the sequence's end (one word, so that a shuffle moves it).
  static constexpr int padding = 64;
  struct candidate {
    int tag;
    value_type value;
  };

  // x before y, for representatives of different sequences: padding after every element and
  // among itself by sequence; equal elements by sequence. Both comparisons are made and combined
  // without branches (padding's values are value_type{}, never read, so comp may see them): the
  // short-circuit form compiled to a tree of branches that was most of the search's instructions.
  __device__ bool before(const candidate& x, const candidate& y) const {
    const bool less = comp_(x.value, y.value), greater = comp_(y.value, x.value);
    const bool x_pad = (x.tag & padding) != 0, y_pad = (y.tag & padding) != 0;
    const bool by_tag = x.tag < y.tag;
    const bool elements = less | (!greater & by_tag);
    const bool pads = (x_pad & y_pad) ? by_tag : y_pad;
    return (x_pad | y_pad) ? pads : elements;
  }

  __device__ candidate last_of(const edge& e, int shift) const {
    return {e.taken > 0 ? lane_ + ((e.taken << shift) > count_ ? padding : 0) : -1, e.last};
  }
  __device__ candidate next_of(const edge& e, int shift) const {
    return {lane_ + (((e.taken + 1) << shift) > count_ ? padding : 0), e.next};
  }
  __device__ static int seq_of(const candidate& c) { return c.tag < 0 ? -1 : c.tag & (padding - 1); }

  // The group's largest (or smallest) candidate, on every lane; candidates with tag -1 lose.
  __device__ candidate best(candidate c, bool largest) const {
    MERGEPATH_UNROLL
    for (int offset = 1; offset < K; offset *= 2) {
      const int other_tag = __shfl_xor_sync(~0u, c.tag, offset);
      const value_type other_value = shuffle_xor(c.value, offset, ~0u);
      // The two come from different sequences, so one is before the other.
      const bool c_first = before(c, candidate{other_tag, other_value});
      const bool take = (other_tag >= 0) & ((c.tag < 0) | (largest == c_first));
      c.tag = take ? other_tag : c.tag;
      c.value = take ? other_value : c.value;
    }
    return c;
  }

  // f over the Lanes-lane group of this lane (K: its selection's, 32: the warp), on every lane.
  template <int Lanes, class T, class F>
  __device__ T reduce(T x, F f) const {
    MERGEPATH_UNROLL
    for (int offset = 1; offset < Lanes; offset *= 2) x = f(x, __shfl_xor_sync(~0u, x, offset));
    return x;
  }

  // Moves the edge of the kept prefix until `want` are kept: the smallest dropped representative
  // joins, or the largest kept one leaves, one at a time, as many rounds as the warp's group
  // with the most moves needs. One search serves both directions, so that groups joining and
  // groups leaving do not diverge.
  __device__ void settle(edge& e, int shift, Index want, Index kept) const {
    const bool join = kept < want;
    const int moves = static_cast<int>(join ? want - kept : kept - want);
    const int rounds = warp_max(moves);
    for (int round = 0; round < rounds; ++round) {
      // Joining: the smallest first dropped. Leaving: the largest last kept (kept > want >= 0,
      // so some lane has one).
      const candidate c = best(join ? next_of(e, shift) : last_of(e, shift), !join);
      if (round >= moves || seq_of(c) != lane_) continue;
      if (join) {
        const value_type after = e.after_known ? e.after : read(((e.taken + 3) << shift) - 1);
        ++e.taken;
        e.before = e.last, e.before_known = true;
        e.last = e.next;
        e.next = after, e.after_known = false;
      } else {
        const value_type before = e.before_known ? e.before : read(((e.taken - 1) << shift) - 1);
        --e.taken;
        e.after = e.next, e.after_known = true;
        e.next = e.last;
        e.last = before, e.before_known = false;
      }
    }
  }

  // Element `at` of this lane's sequence; padding and positions before the start are not read.
  __device__ value_type read(Index at) const { return at >= 0 && at < count_ ? seq_[at] : value_type{}; }

  It seq_;
  Index count_;
  Comp comp_;
  int lane_;  // this lane's sequence
};

}  // namespace block
}  // namespace mergepath
