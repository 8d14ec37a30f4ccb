// sorted_search and sorted_equality_count on a cuda_context, against std::equal_range per
// element: every bounds x search type (int32), the main kinds for other key types, sizes across
// tile edges and both schedules (the partition pass, and blocks finding their own splits), long
// runs of equal keys across tiles; the demonstrations of moderngpu's Vectorized Sorted Search
// page; output types and alignments; iterators; argument errors; checked mode; unsorted input.
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
#include "search_util.hpp"

namespace mergepath_test {
namespace {

// The default tile of the GPU search for this key type (tuning/sorted_search.hpp); searches
// that report matches have a tile of their own.
template <class Key, bool ReportsMatches = false, std::size_t ResultBytes = 0>
constexpr index_t search_tile_items() {
  return mergepath::default_sorted_search_policy<Key, ReportsMatches, ResultBytes>::tuning.tile_items();
}

// Total sizes around the tile's edges, primes, and one large size.
inline std::vector<index_t> search_sizes(index_t tile, bool large = true) {
  std::vector<index_t> sizes{0, 1, 2, 17, 1009, tile - 1, tile, tile + 1, 2 * tile + 1, 65537};
  if (large) sizes.push_back((1 << 20) + 3);
  return sorted_unique_capped(sizes);
}

// The sweep's shapes (search_shapes: even, 1:16, 16:1, one side empty) and a few placed on the
// tile's edges themselves.
inline std::vector<shape> search_shapes_at_tile(index_t tile, bool large = true) {
  std::vector<shape> shapes = search_shapes(search_sizes(tile, large));
  for (shape s : std::vector<shape>{{tile, tile}, {tile + 1, tile - 1}, {2 * tile, 1}, {1, 2 * tile}})
    if (s.first + s.second <= max_test_size()) shapes.push_back(s);
  return shapes;
}

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
// Checked runs

template <class Key>
struct device_input {
  device_vector<Key> a, b;
  index_t a_count, b_count;
  explicit device_input(const merge_input<Key>& in)
      : a(in.a), b(in.b), a_count(static_cast<index_t>(in.a.size())), b_count(static_cast<index_t>(in.b.size())) {}
};

// An output of count elements between poisoned guards on the device; dest() is where it starts.
template <class T>
struct guarded_device_output {
  device_vector<T> buffer;
  explicit guarded_device_output(index_t count) : buffer(static_cast<std::size_t>(count) + 2 * guard_items) {
    buffer.fill_poison();
  }
  T* dest() const { return buffer.data() + guard_items; }
  std::vector<T> download() const { return buffer.download(); }
};

// sorted_search<Bounds, TypeA, TypeB> with the default tuning (Policy void) or Policy's.
template <class Policy, bounds Bounds, search TypeA, search TypeB, class... Args>
mergepath::match_counts run_search(mergepath::cuda_context& ctx, Args... args) {
  if constexpr (std::is_void_v<Policy>)
    return mergepath::sorted_search<Bounds, TypeA, TypeB>(ctx, args...);
  else
    return mergepath::sorted_search<Bounds, TypeA, TypeB, Policy>(ctx, args...);
}

// Runs the complete search into guarded, poisoned outputs (nullptr for a side of search::none)
// and checks them, their guards and the match counts against the oracle.
template <class Policy, bounds Bounds, search TypeA, search TypeB, class AOut = std::int64_t, class BOut = std::int32_t,
          class AIt, class BIt, class Comp>
void check_gpu_search(mergepath::cuda_context& ctx, AIt a, index_t a_count, BIt b, index_t b_count,
                      const search_oracle& expect, Comp comp) {
  SCOPED_TRACE((search_kind_name<Bounds, TypeA, TypeB>()));
  guarded_device_output<AOut> a_out(TypeA == search::none ? 0 : a_count);
  guarded_device_output<BOut> b_out(TypeB == search::none ? 0 : b_count);
  auto a_dest = [&] {
    if constexpr (TypeA == search::none)
      return nullptr;
    else
      return a_out.dest();
  }();
  auto b_dest = [&] {
    if constexpr (TypeB == search::none)
      return nullptr;
    else
      return b_out.dest();
  }();
  mergepath::match_counts matches =
      run_search<Policy, Bounds, TypeA, TypeB>(ctx, a, a_count, b, b_count, a_dest, b_dest, comp);
  ctx.synchronize();
  if constexpr (TypeA != search::none) {
    ASSERT_TRUE(
        guarded_equal(expected_output<TypeA, AOut>(a_bounds(Bounds, expect), expect.a.match), a_out.download()));
  }
  if constexpr (TypeB != search::none) {
    ASSERT_TRUE(
        guarded_equal(expected_output<TypeB, BOut>(b_bounds(Bounds, expect), expect.b.match), b_out.download()));
  }
  EXPECT_EQ(matches.a, expected_matches(TypeA, expect.a));
  EXPECT_EQ(matches.b, expected_matches(TypeB, expect.b));
}

template <class Policy, bounds Bounds, search TypeA, search TypeB, class AOut = std::int64_t, class BOut = std::int32_t,
          class Key, class Comp>
void check_gpu_search(mergepath::cuda_context& ctx, const device_input<Key>& in, const search_oracle& expect,
                      Comp comp) {
  check_gpu_search<Policy, Bounds, TypeA, TypeB, AOut, BOut>(ctx, in.a.data(), in.a_count, in.b.data(), in.b_count,
                                                             expect, comp);
}

// The short form, a_out[i] = the bound of a[i] in b, into a guarded Out.
template <bounds Bounds, class Out = index_t, class Key, class Comp>
void check_gpu_short_search(mergepath::cuda_context& ctx, const device_input<Key>& in, const search_oracle& expect,
                            Comp comp) {
  SCOPED_TRACE(std::string("short form, bounds ") + to_string(Bounds));
  guarded_device_output<Out> out(in.a_count);
  mergepath::sorted_search<Bounds>(ctx, in.a.data(), in.a_count, in.b.data(), in.b_count, out.dest(), comp);
  ctx.synchronize();
  ASSERT_TRUE(
      guarded_equal(expected_output<search::index, Out>(a_bounds(Bounds, expect), expect.a.match), out.download()));
}

// Every Bounds x TypeA x TypeB (Policy void: the default tuning).
template <class Policy, class Key, class Comp>
void check_every_kind(mergepath::cuda_context& ctx, const device_input<Key>& in, const search_oracle& expect,
                      Comp comp) {
  for_each_search_kind([&](auto bounds_c, auto type_a, auto type_b) {
    if (!::testing::Test::HasFatalFailure())
      check_gpu_search<Policy, decltype(bounds_c)::value, decltype(type_a)::value, decltype(type_b)::value>(
          ctx, in, expect, comp);
  });
}

// Both bounds with match bits on both sides, matches with indices, and one side left out.
template <class Policy, class Key, class Comp>
void check_main_kinds(mergepath::cuda_context& ctx, const device_input<Key>& in, const search_oracle& expect,
                      Comp comp) {
  auto both_bounds = [&](auto bounds_c) {
    constexpr bounds Bounds = decltype(bounds_c)::value;
    ASSERT_NO_FATAL_FAILURE(
        (check_gpu_search<Policy, Bounds, search::index_match, search::index_match>(ctx, in, expect, comp)));
    ASSERT_NO_FATAL_FAILURE((check_gpu_search<Policy, Bounds, search::match, search::index>(ctx, in, expect, comp)));
    ASSERT_NO_FATAL_FAILURE((check_gpu_search<Policy, Bounds, search::none, search::match>(ctx, in, expect, comp)));
  };
  ASSERT_NO_FATAL_FAILURE(both_bounds(std::integral_constant<bounds, bounds::lower>{}));
  ASSERT_NO_FATAL_FAILURE(both_bounds(std::integral_constant<bounds, bounds::upper>{}));
}

// ---------------------------------------------------------------------------------------------
// Every kind against the oracle: int32 over the full sweep (up to 2^20 + 3 with the default tuning)

class GpuSortedSearch : public gpu_test {};

TEST_F(GpuSortedSearch, EveryKindInt32) {
  mergepath::cuda_context ctx;
  std::vector<shape> shapes = search_shapes_at_tile(search_tile_items<int>());
  for (shape s : search_shapes_at_tile(search_tile_items<int, true>(), false)) shapes.push_back(s);
  for (const search_case& c : search_cases(shapes)) {
    SCOPED_TRACE(c.name());
    merge_input<int> in = make_search_input<int>(c, mergepath::less<>{});
    search_oracle expect = sorted_search_oracle(in, mergepath::less<>{});
    device_input<int> d(in);
    ASSERT_NO_FATAL_FAILURE(check_every_kind<void>(ctx, d, expect, mergepath::less<>{}));
    ASSERT_NO_FATAL_FAILURE(check_gpu_short_search<bounds::lower>(ctx, d, expect, mergepath::less<>{}));
    ASSERT_NO_FATAL_FAILURE(check_gpu_short_search<bounds::upper>(ctx, d, expect, mergepath::less<>{}));
  }
}

// Other key types and comparators: the main kinds on a smaller sweep (their own tile's edges).
using key_cases =
    ::testing::Types<keys_case<std::int32_t, mergepath::greater<>>, keys_case<std::int64_t, mergepath::less<>>,
                     keys_case<std::uint32_t, mergepath::less<>>, keys_case<float, mergepath::less<>>,
                     keys_case<double, mergepath::greater<>>, keys_case<point, point_less>,
                     // ties on x with different y: a match is an equivalent key, not an identical one
                     keys_case<point, point_x_less>>;

template <class Case>
class GpuSortedSearchKeys : public gpu_test {};
TYPED_TEST_SUITE(GpuSortedSearchKeys, key_cases);

TYPED_TEST(GpuSortedSearchKeys, MainKindsMatchTheOracle) {
  using Key = typename TypeParam::key;
  typename TypeParam::comp comp;
  mergepath::cuda_context ctx;
  for (const search_case& c : search_cases(search_shapes_at_tile(search_tile_items<Key>(), false))) {
    SCOPED_TRACE(c.name());
    merge_input<Key> in = make_search_input<Key>(c, comp);
    search_oracle expect = sorted_search_oracle(in, comp);
    device_input<Key> d(in);
    ASSERT_NO_FATAL_FAILURE(check_main_kinds<void>(ctx, d, expect, comp));
    ASSERT_NO_FATAL_FAILURE(check_gpu_short_search<bounds::lower>(ctx, d, expect, comp));
  }
}

// Plain bounds of a into b (lower bounds as 64-bit, upper bounds as 32-bit) for every distribution
// of these shapes; with short_search, the short form's upper bounds too.
template <class Policy, class Key, class Comp>
void check_plain_bounds(const std::vector<shape>& shapes, Comp comp, bool short_search) {
  mergepath::cuda_context ctx;
  for (const search_case& c : search_cases(shapes)) {
    SCOPED_TRACE(c.name());
    merge_input<Key> in = make_search_input<Key>(c, comp);
    search_oracle expect = sorted_search_oracle(in, comp);
    device_input<Key> d(in);
    ASSERT_NO_FATAL_FAILURE(
        (check_gpu_search<Policy, bounds::lower, search::index, search::none>(ctx, d, expect, comp)));
    ASSERT_NO_FATAL_FAILURE(
        (check_gpu_search<Policy, bounds::upper, search::index, search::none, std::int32_t>(ctx, d, expect, comp)));
    if (short_search) ASSERT_NO_FATAL_FAILURE(check_gpu_short_search<bounds::upper>(ctx, d, expect, comp));
  }
}

// The default tuning, with b taken as beyond L2 at any size: the needle search's samples (or its
// search of all of b that spares L1) and b's tiles wherever their ratios say.
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
  ASSERT_NO_FATAL_FAILURE((check_plain_bounds<void, Key>(shapes, comp, true)));
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
  ASSERT_NO_FATAL_FAILURE((check_plain_bounds<void, Key>(shapes, comp, false)));
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
    device_input<int> d(in);
    ASSERT_NO_FATAL_FAILURE((check_gpu_search<small_b_tiles_policy, bounds::lower, search::index, search::none>(
        ctx, d, expect, mergepath::less<>{})));
    ASSERT_NO_FATAL_FAILURE(
        (check_gpu_search<small_b_tiles_policy, bounds::upper, search::index, search::none, std::int32_t>(
            ctx, d, expect, mergepath::less<>{})));
    ASSERT_NO_FATAL_FAILURE((check_gpu_search<as_if_beyond_l2<int>, bounds::lower, search::index, search::none>(
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
  const index_t tile = TypeParam::tuning.tile_items();
  for (const search_case& c : search_cases(search_shapes_at_tile(tile, false))) {
    SCOPED_TRACE(c.name());
    merge_input<int> in = make_search_input<int>(c, mergepath::less<>{});
    search_oracle expect = sorted_search_oracle(in, mergepath::less<>{});
    device_input<int> d(in);
    // Every kind for the partition pass; the main ones for the other shapes (fewer kernels to build).
    if constexpr (std::is_same_v<TypeParam, partition_pass_policy>) {
      ASSERT_NO_FATAL_FAILURE(check_every_kind<TypeParam>(ctx, d, expect, mergepath::less<>{}));
    } else {
      ASSERT_NO_FATAL_FAILURE(check_main_kinds<TypeParam>(ctx, d, expect, mergepath::less<>{}));
    }
  }
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
    device_input<int> d(in);
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
// Output types and alignments: index_match sets the top bit of whichever integer type the output
// holds; results are staged to match each output's alignment, so any offset must work.

class GpuSortedSearchOutputs : public gpu_test {};

TEST_F(GpuSortedSearchOutputs, IndexMatchAndMatchInOtherIntegerTypes) {
  mergepath::cuda_context ctx;
  const index_t tile = search_tile_items<int>(), wide_tile = search_tile_items<int, false, 8>();
  for (const search_case& c : search_cases(
           {{0, 5}, {97, 1009}, {2 * tile + 1, tile / 3}, {2 * wide_tile + 1, wide_tile / 3}, {30011, 50021}})) {
    SCOPED_TRACE(c.name());
    merge_input<int> in = make_search_input<int>(c, mergepath::less<>{});
    search_oracle expect = sorted_search_oracle(in, mergepath::less<>{});
    device_input<int> d(in);
    mergepath::less<> comp;
    ASSERT_NO_FATAL_FAILURE(
        (check_gpu_search<void, bounds::lower, search::index_match, search::index_match, std::uint32_t, std::uint32_t>(
            ctx, d, expect, comp)));
    ASSERT_NO_FATAL_FAILURE(
        (check_gpu_search<void, bounds::upper, search::index_match, search::index_match, std::int32_t, std::int64_t>(
            ctx, d, expect, comp)));
    ASSERT_NO_FATAL_FAILURE(
        (check_gpu_search<void, bounds::upper, search::index_match, search::index, std::uint64_t, std::uint32_t>(
            ctx, d, expect, comp)));
    ASSERT_NO_FATAL_FAILURE(
        (check_gpu_search<void, bounds::lower, search::match, search::match, std::uint8_t, std::int16_t>(ctx, d, expect,
                                                                                                         comp)));
    ASSERT_NO_FATAL_FAILURE(
        (check_gpu_search<void, bounds::upper, search::index, search::match, std::uint32_t, std::uint8_t>(
            ctx, d, expect, comp)));
    ASSERT_NO_FATAL_FAILURE((check_gpu_short_search<bounds::upper, std::int32_t>(ctx, d, expect, comp)));
  }
}

// Outputs starting 0..15 elements past an aligned address (the guarded runs start at 257).
TEST_F(GpuSortedSearchOutputs, AnyOutputAlignment) {
  mergepath::cuda_context ctx;
  const index_t tile = search_tile_items<int>();
  search_case c{3 * tile + 5, 2 * tile - 3, search_distribution::uniform, case_seed({300})};
  SCOPED_TRACE(c.name());
  merge_input<int> in = make_search_input<int>(c, mergepath::less<>{});
  search_oracle expect = sorted_search_oracle(in, mergepath::less<>{});
  device_input<int> d(in);
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
  for (const search_case& c : search_cases({{1, 0}, {2 * tile + 1, tile - 1}, {40009, 3 * tile + 7}})) {
    SCOPED_TRACE(c.name());
    merge_input<int> in = make_search_input<int>(c, mergepath::less<>{});
    search_oracle expect = sorted_search_oracle(in, mergepath::less<>{});
    device_input<int> d(in);
    auto staged = [&](auto narrow, index_t offset) {
      device_vector<std::int64_t> a_out(static_cast<std::size_t>(c.a_count + offset));
      device_vector<std::int64_t> b_out(static_cast<std::size_t>(c.b_count + offset));
      a_out.fill_poison();
      b_out.fill_poison();
      mergepath::device::launch_sorted_search_staged<policy, bounds::upper, search::index, search::index,
                                                     decltype(narrow)::value>(
          ctx, d.a.data(), c.a_count, d.b.data(), c.b_count, a_out.data() + offset, b_out.data() + offset,
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
  }
}

// Device iterators that are not pointers: a = 0, 1, 2, ... from a counting iterator.
TEST_F(GpuSortedSearchOutputs, CountingIteratorInput) {
  mergepath::cuda_context ctx;
  for (index_t n : search_sizes(search_tile_items<int>(), false)) {
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
    ASSERT_NO_FATAL_FAILURE((check_gpu_search<void, bounds::upper, search::index_match, search::index_match>(
        ctx, thrust::counting_iterator<int>(0), c.a_count, b.data(), c.b_count, expect, mergepath::less<>{})));
    guarded_device_output<index_t> out(c.a_count);
    mergepath::sorted_search(ctx, thrust::counting_iterator<int>(0), c.a_count, b.data(), c.b_count, out.dest());
    ASSERT_TRUE(guarded_equal(expect.a.lower, out.download()));
  }
}

// ---------------------------------------------------------------------------------------------
// The demonstrations of moderngpu's Vectorized Sorted Search page, exactly as printed there.

class GpuSortedSearchDemos : public gpu_test {};

TEST_F(GpuSortedSearchDemos, LowerBoundsOfNeedlesInTheHaystack) {
  std::vector<int> haystack = printed_values(demo1::haystack), needles = printed_values(demo1::needles);
  std::vector<int> expected = printed_values(demo1::lower_bounds);
  ASSERT_EQ(expected.size(), 100u);
  mergepath::cuda_context ctx;
  device_vector<int> d_haystack(haystack), d_needles(needles);
  guarded_device_output<int> out(100);
  mergepath::sorted_search<bounds::lower>(ctx, d_needles.data(), 100, d_haystack.data(), 200, out.dest());
  ctx.synchronize();
  EXPECT_TRUE(guarded_equal(expected, out.download()));
}

TEST_F(GpuSortedSearchDemos, IndexMatchBothWays) {
  std::vector<int> a = printed_values(demo2::a), b = printed_values(demo2::b);
  std::vector<std::int32_t> a_expected = printed_index_match(demo2::a_indices);
  std::vector<std::int32_t> b_expected = printed_index_match(demo2::b_indices);
  ASSERT_EQ(a_expected.size(), 100u);
  ASSERT_EQ(b_expected.size(), 100u);
  mergepath::cuda_context ctx;
  device_vector<int> d_a(a), d_b(b);
  guarded_device_output<std::int32_t> a_out(100), b_out(100);
  mergepath::match_counts m = mergepath::sorted_search<bounds::lower, search::index_match, search::index_match>(
      ctx, d_a.data(), 100, d_b.data(), 100, a_out.dest(), b_out.dest());
  EXPECT_TRUE(guarded_equal(a_expected, a_out.download()));
  EXPECT_TRUE(guarded_equal(b_expected, b_out.download()));
  EXPECT_EQ(m.a, printed_matches(demo2::a_indices));
  EXPECT_EQ(m.b, printed_matches(demo2::b_indices));
}

// ---------------------------------------------------------------------------------------------
// sorted_equality_count: counts[i] = op(lower_bounds[i], upper bound of a[i] in b).

template <class Key, class Lower, class Op, class Comp>
void check_gpu_equality_count(mergepath::cuda_context& ctx, const device_input<Key>& in,
                              const std::vector<Lower>& lower, const search_oracle& expect, Op op, Comp comp) {
  std::vector<std::int32_t> expected;
  for (std::size_t i = 0; i < lower.size(); ++i)
    expected.push_back(static_cast<std::int32_t>(op(static_cast<index_t>(lower[i]), expect.a.upper[i])));
  device_vector<Lower> d_lower(lower);
  guarded_device_output<std::int32_t> counts(in.a_count);
  mergepath::sorted_equality_count(ctx, in.a.data(), in.a_count, in.b.data(), in.b_count, d_lower.data(), counts.dest(),
                                   comp, op);
  ctx.synchronize();
  ASSERT_TRUE(guarded_equal(expected, counts.download()));
}

template <class Key, class Comp>
void check_gpu_equality_counts(Comp comp) {
  mergepath::cuda_context ctx;
  for (const search_case& c : search_cases(search_shapes(search_sizes(search_tile_items<Key>(), false)))) {
    SCOPED_TRACE(c.name());
    merge_input<Key> in = make_search_input<Key>(c, comp);
    search_oracle expect = sorted_search_oracle(in, comp);
    device_input<Key> d(in);
    // The default op (ub - lb: how many elements of b equal a[i]), a left join's row counts, and
    // lower bounds that carry index_match's top bit.
    ASSERT_NO_FATAL_FAILURE(
        check_gpu_equality_count(ctx, d, expect.a.lower, expect, mergepath::equality_count_op{}, comp));
    ASSERT_NO_FATAL_FAILURE(check_gpu_equality_count(ctx, d, expect.a.lower, expect, left_join_rows{}, comp));
    std::vector<std::int32_t> flagged =
        expected_output<search::index_match, std::int32_t>(expect.a.lower, expect.a.match);
    ASSERT_NO_FATAL_FAILURE(check_gpu_equality_count(ctx, d, flagged, expect, count_from_index_match{}, comp));
  }
}

class GpuSortedEqualityCount : public gpu_test {};

TEST_F(GpuSortedEqualityCount, DefaultAndUserOps) {
  ASSERT_NO_FATAL_FAILURE(check_gpu_equality_counts<std::int32_t>(mergepath::less<>{}));
  ASSERT_NO_FATAL_FAILURE(check_gpu_equality_counts<double>(mergepath::greater<>{}));
  ASSERT_NO_FATAL_FAILURE(check_gpu_equality_counts<point>(point_x_less{}));
}

// The default op's counts against a count written out by hand, lower bounds from the GPU's own search.
TEST_F(GpuSortedEqualityCount, AfterALowerBoundSearch) {
  mergepath::cuda_context ctx;
  device_vector<int> a(std::vector<int>{0, 1, 1, 3, 5, 5, 9}), b(std::vector<int>{1, 1, 1, 2, 5, 9, 9, 9, 9});
  device_vector<index_t> lower(7);
  device_vector<int> counts(7), rows(7);
  mergepath::sorted_search(ctx, a.data(), 7, b.data(), 9, lower.data());
  mergepath::sorted_equality_count(ctx, a.data(), 7, b.data(), 9, lower.data(), counts.data());
  mergepath::sorted_equality_count(ctx, a.data(), 7, b.data(), 9, lower.data(), rows.data(), mergepath::less<>{},
                                   left_join_rows{});
  ctx.synchronize();
  EXPECT_EQ(lower.download(), (std::vector<index_t>{0, 0, 0, 4, 4, 4, 5}));
  EXPECT_EQ(counts.download(), (std::vector<int>{0, 3, 3, 0, 1, 1, 4}));
  EXPECT_EQ(rows.download(), (std::vector<int>{1, 3, 3, 1, 1, 1, 4}));
}

// ---------------------------------------------------------------------------------------------
// Bad arguments: std::invalid_argument before any work (the outputs stay poisoned).

class GpuSortedSearchArguments : public gpu_test {};

TEST_F(GpuSortedSearchArguments, BadArgumentsThrowBeforeWriting) {
  mergepath::cuda_context ctx;
  device_vector<int> a(std::vector<int>{1, 2, 3}), b(std::vector<int>{2, 4}), a_out(3), b_out(2);
  device_vector<index_t> lower(std::vector<index_t>{0, 0, 1});
  a_out.fill_poison();
  b_out.fill_poison();
  int* null = nullptr;
  auto full = [&](auto a_ptr, index_t na, auto b_ptr, index_t nb, auto a_dest, auto b_dest) {
    return mergepath::sorted_search<bounds::lower, search::index, search::match>(ctx, a_ptr, na, b_ptr, nb, a_dest,
                                                                                 b_dest);
  };
  expect_invalid_argument([&] { mergepath::sorted_search(ctx, a.data(), -1, b.data(), 2, a_out.data()); },
                          "a count is negative");
  expect_invalid_argument([&] { mergepath::sorted_search(ctx, a.data(), 3, b.data(), -2, a_out.data()); },
                          "b count is negative");
  expect_invalid_argument([&] { mergepath::sorted_search(ctx, null, 3, b.data(), 2, a_out.data()); },
                          "a is a null pointer");
  expect_invalid_argument([&] { mergepath::sorted_search(ctx, a.data(), 3, null, 2, a_out.data()); },
                          "b is a null pointer");
  expect_invalid_argument([&] { mergepath::sorted_search(ctx, a.data(), 3, b.data(), 2, null); },
                          "a_out is a null pointer");
  expect_invalid_argument([&] { full(a.data(), -1, b.data(), 2, a_out.data(), b_out.data()); }, "a count is negative");
  expect_invalid_argument([&] { full(a.data(), 3, b.data(), -1, a_out.data(), b_out.data()); }, "b count is negative");
  expect_invalid_argument([&] { full(null, 3, b.data(), 2, a_out.data(), b_out.data()); }, "a is a null pointer");
  expect_invalid_argument([&] { full(a.data(), 3, null, 2, a_out.data(), b_out.data()); }, "b is a null pointer");
  expect_invalid_argument([&] { full(a.data(), 3, b.data(), 2, null, b_out.data()); }, "a_out is a null pointer");
  expect_invalid_argument([&] { full(a.data(), 3, b.data(), 2, a_out.data(), null); }, "b_out is a null pointer");
  expect_invalid_argument(
      [&] {
        mergepath::sorted_search<bounds::upper, search::index_match, search::none, partition_pass_policy>(
            ctx, a.data(), 3, b.data(), 2, null, nullptr);
      },
      "a_out is a null pointer");
  expect_invalid_argument(
      [&] { mergepath::sorted_equality_count(ctx, a.data(), -3, b.data(), 2, lower.data(), a_out.data()); },
      "count is negative");
  expect_invalid_argument(
      [&] { mergepath::sorted_equality_count(ctx, a.data(), 3, b.data(), -2, lower.data(), a_out.data()); },
      "b count is negative");
  expect_invalid_argument(
      [&] { mergepath::sorted_equality_count(ctx, null, 3, b.data(), 2, lower.data(), a_out.data()); },
      "a is a null pointer");
  expect_invalid_argument(
      [&] { mergepath::sorted_equality_count(ctx, a.data(), 3, null, 2, lower.data(), a_out.data()); },
      "b is a null pointer");
  expect_invalid_argument(
      [&] {
        mergepath::sorted_equality_count(ctx, a.data(), 3, b.data(), 2, static_cast<index_t*>(nullptr), a_out.data());
      },
      "lower_bounds is a null pointer");
  expect_invalid_argument([&] { mergepath::sorted_equality_count(ctx, a.data(), 3, b.data(), 2, lower.data(), null); },
                          "counts is a null pointer");
  ctx.synchronize();
  EXPECT_TRUE(untouched(a_out.download(), 0, 3));
  EXPECT_TRUE(untouched(b_out.download(), 0, 2));
}

// A side of search::none takes nullptr (and a real output given to it stays untouched); every
// pointer may be null when its count is zero.
TEST_F(GpuSortedSearchArguments, NullPointersWhereNothingIsWritten) {
  mergepath::cuda_context ctx;
  device_vector<int> a(std::vector<int>{1, 2, 3}), b(std::vector<int>{2, 4});
  int* null = nullptr;
  guarded_device_output<int> a_out(3), b_out(2);
  mergepath::match_counts m = mergepath::sorted_search<bounds::lower, search::none, search::index_match>(
      ctx, a.data(), 3, b.data(), 2, nullptr, b_out.dest());
  EXPECT_TRUE(guarded_equal(std::vector<int>{with_match_bit<int>(2, true), 3}, b_out.download()));
  EXPECT_EQ(m.a, 0);
  EXPECT_EQ(m.b, 1);
  m = mergepath::sorted_search<bounds::upper, search::match, search::none>(ctx, a.data(), 3, b.data(), 2, a_out.dest(),
                                                                           null);
  EXPECT_TRUE(guarded_equal(std::vector<int>{0, 1, 0}, a_out.download()));
  EXPECT_EQ(m.a, 1);
  EXPECT_EQ(m.b, 0);

  guarded_device_output<int> untouched_a(3), untouched_b(2);
  mergepath::sorted_search<bounds::lower, search::none, search::none>(ctx, a.data(), 3, b.data(), 2, untouched_a.dest(),
                                                                      untouched_b.dest());
  mergepath::sorted_search<bounds::upper, search::index, search::none>(ctx, a.data(), 3, b.data(), 2, a_out.dest(),
                                                                       untouched_b.dest());
  ctx.synchronize();
  EXPECT_TRUE(guarded_untouched(untouched_a.download()));
  EXPECT_TRUE(guarded_untouched(untouched_b.download()));
  EXPECT_TRUE(guarded_equal(std::vector<int>{0, 1, 1}, a_out.download()));

  EXPECT_NO_THROW(mergepath::sorted_search(ctx, null, 0, null, 0, null));
  EXPECT_NO_THROW((mergepath::sorted_search<bounds::upper, search::index_match, search::index_match>(ctx, null, 0, null,
                                                                                                     0, null, null)));
  EXPECT_NO_THROW(mergepath::sorted_equality_count(ctx, null, 0, null, 0, null, null));
  // a empty, b not: every element of b has bound 0 and no match.
  m = mergepath::sorted_search<bounds::lower, search::index_match, search::index_match>(ctx, null, 0, b.data(), 2, null,
                                                                                        b_out.dest());
  EXPECT_TRUE(guarded_equal(std::vector<int>{0, 0}, b_out.download()));
  EXPECT_EQ(m.a + m.b, 0);
  EXPECT_NO_THROW(ctx.synchronize());
}

// ---------------------------------------------------------------------------------------------
// Checked mode: unsorted input throws naming the first position, before anything is written.

class GpuSortedSearchChecked : public gpu_test {};

// Sorted keys 0, 1, 2, ... with x[position] < x[position - 1].
std::vector<int> sorted_except_at(index_t count, index_t position) {
  std::vector<int> v = origins<int>(count, 0);
  v[static_cast<std::size_t>(position)] = -1;
  return v;
}

TEST_F(GpuSortedSearchChecked, UnsortedInputThrowsNamingThePosition) {
  mergepath::cuda_context ctx;
  ctx.set_checked(true);
  for (index_t count : {index_t{10}, index_t{300000}}) {
    SCOPED_TRACE(::testing::Message() << "count " << count);
    std::vector<int> bad_a = sorted_except_at(count, 5), bad_b = sorted_except_at(count, 7);
    if (count > 100000) bad_a[250000] = -2;  // a later offender, found by other threads: still a[5]
    device_vector<int> sorted(origins<int>(count, 0)), a(bad_a), b(bad_b);
    device_vector<index_t> lower(std::vector<index_t>(static_cast<std::size_t>(count), 0));
    device_vector<int> a_out(static_cast<std::size_t>(count)), b_out(static_cast<std::size_t>(count));
    a_out.fill_poison();
    b_out.fill_poison();
    expect_invalid_argument([&] { mergepath::sorted_search(ctx, a.data(), count, sorted.data(), count, a_out.data()); },
                            "a[5]");
    expect_invalid_argument([&] { mergepath::sorted_search(ctx, sorted.data(), count, b.data(), count, a_out.data()); },
                            "b[7]");
    expect_invalid_argument(
        [&] {
          mergepath::sorted_search<bounds::upper, search::match, search::index_match>(
              ctx, a.data(), count, sorted.data(), count, a_out.data(), b_out.data());
        },
        "a[5]");
    expect_invalid_argument(
        [&] {
          mergepath::sorted_search<bounds::lower, search::none, search::index, partition_pass_policy>(
              ctx, sorted.data(), count, b.data(), count, nullptr, b_out.data());
        },
        "b[7]");
    expect_invalid_argument(
        [&] {
          mergepath::sorted_equality_count(ctx, sorted.data(), count, b.data(), count, lower.data(), a_out.data());
        },
        "b[7]");
    EXPECT_TRUE(untouched(a_out.download(), 0, a_out.size()));
    EXPECT_TRUE(untouched(b_out.download(), 0, b_out.size()));
  }
}

TEST_F(GpuSortedSearchChecked, SortedInputPasses) {
  mergepath::cuda_context ctx;
  ctx.set_checked(true);
  for (const search_case& c : search_cases(search_shapes({0, 1, 2, 1009, 65537}))) {
    SCOPED_TRACE(c.name());
    merge_input<int> in = make_search_input<int>(c, mergepath::greater<>{});
    search_oracle expect = sorted_search_oracle(in, mergepath::greater<>{});
    device_input<int> d(in);
    ASSERT_NO_FATAL_FAILURE((check_gpu_search<void, bounds::lower, search::index_match, search::match>(
        ctx, d, expect, mergepath::greater<>{})));
    ASSERT_NO_FATAL_FAILURE(check_gpu_short_search<bounds::upper>(ctx, d, expect, mergepath::greater<>{}));
  }
}

// ---------------------------------------------------------------------------------------------
// Unsorted input without checked mode: unspecified output, but no fault (compute-sanitizer runs
// this suite, so the sizes stay at a few tiles) and nothing written outside the outputs.

class GpuSortedSearchUnsorted : public gpu_test {};

template <class Policy>
void search_unsorted(mergepath::cuda_context& ctx, const int* a, index_t na, const int* b, index_t nb, index_t* a_dest,
                     int* b_dest) {
  run_search<Policy, bounds::lower, search::index, search::none>(ctx, a, na, b, nb, a_dest, nullptr,
                                                                 mergepath::less<>{});
  run_search<Policy, bounds::lower, search::index_match, search::index_match>(ctx, a, na, b, nb, a_dest, b_dest,
                                                                              mergepath::less<>{});
  run_search<Policy, bounds::upper, search::match, search::index>(ctx, a, na, b, nb, a_dest, b_dest,
                                                                  mergepath::less<>{});
  run_search<Policy, bounds::upper, search::none, search::match>(ctx, a, na, b, nb, nullptr, b_dest,
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
    guarded_device_output<index_t> a_out(na);
    guarded_device_output<int> b_out(nb);
    mergepath::sorted_search(ctx, da.data(), na, db.data(), nb, a_out.dest());
    search_unsorted<void>(ctx, da.data(), na, db.data(), nb, a_out.dest(), b_out.dest());
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
