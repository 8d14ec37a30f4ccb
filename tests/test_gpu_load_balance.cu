// The load-balancing family on the GPU against the sequential references: every segment shape,
// sizes around the tiles, int32 and int64 starts, a non-commutative reduction, malformed starts,
// checked mode and graph capture. MERGEPATH_TEST_MAX_SIZE caps the sizes (compute-sanitizer runs).
#include <gtest/gtest.h>

#include <mergepath/load_balance.hpp>
#include <thrust/device_ptr.h>
#include <vector>

#include "gpu_util.cuh"
#include "load_balance_util.hpp"

namespace mergepath_test {
namespace {

using mergepath::cuda_context;

template <class T>
void expect_equal_vectors(const std::vector<T>& got, const std::vector<T>& expected) {
  EXPECT_EQ(got.size(), expected.size());
  EXPECT_TRUE(ranges_equal(expected, got));
}

constexpr index_t lbs_tile = mergepath::default_transform_lbs_tuning.tile_items();
constexpr index_t search_tile = mergepath::load_balancing_search_tuning.tile_items();
// interval_expand's tile, also the short-segment search's.
constexpr index_t expand_tile = mergepath::interval_expand_tuning.tile_items();
static_assert(mergepath::load_balancing_search_short_tuning.tile_items() == expand_tile, "tile edges: add the search's");
constexpr index_t reduce_tile = mergepath::segmented_reduce_tuning_for(sizeof(int)).tile_items();

std::vector<index_t> gpu_counts() {
  std::vector<index_t> counts = {0, 1, 2, 7, lbs_tile - 1, lbs_tile, lbs_tile + 1, 2 * lbs_tile + 3, search_tile - 1, search_tile, search_tile + 1, expand_tile - 1, expand_tile + 1, reduce_tile - 1, reduce_tile + 1, 12345, 1 << 18,
                                 (3 << 20) + 17};
  std::vector<index_t> capped;
  for (index_t c : counts)
    if (c <= max_test_size()) capped.push_back(c);
  return capped;
}

template <class Start>
struct GpuLoadBalance : gpu_test {};
using start_types = ::testing::Types<std::int32_t, std::int64_t>;
TYPED_TEST_SUITE(GpuLoadBalance, start_types);

// Records each item's segment and rank, and counts its visits.
struct record_visit {
  index_t* segment;
  index_t* rank;
  int* visits;
  __device__ void operator()(index_t i, index_t s, index_t r) const {
    segment[i] = s;
    rank[i] = r;
    atomicAdd(visits + i, 1);
  }
};

TYPED_TEST(GpuLoadBalance, SearchAndTransformMatchReference) {
  cuda_context ctx;
  for (segment_shape shape : all_segment_shapes())
    for (index_t count : gpu_counts()) {
      SCOPED_TRACE(::testing::Message() << shape << " count " << count << " seed " << base_seed());
      auto starts = make_segment_starts<TypeParam>(shape, count, case_seed({count, 1}));
      const auto num_segments = static_cast<index_t>(starts.size());
      const auto expected = reference_segments(count, starts);
      device_vector<TypeParam> d_starts(starts);
      device_vector<std::int32_t> out(static_cast<std::size_t>(count));
      out.fill_poison();
      mergepath::load_balancing_search(ctx, count, d_starts.data(), num_segments, out.data());
      auto got = out.download();
      for (index_t i = 0; i < count; ++i)
        ASSERT_EQ(got[static_cast<std::size_t>(i)], expected[static_cast<std::size_t>(i)]) << "item " << i;
      // 8-byte outputs: whole warp rounds regrouped in shared memory, aligned and one item off.
      device_vector<std::int64_t> out64(static_cast<std::size_t>(count) + 1);
      for (int offset : {0, 1}) {
        out64.fill_poison();
        mergepath::load_balancing_search(ctx, count, d_starts.data(), num_segments, out64.data() + offset);
        auto got64 = out64.download();
        for (index_t i = 0; i < count; ++i)
          ASSERT_EQ(got64[static_cast<std::size_t>(i + offset)], expected[static_cast<std::size_t>(i)])
              << "item " << i << ", int64 output at offset " << offset;
      }

      device_vector<index_t> segment(static_cast<std::size_t>(count)), rank(static_cast<std::size_t>(count));
      device_vector<int> visits(static_cast<std::size_t>(count));
      if (count > 0) MERGEPATH_CUDA_CHECK(cudaMemset(visits.data(), 0, sizeof(int) * count));
      mergepath::transform_lbs(ctx, record_visit{segment.data(), rank.data(), visits.data()}, count, d_starts.data(),
                               num_segments);
      auto got_segment = segment.download();
      auto got_rank = rank.download();
      auto got_visits = visits.download();
      for (index_t i = 0; i < count; ++i) {
        auto k = static_cast<std::size_t>(i);
        ASSERT_EQ(got_visits[k], 1) << "item " << i;
        ASSERT_EQ(got_segment[k], expected[k]) << "item " << i;
        ASSERT_EQ(got_rank[k], i - static_cast<index_t>(starts[static_cast<std::size_t>(expected[k])])) << "item " << i;
      }
    }
}

// The tiles' splits of the path (the merge partition pass over the starts and the items) equal
// merge_path's at every tile edge (at these sizes the starts fit L2: the search takes no samples).
template <class Policy, class Start>
void expect_splits_match_merge_path(cuda_context& ctx, const std::vector<Start>& starts, index_t count) {
  const auto num_segments = static_cast<index_t>(starts.size());
  constexpr index_t tile_items = Policy::tuning.tile_items();
  const index_t num_tiles = mergepath::detail::ceil_div<index_t>(count + num_segments, tile_items);
  device_vector<Start> d_starts(starts);
  auto path = mergepath::device::split_load_balance_path<Policy>(ctx, count, d_starts.data(), num_segments, num_tiles);
  ctx.synchronize();  // the context's stream does not wait for the legacy one, nor it for it
  std::vector<index_t> got(static_cast<std::size_t>(num_tiles + 1));
  MERGEPATH_CUDA_CHECK(cudaMemcpy(got.data(), path.splits.data(), sizeof(index_t) * got.size(), cudaMemcpyDeviceToHost));
  for (index_t t = 0; t <= num_tiles; ++t) {
    const index_t diag = std::min(t * tile_items, count + num_segments);
    ASSERT_EQ(got[static_cast<std::size_t>(t)], mergepath::load_balance_split(starts.data(), num_segments, count, diag))
        << "tile " << t << " of " << num_tiles;
  }
}

TYPED_TEST(GpuLoadBalance, SplitsMatchMergePath) {
  cuda_context ctx;
  for (segment_shape shape : all_segment_shapes())
    for (index_t count : gpu_counts()) {
      if (count == 0) continue;
      SCOPED_TRACE(::testing::Message() << shape << " count " << count << " seed " << base_seed());
      auto starts = make_segment_starts<TypeParam>(shape, count, case_seed({count, 5}));
      expect_splits_match_merge_path<mergepath::load_balancing_search_policy>(ctx, starts, count);
      expect_splits_match_merge_path<mergepath::interval_expand_policy>(ctx, starts, count);
    }
}

// The tiles store chunks of eight items where the output is a 16-byte aligned array, and item by
// item elsewhere: outputs one item off that alignment, and through an iterator, take the second way.
TYPED_TEST(GpuLoadBalance, SearchAndExpandIntoUnalignedOutputs) {
  cuda_context ctx;
  for (segment_shape shape : all_segment_shapes())
    for (index_t count : gpu_counts()) {
      SCOPED_TRACE(::testing::Message() << shape << " count " << count << " seed " << base_seed());
      auto starts = make_segment_starts<TypeParam>(shape, count, case_seed({count, 3}));
      const auto num_segments = static_cast<index_t>(starts.size());
      const auto expected = reference_segments(count, starts);
      std::vector<std::int16_t> values(starts.size());
      for (std::size_t s = 0; s < values.size(); ++s) values[s] = static_cast<std::int16_t>(s * 5 + 3);
      device_vector<TypeParam> d_starts(starts);
      device_vector<std::int16_t> d_values(values);
      device_vector<std::int32_t> out(static_cast<std::size_t>(count) + 1);
      device_vector<std::int16_t> expanded(static_cast<std::size_t>(count) + 1);
      out.fill_poison(), expanded.fill_poison();
      mergepath::load_balancing_search(ctx, count, d_starts.data(), num_segments, out.data() + 1);
      mergepath::interval_expand(ctx, d_values.data(), count, d_starts.data(), num_segments, expanded.data() + 1);
      auto got = out.download();
      auto got_expanded = expanded.download();
      for (index_t i = 0; i < count; ++i) {
        const auto k = static_cast<std::size_t>(i);
        ASSERT_EQ(got[k + 1], expected[k]) << "item " << i;
        ASSERT_EQ(got_expanded[k + 1], values[static_cast<std::size_t>(expected[k])]) << "item " << i;
      }
      // Through an iterator that is not a pointer.
      out.fill_poison();
      mergepath::load_balancing_search(ctx, count, d_starts.data(), num_segments,
                                       thrust::device_pointer_cast(out.data()));
      got = out.download();
      for (index_t i = 0; i < count; ++i)
        ASSERT_EQ(got[static_cast<std::size_t>(i)], expected[static_cast<std::size_t>(i)]) << "item " << i;
    }
}

// A 16-byte value: interval_expand copies a tile's values to shared memory in 16-byte pieces.
struct four_ints {
  int v[4];
  bool operator==(const four_ints& o) const { return v[0] == o.v[0] && v[1] == o.v[1] && v[2] == o.v[2] && v[3] == o.v[3]; }
};

template <class Value, class Start, class MakeValue>
void expand_matches_reference(cuda_context& ctx, MakeValue make_value) {
  for (segment_shape shape : all_segment_shapes())
    for (index_t count : gpu_counts()) {
      SCOPED_TRACE(::testing::Message() << shape << " count " << count << " seed " << base_seed());
      auto starts = make_segment_starts<Start>(shape, count, case_seed({count, 4}));
      const auto segment = reference_segments(count, starts);
      std::vector<Value> values(starts.size());
      for (std::size_t s = 0; s < values.size(); ++s) values[s] = make_value(s);
      device_vector<Start> d_starts(starts);
      device_vector<Value> d_values(values);
      device_vector<Value> expanded(static_cast<std::size_t>(count));
      expanded.fill_poison();
      mergepath::interval_expand(ctx, d_values.data(), count, d_starts.data(), static_cast<index_t>(starts.size()),
                                 expanded.data());
      auto got = expanded.download();
      for (index_t i = 0; i < count; ++i) {
        const auto k = static_cast<std::size_t>(i);
        ASSERT_TRUE(got[k] == values[static_cast<std::size_t>(segment[k])]) << "item " << i;
      }
    }
}

// The tiles' values arrive in shared memory beside their starts (4, 8 and 16-byte types), at every
// alignment a tile's first segment gives them; tiles of more starts than that room read them directly.
TYPED_TEST(GpuLoadBalance, IntervalExpandEachValueSize) {
  cuda_context ctx;
  expand_matches_reference<std::int32_t, TypeParam>(ctx, [](std::size_t s) { return static_cast<std::int32_t>(s * 3 + 1); });
  expand_matches_reference<double, TypeParam>(ctx, [](std::size_t s) { return static_cast<double>(s) * 0.5; });
  expand_matches_reference<four_ints, TypeParam>(ctx, [](std::size_t s) {
    const int x = static_cast<int>(s);
    return four_ints{{x, x + 1, -x, x * 7}};
  });
}

TYPED_TEST(GpuLoadBalance, IntervalExpandGatherScatterMove) {
  cuda_context ctx;
  for (segment_shape shape : all_segment_shapes())
    for (index_t count : gpu_counts()) {
      SCOPED_TRACE(::testing::Message() << shape << " count " << count << " seed " << base_seed());
      auto starts = make_segment_starts<TypeParam>(shape, count, case_seed({count, 2}));
      const auto num_segments = static_cast<index_t>(starts.size());
      const auto segment = reference_segments(count, starts);
      std::vector<long long> values(starts.size());
      for (std::size_t s = 0; s < values.size(); ++s) values[s] = static_cast<long long>(s) * 7 + 1;
      std::vector<index_t> sizes(starts.size()), reversed(starts.size());
      for (std::size_t s = 0; s < starts.size(); ++s)
        sizes[s] = (s + 1 < starts.size() ? static_cast<index_t>(starts[s + 1]) : count) - static_cast<index_t>(starts[s]);
      index_t at = 0;
      for (std::size_t s = starts.size(); s-- > 0;) reversed[s] = at, at += sizes[s];
      std::vector<int> in(static_cast<std::size_t>(count));
      for (index_t i = 0; i < count; ++i) in[static_cast<std::size_t>(i)] = static_cast<int>(i * 3 + 5);

      device_vector<TypeParam> d_starts(starts);
      device_vector<long long> d_values(values);
      device_vector<index_t> d_reversed(reversed);
      device_vector<int> d_in(in);
      device_vector<long long> expanded(static_cast<std::size_t>(count));
      device_vector<int> gathered(static_cast<std::size_t>(count)), scattered(static_cast<std::size_t>(count)),
          moved(static_cast<std::size_t>(count));
      expanded.fill_poison(), gathered.fill_poison(), scattered.fill_poison(), moved.fill_poison();
      mergepath::interval_expand(ctx, d_values.data(), count, d_starts.data(), num_segments, expanded.data());
      mergepath::interval_gather(ctx, d_in.data(), count, d_starts.data(), num_segments, d_reversed.data(),
                                 gathered.data());
      mergepath::interval_scatter(ctx, d_in.data(), count, d_starts.data(), num_segments, d_reversed.data(),
                                  scattered.data());
      mergepath::interval_move(ctx, d_in.data(), count, d_starts.data(), num_segments, d_reversed.data(),
                               d_reversed.data(), moved.data());
      auto e = expanded.download();
      auto g = gathered.download();
      auto sc = scattered.download();
      auto m = moved.download();
      for (index_t i = 0; i < count; ++i) {
        auto k = static_cast<std::size_t>(i);
        auto s = static_cast<std::size_t>(segment[k]);
        auto to = static_cast<std::size_t>(reversed[s] + (i - static_cast<index_t>(starts[s])));
        ASSERT_EQ(e[k], values[s]) << "item " << i;
        ASSERT_EQ(g[k], in[to]) << "item " << i;
        ASSERT_EQ(sc[to], in[k]) << "item " << i;
        ASSERT_EQ(m[to], in[to]) << "item " << i;
      }
    }
}

TYPED_TEST(GpuLoadBalance, SegmentedReduceSumsMinMax) {
  cuda_context ctx;
  for (segment_shape shape : all_segment_shapes())
    for (index_t count : gpu_counts()) {
      SCOPED_TRACE(::testing::Message() << shape << " count " << count << " seed " << base_seed());
      auto starts = make_segment_starts<TypeParam>(shape, count, case_seed({count, 3}));
      const auto num_segments = static_cast<index_t>(starts.size());
      std::vector<int> values(static_cast<std::size_t>(count));
      std::mt19937 rng(static_cast<unsigned>(case_seed({count, 4})));
      for (int& v : values) v = static_cast<int>(rng() % 2001) - 1000;
      auto value_at = [&](index_t i) { return values[static_cast<std::size_t>(i)]; };
      device_vector<TypeParam> d_starts(starts);
      device_vector<int> d_values(values);
      device_vector<long long> sums(starts.size());
      device_vector<int> mins(starts.size()), maxs(starts.size());
      sums.fill_poison(), mins.fill_poison(), maxs.fill_poison();
      mergepath::segmented_reduce(ctx, d_values.data(), count, d_starts.data(), num_segments, sums.data(), 5LL);
      mergepath::segmented_reduce(ctx, d_values.data(), count, d_starts.data(), num_segments, mins.data(), 1 << 30,
                                  mergepath::minimum<>{});
      mergepath::segmented_reduce(ctx, d_values.data(), count, d_starts.data(), num_segments, maxs.data(), -(1 << 30),
                                  mergepath::maximum<>{});
      expect_equal_vectors(sums.download(),
                           reference_segmented_reduce<long long>(count, starts, value_at, 5LL, mergepath::plus<>{}));
      expect_equal_vectors(mins.download(),
                           reference_segmented_reduce<int>(count, starts, value_at, 1 << 30, mergepath::minimum<>{}));
      expect_equal_vectors(maxs.download(),
                           reference_segmented_reduce<int>(count, starts, value_at, -(1 << 30), mergepath::maximum<>{}));
    }
}

// A 16-byte value and its sum.
struct two_sums {
  long long x, y;
  bool operator==(const two_sums& o) const { return x == o.x && y == o.y; }
};
std::ostream& operator<<(std::ostream& os, const two_sums& v) { return os << "{" << v.x << ", " << v.y << "}"; }
struct add_two_sums {
  __host__ __device__ two_sums operator()(const two_sums& l, const two_sums& r) const { return {l.x + r.x, l.y + r.y}; }
};
struct two_sums_of {
  const int* values;
  __device__ two_sums operator()(index_t i) const { return {values[i], 2LL * values[i] + i}; }
};

// A tile copies a plain array's values to shared memory in 16-byte pieces where they line up, one
// by one elsewhere: int sums from an aligned and a misaligned array, doubles, and a 16-byte value
// made by a transform.
TYPED_TEST(GpuLoadBalance, SegmentedReduceReadsAlignedAndMisalignedValues) {
  cuda_context ctx;
  for (segment_shape shape : all_segment_shapes())
    for (index_t count : gpu_counts()) {
      SCOPED_TRACE(::testing::Message() << shape << " count " << count << " seed " << base_seed());
      auto starts = make_segment_starts<TypeParam>(shape, count, case_seed({count, 7}));
      const auto num_segments = static_cast<index_t>(starts.size());
      std::vector<int> values(static_cast<std::size_t>(count) + 1);
      std::vector<double> halves(static_cast<std::size_t>(count));
      for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int>(i % 1000) - 500;
      for (std::size_t i = 0; i < halves.size(); ++i) halves[i] = static_cast<double>(i % 77) * 0.5;
      device_vector<TypeParam> d_starts(starts);
      device_vector<int> d_values(values);
      device_vector<double> d_halves(halves);
      device_vector<int> aligned(starts.size()), misaligned(starts.size());
      device_vector<double> doubles(starts.size());
      aligned.fill_poison(), misaligned.fill_poison(), doubles.fill_poison();
      mergepath::segmented_reduce(ctx, d_values.data(), count, d_starts.data(), num_segments, aligned.data(), 0);
      mergepath::segmented_reduce(ctx, d_values.data() + 1, count, d_starts.data(), num_segments, misaligned.data(), 0);
      mergepath::segmented_reduce(ctx, d_halves.data(), count, d_starts.data(), num_segments, doubles.data(), 0.0);
      auto at = [&](std::size_t shift) {
        return [&, shift](index_t i) { return values[static_cast<std::size_t>(i) + shift]; };
      };
      expect_equal_vectors(aligned.download(), reference_segmented_reduce<int>(count, starts, at(0), 0, mergepath::plus<>{}));
      expect_equal_vectors(misaligned.download(),
                           reference_segmented_reduce<int>(count, starts, at(1), 0, mergepath::plus<>{}));
      device_vector<two_sums> wide(starts.size());
      wide.fill_poison();
      mergepath::transform_segmented_reduce(ctx, two_sums_of{d_values.data()}, count, d_starts.data(), num_segments,
                                            wide.data(), two_sums{0, 0}, add_two_sums{});
      expect_equal_vectors(wide.download(), reference_segmented_reduce<two_sums>(
                                                count, starts,
                                                [&](index_t i) {
                                                  const long long v = values[static_cast<std::size_t>(i)];
                                                  return two_sums{v, 2 * v + i};
                                                },
                                                two_sums{0, 0}, add_two_sums{}));
      // Sums of halves below 2^52 are exact in any order.
      expect_equal_vectors(doubles.download(), reference_segmented_reduce<double>(
                                                   count, starts, [&](index_t i) { return halves[static_cast<std::size_t>(i)]; },
                                                   0.0, mergepath::plus<>{}));
    }
}

// Random affine maps over `shape`, reduced by reduce(maps, starts, num_segments, out, identity):
// their composition, which keeps the items' order, against the sequential reference.
template <class Start, class Reduce>
void expect_maps_composed_in_order(segment_shape shape, index_t count, index_t seed, Reduce reduce) {
  auto starts = make_segment_starts<Start>(shape, count, case_seed({count, seed}));
  auto maps = random_affine_maps(count, case_seed({count, seed + 1}));
  device_vector<Start> d_starts(starts);
  device_vector<affine_map> d_maps(maps);
  device_vector<affine_map> out(starts.size());
  out.fill_poison();
  const affine_map identity{1, 0};
  reduce(d_maps.data(), d_starts.data(), static_cast<index_t>(starts.size()), out.data(), identity);
  expect_equal_vectors(out.download(), reference_segmented_reduce<affine_map>(
                                           count, starts, [&](index_t i) { return maps[static_cast<std::size_t>(i)]; },
                                           identity, compose_affine{}));
}

TYPED_TEST(GpuLoadBalance, SegmentedReduceKeepsTheItemsOrder) {
  cuda_context ctx;
  for (segment_shape shape : all_segment_shapes())
    for (index_t count : gpu_counts()) {
      SCOPED_TRACE(::testing::Message() << shape << " count " << count << " seed " << base_seed());
      expect_maps_composed_in_order<TypeParam>(shape, count, 5, [&](auto maps, auto starts, index_t num_segments,
                                                                    auto out, affine_map identity) {
        mergepath::segmented_reduce(ctx, maps, count, starts, num_segments, out, identity, compose_affine{});
      });
    }
}

// Tiles of 96 steps, so that the fix-up's blocks (1024 tiles each) are many and find their
// prefixes by look-back; the maps' composition checks that the order survives it.
struct tiny_reduce_policy {
  static constexpr mergepath::load_balance_tuning tuning{32, 3};
};
struct map_at {
  const affine_map* maps;
  __device__ affine_map operator()(index_t i) const { return maps[i]; }
};

TYPED_TEST(GpuLoadBalance, SegmentedReduceFixUpAcrossManyBlocks) {
  cuda_context ctx;
  for (segment_shape shape : all_segment_shapes())
    for (index_t count : {index_t{98303}, index_t{98305}, index_t{(3 << 20) + 17}}) {
      if (count > max_test_size()) continue;
      SCOPED_TRACE(::testing::Message() << shape << " count " << count << " seed " << base_seed());
      expect_maps_composed_in_order<TypeParam>(
          shape, count, 7, [&](auto maps, auto starts, index_t num_segments, auto out, affine_map identity) {
            mergepath::transform_segmented_reduce<tiny_reduce_policy>(ctx, map_at{maps}, count, starts, num_segments,
                                                                      out, identity, compose_affine{});
          });
    }
}

struct stream_policy_without_one_start_reduce {
  static constexpr mergepath::segmented_reduce_stream_tuning tuning = [] {
    mergepath::segmented_reduce_stream_tuning t = mergepath::segmented_reduce_stream;
    t.one_start_reduce = false;
    return t;
  }();
};

// The streaming path for long segments, forced on every shape (short segments put thousands of
// starts in a sub-tile) at both of its shapes, with one, three or as many blocks as fit, so that a
// block streams many sub-tiles and carries its open segment across them: int sums, minima and
// maxima (a sub-tile with one start reduced at once), int sums by the walk alone, double sums, and
// the maps' composition for the items' order.
TYPED_TEST(GpuLoadBalance, SegmentedReduceStreamCarriesAcrossSubTiles) {
  cuda_context ctx;
  constexpr index_t long_sub_tile =
      mergepath::segmented_reduce_stream.block_threads * mergepath::segmented_reduce_stream.items_per_thread<int>();
  constexpr index_t mid_sub_tile = mergepath::segmented_reduce_stream_mid.block_threads *
                                   mergepath::segmented_reduce_stream_mid.items_per_thread<int>();
  for (segment_shape shape : all_segment_shapes())
    for (index_t count : {index_t{1}, index_t{7}, mid_sub_tile - 1, mid_sub_tile + 1, long_sub_tile - 1, long_sub_tile,
                          long_sub_tile + 1, 3 * long_sub_tile + 5, index_t{98305}, index_t{(3 << 20) + 17}})
      for (index_t max_blocks : {1, 3, 0}) {
        if (count > max_test_size()) continue;
        SCOPED_TRACE(::testing::Message() << shape << " count " << count << " max_blocks " << max_blocks << " seed "
                                          << base_seed());
        auto starts = make_segment_starts<TypeParam>(shape, count, case_seed({count, 11}));
        const auto num_segments = static_cast<index_t>(starts.size());
        std::vector<int> values(static_cast<std::size_t>(count));
        for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int>(i * 7919 % 2001) - 1000;
        device_vector<TypeParam> d_starts(starts);
        device_vector<int> d_values(values);
        // The stream at `policy` over host_values (on the device as device_values) against the reference.
        auto expect_reduced = [&](auto policy, const auto& host_values, const auto& device_values, auto init, auto op) {
          using T = decltype(init);
          device_vector<T> sums(starts.size());
          sums.fill_poison();
          mergepath::device::launch_segmented_reduce_stream<decltype(policy)>(
              ctx, device_values.data(), count, d_starts.data(), num_segments, sums.data(), init, op, max_blocks);
          const auto value_at = [&](index_t i) { return host_values[static_cast<std::size_t>(i)]; };
          expect_equal_vectors(sums.download(), reference_segmented_reduce<T>(count, starts, value_at, init, op));
        };
        const mergepath::segmented_reduce_stream_policy long_shape{};
        const mergepath::segmented_reduce_stream_mid_policy mid_shape{};
        expect_reduced(long_shape, values, d_values, 3, mergepath::plus<>{});
        expect_reduced(long_shape, values, d_values, 1 << 30, mergepath::minimum<>{});
        expect_reduced(long_shape, values, d_values, -(1 << 30), mergepath::maximum<>{});
        expect_reduced(mid_shape, values, d_values, 3, mergepath::plus<>{});
        expect_reduced(mid_shape, values, d_values, -(1 << 30), mergepath::maximum<>{});
        expect_reduced(stream_policy_without_one_start_reduce{}, values, d_values, 3, mergepath::plus<>{});
        // Doubles: halves, whose sums are exact in any order.
        std::vector<double> halves(values.begin(), values.end());
        for (double& h : halves) h /= 2;
        const device_vector<double> d_halves(halves);
        expect_reduced(long_shape, halves, d_halves, 0.5, mergepath::plus<>{});
        expect_maps_composed_in_order<TypeParam>(shape, count, 13, [&](auto maps, auto d, index_t n, auto out,
                                                                       affine_map identity) {
          mergepath::device::launch_segmented_reduce_stream(ctx, static_cast<const affine_map*>(maps), count, d, n, out,
                                                            identity, compose_affine{}, max_blocks);
        });
      }
}

// segmented_reduce's choice among the tiles and the stream's two shapes, at each crossover of the
// mean segment length +-1 (segments of equal length).
TEST_F(gpu_test, SegmentedReduceAtEachPathsMeanLength) {
  cuda_context ctx;
  for (index_t mean : {mergepath::segmented_reduce_stream_mid.min_mean, mergepath::segmented_reduce_stream.min_mean})
    for (index_t length : {mean - 1, mean, mean + 1}) {
      const index_t count = std::max<index_t>(std::min<index_t>(max_test_size(), 300000) / length, 1) * length;
      SCOPED_TRACE(::testing::Message() << "length " << length << " count " << count);
      std::vector<int> starts;
      for (index_t at = 0; at < count; at += length) starts.push_back(static_cast<int>(at));
      std::vector<int> values(static_cast<std::size_t>(count));
      for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int>(i * 7919 % 2001) - 1000;
      device_vector<int> d_starts(starts), d_values(values), sums(starts.size());
      sums.fill_poison();
      mergepath::segmented_reduce(ctx, d_values.data(), count, d_starts.data(), static_cast<index_t>(starts.size()),
                                  sums.data(), 0);
      expect_equal_vectors(
          sums.download(),
          reference_segmented_reduce<int>(
              count, starts, [&](index_t i) { return values[static_cast<std::size_t>(i)]; }, 0, mergepath::plus<>{}));
    }
}

// y[row] = sum of vals[j] * x[cols[j]] over the row's nonzeros: CSR SpMV.
struct csr_product {
  const double* vals;
  const int* cols;
  const double* x;
  __device__ double operator()(index_t j) const { return vals[j] * x[cols[j]]; }
};

TEST_F(gpu_test, TransformSegmentedReduceFloatSumsWithinRounding) {
  cuda_context ctx;
  const index_t nnz = std::min<index_t>(1 << 20, max_test_size()), cols = 4096;
  auto row_starts = make_segment_starts<int>(segment_shape::mean_300, nnz, case_seed({7}));
  std::mt19937 rng(static_cast<unsigned>(case_seed({8})));
  std::vector<int> col(static_cast<std::size_t>(nnz));
  std::vector<double> val(static_cast<std::size_t>(nnz)), x(static_cast<std::size_t>(cols));
  for (auto& c : col) c = static_cast<int>(rng() % cols);
  for (auto& v : val) v = static_cast<double>(static_cast<int>(rng() % 2001) - 1000) / 1000;
  for (auto& v : x) v = static_cast<double>(rng() % 1000) / 100;
  device_vector<int> d_starts(row_starts), d_col(col);
  device_vector<double> d_val(val), d_x(x), y(row_starts.size());
  mergepath::transform_segmented_reduce(ctx, csr_product{d_val.data(), d_col.data(), d_x.data()}, nnz, d_starts.data(),
                                        static_cast<index_t>(row_starts.size()), y.data(), 0.0);
  auto got = y.download();
  auto expected = reference_segmented_reduce<double>(
      nnz, row_starts,
      [&](index_t j) { return val[static_cast<std::size_t>(j)] * x[static_cast<std::size_t>(col[static_cast<std::size_t>(j)])]; },
      0.0, mergepath::plus<>{});
  for (std::size_t r = 0; r < got.size(); ++r) ASSERT_NEAR(got[r], expected[r], 1e-9 * (1 + std::abs(expected[r]))) << "row " << r;
}

TEST_F(gpu_test, LoadBalanceAllSegmentsEmpty) {
  cuda_context ctx;
  std::vector<int> starts(5000, 0);
  device_vector<int> d_starts(starts);
  device_vector<long long> out(starts.size());
  out.fill_poison();
  mergepath::segmented_reduce(ctx, static_cast<const int*>(nullptr), 0, d_starts.data(), 5000, out.data(), 42LL);
  for (long long v : out.download()) ASSERT_EQ(v, 42);
  mergepath::load_balancing_search(ctx, 0, d_starts.data(), 5000, static_cast<int*>(nullptr));
  ctx.synchronize();
}

TEST_F(gpu_test, LoadBalanceBadArgumentsThrow) {
  cuda_context ctx;
  device_vector<int> starts(std::vector<int>{0, 2, 5});
  device_vector<int> out(8);
  EXPECT_THROW(mergepath::load_balancing_search(ctx, -1, starts.data(), 3, out.data()), std::invalid_argument);
  EXPECT_THROW(mergepath::load_balancing_search(ctx, 8, starts.data(), 0, out.data()), std::invalid_argument);
  EXPECT_THROW(mergepath::load_balancing_search(ctx, 8, static_cast<int*>(nullptr), 3, out.data()),
               std::invalid_argument);
  EXPECT_THROW(mergepath::segmented_reduce(ctx, static_cast<int*>(nullptr), 8, starts.data(), 3, out.data(), 0),
               std::invalid_argument);
}

TEST_F(gpu_test, LoadBalanceCheckedModeNamesTheFirstBadStart) {
  struct bad_case {
    std::vector<int> starts;
    const char* message;
  };
  const bad_case cases[] = {
      {{1, 2, 5}, "segment_starts[0] = 1"},
      {{0, 2, 5, 4, 3}, "segment_starts[3] = 4 is less than segment_starts[2] = 5"},
      {{0, 2, 9, 12}, "segment_starts[2] = 9 is past count = 8"},
  };
  cuda_context ctx;
  for (const bad_case& c : cases) {
    device_vector<int> starts(c.starts);
    device_vector<int> out(8);
    out.fill_poison();
    ctx.set_checked(true);
    try {
      mergepath::load_balancing_search(ctx, 8, starts.data(), static_cast<index_t>(c.starts.size()), out.data());
      ADD_FAILURE() << "no exception for " << c.message;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
    }
    for (int v : out.download()) EXPECT_EQ(v, poison<int>());
    ctx.set_checked(false);
  }
}

// Malformed starts, unchecked: some result, every segment passed to f in range, nothing outside
// the arrays touched (compute-sanitizer's memcheck watches the accesses).
struct check_ranges {
  index_t num_segments;
  index_t count;
  int* bad;
  __device__ void operator()(index_t i, index_t s, index_t r) const {
    if (s < 0 || s >= num_segments || r < 0 || r > i || i >= count) atomicAdd(bad, 1);
  }
};

TEST_F(gpu_test, LoadBalanceMalformedStartsStayInBounds) {
  cuda_context ctx;
  std::mt19937_64 rng(case_seed({31}));
  for (index_t count : {index_t{1}, index_t{100}, lbs_tile + 5, index_t{50000}}) {
    for (int variant = 0; variant < 4; ++variant) {
      SCOPED_TRACE(::testing::Message() << "count " << count << " variant " << variant << " seed " << base_seed());
      auto starts = make_segment_starts<int>(segment_shape::mean_4, count, case_seed({count, variant}));
      for (auto& s : starts) {
        if (variant == 0) s = static_cast<int>(rng() % (2 * count + 1)) - static_cast<int>(count / 2);  // random
        if (variant == 1) s = static_cast<int>(count) - s;                                           // decreasing
        if (variant == 2) s += static_cast<int>(count / 3 + 1);                                       // past count
      }
      if (variant == 3) starts.assign(starts.size(), static_cast<int>(count + 7));  // all past the end
      const auto num_segments = static_cast<index_t>(starts.size());
      device_vector<int> d_starts(starts);
      device_vector<int> bad(std::vector<int>{0});
      device_vector<int> out(static_cast<std::size_t>(count));
      device_vector<long long> sums(starts.size());
      device_vector<int> values(std::vector<int>(static_cast<std::size_t>(count), 1));
      mergepath::transform_lbs(ctx, check_ranges{num_segments, count, bad.data()}, count, d_starts.data(), num_segments);
      mergepath::load_balancing_search(ctx, count, d_starts.data(), num_segments, out.data());
      mergepath::segmented_reduce(ctx, values.data(), count, d_starts.data(), num_segments, sums.data(), 0LL);
      mergepath::interval_expand(ctx, sums.data(), count, d_starts.data(), num_segments, values.data());
      ctx.synchronize();
      EXPECT_EQ(bad.download()[0], 0);
      for (int s : out.download()) ASSERT_TRUE(s >= 0 && s < num_segments);
    }
  }
}

TEST_F(gpu_test, LoadBalanceCapturedInAGraphAndReplayed) {
  cuda_context ctx;
  const index_t count = std::min<index_t>(300000, max_test_size());
  auto starts = make_segment_starts<int>(segment_shape::mean_4, count, case_seed({41}));
  const auto num_segments = static_cast<index_t>(starts.size());
  std::vector<int> values(static_cast<std::size_t>(count));
  for (index_t i = 0; i < count; ++i) values[static_cast<std::size_t>(i)] = static_cast<int>(i % 97);
  device_vector<int> d_starts(starts), d_values(values), segments(static_cast<std::size_t>(count));
  device_vector<long long> sums(starts.size());
  // Long segments take the streaming path, whose last block clears the context's counter.
  auto long_starts = make_segment_starts<int>(segment_shape::mean_10000, count, case_seed({42}));
  device_vector<int> d_long_starts(long_starts), long_sums(long_starts.size());
  cudaGraph_t graph;
  MERGEPATH_CUDA_CHECK(cudaStreamBeginCapture(ctx.stream(), cudaStreamCaptureModeThreadLocal));
  mergepath::load_balancing_search(ctx, count, d_starts.data(), num_segments, segments.data());
  mergepath::segmented_reduce(ctx, d_values.data(), count, d_starts.data(), num_segments, sums.data(), 0LL);
  mergepath::segmented_reduce(ctx, d_values.data(), count, d_long_starts.data(),
                              static_cast<index_t>(long_starts.size()), long_sums.data(), 0);
  MERGEPATH_CUDA_CHECK(cudaStreamEndCapture(ctx.stream(), &graph));
  cudaGraphExec_t exec;
  MERGEPATH_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int replay = 0; replay < 2; ++replay) {
    segments.fill_poison(), sums.fill_poison(), long_sums.fill_poison();
    MERGEPATH_CUDA_CHECK(cudaGraphLaunch(exec, ctx.stream()));
    ctx.synchronize();
    auto expected = reference_segments(count, starts);
    auto got = segments.download();
    for (index_t i = 0; i < count; ++i)
      ASSERT_EQ(got[static_cast<std::size_t>(i)], expected[static_cast<std::size_t>(i)]) << "item " << i;
    expect_equal_vectors(sums.download(), reference_segmented_reduce<long long>(
                                              count, starts, [&](index_t i) { return values[static_cast<std::size_t>(i)]; },
                                              0LL, mergepath::plus<>{}));
    expect_equal_vectors(long_sums.download(),
                         reference_segmented_reduce<int>(
                             count, long_starts, [&](index_t i) { return values[static_cast<std::size_t>(i)]; }, 0,
                             mergepath::plus<>{}));
  }
  MERGEPATH_CUDA_CHECK(cudaGraphExecDestroy(exec));
  MERGEPATH_CUDA_CHECK(cudaGraphDestroy(graph));
}

}  // namespace
}  // namespace mergepath_test
