// Tuning variants of mergepath::merge (--tunings): the same merge at other tile shapes, so one run
// compares them. A translation unit of its own: every shape is a kernel instantiation, and this
// file compiles in parallel with bench_merge.cu.
#include <tuple>

#include "bench_merge.cuh"

namespace bench {
namespace {

template <int BlockThreads, int ItemsPerThread, int Stages, bool Streamed = false, int ResidentThreads = 1024,
          int Probes = 3, int ChunkedMaxTiles = 0, int SampleBytes = mergepath::default_partition_sample_bytes>
struct policy {
  static constexpr mergepath::merge_tuning tuning{BlockThreads,    ItemsPerThread, Stages,          Streamed,
                                                  ResidentThreads, Probes,         ChunkedMaxTiles, SampleBytes};
};
// The default shape with the partition pass's samples at another size (0: plain binary search).
template <int BlockThreads, int ItemsPerThread, int ResidentThreads, int SampleBytes, int Probes = 1>
using sampled = policy<BlockThreads, ItemsPerThread, 1, false, ResidentThreads, Probes, 2, SampleBytes>;
// The chunked schedule (no partition pass) at a shape, at every size.
template <int BlockThreads, int ItemsPerThread, int ResidentThreads>
using chunked = policy<BlockThreads, ItemsPerThread, 1, false, ResidentThreads, 1, 1 << 30>;

// Shapes per key (or key + value) size; the library's default for the size is among them.
// Around the defaults: the shapes measured next best, the other register bounds, wider partition
// steps, two stages and the streamed schedule.
using keys4_policies =
    std::tuple<policy<256, 27, 1, false, 1536>, policy<256, 19, 1, false, 1536>, policy<256, 23, 1, false, 1024>,
               policy<256, 19, 1, false, 2048>, policy<256, 23, 1, false, 1536, 3>, policy<256, 23, 2, false, 1536>,
               policy<128, 15, 1, true>, policy<256, 23, 1, false, 1536, 1>, chunked<256, 23, 1536>,
               chunked<128, 23, 1536>, sampled<256, 23, 1536, 0>, sampled<384, 27, 1536, 0>,
               sampled<384, 27, 1536, 16384>, sampled<384, 27, 1536, 49152>, sampled<384, 27, 1536, 32768, 3>,
               sampled<384, 23, 1536, 32768>, sampled<512, 27, 1536, 32768>, sampled<768, 23, 1536, 32768>>;
using keys8_policies = std::tuple<policy<256, 11, 1, false, 1536>, policy<256, 13, 1, false, 1024>,
                                  policy<128, 11, 1, true>, policy<256, 13, 1, false, 1536, 1>, chunked<256, 13, 1536>>;
using pairs4_4_policies =
    std::tuple<policy<256, 15, 1>, policy<256, 15, 1, false, 1536>, policy<128, 19, 1>,
               policy<256, 19, 1, false, 1024, 1>, chunked<256, 19, 1024>, chunked<256, 15, 1536>,
               sampled<256, 19, 1024, 0>, sampled<512, 19, 1024, 16384>, sampled<512, 15, 1536, 16384>>;
using pairs8_4_policies =
    std::tuple<policy<256, 15, 1>, policy<128, 11, 1>, policy<256, 11, 1, false, 1024, 1>, chunked<256, 11, 1024>>;

template <class K, class Policy>
void keys_row(merge_case<K>& c) {
  using kind = typename merge_case<K>::row_kind;
  constexpr mergepath::merge_tuning t = Policy::tuning;
  index_t n = c.n;
  c.keys_row(
      "mergepath::merge_tuned " + tuning_label(t), kind::ours,
      [&](int s) { mergepath::merge<Policy>(c.b.ctx, c.a_keys(s), n, c.b_keys(s), n, c.out_keys(s)); }, t);
}

template <class K, class Policy>
void pairs_row(merge_case<K>& c) {
  using kind = typename merge_case<K>::row_kind;
  constexpr mergepath::merge_tuning t = Policy::tuning;
  index_t n = c.n;
  c.pairs_row(
      "mergepath::merge_pairs_tuned " + tuning_label(t), kind::ours,
      [&](int s) {
        mergepath::merge_pairs<Policy>(c.b.ctx, c.a_keys(s), c.a_values(s), n, c.b_keys(s), c.b_values(s), n,
                                       c.out_keys(s), c.out_values(s));
      },
      t);
}

template <class K, class... Policies>
void keys_rows(merge_case<K>& c, std::tuple<Policies...>*) {
  (keys_row<K, Policies>(c), ...);
}
template <class K, class... Policies>
void pairs_rows(merge_case<K>& c, std::tuple<Policies...>*) {
  (pairs_row<K, Policies>(c), ...);
}

}  // namespace

template <class K>
void merge_tuning_rows(merge_case<K>& c) {
  if constexpr (sizeof(K) == 4)
    keys_rows(c, static_cast<keys4_policies*>(nullptr));
  else
    keys_rows(c, static_cast<keys8_policies*>(nullptr));
}

template <class K>
void merge_pairs_tuning_rows(merge_case<K>& c) {
  if constexpr (sizeof(K) == 4)
    pairs_rows(c, static_cast<pairs4_4_policies*>(nullptr));
  else
    pairs_rows(c, static_cast<pairs8_4_policies*>(nullptr));
}

template void merge_tuning_rows<std::int32_t>(merge_case<std::int32_t>&);
template void merge_tuning_rows<std::int64_t>(merge_case<std::int64_t>&);
template void merge_pairs_tuning_rows<std::int32_t>(merge_case<std::int32_t>&);
template void merge_pairs_tuning_rows<std::int64_t>(merge_case<std::int64_t>&);

}  // namespace bench
