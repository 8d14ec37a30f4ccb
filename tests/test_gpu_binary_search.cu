// binary_search, eytzinger_layout, eytzinger_search, batch_search and eytzinger_index on a
// cuda_context: the suites of suites/binary_search.hpp, and what only the GPU backend has (every
// kind of needle sort, 2^22 needles into 2^22 keys, the kernels' evict-first reads,
// eytzinger_shape in device code, an index searched with the other kind of context, a CUDA graph).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <memory>
#include <mergepath/binary_search.hpp>
#include <mergepath/mergepath.hpp>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "gpu_util.cuh"
#include "suites/binary_search.hpp"

namespace mergepath_test {
namespace {

INSTANTIATE_TYPED_TEST_SUITE_P(Gpu, BinarySearch, on_gpu<bsearch_key_cases>);
INSTANTIATE_TYPED_TEST_SUITE_P(Gpu, BinarySearchCalls, on_gpu<>);

// ---------------------------------------------------------------------------------------------
// Inputs only the GPU takes

// Many needles into small haystacks, every strategy (check_cases runs sort_then_search by name,
// as well as automatic, which picks per_needle here: search_strategy_for sorts only for haystacks
// of 2^23 keys and up on the GPU): a descending radix sort, the mergesort of arithmetic keys, an
// unsigned radix sort. (The 2^22 test below covers int32 under less and points.)
class GpuBatchSearch : public gpu_test {};

template <class Key, class Comp>
void check_many_needles(index_t haystack_count, haystack_distribution d, Comp comp) {
  const index_t n = (index_t{1} << 20) + 3;
  ASSERT_EQ(mergepath::search_strategy_for(true, n, haystack_count), search_strategy::per_needle);
  ASSERT_NO_FATAL_FAILURE(
      check_cases<Key>(gpu_backend::contexts(),
                       {{haystack_count, n, d, case_seed({haystack_count, n, 620, static_cast<int>(d)})}}, comp));
}

TEST_F(GpuBatchSearch, ManyNeedlesSortedByEveryKind) {
  ASSERT_NO_FATAL_FAILURE(check_many_needles<double>(1000, haystack_distribution::uniform, mergepath::greater<>{}));
  ASSERT_NO_FATAL_FAILURE(
      check_many_needles<std::int32_t>(70001, haystack_distribution::few_distinct, reverse_order{}));
  ASSERT_NO_FATAL_FAILURE(
      check_many_needles<std::uint32_t>(70001, haystack_distribution::uniform, mergepath::less<>{}));
}

// 2^22 needles into 2^22 keys on every path, lower bounds into int32 and upper into int64: int32
// keys (radix-sorted needles), and points under point_x_less (mergesorted needles, ties).
class GpuBinarySearchScale : public gpu_test {};

TEST_F(GpuBinarySearchScale, TwoToThe22NeedlesInto2ToThe22) {
  const index_t n = index_t{1} << 22;
  if (n > max_test_size()) GTEST_SKIP() << "over MERGEPATH_TEST_MAX_SIZE";
  const auto contexts = gpu_backend::contexts();
  ASSERT_NO_FATAL_FAILURE((check_cases<std::int32_t, std::int32_t, std::int64_t>(
      contexts, {{n, n, haystack_distribution::uniform, case_seed({630})}}, mergepath::less<>{})));
  ASSERT_NO_FATAL_FAILURE((check_cases<point, std::int32_t, std::int64_t>(
      contexts, {{n, n, haystack_distribution::uniform, case_seed({631})}}, point_x_less{})));
}

// The evict-first loads (detail/cache_hint.cuh) are taken only for haystacks and trees larger than
// L2; here the kernels take them from the first step on, for 4- and 8-byte keys (point, a
// struct of 8 bytes, is read through the hinted 8-byte load too).
class GpuSearchCacheHints : public gpu_test {};

template <class Key, class Comp>
void check_evict_first_reads(mergepath::cuda_context& ctx, Comp comp) {
  SCOPED_TRACE(sizeof(Key));
  const bsearch_case c{5000, 3001, haystack_distribution::few_distinct,
                       case_seed({640, static_cast<int>(sizeof(Key))})};
  const bsearch_input<Key> in = make_bsearch_input<Key>(c, comp);
  const device_vector<Key> haystack(in.haystack), needles(in.needles);
  const std::vector<std::int64_t> expected =
      converted<std::int64_t>(std_bounds<bounds::lower>(in.haystack, in.needles, comp));
  device_vector<std::int64_t> out(static_cast<std::size_t>(c.needle_count) + 2 * guard_items);
  std::int64_t* o = out.data() + guard_items;
  using key_ptr = const Key*;
  // Both index types of each kernel: the 64-bit ones serve haystacks past 2^31 (trees past 2^30).
  auto binary_with = [&](auto count) {
    out.fill_poison();
    mergepath::kernel::binary_search_kernel<bounds::lower, decltype(count), key_ptr, key_ptr, std::int64_t*, Comp>
        <<<4, 256, 0, ctx.stream()>>>(needles.data(), c.needle_count, haystack.data(), count, o, comp, 0);
    MERGEPATH_CUDA_CHECK(cudaGetLastError());
    ctx.synchronize();
    ASSERT_TRUE(guarded_equal(expected, out.download())) << "binary_search_kernel, " << sizeof(count);
  };
  ASSERT_NO_FATAL_FAILURE(binary_with(static_cast<std::int32_t>(c.haystack_count)));
  ASSERT_NO_FATAL_FAILURE(binary_with(static_cast<index_t>(c.haystack_count)));
  device_vector<Key> tree(static_cast<std::size_t>(c.haystack_count));
  mergepath::eytzinger_layout(ctx, haystack.data(), c.haystack_count, tree.data());
  auto eytzinger_with = [&](auto node, index_t cached) {
    out.fill_poison();
    mergepath::kernel::eytzinger_search_kernel<bounds::lower, decltype(node), key_ptr, key_ptr, std::int64_t*, Comp>
        <<<4, 256, cached * sizeof(Key), ctx.stream()>>>(needles.data(), c.needle_count, tree.data(), c.haystack_count,
                                                         cached, 0, o, comp);
    MERGEPATH_CUDA_CHECK(cudaGetLastError());
    ctx.synchronize();
    ASSERT_TRUE(guarded_equal(expected, out.download()))
        << "eytzinger_search_kernel, " << sizeof(node) << "-byte nodes, cached " << cached;
  };
  for (index_t cached : {0, 7}) {
    ASSERT_NO_FATAL_FAILURE(eytzinger_with(std::uint32_t{}, cached));
    ASSERT_NO_FATAL_FAILURE(eytzinger_with(index_t{}, cached));
  }
}

TEST_F(GpuSearchCacheHints, EvictFirstReadsFindTheSameBounds) {
  mergepath::cuda_context ctx;
  ASSERT_NO_FATAL_FAILURE(check_evict_first_reads<std::int32_t>(ctx, mergepath::less<>{}));
  ASSERT_NO_FATAL_FAILURE(check_evict_first_reads<std::uint32_t>(ctx, mergepath::greater<>{}));
  ASSERT_NO_FATAL_FAILURE(check_evict_first_reads<float>(ctx, mergepath::less<>{}));
  ASSERT_NO_FATAL_FAILURE(check_evict_first_reads<std::int64_t>(ctx, mergepath::less<>{}));
  ASSERT_NO_FATAL_FAILURE(check_evict_first_reads<double>(ctx, mergepath::greater<>{}));
  ASSERT_NO_FATAL_FAILURE(check_evict_first_reads<point>(ctx, point_x_less{}));
}

// ---------------------------------------------------------------------------------------------
// eytzinger_shape in device code

// For each count c in [0, counts): node_of(i) for every i at node_of + c(c-1)/2, sorted_index(k)
// for every k at sorted_index + c(c-1)/2 + k - 1.
__global__ void shape_kernel(index_t counts, index_t* node_of, index_t* sorted_index) {
  for (index_t c = blockIdx.x; c < counts; c += gridDim.x) {
    const mergepath::eytzinger_shape shape(c);
    const index_t base = c * (c - 1) / 2;
    for (index_t i = threadIdx.x; i < c; i += blockDim.x) {
      node_of[base + i] = shape.node_of(i);
      sorted_index[base + i] = shape.sorted_index(i + 1);
    }
  }
}

// shape(count[j]): results[2j] = sorted_index(arg[j]) when which[j] is 0, else node_of(arg[j]).
__global__ void sampled_shape_kernel(const index_t* count, const index_t* arg, const int* which, index_t n,
                                     index_t* results) {
  for (index_t j = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; j < n;
       j += static_cast<index_t>(gridDim.x) * blockDim.x) {
    const mergepath::eytzinger_shape shape(count[j]);
    results[j] = which[j] == 0 ? shape.sorted_index(arg[j]) : shape.node_of(arg[j]);
  }
}

class GpuEytzingerShape : public gpu_test {};

// The device spellings (__clzll, __ffsll) give what the host's give (which HostEytzingerShape
// checks against the recursive construction), and invert each other, for every count to 2000.
TEST_F(GpuEytzingerShape, DeviceMatchesHostForEveryCountTo2000) {
  const index_t counts = 2001, total = counts * (counts - 1) / 2;
  device_vector<index_t> node_of(static_cast<std::size_t>(total)), sorted_index(static_cast<std::size_t>(total));
  shape_kernel<<<256, 128>>>(counts, node_of.data(), sorted_index.data());
  MERGEPATH_CUDA_CHECK(cudaGetLastError());
  const std::vector<index_t> got_node = node_of.download(), got_sorted = sorted_index.download();
  for (index_t c = 0; c < counts; ++c) {
    SCOPED_TRACE(::testing::Message() << "count " << c);
    const mergepath::eytzinger_shape shape(c);
    const std::vector<index_t> reference = eytzinger_reference_indices(c);
    const std::size_t base = static_cast<std::size_t>(c * (c - 1) / 2);
    for (index_t i = 0; i < c; ++i) {
      const std::size_t at = base + static_cast<std::size_t>(i);
      ASSERT_EQ(got_node[at], shape.node_of(i)) << "node_of(" << i << ")";
      ASSERT_EQ(got_sorted[at], reference[static_cast<std::size_t>(i)]) << "sorted_index(" << i + 1 << ")";
      ASSERT_GE(got_node[at], 1);
      ASSERT_LE(got_node[at], c);
      ASSERT_EQ(got_sorted[base + static_cast<std::size_t>(got_node[at] - 1)], i)
          << "sorted_index(node_of(" << i << "))";
    }
  }
}

TEST_F(GpuEytzingerShape, HugeCountsMatchTheHost) {
  std::mt19937_64 rng(case_seed({640}));
  SCOPED_TRACE("MERGEPATH_TEST_SEED=" + std::to_string(base_seed()));
  std::vector<index_t> count, arg, expected;
  std::vector<int> which;
  for (index_t n : {(index_t{1} << 31) + 12345, (index_t{1} << 32) - 1, index_t{1} << 32, (index_t{1} << 40) + 3,
                    (index_t{1} << 61) + 7, (index_t{1} << 62) - 1}) {
    const mergepath::eytzinger_shape shape(n);
    for (int s = 0; s < 1000; ++s) {
      const index_t k = s < 2 ? (s == 0 ? 1 : n) : std::uniform_int_distribution<index_t>(1, n)(rng);
      const index_t i = s < 2 ? (s == 0 ? 0 : n - 1) : std::uniform_int_distribution<index_t>(0, n - 1)(rng);
      count.insert(count.end(), {n, n});
      arg.insert(arg.end(), {k, i});
      which.insert(which.end(), {0, 1});
      expected.insert(expected.end(), {shape.sorted_index(k), shape.node_of(i)});
    }
  }
  const index_t n = static_cast<index_t>(count.size());
  device_vector<index_t> d_count(count), d_arg(arg), results(static_cast<std::size_t>(n));
  device_vector<int> d_which(which);
  sampled_shape_kernel<<<32, 256>>>(d_count.data(), d_arg.data(), d_which.data(), n, results.data());
  MERGEPATH_CUDA_CHECK(cudaGetLastError());
  EXPECT_TRUE(ranges_equal(expected, results.download()));
}

// ---------------------------------------------------------------------------------------------
// An index searched with the other kind of context

class GpuEytzingerIndex : public gpu_test {};

// An index built on the host refuses a cuda_context, and one built on the GPU a host_context.
TEST_F(GpuEytzingerIndex, RefusesTheOtherContext) {
  mergepath::cuda_context gpu;
  mergepath::host_context cpu;
  const std::vector<int> keys{1, 3, 5, 7}, needles{0, 4, 8};
  device_vector<int> d_keys(keys), d_needles(needles);
  device_vector<index_t> d_out(3);
  d_out.fill_poison();
  std::vector<index_t> h_out(3, -1);

  const mergepath::eytzinger_index<int> on_host(cpu, keys.data(), 4);
  EXPECT_FALSE(on_host.on_device());
  expect_invalid_argument([&] { on_host.search(gpu, d_needles.data(), 3, d_out.data()); }, "eytzinger_index::search");
  expect_invalid_argument([&] { on_host.search<bounds::upper>(gpu, d_needles.data(), 3, d_out.data()); },
                          "lives on the host");

  const mergepath::eytzinger_index<int> on_device(gpu, d_keys.data(), 4);
  EXPECT_TRUE(on_device.on_device());
  expect_invalid_argument([&] { on_device.search(cpu, needles.data(), 3, h_out.data()); }, "eytzinger_index::search");
  expect_invalid_argument([&] { on_device.search<bounds::upper>(cpu, needles.data(), 3, h_out.data()); },
                          "lives on the GPU");
  gpu.synchronize();
  EXPECT_TRUE(untouched(d_out.download(), 0, 3));
  EXPECT_EQ(h_out, (std::vector<index_t>{-1, -1, -1}));

  // Each still works with its own kind.
  on_host.search(cpu, needles.data(), 3, h_out.data());
  EXPECT_EQ(h_out, (std::vector<index_t>{0, 2, 4}));
  on_device.search(gpu, d_needles.data(), 3, d_out.data());
  gpu.synchronize();
  EXPECT_EQ(d_out.download(), (std::vector<index_t>{0, 2, 4}));
}

// ---------------------------------------------------------------------------------------------
// A CUDA graph: searches captured once (every path, both sorting paths of batch_search), replayed
// on new needles each time.

class GpuBinarySearchGraph : public gpu_test {};

TEST_F(GpuBinarySearchGraph, SearchesCapturedInGraph) {
  mergepath::cuda_context ctx;
  const index_t h = 100003, n = 70001;
  const bsearch_case hay_case{h, 0, haystack_distribution::uniform, case_seed({660})};
  const bsearch_input<int> ints = make_bsearch_input<int>(hay_case, mergepath::less<>{});
  const bsearch_input<point> points = make_bsearch_input<point>(hay_case, point_x_less{});
  device_vector<int> int_hay(ints.haystack), int_tree(static_cast<std::size_t>(h)),
      int_needles(static_cast<std::size_t>(n));
  device_vector<point> point_hay(points.haystack), point_needles(static_cast<std::size_t>(n));
  mergepath::eytzinger_layout(ctx, int_hay.data(), h, int_tree.data());
  const mergepath::eytzinger_index<point, point_x_less> point_index(ctx, point_hay.data(), h);
  ctx.synchronize();
  constexpr int paths = 7;
  std::deque<device_vector<index_t>> outs;  // device_vector does not move
  for (int p = 0; p < paths; ++p) outs.emplace_back(static_cast<std::size_t>(n));

  const captured_graph graph(ctx.stream(), [&] {
    mergepath::binary_search(ctx, int_needles.data(), n, int_hay.data(), h, outs[0].data());
    mergepath::eytzinger_search<bounds::upper>(ctx, int_needles.data(), n, int_tree.data(), h, outs[1].data());
    mergepath::batch_search(ctx, int_needles.data(), n, int_hay.data(), h, outs[2].data(), mergepath::less<>{},
                            search_strategy::sort_then_search);  // radix sort
    mergepath::batch_search<bounds::upper>(ctx, point_needles.data(), n, point_hay.data(), h, outs[3].data(),
                                           point_x_less{}, search_strategy::sort_then_search);  // mergesort
    mergepath::batch_search(ctx, point_needles.data(), n, point_hay.data(), h, outs[4].data(), point_x_less{},
                            search_strategy::per_needle);
    point_index.search<bounds::upper>(ctx, point_needles.data(), n, outs[5].data());
    view_search<bounds::lower>(ctx, point_index.view(), point_needles.data(), n, outs[6].data());
  });

  for (int replay = 0; replay < 3; ++replay) {
    std::mt19937_64 rng(case_seed({661, replay}));
    bsearch_input<int> int_in = ints;
    bsearch_input<point> point_in = points;
    for (index_t i = 0; i < n; ++i) {
      std::int64_t rank = std::uniform_int_distribution<std::int64_t>(0, 4 * h + 8)(rng);
      int_in.needles.push_back(key_from_rank<int>(rank));
      point_in.needles.push_back(key_from_rank<point>(rank));
    }
    SCOPED_TRACE(::testing::Message() << "replay " << replay << " (MERGEPATH_TEST_SEED=" << base_seed() << ")");
    // New needles, ordered before the replay on the same stream.
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(int_needles.data(), int_in.needles.data(), n * sizeof(int),
                                         cudaMemcpyHostToDevice, ctx.stream()));
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(point_needles.data(), point_in.needles.data(), n * sizeof(point),
                                         cudaMemcpyHostToDevice, ctx.stream()));
    graph.launch();
    ctx.synchronize();
    const std::vector<index_t> int_lower =
        std_bounds<bounds::lower>(int_in.haystack, int_in.needles, mergepath::less<>{});
    const std::vector<index_t> int_upper =
        std_bounds<bounds::upper>(int_in.haystack, int_in.needles, mergepath::less<>{});
    const std::vector<index_t> point_lower =
        std_bounds<bounds::lower>(point_in.haystack, point_in.needles, point_x_less{});
    const std::vector<index_t> point_upper =
        std_bounds<bounds::upper>(point_in.haystack, point_in.needles, point_x_less{});
    EXPECT_TRUE(ranges_equal(int_lower, outs[0].download())) << "binary_search";
    EXPECT_TRUE(ranges_equal(int_upper, outs[1].download())) << "eytzinger_search";
    EXPECT_TRUE(ranges_equal(int_lower, outs[2].download())) << "batch_search, radix sort";
    EXPECT_TRUE(ranges_equal(point_upper, outs[3].download())) << "batch_search, mergesort";
    EXPECT_TRUE(ranges_equal(point_lower, outs[4].download())) << "batch_search per_needle";
    EXPECT_TRUE(ranges_equal(point_upper, outs[5].download())) << "eytzinger_index::search";
    EXPECT_TRUE(ranges_equal(point_lower, outs[6].download())) << "view in a kernel";
  }
}

}  // namespace
}  // namespace mergepath_test
