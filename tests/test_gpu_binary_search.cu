// binary_search, eytzinger_layout, eytzinger_search, batch_search (every strategy: CUB's radix
// sort for arithmetic keys under less / greater, the mergesort otherwise) and eytzinger_index (its
// search, and its view inside a kernel of our own) on a cuda_context, against std::lower_bound /
// std::upper_bound per needle: key types and comparators, haystack sizes at powers of two and
// either side, at the edges of the shared-memory-cached top levels and of the layout's blocks;
// the layout against a recursive in-order construction; eytzinger_shape in device code; the
// searches of the Futhark binary search example; 2^22 needles into 2^22 keys; argument errors;
// an unsorted haystack; a CUDA graph.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <functional>
#include <mergepath/binary_search.hpp>
#include <mergepath/mergepath.hpp>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "binary_search_util.hpp"
#include "gpu_util.cuh"
#include "test_util.hpp"

namespace mergepath_test {
namespace {

// ---------------------------------------------------------------------------------------------
// Helpers

// A device output reused across runs: begin(n) poisons n elements and a guard either side and
// returns where the n start; download(n) brings back all of them (for guarded_equal).
template <class T>
class reusable_output {
 public:
  explicit reusable_output(index_t capacity) : buffer_(static_cast<std::size_t>(capacity) + 2 * guard_items) {}
  T* begin(index_t n) {
    MERGEPATH_CUDA_CHECK(cudaMemset(buffer_.data(), 0xA5, (static_cast<std::size_t>(n) + 2 * guard_items) * sizeof(T)));
    MERGEPATH_CUDA_CHECK(cudaDeviceSynchronize());
    return buffer_.data() + guard_items;
  }
  std::vector<T> download(index_t n) const {
    MERGEPATH_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<T> host(static_cast<std::size_t>(n) + 2 * guard_items);
    MERGEPATH_CUDA_CHECK(cudaMemcpy(host.data(), buffer_.data(), host.size() * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
  }
  index_t capacity() const { return static_cast<index_t>(buffer_.size() - 2 * guard_items); }

 private:
  device_vector<T> buffer_;
};

// count elements at a device pointer, once ctx's work is done.
template <class T>
std::vector<T> download(mergepath::cuda_context& ctx, const T* data, index_t count) {
  ctx.synchronize();
  std::vector<T> host(static_cast<std::size_t>(count));
  if (count > 0) MERGEPATH_CUDA_CHECK(cudaMemcpy(host.data(), data, host.size() * sizeof(T), cudaMemcpyDeviceToHost));
  return host;
}

// A kernel of the user's: out[i] = the view's lower (or upper) bound of needles[i].
template <bounds Bounds, class View, class Needle, class Out>
__global__ void view_search_kernel(View view, const Needle* needles, index_t n, Out* out) {
  for (index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<index_t>(gridDim.x) * blockDim.x)
    out[i] = static_cast<Out>(Bounds == bounds::lower ? view.lower_bound(needles[i]) : view.upper_bound(needles[i]));
}

template <bounds Bounds, class View, class Needle, class Out>
void view_search(mergepath::cuda_context& ctx, View view, const Needle* needles, index_t n, Out* out) {
  if (n == 0) return;
  const unsigned grid = static_cast<unsigned>(std::min<index_t>((n + 255) / 256, 1024));
  view_search_kernel<Bounds><<<grid, 256, 0, ctx.stream()>>>(view, needles, n, out);
  MERGEPATH_CUDA_CHECK(cudaGetLastError());
}

template <class Key>
struct device_bsearch_input {
  device_vector<Key> haystack, needles;
  index_t haystack_count, needle_count;
  explicit device_bsearch_input(const bsearch_input<Key>& in)
      : haystack(in.haystack),
        needles(in.needles),
        haystack_count(static_cast<index_t>(in.haystack.size())),
        needle_count(static_cast<index_t>(in.needles.size())) {}
};

// Haystack sizes that matter to Key's tree on the GPU: the shared-memory-cached top levels (whole
// levels, 2^j - 1 nodes) and one either side, and the layout's blocks and one either side.
template <class Key>
std::vector<index_t> gpu_edge_sizes() {
  constexpr mergepath::binary_search_tuning tuning = mergepath::binary_search_tuning_for(90, sizeof(Key));
  const index_t slots = tuning.cached_tree_bytes / static_cast<index_t>(sizeof(Key));
  index_t cached = 1;
  while (2 * cached + 1 <= slots) cached = 2 * cached + 1;
  const index_t block = tuning.layout_items(sizeof(Key));
  return {cached - 1, cached, cached + 1, block - 1, block, block + 1, 2 * block + 1};
}

// ---------------------------------------------------------------------------------------------
// Checked runs

// Every path, bounds Bounds into Out, against the oracle: binary_search; eytzinger_layout
// (checked against the recursive construction) then eytzinger_search; batch_search with every
// strategy; a device eytzinger_index (its tree checked too), its search, and its view in a kernel.
template <bounds Bounds, class Out, class Key, class Comp>
void check_every_path(mergepath::cuda_context& ctx, const bsearch_input<Key>& in, const device_bsearch_input<Key>& d,
                      Comp comp, reusable_output<Out>& out) {
  SCOPED_TRACE(std::string("bounds ") + to_string(Bounds));
  const std::vector<Out> expected = converted<Out>(std_bounds<Bounds>(in.haystack, in.needles, comp));
  const std::vector<Key> expected_tree = eytzinger_reference(in.haystack);
  const index_t n = d.needle_count, h = d.haystack_count;
  const Key* needles = d.needles.data();
  const Key* haystack = d.haystack.data();
  auto check = [&](const char* path, auto run) {
    SCOPED_TRACE(path);
    run(out.begin(n));
    ctx.synchronize();
    ASSERT_TRUE(guarded_equal(expected, out.download(n)));
  };

  ASSERT_NO_FATAL_FAILURE(
      check("binary_search", [&](Out* o) { mergepath::binary_search<Bounds>(ctx, needles, n, haystack, h, o, comp); }));

  {
    device_vector<Key> tree(static_cast<std::size_t>(h) + 2 * guard_items);
    tree.fill_poison();
    mergepath::eytzinger_layout(ctx, haystack, h, tree.data() + guard_items);
    ctx.synchronize();
    ASSERT_TRUE(guarded_equal(expected_tree, tree.download())) << "eytzinger_layout";
    ASSERT_NO_FATAL_FAILURE(check("eytzinger_search", [&](Out* o) {
      mergepath::eytzinger_search<Bounds>(ctx, needles, n, tree.data() + guard_items, h, o, comp);
    }));
  }

  for (search_strategy s : all_strategies) {
    ASSERT_NO_FATAL_FAILURE(check(
        to_string(s), [&](Out* o) { mergepath::batch_search<Bounds>(ctx, needles, n, haystack, h, o, comp, s); }));
  }

  const mergepath::eytzinger_index<Key, Comp> index(ctx, haystack, h, comp);
  ASSERT_TRUE(index.on_device());
  ASSERT_EQ(index.size(), h);
  ASSERT_TRUE(ranges_equal(expected_tree, download(ctx, index.tree(), h))) << "eytzinger_index's tree";
  ASSERT_NO_FATAL_FAILURE(
      check("eytzinger_index::search", [&](Out* o) { index.template search<Bounds>(ctx, needles, n, o); }));
  ASSERT_NO_FATAL_FAILURE(
      check("eytzinger_view in a kernel", [&](Out* o) { view_search<Bounds>(ctx, index.view(), needles, n, o); }));
}

// Lower bounds into int64, upper bounds into int32 (GpuBinarySearchOutputs swaps them).
template <class Key, class Comp>
void check_cases(mergepath::cuda_context& ctx, const std::vector<bsearch_case>& cases, Comp comp) {
  index_t most = 0;
  for (const bsearch_case& c : cases) most = std::max(most, c.needle_count);
  reusable_output<std::int64_t> out64(most);
  reusable_output<std::int32_t> out32(most);
  for (const bsearch_case& c : cases) {
    SCOPED_TRACE(c.name());
    bsearch_input<Key> in = make_bsearch_input<Key>(c, comp);
    device_bsearch_input<Key> d(in);
    ASSERT_NO_FATAL_FAILURE((check_every_path<bounds::lower>(ctx, in, d, comp, out64)));
    ASSERT_NO_FATAL_FAILURE((check_every_path<bounds::upper>(ctx, in, d, comp, out32)));
  }
}

// ---------------------------------------------------------------------------------------------
// The searches of the Futhark binary search example, on every path

class GpuBinarySearchSeed : public gpu_test {};

TEST_F(GpuBinarySearchSeed, ExampleOnEveryPath) {
  namespace ex = seed_example;
  mergepath::cuda_context ctx;
  device_vector<int> haystack(ex::haystack), needles(ex::needles), tree(6);
  device_vector<index_t> out(3);
  mergepath::eytzinger_layout(ctx, haystack.data(), 6, tree.data());
  ctx.synchronize();
  EXPECT_EQ(tree.download(), (std::vector<int>{7, 3, 11, 1, 5, 9}));
  mergepath::eytzinger_index<int> index(ctx, haystack.data(), 6);
  auto got = [&] {
    ctx.synchronize();
    std::vector<index_t> v = out.download();
    out.fill_poison();
    return v;
  };

  mergepath::binary_search(ctx, needles.data(), 3, haystack.data(), 6, out.data());
  EXPECT_EQ(got(), ex::lower) << "binary_search";
  mergepath::binary_search<bounds::upper>(ctx, needles.data(), 3, haystack.data(), 6, out.data());
  EXPECT_EQ(got(), ex::upper) << "binary_search upper";
  mergepath::eytzinger_search(ctx, needles.data(), 3, tree.data(), 6, out.data());
  EXPECT_EQ(got(), ex::lower) << "eytzinger_search";
  mergepath::eytzinger_search<bounds::upper>(ctx, needles.data(), 3, tree.data(), 6, out.data());
  EXPECT_EQ(got(), ex::upper) << "eytzinger_search upper";
  for (search_strategy s : all_strategies) {
    mergepath::batch_search(ctx, needles.data(), 3, haystack.data(), 6, out.data(), mergepath::less<>{}, s);
    EXPECT_EQ(got(), ex::lower) << "batch_search " << to_string(s);
    mergepath::batch_search<bounds::upper>(ctx, needles.data(), 3, haystack.data(), 6, out.data(), mergepath::less<>{},
                                           s);
    EXPECT_EQ(got(), ex::upper) << "batch_search upper " << to_string(s);
  }
  index.search(ctx, needles.data(), 3, out.data());
  EXPECT_EQ(got(), ex::lower) << "eytzinger_index::search";
  view_search<bounds::lower>(ctx, index.view(), needles.data(), 3, out.data());
  EXPECT_EQ(got(), ex::lower) << "view.lower_bound in a kernel";
  view_search<bounds::upper>(ctx, index.view(), needles.data(), 3, out.data());
  EXPECT_EQ(got(), ex::upper) << "view.upper_bound in a kernel";
}

// ---------------------------------------------------------------------------------------------
// Every path against std::lower_bound / std::upper_bound

using key_cases =
    ::testing::Types<keys_case<std::int32_t, mergepath::less<>>, keys_case<std::int32_t, mergepath::greater<>>,
                     keys_case<std::int64_t, mergepath::less<>>, keys_case<std::uint32_t, mergepath::less<>>,
                     keys_case<std::uint32_t, mergepath::greater<>>, keys_case<float, mergepath::less<>>,
                     keys_case<double, mergepath::less<>>, keys_case<double, mergepath::greater<>>,
                     keys_case<point, point_less>,
                     // ties on x with different y: a bound is taken over equivalent keys, not identical ones
                     keys_case<point, point_x_less>,
                     // an arithmetic key whose comparator is neither less nor greater: the mergesort, not radix
                     keys_case<std::int32_t, reverse_order>>;

template <class Case>
class GpuBinarySearch : public gpu_test {};
TYPED_TEST_SUITE(GpuBinarySearch, key_cases);

// Haystacks of 0 to 3 keys, 2^k - 1, 2^k and 2^k + 1 up to 2^16 + 1, the edges of the cached
// levels and the layout's blocks, random sizes, each with a few thousand needles; the small ones
// and the cached levels' edges also with no needle and with one.
TYPED_TEST(GpuBinarySearch, EveryPathMatchesStdBounds) {
  using Key = typename TypeParam::key;
  mergepath::cuda_context ctx;
  std::vector<index_t> extras = gpu_edge_sizes<Key>();
  for (index_t n : random_sizes(2, 4, 20000, 610)) extras.push_back(n);
  std::vector<bsearch_case> cases = bsearch_cases(power_edge_sizes({2, 3, 5, 8, 12, 16}, extras), {3001});
  const std::vector<bsearch_case> few = bsearch_cases(power_edge_sizes({2, 3}, gpu_edge_sizes<Key>()), {0, 1});
  cases.insert(cases.end(), few.begin(), few.end());
  ASSERT_NO_FATAL_FAILURE(check_cases<Key>(ctx, cases, typename TypeParam::comp{}));
}

// Many needles into small haystacks, every strategy (check_cases runs sort_then_search by name,
// as well as automatic, which picks per_needle here: search_strategy_for sorts only for haystacks
// of 2^23 keys and up on the GPU): a descending radix sort, the mergesort of arithmetic keys, an
// unsigned radix sort. (The 2^22 test below covers int32 under less and points.)
class GpuBatchSearch : public gpu_test {};

template <class Key, class Comp>
void check_many_needles(mergepath::cuda_context& ctx, index_t haystack_count, haystack_distribution d, Comp comp) {
  const index_t n = (index_t{1} << 20) + 3;
  ASSERT_EQ(mergepath::search_strategy_for(true, n, haystack_count), search_strategy::per_needle);
  ASSERT_NO_FATAL_FAILURE(
      check_cases<Key>(ctx, {{haystack_count, n, d, case_seed({haystack_count, n, 620, static_cast<int>(d)})}}, comp));
}

TEST_F(GpuBatchSearch, ManyNeedlesSortedByEveryKind) {
  mergepath::cuda_context ctx;
  ASSERT_NO_FATAL_FAILURE(
      check_many_needles<double>(ctx, 1000, haystack_distribution::uniform, mergepath::greater<>{}));
  ASSERT_NO_FATAL_FAILURE(
      check_many_needles<std::int32_t>(ctx, 70001, haystack_distribution::few_distinct, reverse_order{}));
  ASSERT_NO_FATAL_FAILURE(
      check_many_needles<std::uint32_t>(ctx, 70001, haystack_distribution::uniform, mergepath::less<>{}));
}

// Output types the other way round: lower bounds into int32, upper bounds into int64.
class GpuBinarySearchOutputs : public gpu_test {};

TEST_F(GpuBinarySearchOutputs, LowerIntoInt32UpperIntoInt64) {
  mergepath::cuda_context ctx;
  reusable_output<std::int32_t> out32(3001);
  reusable_output<std::int64_t> out64(3001);
  for (const bsearch_case& c : bsearch_cases(power_edge_sizes({4, 12, 13}), {1, 3001})) {
    SCOPED_TRACE(c.name());
    bsearch_input<std::int64_t> in = make_bsearch_input<std::int64_t>(c, mergepath::less<>{});
    device_bsearch_input<std::int64_t> d(in);
    ASSERT_NO_FATAL_FAILURE((check_every_path<bounds::lower>(ctx, in, d, mergepath::less<>{}, out32)));
    ASSERT_NO_FATAL_FAILURE((check_every_path<bounds::upper>(ctx, in, d, mergepath::less<>{}, out64)));
  }
}

// 2^22 needles into 2^22 keys on every path: int32 keys (radix-sorted needles), and points under
// point_x_less (mergesorted needles, ties).
class GpuBinarySearchScale : public gpu_test {};

TEST_F(GpuBinarySearchScale, TwoToThe22NeedlesInto2ToThe22) {
  mergepath::cuda_context ctx;
  const index_t n = index_t{1} << 22;
  if (n > max_test_size()) GTEST_SKIP() << "over MERGEPATH_TEST_MAX_SIZE";
  {
    const bsearch_case c{n, n, haystack_distribution::uniform, case_seed({630})};
    SCOPED_TRACE(c.name());
    bsearch_input<std::int32_t> in = make_bsearch_input<std::int32_t>(c, mergepath::less<>{});
    device_bsearch_input<std::int32_t> d(in);
    reusable_output<std::int32_t> out32(n);
    reusable_output<std::int64_t> out64(n);
    ASSERT_NO_FATAL_FAILURE((check_every_path<bounds::lower>(ctx, in, d, mergepath::less<>{}, out32)));
    ASSERT_NO_FATAL_FAILURE((check_every_path<bounds::upper>(ctx, in, d, mergepath::less<>{}, out64)));
  }
  {
    const bsearch_case c{n, n, haystack_distribution::uniform, case_seed({631})};
    SCOPED_TRACE(c.name());
    bsearch_input<point> in = make_bsearch_input<point>(c, point_x_less{});
    device_bsearch_input<point> d(in);
    reusable_output<std::int32_t> out32(n);
    ASSERT_NO_FATAL_FAILURE((check_every_path<bounds::lower>(ctx, in, d, point_x_less{}, out32)));
  }
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
  const device_bsearch_input<Key> d(in);
  const std::vector<std::int64_t> expected =
      converted<std::int64_t>(std_bounds<bounds::lower>(in.haystack, in.needles, comp));
  reusable_output<std::int64_t> out(c.needle_count);
  using key_ptr = const Key*;
  // Both index types of each kernel: the 64-bit ones serve haystacks past 2^31 (trees past 2^30).
  auto binary_with = [&](auto count) {
    std::int64_t* o = out.begin(c.needle_count);
    mergepath::kernel::binary_search_kernel<bounds::lower, decltype(count), key_ptr, key_ptr, std::int64_t*, Comp>
        <<<4, 256, 0, ctx.stream()>>>(d.needles.data(), c.needle_count, d.haystack.data(), count, o, comp, 0);
    MERGEPATH_CUDA_CHECK(cudaGetLastError());
    ctx.synchronize();
    ASSERT_TRUE(guarded_equal(expected, out.download(c.needle_count))) << "binary_search_kernel, " << sizeof(count);
  };
  ASSERT_NO_FATAL_FAILURE(binary_with(static_cast<std::int32_t>(c.haystack_count)));
  ASSERT_NO_FATAL_FAILURE(binary_with(static_cast<index_t>(c.haystack_count)));
  device_vector<Key> tree(static_cast<std::size_t>(c.haystack_count));
  mergepath::eytzinger_layout(ctx, d.haystack.data(), c.haystack_count, tree.data());
  auto eytzinger_with = [&](auto node, index_t cached) {
    std::int64_t* o = out.begin(c.needle_count);
    mergepath::kernel::eytzinger_search_kernel<bounds::lower, decltype(node), key_ptr, key_ptr, std::int64_t*, Comp>
        <<<4, 256, cached * sizeof(Key), ctx.stream()>>>(d.needles.data(), c.needle_count, tree.data(),
                                                         c.haystack_count, cached, 0, o, comp);
    MERGEPATH_CUDA_CHECK(cudaGetLastError());
    ctx.synchronize();
    ASSERT_TRUE(guarded_equal(expected, out.download(c.needle_count)))
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
// The layout and the shape

class GpuEytzingerLayout : public gpu_test {};

// Every count to 1100, powers of two and either side to 2^22, the layout's block edges, primes:
// element by element equal to the recursive in-order construction.
TEST_F(GpuEytzingerLayout, MatchesRecursiveInOrderConstruction) {
  mergepath::cuda_context ctx;
  std::vector<index_t> counts;
  for (index_t n = 0; n <= 1100; ++n) counts.push_back(n);
  const index_t block = mergepath::binary_search_tuning_for(90, sizeof(int)).layout_items(sizeof(int));
  for (index_t n : power_edge_sizes({11, 12, 13, 14, 15, 16, 17, 20, 22},
                                    {block - 1, block, block + 1, 3 * block - 1, 3 * block + 1, 100003, 1234567}))
    counts.push_back(n);
  counts = sorted_unique_capped(counts);
  const index_t most = counts.back();
  const device_vector<std::int32_t> sorted(origins<std::int32_t>(most, 0));  // a prefix of 0, 1, 2, ... is sorted
  reusable_output<std::int32_t> tree(most);
  for (index_t n : counts) {
    SCOPED_TRACE(::testing::Message() << "count " << n);
    mergepath::eytzinger_layout(ctx, sorted.data(), n, tree.begin(n));
    ctx.synchronize();
    ASSERT_TRUE(guarded_equal(eytzinger_reference(origins<std::int32_t>(n, 0)), tree.download(n)));
  }
}

// Keys of 1, 8 and 12 bytes are moved whole.
TEST_F(GpuEytzingerLayout, OtherKeySizes) {
  mergepath::cuda_context ctx;
  for (index_t n : {index_t{0}, index_t{1}, index_t{300}, index_t{8193}, index_t{70001}}) {
    SCOPED_TRACE(::testing::Message() << "count " << n);
    std::vector<std::int8_t> bytes;
    std::vector<double> doubles;
    std::vector<point> points;
    for (index_t i = 0; i < n; ++i) {
      bytes.push_back(static_cast<std::int8_t>(i * 255 / std::max<index_t>(n, 1) - 128));
      doubles.push_back(key_from_rank<double>(i));
      points.push_back(key_from_rank<point>(i));
    }
    auto check = [&](const auto& sorted) {
      using T = typename std::decay_t<decltype(sorted)>::value_type;
      device_vector<T> d(sorted), tree(static_cast<std::size_t>(n) + 2 * guard_items);
      tree.fill_poison();
      mergepath::eytzinger_layout(ctx, d.data(), n, tree.data() + guard_items);
      ctx.synchronize();
      return guarded_equal(eytzinger_reference(sorted), tree.download());
    };
    EXPECT_TRUE(check(bytes)) << "int8";
    EXPECT_TRUE(check(doubles)) << "double";
    EXPECT_TRUE(check(points)) << "point";
  }
}

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
// Bad arguments: std::invalid_argument before any work (the outputs stay poisoned); an index
// searched with the other kind of context.

class GpuBinarySearchArguments : public gpu_test {};

TEST_F(GpuBinarySearchArguments, BadArgumentsThrowBeforeWriting) {
  mergepath::cuda_context ctx;
  device_vector<int> hay(std::vector<int>{1, 3, 5}), needles(std::vector<int>{0, 4}),
      good_tree(std::vector<int>{3, 1, 5});
  device_vector<std::int64_t> out(2);
  device_vector<int> tree(3);
  out.fill_poison();
  tree.fill_poison();
  const int* null = nullptr;
  std::int64_t* null_out = nullptr;

  auto searches = [&](const int* n_ptr, index_t n, const int* h_ptr, index_t h, std::int64_t* o) {
    std::vector<std::function<void()>> calls;
    calls.push_back([=, &ctx] { mergepath::binary_search(ctx, n_ptr, n, h_ptr, h, o); });
    calls.push_back([=, &ctx] { mergepath::binary_search<bounds::upper>(ctx, n_ptr, n, h_ptr, h, o); });
    for (search_strategy s : all_strategies)
      calls.push_back([=, &ctx] { mergepath::batch_search(ctx, n_ptr, n, h_ptr, h, o, mergepath::less<>{}, s); });
    calls.push_back([=, &ctx] {
      mergepath::batch_search<bounds::upper>(ctx, n_ptr, n, h_ptr, h, o, mergepath::less<>{},
                                             search_strategy::sort_then_search);
    });
    return calls;
  };
  for (auto& call : searches(needles.data(), -1, hay.data(), 3, out.data()))
    expect_invalid_argument(call, "needles count is negative");
  for (auto& call : searches(needles.data(), 2, hay.data(), -3, out.data()))
    expect_invalid_argument(call, "haystack count is negative");
  for (auto& call : searches(null, 2, hay.data(), 3, out.data()))
    expect_invalid_argument(call, "needles is a null pointer");
  for (auto& call : searches(needles.data(), 2, null, 3, out.data()))
    expect_invalid_argument(call, "haystack is a null pointer");
  for (auto& call : searches(needles.data(), 2, hay.data(), 3, null_out))
    expect_invalid_argument(call, "out is a null pointer");

  expect_invalid_argument([&] { mergepath::eytzinger_layout(ctx, hay.data(), -1, tree.data()); }, "count is negative");
  expect_invalid_argument([&] { mergepath::eytzinger_layout(ctx, null, 3, tree.data()); }, "sorted is a null pointer");
  expect_invalid_argument([&] { mergepath::eytzinger_layout(ctx, hay.data(), 3, static_cast<int*>(nullptr)); },
                          "tree is a null pointer");
  expect_invalid_argument(
      [&] { mergepath::eytzinger_search(ctx, needles.data(), -2, good_tree.data(), 3, out.data()); },
      "needles count is negative");
  expect_invalid_argument(
      [&] { mergepath::eytzinger_search(ctx, needles.data(), 2, good_tree.data(), -3, out.data()); },
      "tree count is negative");
  expect_invalid_argument([&] { mergepath::eytzinger_search(ctx, null, 2, good_tree.data(), 3, out.data()); },
                          "needles is a null pointer");
  expect_invalid_argument([&] { mergepath::eytzinger_search(ctx, needles.data(), 2, null, 3, out.data()); },
                          "tree is a null pointer");
  expect_invalid_argument(
      [&] { mergepath::eytzinger_search<bounds::upper>(ctx, needles.data(), 2, good_tree.data(), 3, null_out); },
      "out is a null pointer");

  expect_invalid_argument([&] { mergepath::eytzinger_index<int> index(ctx, hay.data(), -1); }, "count is negative");
  expect_invalid_argument([&] { mergepath::eytzinger_index<int> index(ctx, null, 3); }, "null pointer");
  mergepath::eytzinger_index<int> index(ctx, hay.data(), 3);
  expect_invalid_argument([&] { index.search(ctx, needles.data(), -1, out.data()); }, "count is negative");
  expect_invalid_argument([&] { index.search(ctx, null, 2, out.data()); }, "needles is a null pointer");
  expect_invalid_argument([&] { index.search<bounds::upper>(ctx, needles.data(), 2, null_out); },
                          "out is a null pointer");

  ctx.synchronize();
  EXPECT_TRUE(untouched(out.download(), 0, 2));
  EXPECT_TRUE(untouched(tree.download(), 0, 3));
}

// An index built on the host refuses a cuda_context, and one built on the GPU a host_context.
TEST_F(GpuBinarySearchArguments, IndexRefusesTheOtherContext) {
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

TEST_F(GpuBinarySearchArguments, NullPointersWithZeroCounts) {
  mergepath::cuda_context ctx;
  device_vector<int> hay(std::vector<int>{1, 3, 5}), needles(std::vector<int>{0, 4, 9});
  device_vector<index_t> out(3);
  out.fill_poison();
  const int* null = nullptr;
  index_t* null_out = nullptr;
  EXPECT_NO_THROW(mergepath::binary_search(ctx, null, 0, null, 0, null_out));
  EXPECT_NO_THROW(mergepath::eytzinger_layout(ctx, null, 0, static_cast<int*>(nullptr)));
  EXPECT_NO_THROW(mergepath::eytzinger_search(ctx, null, 0, null, 0, null_out));
  for (search_strategy s : all_strategies) {
    EXPECT_NO_THROW(mergepath::batch_search(ctx, null, 0, null, 0, null_out, mergepath::less<>{}, s));
    EXPECT_NO_THROW(mergepath::batch_search(ctx, null, 0, hay.data(), 3, null_out, mergepath::less<>{}, s));
  }
  ctx.synchronize();
  EXPECT_TRUE(untouched(out.download(), 0, 3));
  // An empty haystack: every bound is 0.
  auto zeros = [&] {
    ctx.synchronize();
    std::vector<index_t> v = out.download();
    out.fill_poison();
    return v == std::vector<index_t>{0, 0, 0};
  };
  for (search_strategy s : all_strategies) {
    mergepath::batch_search<bounds::upper>(ctx, needles.data(), 3, null, 0, out.data(), mergepath::less<>{}, s);
    EXPECT_TRUE(zeros()) << to_string(s);
  }
  mergepath::binary_search(ctx, needles.data(), 3, null, 0, out.data());
  EXPECT_TRUE(zeros()) << "binary_search";
  mergepath::eytzinger_search(ctx, needles.data(), 3, null, 0, out.data());
  EXPECT_TRUE(zeros()) << "eytzinger_search";
  mergepath::eytzinger_index<int> empty(ctx, null, 0);
  empty.search<bounds::upper>(ctx, needles.data(), 3, out.data());
  EXPECT_TRUE(zeros()) << "eytzinger_index::search";
  view_search<bounds::lower>(ctx, empty.view(), needles.data(), 3, out.data());
  EXPECT_TRUE(zeros()) << "view in a kernel";
  EXPECT_NO_THROW(empty.search(ctx, null, 0, null_out));
}

// ---------------------------------------------------------------------------------------------
// An unsorted haystack: unspecified bounds, but no fault (compute-sanitizer runs this suite),
// nothing written outside the output, every bound within [0, count].

class GpuBinarySearchUnsorted : public gpu_test {};

template <class Key, class Comp>
void search_unsorted(mergepath::cuda_context& ctx, const std::vector<Key>& hay, const std::vector<Key>& needles,
                     Comp comp) {
  const index_t h = static_cast<index_t>(hay.size()), n = static_cast<index_t>(needles.size());
  device_vector<Key> d_hay(hay), d_needles(needles);
  reusable_output<index_t> out(n);
  auto check = [&](const std::string& path, auto run) {
    SCOPED_TRACE(path);
    run(out.begin(n));
    EXPECT_NO_THROW(ctx.synchronize());
    const std::vector<index_t> got = out.download(n);
    EXPECT_TRUE(untouched(got, 0, guard_items));
    EXPECT_TRUE(untouched(got, guard_items + static_cast<std::size_t>(n), got.size()));
    index_t outside = 0;
    for (index_t i = 0; i < n; ++i) {
      index_t b = got[guard_items + static_cast<std::size_t>(i)];
      outside += b < 0 || b > h;
    }
    EXPECT_EQ(outside, 0) << "bounds outside [0, " << h << "]";
  };
  check("binary_search",
        [&](index_t* o) { mergepath::binary_search(ctx, d_needles.data(), n, d_hay.data(), h, o, comp); });
  check("binary_search upper", [&](index_t* o) {
    mergepath::binary_search<bounds::upper>(ctx, d_needles.data(), n, d_hay.data(), h, o, comp);
  });
  // The unsorted keys as a tree, and a layout of unsorted keys.
  check("eytzinger_search",
        [&](index_t* o) { mergepath::eytzinger_search(ctx, d_needles.data(), n, d_hay.data(), h, o, comp); });
  for (search_strategy s : all_strategies) {
    check(std::string("batch_search ") + to_string(s),
          [&](index_t* o) { mergepath::batch_search(ctx, d_needles.data(), n, d_hay.data(), h, o, comp, s); });
    check(std::string("batch_search upper ") + to_string(s), [&](index_t* o) {
      mergepath::batch_search<bounds::upper>(ctx, d_needles.data(), n, d_hay.data(), h, o, comp, s);
    });
  }
  mergepath::eytzinger_index<Key, Comp> index(ctx, d_hay.data(), h, comp);
  check("eytzinger_index::search upper",
        [&](index_t* o) { index.template search<bounds::upper>(ctx, d_needles.data(), n, o); });
  check("view in a kernel", [&](index_t* o) { view_search<bounds::lower>(ctx, index.view(), d_needles.data(), n, o); });
}

TEST_F(GpuBinarySearchUnsorted, DoesNotFaultOrWriteOutside) {
  mergepath::cuda_context ctx;
  std::mt19937_64 rng(case_seed({650}));
  SCOPED_TRACE("MERGEPATH_TEST_SEED=" + std::to_string(base_seed()));
  for (index_t h : {index_t{1}, index_t{2}, index_t{100}, index_t{4097}, index_t{8193}, index_t{70001}}) {
    SCOPED_TRACE(::testing::Message() << "haystack_count " << h);
    std::vector<int> hay(static_cast<std::size_t>(h)), needles(5000);
    for (int& x : hay) x = std::uniform_int_distribution<int>(-1000, 1000)(rng);
    for (int& x : needles) x = std::uniform_int_distribution<int>(-1100, 1100)(rng);
    ASSERT_NO_FATAL_FAILURE(search_unsorted(ctx, hay, needles, mergepath::less<>{}));
    std::vector<point> point_hay, point_needles;
    for (int x : hay) point_hay.push_back(key_from_rank<point>(x + 2000));
    for (int x : needles) point_needles.push_back(key_from_rank<point>(x + 2000));
    ASSERT_NO_FATAL_FAILURE(search_unsorted(ctx, point_hay, point_needles, point_less{}));
  }
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

  cudaGraph_t graph = nullptr;
  MERGEPATH_CUDA_CHECK(cudaStreamBeginCapture(ctx.stream(), cudaStreamCaptureModeGlobal));
  try {
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
  } catch (...) {
    (void)cudaStreamEndCapture(ctx.stream(), &graph);  // leave the stream usable, then report
    if (graph) (void)cudaGraphDestroy(graph);
    throw;
  }
  MERGEPATH_CUDA_CHECK(cudaStreamEndCapture(ctx.stream(), &graph));
  cudaGraphExec_t exec = nullptr;
  MERGEPATH_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));

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
    MERGEPATH_CUDA_CHECK(cudaGraphLaunch(exec, ctx.stream()));
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
  MERGEPATH_CUDA_CHECK(cudaGraphExecDestroy(exec));
  MERGEPATH_CUDA_CHECK(cudaGraphDestroy(graph));
}

// Checked mode: a haystack (eytzinger_layout: its sorted input) out of comp's order throws,
// naming the first position out of order, before anything is written.
class GpuBinarySearchChecked : public gpu_test {};

TEST_F(GpuBinarySearchChecked, UnsortedHaystackThrowsNamingThePosition) {
  mergepath::cuda_context ctx;
  ctx.set_checked(true);
  for (index_t count : {index_t{10}, index_t{300000}}) {
    SCOPED_TRACE(::testing::Message() << "count " << count);
    std::vector<int> host_hay = origins<int>(count, 0);
    host_hay[6] = -1;
    if (count > 100000) host_hay[250000] = -2;  // a later offender: still [6]
    device_vector<int> hay(host_hay), needles(std::vector<int>{1, 5, 9}), tree(static_cast<std::size_t>(count));
    device_vector<index_t> out(3);
    out.fill_poison();
    tree.fill_poison();
    expect_invalid_argument(
        [&] { mergepath::binary_search(ctx, needles.data(), 3, hay.data(), count, out.data()); },
        "binary_search: input haystack is not sorted: haystack[6]");
    for (search_strategy s : {search_strategy::per_needle, search_strategy::sort_then_search})
      expect_invalid_argument(
          [&] {
            mergepath::batch_search(ctx, needles.data(), 3, hay.data(), count, out.data(), mergepath::less<>{}, s);
          },
          "batch_search: input haystack is not sorted: haystack[6]");
    expect_invalid_argument([&] { mergepath::eytzinger_layout(ctx, hay.data(), count, tree.data()); },
                            "eytzinger_layout: input sorted is not sorted: sorted[6]");
    expect_invalid_argument([&] { mergepath::eytzinger_index<int> index(ctx, hay.data(), count); }, "sorted[6]");
    ctx.synchronize();
    const auto got_out = out.download();
    const auto got_tree = tree.download();
    EXPECT_TRUE(untouched(got_out, 0, got_out.size()));
    EXPECT_TRUE(untouched(got_tree, 0, got_tree.size()));
  }
}

TEST_F(GpuBinarySearchChecked, OrderIsTheComparatorsOrder) {
  mergepath::cuda_context ctx;
  ctx.set_checked(true);
  device_vector<int> down(std::vector<int>{9, 7, 7, 3, 1}), needles(std::vector<int>{7, 2}), tree(5);
  device_vector<index_t> out(2);
  mergepath::binary_search(ctx, needles.data(), 2, down.data(), 5, out.data(), mergepath::greater<>{});
  ctx.synchronize();
  EXPECT_EQ(out.download(), (std::vector<index_t>{1, 4}));
  expect_invalid_argument([&] { mergepath::binary_search(ctx, needles.data(), 2, down.data(), 5, out.data()); },
                          "haystack[1]");
  mergepath::eytzinger_layout(ctx, down.data(), 5, tree.data(), mergepath::greater<>{});
  device_vector<point> points(std::vector<point>{{1, 0.f}, {2, 0.f}, {0, 0.f}}), point_tree(3);
  mergepath::eytzinger_layout(ctx, points.data(), 3, point_tree.data());  // no operator<: not checked
  expect_invalid_argument(
      [&] { mergepath::eytzinger_layout(ctx, points.data(), 3, point_tree.data(), point_less{}); }, "sorted[2]");
  ctx.synchronize();
}

}  // namespace
}  // namespace mergepath_test
