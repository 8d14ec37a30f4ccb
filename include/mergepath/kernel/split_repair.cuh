// Monotone splits from a partition pass, whatever the comparator. The pass searches each tile's
// Merge Path split on its own; under a comparator that is not a strict weak order (<=, !=,
// less<> over NaNs) neighbouring splits need not be monotone, and tiles would then overlap and
// leave gaps. The pass's last block checks the splits and, where a pair is out of order,
// projects them onto monotone ones:
//   s''[p] = min(M[p], s''[p - 1] + (diag[p] - diag[p - 1])),  M[p] = max(s[first], .., s[p]),
// which keeps both shares non-decreasing, each split within its bounds, and changes nothing in
// monotone splits. Sorted input under a strict weak order never takes the repair.
#pragma once

#include "../detail/config.hpp"

namespace mergepath {
namespace kernel {

// Where split p lies: its output diagonal, and whether it starts a merge of its own (the
// diagonals of several merges share one array, mergesort's pairs), where it is 0.
struct split_position {
  index_t diag;
  bool starts_merge;
};

// Called by every thread of every block of the partition grid after the block's splits are
// stored (blocks with none call it too). The last block to get here checks splits[0, n)
// (positions from at(p)) and repairs them; ticket is a zero word, left at zero.
template <class At>
__device__ void repair_splits_when_last(index_t* splits, index_t n, At at, unsigned long long* ticket) {
  __shared__ bool last;
  __threadfence();  // this block's splits are visible before its ticket is taken
  __syncthreads();
  if (threadIdx.x == 0) last = atomicAdd(ticket, 1ull) == gridDim.x - 1;
  __syncthreads();
  if (!last) return;
  __threadfence();
  bool out_of_order = false;
  for (index_t p = threadIdx.x + 1; p < n; p += blockDim.x) {
    const split_position here = at(p);
    if (here.starts_merge) continue;
    const index_t s0 = __ldcg(splits + p - 1), s1 = __ldcg(splits + p);
    out_of_order |= s1 < s0 || s1 - s0 > here.diag - at(p - 1).diag;
  }
  if (__syncthreads_or(out_of_order) && threadIdx.x == 0) {
    index_t running_max = 0, repaired = 0, diag = 0;
    for (index_t p = 0; p < n; ++p) {
      const split_position here = at(p);
      const index_t s = __ldcg(splits + p);
      if (p == 0 || here.starts_merge) {
        running_max = repaired = s;
      } else {
        running_max = detail::max_of(running_max, s);
        repaired = detail::min_of(running_max, repaired + (here.diag - diag));
      }
      diag = here.diag;
      splits[p] = repaired;
    }
  }
  if (threadIdx.x == 0) *ticket = 0;  // every block has taken its ticket
}

}  // namespace kernel
}  // namespace mergepath
