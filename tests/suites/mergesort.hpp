// mergesort, sort and their pairs and copying forms, written once over both backends
// (test_host_mergesort.cpp, test_gpu_mergesort.cu and test_gpu_sort.cu instantiate it): against
// std::stable_sort over key types, comparators, sizes and distributions; stability of pairs;
// argument errors; sort_copy onto its input.
#pragma once

#include <gtest/gtest.h>

#include <mergepath/mergepath.hpp>
#include <mergepath/tuning/mergesort.hpp>
#include <mergepath/tuning/sort.hpp>
#include <type_traits>
#include <utility>
#include <vector>

#include "../backends.hpp"

namespace mergepath_test {

// Keys: 4-byte signed and unsigned in both orders, wider and floating, and point keys, tied on x
// with different y under point_x_less so that keys-only stability shows in the output. Pairs: 8-,
// 16- and 12-byte, three default GPU tunings; their values record each key's origin (value i = i),
// so of equal keys the output's values must ascend, as std::stable_sort leaves them.
using mergesort_cases =
    ::testing::Types<keys_case<std::int32_t, mergepath::less<>>, keys_case<std::int32_t, mergepath::greater<>>,
                     keys_case<std::uint32_t, mergepath::less<>>, keys_case<std::uint32_t, mergepath::greater<>>,
                     keys_case<std::int64_t, mergepath::greater<>>, keys_case<float, mergepath::less<>>,
                     keys_case<double, mergepath::greater<>>, keys_case<point, point_less>,
                     keys_case<point, point_x_less>, pairs_case<std::int32_t, std::int32_t, mergepath::less<>>,
                     pairs_case<std::uint32_t, std::int32_t, mergepath::greater<>>,
                     pairs_case<std::int64_t, std::int64_t, mergepath::greater<>>,
                     pairs_case<float, std::uint32_t, mergepath::less<>>,
                     pairs_case<point, std::int32_t, point_x_less>>;

// ---------------------------------------------------------------------------------------------
// Sizes

// Sizes on the edges of a GPU sort with this tuning: the host's sizes; a merge tile and a
// four-way tile either side; then 2^k blocksort tiles either side for k = 0 .. max_doublings (one
// more tile makes one more merge pass, odd and even pass counts alternate which buffer the
// blocksort writes), three tiles (a last pair with no second run), five to seven tiles (a last
// group of four-way runs with one to three runs), and a tile plus a merge tile (a pair whose
// output ends in a partial merge tile); the cluster sort's edges.
inline std::vector<index_t> gpu_sort_sizes(const mergepath::mergesort_tuning& tuning, int max_doublings) {
  const index_t sort_tile = tuning.blocksort.tile_items();
  const index_t merge_tile = tuning.merge.tile_items();
  std::vector<index_t> sizes = sort_sizes();
  for (index_t edge : {merge_tile, 3 * sort_tile, 5 * sort_tile, 6 * sort_tile, 7 * sort_tile, sort_tile + merge_tile})
    sizes.insert(sizes.end(), {edge - 1, edge, edge + 1});
  if (tuning.four_way.enabled()) {
    const index_t four_way_tile = tuning.four_way.tile_items();
    for (index_t edge : {four_way_tile, 2 * sort_tile + four_way_tile, 4 * sort_tile + four_way_tile})
      sizes.insert(sizes.end(), {edge - 1, edge, edge + 1});
  }
  for (int k = 0; k <= max_doublings; ++k) {
    index_t edge = sort_tile << k;
    sizes.insert(sizes.end(), {edge - 1, edge, edge + 1});
  }
  // Each cluster sort (the small sorts' and the others'): 2^k of its tiles either side (one more
  // tile doubles the cluster, or, past the largest cluster, adds a merge pass), three clusters, and
  // its last size either side.
  for (const mergepath::cluster_sort_tuning& cluster : {tuning.small_cluster_sort, tuning.cluster_sort}) {
    if (!cluster.enabled()) continue;
    const index_t cluster_tile = cluster.tile_items();
    for (index_t tiles = 1; tiles <= 2 * cluster.max_cluster_blocks; tiles *= 2)
      sizes.insert(sizes.end(), {tiles * cluster_tile - 1, tiles * cluster_tile, tiles * cluster_tile + 1});
    const index_t three = 3 * cluster.max_cluster_blocks * cluster_tile;
    sizes.insert(sizes.end(), {three - 1, three + 1});
    // (The defaults' last size, 2^22, is GpuMergesortFourWay's, for int32 keys and pairs.)
    if (cluster.max_count <= index_t{1} << 20) sizes.insert(sizes.end(), {cluster.max_count, cluster.max_count + 1});
  }
  return sorted_unique_capped(sizes);
}

// A case's value type: void for keys_case.
template <class Case, class = void>
struct value_of_case {
  using type = void;
};
template <class Case>
struct value_of_case<Case, std::void_t<typename Case::value>> {
  using type = typename Case::value;
};
template <class Case>
constexpr bool sorts_pairs = !std::is_void_v<typename value_of_case<Case>::type>;

// mergesort's sizes. On the host sort_sizes up to 2^18 + 7: from 2^18 keys on, every context (up
// to 8 threads) sorts a chunk per thread and merges them in rounds; larger sizes only lengthen the
// chunks. On a GPU sort_sizes and the edges of the default tuning for the case's types up to 2^5
// blocksort tiles (6 merge passes).
template <class Param>
std::vector<index_t> mergesort_suite_sizes() {
  if constexpr (std::is_same_v<typename Param::backend, host_backend>) {
    return sort_sizes((1 << 18) + 7);
  } else {
    using Value = typename value_of_case<Param>::type;
    return gpu_sort_sizes(mergepath::default_mergesort_policy<typename Param::key, Value>::tuning, 5);
  }
}

// Edges beyond this (4-byte keys reach radix at 2^23) get a GPU test of their own, uniform keys
// only (RadixEdgeOfFourByteKeys), not the sweep of every distribution.
constexpr index_t sweep_edge_max = index_t{1} << 21;

// sort's sizes: on the host, whose sort is its mergesort, a few; on a GPU sort_sizes and either
// side of the radix path's edges for the case's types.
template <class Param>
std::vector<index_t> sort_suite_sizes() {
  if constexpr (std::is_same_v<typename Param::backend, host_backend>) {
    return sorted_unique_capped({0, 1, 1009, 100003});
  } else {
    constexpr mergepath::sort_tuning t =
        mergepath::default_sort_policy<typename Param::key, typename value_of_case<Param>::type>::tuning;
    std::vector<index_t> sizes = sort_sizes();
    if constexpr (t.radix_min_count <= sweep_edge_max) {
      constexpr index_t edge = t.radix_min_count;
      sizes.insert(sizes.end(), {edge - 1, edge, edge + 1, 4 * edge + 3});
    }
    for (index_t small : {t.radix_max_small_count, t.radix_max_small_copy_count})
      if (small > 0) sizes.insert(sizes.end(), {small - 1, small, small + 1});
    return sorted_unique_capped(sizes);
  }
}

// check(ctx, keys, expected) on each of the backend's contexts for every size times every
// distribution, with the case's keys and comparator; expected is std::stable_sort's keys, or for
// pairs its keys and their origins, computed once per case.
template <class Param, class Check>
void sort_sweep(const std::vector<index_t>& sizes, Check check) {
  using Key = typename Param::key;
  using Value = typename value_of_case<Param>::type;
  using Comp = typename Param::comp;
  const auto contexts = Param::backend::contexts();
  for (const sort_case& c : sort_cases(sizes)) {
    SCOPED_TRACE(c.name());
    const std::vector<Key> keys = make_sort_keys<Key>(c);
    const auto expected = [&] {
      if constexpr (sorts_pairs<Param>)
        return std_stable_sort_pairs<Key, Value>(keys, Comp{});
      else
        return std_stable_sort(keys, Comp{});
    }();
    ASSERT_NO_FATAL_FAILURE(on_each(contexts, [&](auto& ctx) { check(ctx, keys, expected); }));
  }
}

// ---------------------------------------------------------------------------------------------
// The suites

template <class Param>
class Mergesort : public backend_suite<Param> {};
TYPED_TEST_SUITE_P(Mergesort);

TYPED_TEST_P(Mergesort, MatchesStdStableSort) {
  using Comp = typename TypeParam::comp;
  sort_sweep<TypeParam>(mergesort_suite_sizes<TypeParam>(), [](auto& ctx, const auto& keys, const auto& expected) {
    if constexpr (sorts_pairs<TypeParam>)
      check_sort_pairs_against(ctx, keys, expected, [](auto& ctx, auto k, auto v, index_t n) {
        mergepath::mergesort_pairs(ctx, k, v, n, Comp{});
      });
    else
      check_sort_against(ctx, keys, expected,
                         [](auto& ctx, auto k, index_t n) { mergepath::mergesort(ctx, k, n, Comp{}); });
  });
}

REGISTER_TYPED_TEST_SUITE_P(Mergesort, MatchesStdStableSort);

// sort, sort_pairs and their copying forms: the radix path and the merge path on a GPU, the merge
// sort on the host.
template <class Param>
class Sort : public backend_suite<Param> {};
TYPED_TEST_SUITE_P(Sort);

TYPED_TEST_P(Sort, MatchesStdStableSort) {
  using Comp = typename TypeParam::comp;
  sort_sweep<TypeParam>(sort_suite_sizes<TypeParam>(), [](auto& ctx, const auto& keys, const auto& expected) {
    if constexpr (sorts_pairs<TypeParam>) {
      ASSERT_NO_FATAL_FAILURE(check_sort_pairs_against(ctx, keys, expected, [](auto& ctx, auto k, auto v, index_t n) {
        mergepath::sort_pairs(ctx, k, v, n, Comp{});
      }));
      ASSERT_NO_FATAL_FAILURE(check_sort_pairs_copy_against(
          ctx, keys, expected, [](auto& ctx, auto k, auto v, index_t n, auto k_out, auto v_out) {
            mergepath::sort_pairs_copy(ctx, k, v, n, k_out, v_out, Comp{});
          }));
    } else {
      ASSERT_NO_FATAL_FAILURE(check_sort_against(
          ctx, keys, expected, [](auto& ctx, auto k, index_t n) { mergepath::sort(ctx, k, n, Comp{}); }));
      ASSERT_NO_FATAL_FAILURE(check_sort_copy_against(ctx, keys, expected, [](auto& ctx, auto in, index_t n, auto out) {
        mergepath::sort_copy(ctx, in, n, out, Comp{});
      }));
    }
  });
}

REGISTER_TYPED_TEST_SUITE_P(Sort, MatchesStdStableSort);

// ---------------------------------------------------------------------------------------------
// The calls' contracts: bad arguments throw std::invalid_argument, naming the call and the
// argument, before anything is written; null pointers with zero counts are fine.

template <class Param>
class SortCalls : public backend_suite<Param> {};
TYPED_TEST_SUITE_P(SortCalls);

TYPED_TEST_P(SortCalls, BadArgumentsThrowBeforeWriting) {
  using Backend = typename TypeParam::backend;
  typename Backend::context ctx;
  const std::vector<int> unsorted{3, 1, 2};
  typename Backend::template buffer<int> keys(unsorted), vals(unsorted);
  int* const k = keys.data();
  int* const v = vals.data();
  int* const null = nullptr;
  expect_invalid_argument([&] { mergepath::mergesort(ctx, k, -1); }, "mergepath::mergesort: keys count is negative");
  expect_invalid_argument([&] { mergepath::mergesort(ctx, k, -5, mergepath::greater<>{}); },
                          "mergepath::mergesort: keys count is negative");
  expect_invalid_argument([&] { mergepath::mergesort(ctx, null, 3); }, "mergepath::mergesort: keys is a null pointer");
  expect_invalid_argument([&] { mergepath::mergesort_pairs(ctx, k, v, -1); },
                          "mergepath::mergesort_pairs: keys count is negative");
  expect_invalid_argument([&] { mergepath::mergesort_pairs(ctx, null, v, 3); },
                          "mergepath::mergesort_pairs: keys is a null pointer");
  expect_invalid_argument([&] { mergepath::mergesort_pairs(ctx, k, null, 3); },
                          "mergepath::mergesort_pairs: vals is a null pointer");
  expect_invalid_argument([&] { mergepath::sort(ctx, k, -1); }, "mergepath::sort: keys count is negative");
  expect_invalid_argument([&] { mergepath::sort(ctx, null, 3); }, "mergepath::sort: keys is a null pointer");
  expect_invalid_argument([&] { mergepath::sort_pairs(ctx, k, null, 3); },
                          "mergepath::sort_pairs: vals is a null pointer");
  expect_invalid_argument([&] { mergepath::sort_copy(ctx, k, -2, k); },
                          "mergepath::sort_copy: keys_in count is negative");
  expect_invalid_argument([&] { mergepath::sort_copy(ctx, k, 3, null); },
                          "mergepath::sort_copy: keys_out is a null pointer");
  expect_invalid_argument([&] { mergepath::sort_pairs_copy(ctx, k, v, 3, k, null); },
                          "mergepath::sort_pairs_copy: vals_out is a null pointer");
  Backend::finish(ctx);
  EXPECT_EQ(keys.download(), unsorted);
  EXPECT_EQ(vals.download(), unsorted);
}

TYPED_TEST_P(SortCalls, NullPointersWithZeroCountsAreFine) {
  using Backend = typename TypeParam::backend;
  typename Backend::context ctx;
  int* const null = nullptr;
  EXPECT_NO_THROW(mergepath::mergesort(ctx, null, 0));
  EXPECT_NO_THROW(mergepath::mergesort_pairs(ctx, null, null, 0));
  EXPECT_NO_THROW(mergepath::sort(ctx, null, 0));
  EXPECT_NO_THROW(mergepath::sort_pairs(ctx, null, null, 0));
  EXPECT_NO_THROW(mergepath::sort_copy(ctx, null, 0, null));
  EXPECT_NO_THROW(mergepath::sort_pairs_copy(ctx, null, null, 0, null, null));
  EXPECT_NO_THROW(Backend::finish(ctx));
}

// sort_copy with the output equal to the input sorts in place.
TYPED_TEST_P(SortCalls, CopyOntoItselfSortsInPlace) {
  const auto contexts = TypeParam::backend::contexts();
  const auto onto_itself = [](auto& ctx, auto keys, index_t n) { mergepath::sort_copy(ctx, keys, n, keys); };
  for (index_t n : sorted_unique_capped({0, 1, 1000, 1009, 5000, 100003, 300001})) {
    SCOPED_TRACE(::testing::Message() << "count " << n << " (MERGEPATH_TEST_SEED=" << base_seed() << ")");
    const std::vector<int> ints = make_sort_keys<int>({n, distribution::uniform, case_seed({n, 0, 31})});
    const std::vector<float> floats = make_sort_keys<float>({n, distribution::few_distinct, case_seed({n, 4, 31})});
    const std::vector<int> sorted_ints = std_stable_sort(ints, mergepath::less<>{});
    const std::vector<float> sorted_floats = std_stable_sort(floats, mergepath::less<>{});
    ASSERT_NO_FATAL_FAILURE(on_each(contexts, [&](auto& ctx) {
      ASSERT_NO_FATAL_FAILURE(check_sort_against(ctx, ints, sorted_ints, onto_itself));
      ASSERT_NO_FATAL_FAILURE(check_sort_against(ctx, floats, sorted_floats, onto_itself));
    }));
  }
}

REGISTER_TYPED_TEST_SUITE_P(SortCalls, BadArgumentsThrowBeforeWriting, NullPointersWithZeroCountsAreFine,
                            CopyOntoItselfSortsInPlace);

}  // namespace mergepath_test
