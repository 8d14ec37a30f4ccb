// The load-balancing family on a cuda_context: the suites of suites/load_balance.hpp, and what
// only the GPU backend has (the tiles' splits, output and value alignments, the reductions' fix-up
// and streaming paths and the choice among them, malformed starts under compute-sanitizer, graph
// capture). MERGEPATH_TEST_MAX_SIZE caps the sizes (compute-sanitizer runs).
#include <gtest/gtest.h>
#include <thrust/device_ptr.h>

#include <mergepath/load_balance.hpp>
#include <random>
#include <vector>

#include "gpu_util.cuh"
#include "suites/load_balance.hpp"

namespace mergepath_test {
namespace {

using mergepath::cuda_context;

INSTANTIATE_TYPED_TEST_SUITE_P(Gpu, LoadBalance, on_gpu<start_cases>);
INSTANTIATE_TYPED_TEST_SUITE_P(Gpu, LoadBalanceCalls, on_gpu<>);

template <class Start>
struct GpuLoadBalance : gpu_test {};
using start_types = ::testing::Types<std::int32_t, std::int64_t>;
TYPED_TEST_SUITE(GpuLoadBalance, start_types);

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
  MERGEPATH_CUDA_CHECK(
      cudaMemcpy(got.data(), path.splits.data(), sizeof(index_t) * got.size(), cudaMemcpyDeviceToHost));
  for (index_t t = 0; t <= num_tiles; ++t) {
    const index_t diag = std::min(t * tile_items, count + num_segments);
    ASSERT_EQ(got[static_cast<std::size_t>(t)], mergepath::load_balance_split(starts.data(), num_segments, count, diag))
        << "tile " << t << " of " << num_tiles;
  }
}

TYPED_TEST(GpuLoadBalance, SplitsMatchMergePath) {
  cuda_context ctx;
  for_each_segment_case<TypeParam>(load_balance_counts<gpu_backend>(), 5, [&](const segment_case<TypeParam>& c) {
    if (c.count == 0) return;
    ASSERT_NO_FATAL_FAILURE(
        expect_splits_match_merge_path<mergepath::load_balancing_search_policy>(ctx, c.starts, c.count));
    ASSERT_NO_FATAL_FAILURE(expect_splits_match_merge_path<mergepath::interval_expand_policy>(ctx, c.starts, c.count));
  });
}

// The tiles store chunks of eight items where the output is a 16-byte aligned array, and item by
// item elsewhere: outputs one item off that alignment, and through an iterator, take the second
// way. 8-byte search outputs regroup whole warp rounds in shared memory, aligned or not.
TYPED_TEST(GpuLoadBalance, SearchAndExpandIntoUnalignedOutputs) {
  cuda_context ctx;
  for_each_segment_case<TypeParam>(load_balance_counts<gpu_backend>(), 3, [&](const segment_case<TypeParam>& c) {
    const std::vector<std::int32_t> segment32 = as_vector<std::int32_t>(c.segment);
    const expand_case<std::int16_t> expand(c, [](std::size_t s) { return static_cast<std::int16_t>(s * 5 + 3); });
    const device_vector<TypeParam> starts(c.starts);
    auto search = [&](auto out) { mergepath::load_balancing_search(ctx, c.count, starts.data(), c.num_segments, out); };
    for (std::size_t offset : {0, 1}) {
      SCOPED_TRACE(::testing::Message() << "output at offset " << offset);
      ASSERT_NO_FATAL_FAILURE(check_written(ctx, segment32, search, offset)) << "int32 output";
      ASSERT_NO_FATAL_FAILURE(check_written(ctx, c.segment, search, offset)) << "int64 output";
    }
    ASSERT_NO_FATAL_FAILURE(check_written(ctx, segment32, [&](std::int32_t* out) {
      search(thrust::device_pointer_cast(out));
    })) << "through an iterator";
    ASSERT_NO_FATAL_FAILURE(check_interval_expand(ctx, c, expand, 1)) << "int16 values one item off";
  });
}

// 8- and 16-byte values (the shared suite's are 4 bytes): a tile's values arrive in shared memory
// beside its starts, at every alignment its first segment gives them; tiles of more starts than
// that room read them directly.
TYPED_TEST(GpuLoadBalance, IntervalExpandEachValueSize) {
  cuda_context ctx;
  for_each_segment_case<TypeParam>(load_balance_counts<gpu_backend>(), 4, [&](const segment_case<TypeParam>& c) {
    ASSERT_NO_FATAL_FAILURE(check_interval_expand(
        ctx, c, expand_case<long long>(c, [](std::size_t s) { return static_cast<long long>(s) * 7 + 1; })));
    ASSERT_NO_FATAL_FAILURE(check_interval_expand(
        ctx, c, expand_case<double>(c, [](std::size_t s) { return static_cast<double>(s) * 0.5; })));
    ASSERT_NO_FATAL_FAILURE(check_interval_expand(ctx, c, expand_case<four_ints>(c, [](std::size_t s) {
                                                    const int x = static_cast<int>(s);
                                                    return four_ints{{x, x + 1, -x, x * 7}};
                                                  })));
  });
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
  for_each_segment_case<TypeParam>(load_balance_counts<gpu_backend>(), 7, [&](const segment_case<TypeParam>& c) {
    std::vector<int> values(static_cast<std::size_t>(c.count) + 1);
    std::vector<double> halves(static_cast<std::size_t>(c.count));
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int>(i % 1000) - 500;
    for (std::size_t i = 0; i < halves.size(); ++i) halves[i] = static_cast<double>(i % 77) * 0.5;
    auto at = [&](std::size_t shift) {
      return [&, shift](index_t i) { return values[static_cast<std::size_t>(i) + shift]; };
    };
    const device_vector<TypeParam> starts(c.starts);
    const device_vector<int> d_values(values);
    const device_vector<double> d_halves(halves);
    auto reduce = [&](const auto* in, auto init) {
      return [&, in, init](auto out) {
        mergepath::segmented_reduce(ctx, in, c.count, starts.data(), c.num_segments, out, init);
      };
    };
    ASSERT_NO_FATAL_FAILURE(
        check_written(ctx, reference_segmented_reduce<int>(c.count, c.starts, at(0), 0, mergepath::plus<>{}),
                      reduce(d_values.data(), 0)))
        << "aligned ints";
    ASSERT_NO_FATAL_FAILURE(
        check_written(ctx, reference_segmented_reduce<int>(c.count, c.starts, at(1), 0, mergepath::plus<>{}),
                      reduce(d_values.data() + 1, 0)))
        << "misaligned ints";
    // Sums of halves below 2^52 are exact in any order.
    ASSERT_NO_FATAL_FAILURE(
        check_written(ctx,
                      reference_segmented_reduce<double>(
                          c.count, c.starts, [&](index_t i) { return halves[static_cast<std::size_t>(i)]; }, 0.0,
                          mergepath::plus<>{}),
                      reduce(d_halves.data(), 0.0)))
        << "doubles";
    const auto wide = reference_segmented_reduce<two_sums>(
        c.count, c.starts,
        [&](index_t i) {
          const long long v = values[static_cast<std::size_t>(i)];
          return two_sums{v, 2 * v + i};
        },
        two_sums{0, 0}, add_two_sums{});
    ASSERT_NO_FATAL_FAILURE(check_written(ctx, wide, [&](two_sums* out) {
      mergepath::transform_segmented_reduce(ctx, two_sums_of{d_values.data()}, c.count, starts.data(), c.num_segments,
                                            out, two_sums{0, 0}, add_two_sums{});
    })) << "16-byte values by a transform";
  });
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
  const std::vector<index_t> counts = sorted_unique_capped({98303, 98305, (3 << 20) + 17});
  for_each_segment_case<TypeParam>(counts, 7, [&](const segment_case<TypeParam>& c) {
    check_maps_composed(ctx, c, composed_maps(c, 8), [&](auto maps, auto starts, auto out, affine_map identity) {
      mergepath::transform_segmented_reduce<tiny_reduce_policy>(ctx, map_at{maps}, c.count, starts, c.num_segments, out,
                                                                identity, compose_affine{});
    });
  });
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
  const std::vector<index_t> counts =
      sorted_unique_capped({1, 7, mid_sub_tile - 1, mid_sub_tile + 1, long_sub_tile - 1, long_sub_tile,
                            long_sub_tile + 1, 3 * long_sub_tile + 5, 98305, (3 << 20) + 17});
  for_each_segment_case<TypeParam>(counts, 11, [&](const segment_case<TypeParam>& c) {
    std::vector<int> values(static_cast<std::size_t>(c.count));
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int>(i * 7919 % 2001) - 1000;
    // Doubles: halves, whose sums are exact in any order.
    std::vector<double> halves(values.begin(), values.end());
    for (double& h : halves) h /= 2;
    const auto value_at = [&](index_t i) { return values[static_cast<std::size_t>(i)]; };
    const auto sums = reference_segmented_reduce<int>(c.count, c.starts, value_at, 3, mergepath::plus<>{});
    const auto mins = reference_segmented_reduce<int>(c.count, c.starts, value_at, 1 << 30, mergepath::minimum<>{});
    const auto maxs = reference_segmented_reduce<int>(c.count, c.starts, value_at, -(1 << 30), mergepath::maximum<>{});
    const auto half_sums = reference_segmented_reduce<double>(
        c.count, c.starts, [&](index_t i) { return halves[static_cast<std::size_t>(i)]; }, 0.5, mergepath::plus<>{});
    const composed_maps maps(c, 13);
    const device_vector<TypeParam> starts(c.starts);
    const device_vector<int> d_values(values);
    const device_vector<double> d_halves(halves);
    for (index_t max_blocks : {1, 3, 0}) {
      SCOPED_TRACE(::testing::Message() << "max_blocks " << max_blocks);
      // The stream at `policy` over `in`.
      auto stream = [&](auto policy, const auto* in, auto init, auto op) {
        return [&, in, init, op](auto out) {
          mergepath::device::launch_segmented_reduce_stream<decltype(policy)>(
              ctx, in, c.count, starts.data(), c.num_segments, out, init, op, max_blocks);
        };
      };
      const mergepath::segmented_reduce_stream_policy long_shape{};
      const mergepath::segmented_reduce_stream_mid_policy mid_shape{};
      const int* in = d_values.data();
      ASSERT_NO_FATAL_FAILURE(check_written(ctx, sums, stream(long_shape, in, 3, mergepath::plus<>{})));
      ASSERT_NO_FATAL_FAILURE(check_written(ctx, mins, stream(long_shape, in, 1 << 30, mergepath::minimum<>{})));
      ASSERT_NO_FATAL_FAILURE(check_written(ctx, maxs, stream(long_shape, in, -(1 << 30), mergepath::maximum<>{})));
      ASSERT_NO_FATAL_FAILURE(check_written(ctx, sums, stream(mid_shape, in, 3, mergepath::plus<>{})));
      ASSERT_NO_FATAL_FAILURE(check_written(ctx, maxs, stream(mid_shape, in, -(1 << 30), mergepath::maximum<>{})));
      ASSERT_NO_FATAL_FAILURE(
          check_written(ctx, sums, stream(stream_policy_without_one_start_reduce{}, in, 3, mergepath::plus<>{})));
      ASSERT_NO_FATAL_FAILURE(
          check_written(ctx, half_sums, stream(long_shape, d_halves.data(), 0.5, mergepath::plus<>{})));
      ASSERT_NO_FATAL_FAILURE(check_maps_composed(ctx, c, maps, [&](auto m, auto s, auto out, affine_map identity) {
        mergepath::device::launch_segmented_reduce_stream(ctx, m, c.count, s, c.num_segments, out, identity,
                                                          compose_affine{}, max_blocks);
      }));
    }
  });
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
      const device_vector<int> d_starts(starts), d_values(values);
      ASSERT_NO_FATAL_FAILURE(check_written(
          ctx,
          reference_segmented_reduce<int>(
              count, starts, [&](index_t i) { return values[static_cast<std::size_t>(i)]; }, 0, mergepath::plus<>{}),
          [&](int* out) {
            mergepath::segmented_reduce(ctx, d_values.data(), count, d_starts.data(),
                                        static_cast<index_t>(starts.size()), out, 0);
          }));
    }
}

