// Tuning variants of mergepath::mergesort (--tunings): the same sort of int32 keys at other
// blocksort tiles, the merge passes at the default tuning, so one run compares them. A translation
// unit of its own: every tile is a kernel instantiation, and this file compiles in parallel with
// bench_mergesort.cu.
#include <tuple>

#include "bench_mergesort.cuh"

namespace bench {
namespace {

// The blocksort's {threads, items per thread, min resident threads}; the merge passes (two- and
// four-way) as the default.
template <int BlockThreads, int ItemsPerThread, int ResidentThreads = 1024>
struct sort_policy {
  static constexpr mergepath::mergesort_tuning tuning = [] {
    mergepath::mergesort_tuning t = mergepath::mergesort_tuning_for(90, sizeof(std::int32_t), 0);
    t.blocksort = {BlockThreads, ItemsPerThread, ResidentThreads};
    return t;
  }();
};

// Around the default ({512,33,1024}, among them): smaller tiles (one merge pass more at some
// sizes) and a larger one (one block per SM).
using keys4_policies = std::tuple<sort_policy<256, 15>, sort_policy<512, 15>, sort_policy<256, 31>,
                                  sort_policy<512, 31>, sort_policy<512, 33>, sort_policy<1024, 31>>;

template <class Policy>
void keys_row(sort_case<std::int32_t>& c) {
  using kind = sort_case<std::int32_t>::row_kind;
  using lands = sort_case<std::int32_t>::lands;
  constexpr mergepath::mergesort_tuning t = Policy::tuning;
  c.keys_row(
      "mergepath::mergesort_tuned " + sort_tuning_label(t), kind::ours, lands::in_place,
      [&](int s) { mergepath::mergesort_tuned<Policy>(c.b.ctx, c.keys(s), c.n); }, t);
}

template <class... Policies>
void keys_rows(sort_case<std::int32_t>& c, std::tuple<Policies...>*) {
  (keys_row<Policies>(c), ...);
}

}  // namespace

void mergesort_tuning_rows(sort_case<std::int32_t>& c) { keys_rows(c, static_cast<keys4_policies*>(nullptr)); }

}  // namespace bench
