// Heavy GPU tests (CTest label `large`; CI leaves them out): more than 2^31 outputs, 2^29 int32
// against std::merge, many tiles per block of the default persistent grid, and every size up
// to a few tiles; for sorted_search more than 2^31 elements and every size up to two tiles; for
// mergesort more than 2^31 keys and every size up to two blocksort tiles; for segmented_sort more
// than 2^31 keys in segments; for binary_search, batch_search and the Eytzinger tree a haystack of
// more than 2^31 keys; for merge_join more than 2^31 output rows.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <mergepath/mergepath.hpp>
#include <numeric>
#include <random>
#include <vector>

#include "gpu_util.cuh"
#include "load_balance_util.hpp"
#include "search_util.hpp"

namespace mergepath_test {
namespace {

class GpuMergeLarge : public gpu_test {};

// How many of each byte value a sorted uint8 array holds: random run lengths summing to count,
// about a fifth of the values absent.
std::array<index_t, 256> random_run_lengths(index_t count, std::mt19937_64& rng) {
  std::array<double, 256> weight{};
  double sum = 0;
  for (double& w : weight) {
    w = rng() % 5 == 0 ? 0.0 : std::uniform_real_distribution<double>(0.1, 1.0)(rng);
    sum += w;
  }
  std::array<index_t, 256> runs{};
  index_t used = 0;
  for (int v = 0; v < 256; ++v) {
    runs[v] = static_cast<index_t>(static_cast<double>(count) * weight[v] / sum);
    used += runs[v];
  }
  runs[128] += count - used;  // the rounding remainder
  return runs;
}

// A sorted uint8 array on the device is its runs of equal bytes: one cudaMemset per value.
void fill_runs(std::uint8_t* d, const std::array<index_t, 256>& runs) {
  index_t at = 0;
  for (int v = 0; v < 256; ++v) {
    if (runs[v] > 0) MERGEPATH_CUDA_CHECK(cudaMemset(d + at, v, static_cast<std::size_t>(runs[v])));
    at += runs[v];
  }
  MERGEPATH_CUDA_CHECK(cudaDeviceSynchronize());
}

// More than 2^31 outputs (1-byte keys keep it to 2.7 GB a copy): the output is sorted and holds
// every value as often as the inputs together do.
TEST_F(GpuMergeLarge, MoreThanTwoToThe31Outputs) {
  const index_t a_count = (index_t{1} << 30) + 12345, b_count = (index_t{1} << 30) + (index_t{1} << 29) + 777;
  const index_t total = a_count + b_count;
  ASSERT_GT(total, index_t{1} << 31);
  SCOPED_TRACE("MERGEPATH_TEST_SEED=" + std::to_string(base_seed()));
  std::mt19937_64 rng(case_seed({12}));
  std::array<index_t, 256> a_runs = random_run_lengths(a_count, rng), b_runs = random_run_lengths(b_count, rng);

  device_vector<std::uint8_t> a(static_cast<std::size_t>(a_count)), b(static_cast<std::size_t>(b_count));
  device_vector<std::uint8_t> out(static_cast<std::size_t>(total) + guard_items);
  fill_runs(a.data(), a_runs);
  fill_runs(b.data(), b_runs);
  out.fill_poison();
  mergepath::cuda_context ctx;
  mergepath::merge(ctx, a.data(), a_count, b.data(), b_count, out.data());
  ctx.synchronize();

  std::vector<std::uint8_t> got = out.download();
  std::array<index_t, 256> histogram{};
  index_t first_unsorted = -1;
  for (index_t i = 0; i < total; ++i) {
    ++histogram[got[static_cast<std::size_t>(i)]];
    if (i > 0 && first_unsorted < 0 && got[static_cast<std::size_t>(i)] < got[static_cast<std::size_t>(i - 1)])
      first_unsorted = i;
  }
  EXPECT_EQ(first_unsorted, -1) << "output not sorted at this position";
  for (int v = 0; v < 256; ++v) EXPECT_EQ(histogram[v], a_runs[v] + b_runs[v]) << "value " << v;
  EXPECT_TRUE(untouched(got, static_cast<std::size_t>(total), got.size()));
}

// Sorted int32 with many ties, made without sorting (std::sort of 2^28 would take a while).
std::vector<int> sorted_random_ints(index_t count, std::mt19937_64& rng) {
  std::vector<int> v(static_cast<std::size_t>(count));
  int x = 0;
  for (int& e : v) {
    x += static_cast<int>(rng() % 2);  // steps of 0 or 1: about two copies of each value
    e = x;
  }
  return v;
}

TEST_F(GpuMergeLarge, TwoToThe28PlusTwoToThe28Int32) {
  const index_t n = index_t{1} << 28;
  SCOPED_TRACE("MERGEPATH_TEST_SEED=" + std::to_string(base_seed()));
  std::mt19937_64 rng(case_seed({13}));
  merge_input<int> in{sorted_random_ints(n, rng), sorted_random_ints(n, rng)};
  mergepath::cuda_context ctx;
  ASSERT_NO_FATAL_FAILURE(check_merge(
      ctx, in, mergepath::less<>{},
      [](auto& ctx, auto a, index_t na, auto b, index_t nb, auto out) { mergepath::merge(ctx, a, na, b, nb, out); }));
}

// Enough tiles that every block of the default (two-stage, persistent) grid merges many, so the
// prefetch of the next tile runs with the default tunings too; keys and pairs.
TEST_F(GpuMergeLarge, ManyTilesPerBlock) {
  mergepath::cuda_context ctx;
  for (distribution d : {distribution::uniform, distribution::few_distinct, distribution::organ_pipe}) {
    merge_case c{(index_t{1} << 24) + 12345, (index_t{1} << 24) - 777, d, case_seed({14, static_cast<int>(d)})};
    SCOPED_TRACE(c.name());
    ASSERT_NO_FATAL_FAILURE(
        check_default_merges(ctx, make_merge_input<int>(c, mergepath::less<>{}), mergepath::less<>{}));
  }
}

// Every output size from 0 to a little over two tiles, each split at random between a and b.
TEST_F(GpuMergeLarge, EverySizeUpToTwoTiles) {
  mergepath::cuda_context ctx;
  const index_t keys_tile = merge_tile_items<int>(), pairs_tile = merge_tile_items<int, int>();
  for (index_t n = 0; n <= 2 * keys_tile + 2; ++n) {
    std::mt19937_64 rng(case_seed({15, n}));
    index_t a_count = std::uniform_int_distribution<index_t>(0, n)(rng);
    merge_case c{a_count, n - a_count, distribution::few_distinct, case_seed({15, n, 1})};
    SCOPED_TRACE(c.name());
    merge_input<int> in = make_merge_input<int>(c, mergepath::less<>{});
    ASSERT_NO_FATAL_FAILURE(check_merge(
        ctx, in, mergepath::less<>{},
        [](auto& ctx, auto a, index_t na, auto b, index_t nb, auto out) { mergepath::merge(ctx, a, na, b, nb, out); }));
    if (n <= 2 * pairs_tile + 2)
      ASSERT_NO_FATAL_FAILURE((check_merge_pairs<int, int>(
          ctx, in, mergepath::less<>{},
          [](auto& ctx, auto ak, auto av, index_t na, auto bk, auto bv, index_t nb, auto ok, auto ov) {
            mergepath::merge_pairs(ctx, ak, av, na, bk, bv, nb, ok, ov);
          })));
  }
}

// ---------------------------------------------------------------------------------------------
// sorted_search

class GpuSortedSearchLarge : public gpu_test {};

// More than 2^31 elements: a is 2^31 + 1000 bytes in runs of each value (about a fifth absent),
// b is 0, 1, ..., 255. So a[i]'s lower bound in b is its own value, always with a match (int32
// outputs), and b[v]'s upper bound in a is where v's run in a ends (beyond 2^31: int64 outputs),
// a match where that run is not empty.
TEST_F(GpuSortedSearchLarge, MoreThanTwoToThe31Elements) {
  const index_t a_count = (index_t{1} << 31) + 1000, b_count = 256;
  SCOPED_TRACE("MERGEPATH_TEST_SEED=" + std::to_string(base_seed()));
  std::mt19937_64 rng(case_seed({400}));
  std::array<index_t, 256> a_runs = random_run_lengths(a_count, rng);
  std::vector<std::uint8_t> b_values(256);
  for (int v = 0; v < 256; ++v) b_values[static_cast<std::size_t>(v)] = static_cast<std::uint8_t>(v);

  device_vector<std::uint8_t> a(static_cast<std::size_t>(a_count)), b(b_values);
  fill_runs(a.data(), a_runs);
  device_vector<std::int32_t> a_out(static_cast<std::size_t>(a_count) + 2 * guard_items);
  device_vector<index_t> b_out(static_cast<std::size_t>(b_count) + 2 * guard_items);
  a_out.fill_poison();
  b_out.fill_poison();
  mergepath::cuda_context ctx;
  mergepath::match_counts matches = mergepath::sorted_search<bounds::lower, search::index_match, search::index_match>(
      ctx, a.data(), a_count, b.data(), b_count, a_out.data() + guard_items, b_out.data() + guard_items);
  ctx.synchronize();

  std::vector<index_t> b_expected;
  index_t run_end = 0, values_present = 0;
  for (int v = 0; v < 256; ++v) {
    run_end += a_runs[v];
    b_expected.push_back(with_match_bit<index_t>(run_end, a_runs[v] > 0));
    values_present += a_runs[v] > 0;
  }
  EXPECT_TRUE(guarded_equal(b_expected, b_out.download()));
  EXPECT_EQ(matches.a, a_count);
  EXPECT_EQ(matches.b, values_present);

  // a's 8.6 GB of results, in pieces: a_out[i] = a[i] with the match bit; the guards untouched.
  const std::size_t piece = std::size_t{1} << 26;
  std::vector<std::int32_t> got(piece);
  index_t mismatches = 0, first_mismatch = -1;
  int value = 0;
  index_t value_end = a_runs[0];
  for (index_t start = 0; start < a_count; start += static_cast<index_t>(piece)) {
    std::size_t n = static_cast<std::size_t>(std::min<index_t>(static_cast<index_t>(piece), a_count - start));
    MERGEPATH_CUDA_CHECK(
        cudaMemcpy(got.data(), a_out.data() + guard_items + start, n * sizeof(std::int32_t), cudaMemcpyDeviceToHost));
    for (std::size_t k = 0; k < n; ++k) {
      index_t i = start + static_cast<index_t>(k);
      while (i >= value_end) value_end += a_runs[++value];
      if (got[k] != with_match_bit<std::int32_t>(value, true) && mismatches++ == 0) first_mismatch = i;
    }
  }
  EXPECT_EQ(mismatches, 0) << "first at a_out[" << first_mismatch << "]";
  std::vector<std::int32_t> guard(guard_items);
  MERGEPATH_CUDA_CHECK(
      cudaMemcpy(guard.data(), a_out.data(), guard_items * sizeof(std::int32_t), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(untouched(guard, 0, guard_items)) << "guard before a_out";
  MERGEPATH_CUDA_CHECK(cudaMemcpy(guard.data(), a_out.data() + guard_items + a_count,
                                  guard_items * sizeof(std::int32_t), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(untouched(guard, 0, guard_items)) << "guard after a_out";
}

// Every total size from 0 to a little over two tiles, each split at random between a and b,
// with long runs of duplicates: both bounds, match bits on both sides.
template <bounds Bounds>
void check_search_with_match_bits(mergepath::cuda_context& ctx, const merge_input<int>& in) {
  const index_t a_count = static_cast<index_t>(in.a.size()), b_count = static_cast<index_t>(in.b.size());
  search_oracle expect = sorted_search_oracle(in, mergepath::less<>{});
  device_vector<int> a(in.a), b(in.b);
  device_vector<std::int32_t> a_out(static_cast<std::size_t>(a_count) + 2 * guard_items);
  device_vector<std::int32_t> b_out(static_cast<std::size_t>(b_count) + 2 * guard_items);
  a_out.fill_poison();
  b_out.fill_poison();
  mergepath::match_counts matches = mergepath::sorted_search<Bounds, search::index_match, search::index_match>(
      ctx, a.data(), a_count, b.data(), b_count, a_out.data() + guard_items, b_out.data() + guard_items);
  ASSERT_TRUE(guarded_equal(
      expected_output<search::index_match, std::int32_t>(a_bounds(Bounds, expect), expect.a.match), a_out.download()));
  ASSERT_TRUE(guarded_equal(
      expected_output<search::index_match, std::int32_t>(b_bounds(Bounds, expect), expect.b.match), b_out.download()));
  EXPECT_EQ(matches.a, expect.a.matches);
  EXPECT_EQ(matches.b, expect.b.matches);
}

TEST_F(GpuSortedSearchLarge, EverySizeUpToTwoTiles) {
  mergepath::cuda_context ctx;
  const index_t tile = mergepath::default_sorted_search_policy<int>::tuning.tile_items();
  for (index_t n = 0; n <= 2 * tile + 2; ++n) {
    std::mt19937_64 rng(case_seed({401, n}));
    index_t a_count = std::uniform_int_distribution<index_t>(0, n)(rng);
    search_case c{a_count, n - a_count, search_distribution::few_distinct, case_seed({401, n, 1})};
    SCOPED_TRACE(c.name());
    merge_input<int> in = make_search_input<int>(c, mergepath::less<>{});
    ASSERT_NO_FATAL_FAILURE(check_search_with_match_bits<bounds::lower>(ctx, in));
    ASSERT_NO_FATAL_FAILURE(check_search_with_match_bits<bounds::upper>(ctx, in));
  }
}

// ---------------------------------------------------------------------------------------------
// binary_search, batch_search, the Eytzinger layout, search and index

class GpuBinarySearchLarge : public gpu_test {};

// out[i] = the view's lower (or upper) bound of needles[i], in a kernel of the user's.
template <bounds Bounds, class View, class Needle, class Out>
__global__ void view_search_kernel(View view, const Needle* needles, index_t n, Out* out) {
  for (index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<index_t>(gridDim.x) * blockDim.x)
    out[i] = static_cast<Out>(Bounds == bounds::lower ? view.lower_bound(needles[i]) : view.upper_bound(needles[i]));
}

// A haystack of 2^31 + 12345 int8 keys in runs of each value (about a fifth absent; 2.1 GB), and
// 1M needles of every value in random order; int64 outputs. Checked by counting: the lower bound
// of v is how many keys are below v, the upper bound how many are at most v. Every path, batch
// search's sorting path with 64-bit positions; the tree's first and last 2^20 nodes checked too
// (its last level holds 12346 nodes).
TEST_F(GpuBinarySearchLarge, MoreThanTwoToThe31Int8Haystack) {
  const index_t count = (index_t{1} << 31) + 12345, needle_count = index_t{1} << 20;
  std::size_t free_bytes = 0, total_bytes = 0;
  MERGEPATH_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::size_t needed = 2 * static_cast<std::size_t>(count) + (std::size_t{512} << 20);  // keys, a tree, slack
  if (free_bytes < needed) GTEST_SKIP() << "needs " << needed << " bytes of GPU memory, " << free_bytes << " free";
  SCOPED_TRACE("MERGEPATH_TEST_SEED=" + std::to_string(base_seed()));
  std::mt19937_64 rng(case_seed({700}));

  // runs[r]: how many keys of value r - 128; below[r]: how many keys below it.
  const std::array<index_t, 256> runs = random_run_lengths(count, rng);
  std::array<index_t, 257> below{};
  for (int r = 0; r < 256; ++r) below[r + 1] = below[r] + runs[r];
  device_vector<std::int8_t> haystack(static_cast<std::size_t>(count));
  for (int r = 0; r < 256; ++r) {
    if (runs[r] > 0)
      MERGEPATH_CUDA_CHECK(cudaMemset(haystack.data() + below[r], (r + 128) & 0xFF, static_cast<std::size_t>(runs[r])));
  }
  MERGEPATH_CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<std::int8_t> needles(static_cast<std::size_t>(needle_count));
  for (auto& x : needles) x = static_cast<std::int8_t>(std::uniform_int_distribution<int>(-128, 127)(rng));
  std::vector<index_t> lower, upper;
  for (std::int8_t x : needles) {
    lower.push_back(below[x + 128]);
    upper.push_back(below[x + 129]);
  }
  device_vector<std::int8_t> d_needles(needles);
  device_vector<index_t> out(static_cast<std::size_t>(needle_count) + 2 * guard_items);
  mergepath::cuda_context ctx;
  auto check = [&](const char* path, const std::vector<index_t>& expected, auto run) {
    SCOPED_TRACE(path);
    out.fill_poison();
    run(out.data() + guard_items);
    ctx.synchronize();
    EXPECT_TRUE(guarded_equal(expected, out.download()));
  };
  const std::int8_t* n_ptr = d_needles.data();
  const std::int8_t* h_ptr = haystack.data();

  check("binary_search", lower,
        [&](index_t* o) { mergepath::binary_search(ctx, n_ptr, needle_count, h_ptr, count, o); });
  check("binary_search upper", upper,
        [&](index_t* o) { mergepath::binary_search<bounds::upper>(ctx, n_ptr, needle_count, h_ptr, count, o); });
  for (mergepath::search_strategy s :
       {mergepath::search_strategy::per_needle, mergepath::search_strategy::sort_then_search,
        mergepath::search_strategy::automatic}) {
    SCOPED_TRACE(::testing::Message() << "strategy " << static_cast<int>(s));
    check("batch_search", lower, [&](index_t* o) {
      mergepath::batch_search(ctx, n_ptr, needle_count, h_ptr, count, o, mergepath::less<>{}, s);
    });
    check("batch_search upper", upper, [&](index_t* o) {
      mergepath::batch_search<bounds::upper>(ctx, n_ptr, needle_count, h_ptr, count, o, mergepath::less<>{}, s);
    });
  }

  {
    device_vector<std::int8_t> tree(static_cast<std::size_t>(count));
    mergepath::eytzinger_layout(ctx, h_ptr, count, tree.data());
    ctx.synchronize();
    // Node k holds the key at sorted position sorted_index(k): the value whose run covers it.
    const mergepath::eytzinger_shape shape(count);
    auto value_at = [&](index_t position) {
      return static_cast<std::int8_t>(std::upper_bound(below.begin(), below.end(), position) - below.begin() - 1 - 128);
    };
    const index_t piece = index_t{1} << 20;
    std::vector<std::int8_t> nodes(static_cast<std::size_t>(piece));
    for (index_t first : {index_t{1}, count - piece + 1}) {
      MERGEPATH_CUDA_CHECK(
          cudaMemcpy(nodes.data(), tree.data() + (first - 1), static_cast<std::size_t>(piece), cudaMemcpyDeviceToHost));
      index_t mismatches = 0, first_mismatch = -1;
      for (index_t j = 0; j < piece; ++j)
        if (nodes[static_cast<std::size_t>(j)] != value_at(shape.sorted_index(first + j)) && mismatches++ == 0)
          first_mismatch = first + j;
      EXPECT_EQ(mismatches, 0) << "tree nodes from " << first << ", first wrong: node " << first_mismatch;
    }
    check("eytzinger_search", lower,
          [&](index_t* o) { mergepath::eytzinger_search(ctx, n_ptr, needle_count, tree.data(), count, o); });
    check("eytzinger_search upper", upper, [&](index_t* o) {
      mergepath::eytzinger_search<bounds::upper>(ctx, n_ptr, needle_count, tree.data(), count, o);
    });
  }

  const mergepath::eytzinger_index<std::int8_t> index(ctx, h_ptr, count);
  EXPECT_EQ(index.size(), count);
  check("eytzinger_index::search upper", upper,
        [&](index_t* o) { index.search<bounds::upper>(ctx, n_ptr, needle_count, o); });
  check("view.lower_bound in a kernel", lower, [&](index_t* o) {
    view_search_kernel<bounds::lower><<<1024, 256, 0, ctx.stream()>>>(index.view(), n_ptr, needle_count, o);
    MERGEPATH_CUDA_CHECK(cudaGetLastError());
  });
}

// ---------------------------------------------------------------------------------------------
// mergesort

class GpuMergesortLarge : public gpu_test {};

// More than 2^31 random bytes (2.1 GB, and as much scratch): every merge pass reaches offsets
// past 2^31, and the output must be non-decreasing with each value as often as in the input.
TEST_F(GpuMergesortLarge, MoreThanTwoToThe31Keys) {
  const index_t count = (index_t{1} << 31) + 12345;
  std::size_t free_bytes = 0, total_bytes = 0;
  MERGEPATH_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::size_t needed = 2 * static_cast<std::size_t>(count) + (std::size_t{256} << 20);  // keys, scratch, slack
  if (free_bytes < needed) GTEST_SKIP() << "needs " << needed << " bytes of GPU memory, " << free_bytes << " free";
  SCOPED_TRACE("MERGEPATH_TEST_SEED=" + std::to_string(base_seed()));

  // Eight random bytes per draw; the last draw's surplus is dropped.
  std::vector<std::uint8_t> keys(static_cast<std::size_t>(count));
  std::array<index_t, 256> input_histogram{};
  std::mt19937_64 rng(case_seed({500}));
  for (std::size_t i = 0; i < keys.size(); i += 8) {
    std::uint64_t bits = rng();
    for (std::size_t j = i; j < std::min(i + 8, keys.size()); ++j, bits >>= 8) {
      keys[j] = static_cast<std::uint8_t>(bits);
      ++input_histogram[keys[j]];
    }
  }
  device_vector<std::uint8_t> data(keys.size() + 2 * guard_items);
  data.fill_poison();
  data.upload(keys, guard_items);
  keys.clear();  // 2 GB of host memory back before the download
  keys.shrink_to_fit();
  mergepath::cuda_context ctx;
  mergepath::mergesort(ctx, data.data() + guard_items, count);
  ctx.synchronize();

  std::vector<std::uint8_t> got = data.download();
  std::array<index_t, 256> histogram{};
  index_t first_unsorted = -1;
  for (index_t i = 0; i < count; ++i) {
    std::size_t at = guard_items + static_cast<std::size_t>(i);
    ++histogram[got[at]];
    if (i > 0 && first_unsorted < 0 && got[at] < got[at - 1]) first_unsorted = i;
  }
  EXPECT_EQ(first_unsorted, -1) << "output not sorted at this position";
  for (int v = 0; v < 256; ++v) EXPECT_EQ(histogram[v], input_histogram[v]) << "value " << v;
  EXPECT_TRUE(untouched(got, 0, guard_items)) << "guard before the keys";
  EXPECT_TRUE(untouched(got, guard_items + static_cast<std::size_t>(count), got.size())) << "guard after the keys";
}

// Every size from 0 to a little over two blocksort tiles (every partial tile, and the first merge
// pass with every short second run): keys with the default int32 tuning, and pairs with theirs.
TEST_F(GpuMergesortLarge, EverySizeUpToTwoBlocksortTiles) {
  mergepath::cuda_context ctx;
  const index_t keys_tile = mergepath::default_mergesort_policy<int>::tuning.blocksort.tile_items();
  const index_t pairs_tile = mergepath::default_mergesort_policy<int, int>::tuning.blocksort.tile_items();
  for (index_t n = 0; n <= 2 * keys_tile + 2; ++n) {
    sort_case c{n, distribution::few_distinct, case_seed({501, n})};
    SCOPED_TRACE(c.name());
    std::vector<int> keys = make_sort_keys<int>(c);
    ASSERT_NO_FATAL_FAILURE(check_sort(
        ctx, keys, mergepath::less<>{}, [](auto& ctx, auto k, index_t count) { mergepath::mergesort(ctx, k, count); }));
    if (n <= 2 * pairs_tile + 2)
      ASSERT_NO_FATAL_FAILURE(
          (check_sort_pairs<int, int>(ctx, keys, mergepath::less<>{}, [](auto& ctx, auto k, auto v, index_t count) {
            mergepath::mergesort_pairs(ctx, k, v, count);
          })));
  }
}

// ---------------------------------------------------------------------------------------------
// segmented_sort

class GpuSegmentedSortLarge : public gpu_test {};

// More than 2^31 random bytes in 300 long segments (each over many blocksort tiles, one of them
// across 2^31) with 1000 tiny ones (1 to 8 keys) between them: the blocksort, the head bitfield and
// every merge pass reach offsets past 2^31. Checked per segment by counting: each segment ends
// non-decreasing, with every byte value as often as the segment held it; nothing else is written.
TEST_F(GpuSegmentedSortLarge, MoreThanTwoToThe31Keys) {
  const index_t count = (index_t{1} << 31) + 12345;
  std::size_t free_bytes = 0, total_bytes = 0;
  MERGEPATH_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  // keys, scratch, the head bitfield, slack
  const std::size_t needed =
      2 * static_cast<std::size_t>(count) + static_cast<std::size_t>(count) / 8 + (std::size_t{256} << 20);
  if (free_bytes < needed) GTEST_SKIP() << "needs " << needed << " bytes of GPU memory, " << free_bytes << " free";
  SCOPED_TRACE("MERGEPATH_TEST_SEED=" + std::to_string(base_seed()));
  std::mt19937_64 rng(case_seed({510}));

  // Segment lengths: the tiny ones, then the long ones share the rest by random weights (the
  // rounding remainder goes to the first); laid out in random order, each starting at a head.
  std::vector<index_t> lengths;
  index_t tiny_total = 0;
  for (int i = 0; i < 1000; ++i) {
    lengths.push_back(1 + static_cast<index_t>(rng() % 8));
    tiny_total += lengths.back();
  }
  std::vector<double> weights(300);
  for (double& w : weights) w = std::uniform_real_distribution<double>(0.2, 1.0)(rng);
  const double weight_sum = std::accumulate(weights.begin(), weights.end(), 0.0);
  const index_t long_total = count - tiny_total;
  index_t used = 0;
  for (double w : weights) {
    lengths.push_back(static_cast<index_t>(static_cast<double>(long_total) * w / weight_sum));
    used += lengths.back();
  }
  lengths[1000] += long_total - used;
  std::shuffle(lengths.begin(), lengths.end(), rng);
  std::vector<index_t> heads;  // with the head at 0
  for (index_t at = 0, s = 0; s < static_cast<index_t>(lengths.size()); at += lengths[static_cast<std::size_t>(s++)])
    heads.push_back(at);
  const index_t num_segments = static_cast<index_t>(heads.size());

  // Eight random bytes per draw; then each segment's histogram.
  std::vector<std::uint8_t> keys(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < keys.size(); i += 8) {
    std::uint64_t bits = rng();
    for (std::size_t j = i; j < std::min(i + 8, keys.size()); ++j, bits >>= 8)
      keys[j] = static_cast<std::uint8_t>(bits);
  }
  std::vector<std::array<index_t, 256>> input_histograms(lengths.size());
  for (index_t s = 0; s < num_segments; ++s) {
    std::array<index_t, 256>& histogram = input_histograms[static_cast<std::size_t>(s)];
    histogram.fill(0);
    const index_t end = s + 1 < num_segments ? heads[static_cast<std::size_t>(s + 1)] : count;
    for (index_t i = heads[static_cast<std::size_t>(s)]; i < end; ++i) ++histogram[keys[static_cast<std::size_t>(i)]];
  }

  device_vector<std::uint8_t> data(keys.size() + 2 * guard_items);
  data.fill_poison();
  data.upload(keys, guard_items);
  keys.clear();  // 2 GB of host memory back before the download
  keys.shrink_to_fit();
  device_vector<index_t> device_heads(heads);
  mergepath::cuda_context ctx;
  mergepath::segsort_stats stats;
  mergepath::segmented_sort(ctx, data.data() + guard_items, count, device_heads.data(), num_segments,
                            mergepath::less<>{}, &stats);
  ctx.synchronize();

  constexpr mergepath::segmented_sort_tuning tuning = mergepath::default_segmented_sort_policy<std::uint8_t>::tuning;
  const index_t merge_tile = tuning.merge.tile_items(), sort_tile = tuning.blocksort.tile_items();
  std::size_t passes = 0;
  while ((index_t{1} << passes) < (count + sort_tile - 1) / sort_tile) ++passes;
  EXPECT_EQ(stats.tiles, (count + merge_tile - 1) / merge_tile);
  EXPECT_EQ(stats.passes.size(), passes);
  EXPECT_GE(stats.total_merge_tiles(), 1) << stats;

  std::vector<std::uint8_t> got = data.download();
  index_t bad_segments = 0, first_bad = -1;
  for (index_t s = 0; s < num_segments; ++s) {
    std::array<index_t, 256> histogram{};
    const index_t begin = heads[static_cast<std::size_t>(s)];
    const index_t end = s + 1 < num_segments ? heads[static_cast<std::size_t>(s + 1)] : count;
    bool sorted = true;
    for (index_t i = begin; i < end; ++i) {
      std::size_t at = guard_items + static_cast<std::size_t>(i);
      ++histogram[got[at]];
      if (i > begin && got[at] < got[at - 1]) sorted = false;
    }
    if ((!sorted || histogram != input_histograms[static_cast<std::size_t>(s)]) && bad_segments++ == 0) first_bad = s;
  }
  EXPECT_EQ(bad_segments, 0) << "first: segment " << first_bad << " of " << num_segments << ", ["
                             << (first_bad >= 0 ? heads[static_cast<std::size_t>(first_bad)] : 0) << ", ...)";
  EXPECT_TRUE(untouched(got, 0, guard_items)) << "guard before the keys";
  EXPECT_TRUE(untouched(got, guard_items + static_cast<std::size_t>(count), got.size())) << "guard after the keys";
}

class GpuLoadBalanceLarge : public gpu_test {};

// Checks every item's segment and rank against the starts on the device (an output of 2^31
// segments would not fit the host's patience), and sums the items it saw.
struct check_item {
  const index_t* starts;
  index_t num_segments, count;
  unsigned long long* bad;
  unsigned long long* visits;
  unsigned long long* index_sum;
  __device__ void operator()(index_t i, index_t s, index_t r) const {
    index_t end = s + 1 < num_segments ? starts[s + 1] : count;
    if (s < 0 || s >= num_segments || i < starts[s] || i >= end || r != i - starts[s]) atomicAdd(bad, 1ull);
    atomicAdd(visits, 1ull);
    atomicAdd(index_sum, static_cast<unsigned long long>(i));
  }
};

__global__ void fill_weights(int* weights, index_t count) {  // weights[i] = item_weight()(i)
  for (index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<index_t>(gridDim.x) * blockDim.x)
    weights[i] = static_cast<int>(i % 7);
}

struct item_weight {  // f(i) for the reduction: small, so the 64-bit sums are exact
  __device__ long long operator()(index_t i) const { return i % 7; }
};

TEST_F(GpuLoadBalanceLarge, MoreThanTwoToThe31Items) {
  const index_t count = (index_t{1} << 31) + 4097;
  auto starts = make_segment_starts<index_t>(starts_shape::mean_300, count, case_seed({51}));
  starts.insert(starts.begin() + static_cast<std::ptrdiff_t>(starts.size() / 2), 40, starts[starts.size() / 2]);
  const auto num_segments = static_cast<index_t>(starts.size());
  device_vector<index_t> d_starts(starts);
  device_vector<unsigned long long> counters(std::vector<unsigned long long>{0, 0, 0});
  mergepath::cuda_context ctx;
  mergepath::transform_lbs(ctx, check_item{d_starts.data(), num_segments, count, counters.data(), counters.data() + 1,
                                           counters.data() + 2},
                           count, d_starts.data(), num_segments);
  auto c = counters.download();
  EXPECT_EQ(c[0], 0u) << "items with a wrong segment or rank";
  EXPECT_EQ(c[1], static_cast<unsigned long long>(count));
  EXPECT_EQ(c[2], static_cast<unsigned long long>(count) * static_cast<unsigned long long>(count - 1) / 2);

  device_vector<long long> sums(starts.size());
  sums.fill_poison();
  mergepath::transform_segmented_reduce(ctx, item_weight{}, count, d_starts.data(), num_segments, sums.data(), 3LL);
  auto got = sums.download();
  for (std::size_t s = 0; s < starts.size(); ++s) {
    index_t end = s + 1 < starts.size() ? starts[s + 1] : count;
    long long expected = 3;
    for (index_t i = starts[s]; i < end; ++i) expected += i % 7;
    ASSERT_EQ(got[s], expected) << "segment " << s;
  }

  // The same sums from a plain array of the weights: segmented_reduce's streaming path (mean 300).
  device_vector<int> weights(static_cast<std::size_t>(count));
  fill_weights<<<1024, 256>>>(weights.data(), count);
  MERGEPATH_CUDA_CHECK(cudaGetLastError());
  device_vector<int> int_sums(starts.size());
  int_sums.fill_poison();
  mergepath::segmented_reduce(ctx, weights.data(), count, d_starts.data(), num_segments, int_sums.data(), 3);
  auto got_int = int_sums.download();
  for (std::size_t s = 0; s < starts.size(); ++s) ASSERT_EQ(got_int[s], got[s]) << "segment " << s;
}

// ---------------------------------------------------------------------------------------------
// merge_join

class GpuJoinLarge : public gpu_test {};

// Counts the rows of a full outer join of a = {1, 5 x na5, 9} and b = {5 x nb5, 7} that differ
// from the expected: (0, -1), then every pair of the 5s in order, then (-1, nb5), then (na5 + 1, -1).
struct check_join_row {
  const std::int64_t* a_index;
  const std::int64_t* b_index;
  std::int64_t na5, nb5, size;
  unsigned long long* wrong;
  __device__ void operator()(index_t k) const {
    std::int64_t i = -1, j = -1;
    if (k == 0) {
      i = 0;
    } else if (k <= na5 * nb5) {
      i = 1 + (k - 1) / nb5, j = (k - 1) % nb5;
    } else if (k == na5 * nb5 + 1) {
      j = nb5;
    } else {
      i = na5 + 1;
    }
    if (a_index[k] != i || b_index[k] != j) atomicAdd(wrong, 1ull);
  }
};

template <class F>
__global__ void for_each_row_kernel(F f, index_t count) {
  for (index_t k = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; k < count;
       k += static_cast<index_t>(gridDim.x) * blockDim.x)
    f(k);
}

// One key group of 47000 x 46000 rows: more than 2^31 output rows (34.6 GB of int64 indices).
TEST_F(GpuJoinLarge, MoreThanTwoToThe31Rows) {
  const std::int64_t na5 = 47000, nb5 = 46000, rows = na5 * nb5 + 3;
  std::size_t free_bytes = 0, total_bytes = 0;
  MERGEPATH_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::size_t needed = 16 * static_cast<std::size_t>(rows) + (std::size_t{256} << 20);
  if (free_bytes < needed) GTEST_SKIP() << "needs " << needed << " bytes of GPU memory, " << free_bytes << " free";
  std::vector<int> a(static_cast<std::size_t>(na5), 5), b(static_cast<std::size_t>(nb5), 5);
  a.insert(a.begin(), 1), a.push_back(9), b.push_back(7);
  device_vector<int> da(a), db(b);
  mergepath::cuda_context ctx;
  auto r = mergepath::merge_join<mergepath::join_kind::full_outer, std::int64_t>(
      ctx, da.data(), static_cast<index_t>(a.size()), db.data(), static_cast<index_t>(b.size()));
  ASSERT_EQ(r.size(), rows);
  ASSERT_GT(r.size(), index_t{1} << 31);
  device_vector<unsigned long long> wrong(std::vector<unsigned long long>{0});
  for_each_row_kernel<<<4096, 256, 0, ctx.stream()>>>(
      check_join_row{r.a_index(), r.b_index(), na5, nb5, rows, wrong.data()}, rows);
  MERGEPATH_CUDA_CHECK(cudaGetLastError());
  ctx.synchronize();
  EXPECT_EQ(wrong.download()[0], 0u) << "rows that differ from the expected";
}

}  // namespace
}  // namespace mergepath_test