// Malformed starts, unchecked: some result, every segment passed to f in range, nothing outside
// the arrays touched (compute-sanitizer's memcheck watches the accesses).
TEST_F(gpu_test, LoadBalanceMalformedStartsStayInBounds) {
  cuda_context ctx;
  std::mt19937_64 rng(case_seed({31}));
  for (index_t count : {index_t{1}, index_t{100}, lbs_tile + 5, index_t{50000}}) {
    for (int variant = 0; variant < 4; ++variant) {
      SCOPED_TRACE(::testing::Message() << "count " << count << " variant " << variant << " seed " << base_seed());
      auto starts = make_segment_starts<int>(starts_shape::mean_4, count, case_seed({count, variant}));
      for (auto& s : starts) {
        if (variant == 0) s = static_cast<int>(rng() % (2 * count + 1)) - static_cast<int>(count / 2);  // random
        if (variant == 1) s = static_cast<int>(count) - s;                                              // decreasing
        if (variant == 2) s += static_cast<int>(count / 3 + 1);                                         // past count
      }
      if (variant == 3) starts.assign(starts.size(), static_cast<int>(count + 7));  // all past the end
      const auto num_segments = static_cast<index_t>(starts.size());
      device_vector<int> d_starts(starts);
      device_vector<int> bad(std::vector<int>{0});
      device_vector<int> out(static_cast<std::size_t>(count));
      device_vector<long long> sums(starts.size());
      device_vector<int> values(std::vector<int>(static_cast<std::size_t>(count), 1));
      mergepath::transform_lbs(ctx, count_bad_calls{num_segments, count, bad.data()}, count, d_starts.data(),
                               num_segments);
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
  auto starts = make_segment_starts<int>(starts_shape::mean_4, count, case_seed({41}));
  const auto num_segments = static_cast<index_t>(starts.size());
  std::vector<int> values(static_cast<std::size_t>(count));
  for (index_t i = 0; i < count; ++i) values[static_cast<std::size_t>(i)] = static_cast<int>(i % 97);
  const auto value_at = [&](index_t i) { return values[static_cast<std::size_t>(i)]; };
  device_vector<int> d_starts(starts), d_values(values), segments(static_cast<std::size_t>(count));
  device_vector<long long> sums(starts.size());
  // Long segments take the streaming path, whose last block clears the context's counter.
  auto long_starts = make_segment_starts<int>(starts_shape::mean_10000, count, case_seed({42}));
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
    SCOPED_TRACE(::testing::Message() << "replay " << replay);
    segments.fill_poison(), sums.fill_poison(), long_sums.fill_poison();
    MERGEPATH_CUDA_CHECK(cudaGraphLaunch(exec, ctx.stream()));
    ctx.synchronize();
    ASSERT_TRUE(ranges_equal(as_vector<int>(reference_segments(count, starts)), segments.download()));
    ASSERT_TRUE(ranges_equal(reference_segmented_reduce<long long>(count, starts, value_at, 0LL, mergepath::plus<>{}),
                             sums.download()));
    ASSERT_TRUE(ranges_equal(reference_segmented_reduce<int>(count, long_starts, value_at, 0, mergepath::plus<>{}),
                             long_sums.download()));
  }
  MERGEPATH_CUDA_CHECK(cudaGraphExecDestroy(exec));
  MERGEPATH_CUDA_CHECK(cudaGraphDestroy(graph));
}

}  // namespace
}  // namespace mergepath_test
