// sorted_search and sorted_equality_count on a cuda_context: the suites of
// suites/sorted_search.hpp, and what only the GPU backend has (tunings and both schedules, every
// kind at many waves of tiles, the searches of few needles in a long b, long runs of equal keys
// across tiles, output alignments and staging, device iterators, unsorted input under
// compute-sanitizer).
#include <gtest/gtest.h>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <array>
#include <functional>
#include <mergepath/mergepath.hpp>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "gpu_util.cuh"
#include "suites/sorted_search.hpp"

namespace mergepath_test {
namespace {

INSTANTIATE_TYPED_TEST_SUITE_P(Gpu, SortedSearch, on_gpu<sweep_cases<false>>);
INSTANTIATE_TYPED_TEST_SUITE_P(Gpu, SortedSearchOutputs, on_gpu<>);
INSTANTIATE_TYPED_TEST_SUITE_P(Gpu, SortedSearchCalls, on_gpu<>);

using gpu_search = search_buffers<mergepath::cuda_context, int>;

// ---------------------------------------------------------------------------------------------
// Tunings: each schedule at tile sizes small enough that the sweep's sizes span many tiles.

// Always the partition pass (self_partition_waves 0), 192-step tiles; plain bounds of a into a b
// 12 times longer or more by b's tiles of 1 KB (a sweep's needles pile past a tile's worth).
struct partition_pass_policy {
  static constexpr mergepath::sorted_search_tuning tuning = [] {
    mergepath::sorted_search_tuning t{64, 3, 1024, 0};
    t.b_tile_min_l2_percent = 0;
    t.b_tile_threads = 64;
    t.b_tile_bytes = 1024;
    return t;
  }();
};
// Never the partition pass: every block finds its own splits, 320-step tiles, 576-step ones from
// 641 keys in all (large_items_per_thread: the sweep's {2 tiles, 1} and {1, 2 tiles} take them,
// {tile, tile} does not). The Merge Path for every shape short of the needle search (no tiles of b).
struct self_partition_policy {
  static constexpr mergepath::sorted_search_tuning tuning = [] {
    mergepath::sorted_search_tuning t{64, 5, 1024, 1 << 30};
    t.b_tile_ratio = 0;
    t.large_items_per_thread = 9;
    t.large_min_total = 2 * 64 * 5 + 1;
    return t;
  }();
};
// The widest thread (32 steps: every bit of the decision word), an even count, three warps.
struct wide_thread_policy {
  static constexpr mergepath::sorted_search_tuning tuning = [] {
    mergepath::sorted_search_tuning t{96, 32, 1024, 0};
    t.b_tile_ratio = 0;
    return t;
  }();
};

// ---------------------------------------------------------------------------------------------
// Every kind at 2^20 + 3 keys (int32), many waves of tiles: the shared sweep stops at 65537.

class GpuSortedSearch : public gpu_test {};

TEST_F(GpuSortedSearch, EveryKindAtManyWaves) {
  mergepath::cuda_context ctx;
  const mergepath::less<> comp{};
  for_each_search_case<int, mergepath::cuda_context>(
      search_shapes({(1 << 20) + 3}), comp, [&](const gpu_search& in, const search_oracle& expect) {
        ASSERT_NO_FATAL_FAILURE(check_every_kind(ctx, in, expect, comp));
        ASSERT_NO_FATAL_FAILURE(check_short_search<bounds::lower>(ctx, in, expect, comp));
        ASSERT_NO_FATAL_FAILURE(check_short_search<bounds::upper>(ctx, in, expect, comp));
      });
}

template <class Case>
class GpuSortedSearchKeys : public gpu_test {};
TYPED_TEST_SUITE(GpuSortedSearchKeys, sweep_cases<false>);

// Plain bounds of a into b (lower bounds as 64-bit, upper bounds as 32-bit) for every distribution
// of these shapes; with short_search, the short form's upper bounds too.
template <class Policy, class Key, class Comp>
void check_plain_bounds(const std::vector<shape>& shapes, Comp comp, bool short_search) {
  mergepath::cuda_context ctx;
  for_each_search_case<Key, mergepath::cuda_context>(shapes, comp, [&](const auto& in, const search_oracle& expect) {
    ASSERT_NO_FATAL_FAILURE(
        (check_tuned_search<Policy, bounds::lower, search::index, search::none>(ctx, in, expect, comp)));
    ASSERT_NO_FATAL_FAILURE(
        (check_tuned_search<Policy, bounds::upper, search::index, search::none, std::int32_t>(ctx, in, expect, comp)));
    if (short_search) ASSERT_NO_FATAL_FAILURE(check_short_search<bounds::upper>(ctx, in, expect, comp));
  });
}

template <class Key>
struct as_if_beyond_l2 {
  static constexpr mergepath::sorted_search_tuning tuning = [] {
    mergepath::sorted_search_tuning t = mergepath::default_sorted_search_policy<Key>::tuning;
    t.needle_sample_min_l2_percent = 0;
    t.b_tile_min_l2_percent = 0;
    return t;
  }();
};

// A few needles in a long b (b_count at least needle_search_ratio times a_count) are searched one
// at a time, through samples of b (below needle_sample_max_ratio) or from all of b: shapes either
// side of both ratios, b short (every key a sample) and long (windows between samples, the last
// one ragged); 64- and 32-bit bounds; the default tuning (b in L2: no samples) and the tuning as
// if b were beyond L2 at any size (samples below needle_sample_max_ratio, from it the search of
// all of b that spares L1).
TYPED_TEST(GpuSortedSearchKeys, FewNeedlesInALongHaystack) {
  using Key = typename TypeParam::key;
  using Policy = as_if_beyond_l2<Key>;
  typename TypeParam::comp comp;
  constexpr mergepath::sorted_search_tuning tuning = Policy::tuning;
  constexpr index_t ratio = tuning.needle_search_ratio, sample_ratio = tuning.needle_sample_max_ratio;
  static_assert(ratio > 0 && sample_ratio > ratio, "the default tuning searches few needles one at a time");
  std::vector<shape> shapes;
  for (index_t b : {ratio, index_t{1000}, index_t{65537}, index_t{(1 << 20) + 3}})
    for (index_t a : {b / ratio - 1, b / ratio, b / ratio + 1, b / sample_ratio - 1, b / sample_ratio,
                      b / sample_ratio + 1, b / 4096, index_t{1}})
      if (a > 0) shapes.push_back({a, b});
  ASSERT_NO_FATAL_FAILURE((check_plain_bounds<Policy, Key>(shapes, comp, true)));
  ASSERT_NO_FATAL_FAILURE((check_plain_bounds<mergepath::default_tuning, Key>(shapes, comp, true)));
}

// Needles in a b 12 to 31 times longer are searched by fixed tiles of b (b_tile_search_kernel):
// shapes either side of both ratios, b's length at a tile's edges and across many tiles; with
// equal keys (all_equal, few_distinct) the needles of one tile outnumber its keys and the rest
// go to the overflow kernel (one bound for a pile of equal needles), and most tiles hold no needle;
// 64- and 32-bit bounds, lower and upper.
TYPED_TEST(GpuSortedSearchKeys, NeedlesByTilesOfALongHaystack) {
  using Key = typename TypeParam::key;
  using Policy = as_if_beyond_l2<Key>;
  typename TypeParam::comp comp;
  constexpr mergepath::sorted_search_tuning tuning = Policy::tuning;
  constexpr index_t ratio = tuning.b_tile_ratio, tile = tuning.b_tile_bytes / static_cast<int>(sizeof(Key));
  static_assert(ratio > 0 && ratio < tuning.needle_search_ratio, "the default tuning searches by b's tiles");
  std::vector<shape> shapes;
  for (index_t b : {tile - 1, tile, tile + 1, 5 * tile + 3, index_t{200003}})
    for (index_t a : {b / ratio - 1, b / ratio, b / ratio + 1, b / 40, b / tuning.needle_search_ratio + 1})
      if (a > 0) shapes.push_back({a, b});
  ASSERT_NO_FATAL_FAILURE((check_plain_bounds<Policy, Key>(shapes, comp, false)));
  // The default tuning at these sizes (b too short for its tiles): one needle at a time.
  ASSERT_NO_FATAL_FAILURE((check_plain_bounds<mergepath::default_tuning, Key>(shapes, comp, false)));
}

// b's tiles of 256 keys, 32 threads: the overflow kernel reads its list 32 ranges at a time.
struct small_b_tiles_policy {
  static constexpr mergepath::sorted_search_tuning tuning = [] {
    mergepath::sorted_search_tuning t = mergepath::default_sorted_search_policy<int>::tuning;
    t.b_tile_min_l2_percent = 0;
    t.b_tile_threads = 32;
    t.b_tile_bytes = 1024;
    return t;
  }();
};

// Needles piled into a few of b's tiles, more than a tile's worth each: distinct needles in a
// sixteenth of b's range (~64 listed ranges, each searched needle by needle), all equal (one
// bound a range), three values, a band with duplicates; b of 2^18 keys, 1:16.
class GpuSortedSearchPiles : public gpu_test {};

TEST_F(GpuSortedSearchPiles, NeedlesPiledIntoFewTiles) {
  mergepath::cuda_context ctx;
  std::mt19937 rng(20261127);
  const index_t nb = index_t{1} << 18, na = nb / 16;
  merge_input<int> in;
  for (index_t i = 0; i < nb; ++i) in.b.push_back(static_cast<int>(4 * i + rng() % 4));
  std::sort(in.b.begin(), in.b.end());
  const int range = in.b.back();
  const std::array<int, 3> three{7, range / 2, range - 1};
  struct pile {
    const char* name;
    std::function<int()> key;
  };
  const pile piles[] = {
      {"a band of distinct keys",
       [&] { return range / 2 + static_cast<int>(rng() % static_cast<unsigned>(range / 16)); }},
      {"all equal", [&] { return range / 3; }},
      {"three values", [&] { return three[rng() % 3]; }},
      {"a band with duplicates", [&] { return range / 4 + 4 * static_cast<int>(rng() % 2048u); }},
  };
  for (const pile& p : piles) {
    SCOPED_TRACE(p.name);
    in.a.clear();
    for (index_t i = 0; i < na; ++i) in.a.push_back(p.key());
    std::sort(in.a.begin(), in.a.end());
    search_oracle expect = sorted_search_oracle(in, mergepath::less<>{});
    const gpu_search d(in);
    ASSERT_NO_FATAL_FAILURE((check_tuned_search<small_b_tiles_policy, bounds::lower, search::index, search::none>(
        ctx, d, expect, mergepath::less<>{})));
    ASSERT_NO_FATAL_FAILURE(
        (check_tuned_search<small_b_tiles_policy, bounds::upper, search::index, search::none, std::int32_t>(
            ctx, d, expect, mergepath::less<>{})));
    ASSERT_NO_FATAL_FAILURE((check_tuned_search<as_if_beyond_l2<int>, bounds::lower, search::index, search::none>(
        ctx, d, expect, mergepath::less<>{})));
  }
}

// ---------------------------------------------------------------------------------------------
// Both schedules and other tile shapes: small tiles, so the sweep spans many of them.

template <class Policy>
class GpuSortedSearchTuned : public gpu_test {};
using policies = ::testing::Types<partition_pass_policy, self_partition_policy, wide_thread_policy>;
TYPED_TEST_SUITE(GpuSortedSearchTuned, policies);

TYPED_TEST(GpuSortedSearchTuned, MatchesTheOracle) {
  mergepath::cuda_context ctx;
  const mergepath::less<> comp{};
  for_each_search_case<int, mergepath::cuda_context>(
      search_shapes_at_tiles({TypeParam::tuning.tile_items()}), comp,
      [&](const gpu_search& in, const search_oracle& expect) {
        // Every kind for the partition pass; the main ones for the other shapes (fewer kernels to build).
        if constexpr (std::is_same_v<TypeParam, partition_pass_policy>) {
          ASSERT_NO_FATAL_FAILURE(check_every_kind<TypeParam>(ctx, in, expect, comp));
        } else {
          ASSERT_NO_FATAL_FAILURE(check_main_kinds<TypeParam>(ctx, in, expect, comp));
        }
      });
}

// ---------------------------------------------------------------------------------------------
// Long runs of equal keys, longer than a tile, starting and ending inside tiles: the match tests
// read one element past a tile's runs, and the bounds of a run's keys lie in other tiles.

// Runs of the values 0, 1, 2, ... with these lengths (a zero length leaves the value out).
std::vector<int> runs_of(const std::vector<index_t>& lengths) {
  std::vector<int> v;
  for (std::size_t value = 0; value < lengths.size(); ++value)
    v.insert(v.end(), static_cast<std::size_t>(lengths[value]), static_cast<int>(value));
  return v;
}

template <class Policy>
void check_runs_across_tiles(index_t tile) {
  mergepath::cuda_context ctx;
  // a's runs: a tile long, one either side of that, or two tiles and one; b's: the values 1, 4
  // and 7 absent (no match for a's runs of them), the others half a tile or one and a half long,
  // so their edges fall elsewhere in the tiles.
  std::vector<index_t> a_lengths, b_lengths;
  for (index_t v = 0; v < 9; ++v) {
    a_lengths.push_back(v % 4 == 3 ? 2 * tile + 1 : tile - 1 + v % 3);
    b_lengths.push_back(v % 3 == 1 ? 0 : tile / 2 + 7 * v + 1 + (v % 2) * tile);
  }
  for (bool swap : {false, true}) {
    merge_input<int> in{runs_of(a_lengths), runs_of(b_lengths)};
    if (swap) std::swap(in.a, in.b);
    if (static_cast<index_t>(in.a.size() + in.b.size()) > max_test_size()) continue;
    SCOPED_TRACE(::testing::Message() << "a_count " << in.a.size() << ", b_count " << in.b.size());
    search_oracle expect = sorted_search_oracle(in, mergepath::less<>{});
    const gpu_search d(in);
    ASSERT_NO_FATAL_FAILURE(check_main_kinds<Policy>(ctx, d, expect, mergepath::less<>{}));
  }
}

class GpuSortedSearchRuns : public gpu_test {};

TEST_F(GpuSortedSearchRuns, LongRunsAcrossTileEdges) {
  ASSERT_NO_FATAL_FAILURE(
      check_runs_across_tiles<mergepath::default_sorted_search_policy<int>>(search_tile_items<int>()));
  ASSERT_NO_FATAL_FAILURE(
      (check_runs_across_tiles<mergepath::default_sorted_search_policy<int, true>>(search_tile_items<int, true>())));
  // 64-bit results of 32-bit keys have a tile of their own.
  ASSERT_NO_FATAL_FAILURE((check_runs_across_tiles<mergepath::default_sorted_search_policy<int, false, 8>>(
      search_tile_items<int, false, 8>())));
  ASSERT_NO_FATAL_FAILURE(check_runs_across_tiles<partition_pass_policy>(partition_pass_policy::tuning.tile_items()));
  ASSERT_NO_FATAL_FAILURE(check_runs_across_tiles<self_partition_policy>(self_partition_policy::tuning.tile_items()));
}

// ---------------------------------------------------------------------------------------------
// Output alignments and staging: results are staged to match each output's alignment, so any
// offset must work; device iterators.

class GpuSortedSearchOutputs : public gpu_test {};

// Outputs starting 0..15 elements past an aligned address (the guarded runs start at 257).
TEST_F(GpuSortedSearchOutputs, AnyOutputAlignment) {
  mergepath::cuda_context ctx;
  const index_t tile = search_tile_items<int>();
  search_case c{3 * tile + 5, 2 * tile - 3, search_distribution::uniform, case_seed({300})};
  SCOPED_TRACE(c.name());
  merge_input<int> in = make_search_input<int>(c, mergepath::less<>{});
  search_oracle expect = sorted_search_oracle(in, mergepath::less<>{});
  const gpu_search d(in);
  std::vector<std::uint8_t> a_expected =
      expected_output<search::match, std::uint8_t>(a_bounds(bounds::lower, expect), expect.a.match);
  std::vector<std::int32_t> b_expected =
      expected_output<search::index_match, std::int32_t>(b_bounds(bounds::lower, expect), expect.b.match);
  for (index_t offset = 0; offset < 16; ++offset) {
    SCOPED_TRACE(::testing::Message() << "offset " << offset);
    device_vector<std::uint8_t> a_out(static_cast<std::size_t>(c.a_count + offset));
    device_vector<std::int32_t> b_out(static_cast<std::size_t>(c.b_count + offset));
    a_out.fill_poison();
    b_out.fill_poison();
    mergepath::sorted_search<bounds::lower, search::match, search::index_match>(
        ctx, d.a.data(), c.a_count, d.b.data(), c.b_count, a_out.data() + offset, b_out.data() + offset);
    std::vector<std::uint8_t> a_got = a_out.download();
    std::vector<std::int32_t> b_got = b_out.download();
    ASSERT_TRUE(untouched(a_got, 0, static_cast<std::size_t>(offset)));
    ASSERT_TRUE(untouched(b_got, 0, static_cast<std::size_t>(offset)));
    ASSERT_TRUE(ranges_equal(a_expected, a_got.data() + offset));
    ASSERT_TRUE(ranges_equal(b_expected, b_got.data() + offset));
  }
}

// int64 bounds are staged in shared memory as 32-bit ones where the counts fit 32 bits (always,
// in a test); the 64-bit staging that larger searches take runs here directly, on both sides of
// the tiles' edges, at both output alignments.
TEST_F(GpuSortedSearchOutputs, Int64BoundsStagedEitherWay) {
  mergepath::cuda_context ctx;
  using policy = mergepath::default_sorted_search_policy<int, false, 4>;
  const index_t tile = policy::tuning.tile_items();
  for_each_search_case<int, mergepath::cuda_context>(
      {{1, 0}, {2 * tile + 1, tile - 1}, {40009, 3 * tile + 7}}, mergepath::less<>{},
      [&](const gpu_search& in, const search_oracle& expect) {
        auto staged = [&](auto narrow, index_t offset) {
          device_vector<std::int64_t> a_out(static_cast<std::size_t>(in.a_count + offset));
          device_vector<std::int64_t> b_out(static_cast<std::size_t>(in.b_count + offset));
          a_out.fill_poison();
          b_out.fill_poison();
          mergepath::device::launch_sorted_search_staged<policy, bounds::upper, search::index, search::index,
                                                         decltype(narrow)::value>(
              ctx, in.a.data(), in.a_count, in.b.data(), in.b_count, a_out.data() + offset, b_out.data() + offset,
              mergepath::less<>{});
          std::vector<std::int64_t> a_got = a_out.download(), b_got = b_out.download();
          ASSERT_TRUE(untouched(a_got, 0, static_cast<std::size_t>(offset)));
          ASSERT_TRUE(ranges_equal(a_bounds(bounds::upper, expect), a_got.data() + offset));
          ASSERT_TRUE(ranges_equal(b_bounds(bounds::upper, expect), b_got.data() + offset));
        };
        for (index_t offset : {index_t{0}, index_t{1}}) {
          SCOPED_TRACE(::testing::Message() << "offset " << offset);
          ASSERT_NO_FATAL_FAILURE(staged(std::true_type{}, offset));
          ASSERT_NO_FATAL_FAILURE(staged(std::false_type{}, offset));
        }
      });
}

// Device iterators that are not pointers: a = 0, 1, 2, ... from a counting iterator.
TEST_F(GpuSortedSearchOutputs, CountingIteratorInput) {
  mergepath::cuda_context ctx;
  const index_t tile = search_tile_items<int>();
  for (index_t n : sorted_unique_capped({0, 1, 2, 17, 1009, tile - 1, tile, tile + 1, 2 * tile + 1, 65537})) {
    search_case c{n / 3, n - n / 3, search_distribution::uniform, case_seed({301, n})};
    SCOPED_TRACE(c.name());
    merge_input<int> in;
    in.a = origins<int>(c.a_count, 0);
    std::mt19937_64 rng(c.seed);
    for (index_t j = 0; j < c.b_count; ++j)  // sorted, in a's range and a little past: many ties
      in.b.push_back(std::uniform_int_distribution<int>(0, static_cast<int>(c.a_count + 10))(rng));
    std::sort(in.b.begin(), in.b.end());
    search_oracle expect = sorted_search_oracle(in, mergepath::less<>{});
    device_vector<int> b(in.b);
    ASSERT_NO_FATAL_FAILURE(
        (check_tuned_search<mergepath::default_tuning, bounds::upper, search::index_match, search::index_match>(
            ctx, thrust::counting_iterator<int>(0), c.a_count, b.data(), c.b_count, expect, mergepath::less<>{})));
    guarded_buffer<mergepath::cuda_context, index_t> out(c.a_count);
    mergepath::sorted_search(ctx, thrust::counting_iterator<int>(0), c.a_count, b.data(), c.b_count, out.dest());
    ASSERT_TRUE(guarded_equal(expect.a.lower, out.download()));
  }
}

// ---------------------------------------------------------------------------------------------
// Unsorted input without checked mode: unspecified output, but no fault (compute-sanitizer runs
// this suite, so the sizes stay at a few tiles) and nothing written outside the outputs.

class GpuSortedSearchUnsorted : public gpu_test {};

template <class Policy>
void search_unsorted(mergepath::cuda_context& ctx, const int* a, index_t na, const int* b, index_t nb, index_t* a_dest,
                     int* b_dest) {
  mergepath::sorted_search<bounds::lower, search::index, search::none, Policy>(ctx, a, na, b, nb, a_dest, nullptr,
                                                                               mergepath::less<>{});
  mergepath::sorted_search<bounds::lower, search::index_match, search::index_match, Policy>(
      ctx, a, na, b, nb, a_dest, b_dest, mergepath::less<>{});
  mergepath::sorted_search<bounds::upper, search::match, search::index, Policy>(ctx, a, na, b, nb, a_dest, b_dest,
                                                                                mergepath::less<>{});
  mergepath::sorted_search<bounds::upper, search::none, search::match, Policy>(ctx, a, na, b, nb, nullptr, b_dest,
                                                                               mergepath::less<>{});
}

TEST_F(GpuSortedSearchUnsorted, DoesNotFaultOrWriteOutside) {
  mergepath::cuda_context ctx;
  std::mt19937_64 rng(case_seed({302}));
  SCOPED_TRACE("MERGEPATH_TEST_SEED=" + std::to_string(base_seed()));
  const index_t tile = search_tile_items<int>();
  // The last two: b 20 times longer than a (searched by b's tiles, plain bounds).
  const std::vector<std::pair<index_t, index_t>> shapes{{1, 1},
                                                        {100, 51},
                                                        {tile + 1, tile / 2 + 1},
                                                        {3 * tile + 5, 3 * tile / 2 + 3},
                                                        {100, 2000},
                                                        {tile + 1, 20 * tile}};
  for (auto [na, nb] : shapes) {
    SCOPED_TRACE(::testing::Message() << "a_count " << na << ", b_count " << nb);
    std::vector<int> a(static_cast<std::size_t>(na)), b(static_cast<std::size_t>(nb));
    std::vector<index_t> lower(a.size());
    for (int& x : a) x = std::uniform_int_distribution<int>(0, 1000)(rng);
    for (int& x : b) x = std::uniform_int_distribution<int>(0, 1000)(rng);
    for (index_t& x : lower) x = std::uniform_int_distribution<int>(0, 1000)(rng);
    device_vector<int> da(a), db(b);
    device_vector<index_t> d_lower(lower);
    guarded_buffer<mergepath::cuda_context, index_t> a_out(na);
    guarded_buffer<mergepath::cuda_context, int> b_out(nb);
    mergepath::sorted_search(ctx, da.data(), na, db.data(), nb, a_out.dest());
    search_unsorted<mergepath::default_tuning>(ctx, da.data(), na, db.data(), nb, a_out.dest(), b_out.dest());
    search_unsorted<partition_pass_policy>(ctx, da.data(), na, db.data(), nb, a_out.dest(), b_out.dest());
    search_unsorted<self_partition_policy>(ctx, da.data(), na, db.data(), nb, a_out.dest(), b_out.dest());
    mergepath::sorted_equality_count(ctx, da.data(), na, db.data(), nb, d_lower.data(), a_out.dest());
    EXPECT_NO_THROW(ctx.synchronize());
    std::vector<index_t> a_got = a_out.download();
    std::vector<int> b_got = b_out.download();
    EXPECT_TRUE(untouched(a_got, 0, guard_items));
    EXPECT_TRUE(untouched(a_got, guard_items + a.size(), a_got.size()));
    EXPECT_TRUE(untouched(b_got, 0, guard_items));
    EXPECT_TRUE(untouched(b_got, guard_items + b.size(), b_got.size()));
  }
}

}  // namespace
}  // namespace mergepath_test
