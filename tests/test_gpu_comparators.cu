// GPU calls under comparators that are not strict weak orders (<=, always true, a hash of both
// keys, less<> over NaNs, !=): the result is unspecified, but every call should return, sorts
// and merges return a permutation of their input (key and value together), and bounds, counts and
// row indices stay within their documented ranges, as the host backend does (its fuzz:
// comparator_fuzz_util.hpp).
//
// The GPU keeps them by checking its splits where the order is not trusted
// (block/slice_check.cuh, kernel/split_repair.cuh; docs/design/gpu-split-repair.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <mergepath/mergepath.hpp>
#include <random>
#include <string>
#include <vector>

#include "gpu_util.cuh"

namespace mergepath_test {
namespace {

enum class device_order { less_equal, always_true, hashed, nan_less, not_equal };
const char* const order_names[] = {"<=", "always true", "a hash of both", "less<> with NaNs", "!="};

struct device_bad_comp {
  device_order order;
  MERGEPATH_HD static std::uint64_t mix(std::uint64_t h) {
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
    return h ^ (h >> 31);
  }
  MERGEPATH_HD bool operator()(double x, double y) const {
    switch (order) {
      case device_order::less_equal:
        return x <= y;
      case device_order::always_true:
        return true;
      case device_order::hashed: {
        std::uint64_t bx, by;
        memcpy(&bx, &x, sizeof bx);
        memcpy(&by, &y, sizeof by);
        return mix(bx * 0x9e3779b97f4a7c15ull ^ by) & 1;
      }
      case device_order::nan_less:
        return x < y;
      case device_order::not_equal:
        return x != y;
    }
    return false;
  }
};

// Keys with many repeats, and a tenth NaN.
std::vector<double> fuzz_keys(index_t n, std::mt19937_64& rng) {
  std::vector<double> keys(static_cast<std::size_t>(n));
  for (auto& k : keys)
    k = rng() % 10 == 0 ? std::numeric_limits<double>::quiet_NaN() : static_cast<double>(rng() % 1000);
  return keys;
}

std::vector<std::uint64_t> sorted_bits(const std::vector<double>& x) {
  std::vector<std::uint64_t> bits(x.size());
  std::memcpy(bits.data(), x.data(), x.size() * sizeof(double));
  std::sort(bits.begin(), bits.end());
  return bits;
}

// got is a permutation of expected (bit for bit, NaNs included).
::testing::AssertionResult same_multiset(const std::vector<double>& expected, const std::vector<double>& got) {
  if (sorted_bits(expected) == sorted_bits(got)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "the output is not a permutation of the input";
}

// Pairs: values a permutation of 0..n-1 and each key the one that came with its value.
::testing::AssertionResult pairs_permuted(const std::vector<double>& keys_in, const std::vector<double>& keys,
                                          const std::vector<int>& vals) {
  std::vector<char> seen(keys_in.size());
  for (std::size_t i = 0; i < vals.size(); ++i) {
    const int v = vals[i];
    if (v < 0 || static_cast<std::size_t>(v) >= keys_in.size() || seen[v])
      return ::testing::AssertionFailure() << "vals[" << i << "] = " << v << " is not a fresh input position";
    seen[v] = 1;
    if (std::memcmp(&keys_in[v], &keys[i], sizeof(double)) != 0)
      return ::testing::AssertionFailure() << "keys[" << i << "] did not come with its value";
  }
  return ::testing::AssertionSuccess();
}

class GpuBadComparators : public gpu_test {};

TEST_F(GpuBadComparators, SortsAndMergesPermuteTheirInput) {
  mergepath::cuda_context ctx;
  std::mt19937_64 rng(case_seed({1201}));
  for (int o = 0; o < 5; ++o) {
    const device_bad_comp comp{static_cast<device_order>(o)};
    for (index_t n : {index_t{0}, index_t{1}, index_t{17}, index_t{1000}, index_t{65537}, index_t{300001}}) {
      if (n > max_test_size()) continue;  // the sanitizer runs
      SCOPED_TRACE(::testing::Message() << order_names[o] << ", n " << n);
      const std::vector<double> keys = fuzz_keys(n, rng);
      const std::vector<int> vals = origins<int>(n, 0);
      {
        device_vector<double> k(keys);
        mergepath::sort(ctx, k.data(), n, comp);
        EXPECT_TRUE(same_multiset(keys, k.download())) << "sort";
      }
      {
        device_vector<double> k(keys);
        mergepath::mergesort(ctx, k.data(), n, comp);
        EXPECT_TRUE(same_multiset(keys, k.download())) << "mergesort";
      }
      {
        device_vector<double> k(keys);
        mergepath::locality_sort(ctx, k.data(), n, comp);
        EXPECT_TRUE(same_multiset(keys, k.download())) << "locality_sort";
      }
      {
        device_vector<double> k(keys);
        device_vector<int> v(vals);
        mergepath::sort_pairs(ctx, k.data(), v.data(), n, comp);
        EXPECT_TRUE(pairs_permuted(keys, k.download(), v.download())) << "sort_pairs";
      }
      {
        std::vector<index_t> heads;
        for (index_t i = 1; i < n; ++i)
          if (rng() % 5000 == 0) heads.push_back(i);
        device_vector<double> k(keys);
        device_vector<int> v(vals);
        device_vector<index_t> h(heads);
        mergepath::segmented_sort_pairs(ctx, k.data(), v.data(), n, h.data(), static_cast<index_t>(heads.size()), comp);
        EXPECT_TRUE(pairs_permuted(keys, k.download(), v.download())) << "segmented_sort_pairs";
      }
      {
        const index_t na = n / 3, nb = n - na;
        device_vector<double> a(std::vector<double>(keys.begin(), keys.begin() + na)),
            b(std::vector<double>(keys.begin() + na, keys.end()));
        device_vector<int> av(std::vector<int>(vals.begin(), vals.begin() + na)),
            bv(std::vector<int>(vals.begin() + na, vals.end()));
        device_vector<double> out(static_cast<std::size_t>(n));
        device_vector<int> out_vals(static_cast<std::size_t>(n));
        mergepath::merge(ctx, a.data(), na, b.data(), nb, out.data(), comp);
        EXPECT_TRUE(same_multiset(keys, out.download())) << "merge";
        mergepath::merge_pairs(ctx, a.data(), av.data(), na, b.data(), bv.data(), nb, out.data(), out_vals.data(),
                               comp);
        EXPECT_TRUE(pairs_permuted(keys, out.download(), out_vals.download())) << "merge_pairs";
      }
    }
  }
}

TEST_F(GpuBadComparators, SearchesJoinsAndSetsStayInBounds) {
  mergepath::cuda_context ctx;
  std::mt19937_64 rng(case_seed({1202}));
  for (int o = 0; o < 5; ++o) {
    const device_bad_comp comp{static_cast<device_order>(o)};
    for (index_t n : {index_t{0}, index_t{1}, index_t{17}, index_t{1000}, index_t{65537}}) {
      if (n > max_test_size()) continue;  // the sanitizer runs
      SCOPED_TRACE(::testing::Message() << order_names[o] << ", n " << n);
      const index_t na = n / 2, nb = n - na;
      const std::vector<double> a_keys = fuzz_keys(na, rng), b_keys = fuzz_keys(nb, rng);
      device_vector<double> a(a_keys), b(b_keys), out(static_cast<std::size_t>(n));
      device_vector<index_t> a_out(static_cast<std::size_t>(na)), b_out(static_cast<std::size_t>(nb));
      auto in_range = [](const std::vector<index_t>& x, index_t hi, const char* what) {
        for (std::size_t i = 0; i < x.size(); ++i)
          if (x[i] < 0 || x[i] > hi)
            return ::testing::AssertionFailure() << what << "[" << i << "] = " << x[i] << " outside [0, " << hi << "]";
        return ::testing::AssertionSuccess();
      };
      mergepath::sorted_search(ctx, a.data(), na, b.data(), nb, a_out.data(), comp);
      EXPECT_TRUE(in_range(a_out.download(), nb, "sorted_search"));
      const mergepath::match_counts matches =
          mergepath::sorted_search<mergepath::bounds::lower, mergepath::search::index, mergepath::search::index>(
              ctx, a.data(), na, b.data(), nb, a_out.data(), b_out.data(), comp);
      EXPECT_LE(matches.a, na);
      EXPECT_LE(matches.b, nb);
      EXPECT_TRUE(in_range(a_out.download(), nb, "a_out"));
      EXPECT_TRUE(in_range(b_out.download(), na, "b_out"));
      mergepath::binary_search(ctx, a.data(), na, b.data(), nb, a_out.data(), comp);
      EXPECT_TRUE(in_range(a_out.download(), nb, "binary_search"));
      EXPECT_LE(mergepath::set_union(ctx, a.data(), na, b.data(), nb, out.data(), comp), na + nb);
      EXPECT_LE(mergepath::set_intersection(ctx, a.data(), na, b.data(), nb, out.data(), comp), na);
      EXPECT_LE(mergepath::set_difference(ctx, a.data(), na, b.data(), nb, out.data(), comp), na);
      EXPECT_LE(mergepath::set_symmetric_difference(ctx, a.data(), na, b.data(), nb, out.data(), comp), na + nb);
      if (n <= 1000) {  // orders where every pair matches make na * nb rows
        auto rows = mergepath::merge_join<mergepath::join_kind::full_outer>(ctx, a.data(), na, b.data(), nb, comp);
        EXPECT_LE(rows.size(), na * nb + na + nb);
        std::vector<index_t> ai(static_cast<std::size_t>(rows.size())), bi(ai.size());
        ctx.synchronize();
        if (rows.size() > 0) {
          MERGEPATH_CUDA_CHECK(
              cudaMemcpy(ai.data(), rows.a_index(), ai.size() * sizeof(index_t), cudaMemcpyDeviceToHost));
          MERGEPATH_CUDA_CHECK(
              cudaMemcpy(bi.data(), rows.b_index(), bi.size() * sizeof(index_t), cudaMemcpyDeviceToHost));
        }
        for (std::size_t r = 0; r < ai.size(); ++r) {
          ASSERT_TRUE(ai[r] >= -1 && ai[r] < na && bi[r] >= -1 && bi[r] < nb) << "row " << r;
          ASSERT_FALSE(ai[r] == -1 && bi[r] == -1) << "row " << r;
        }
      }
      ctx.synchronize();
    }
  }
}

}  // namespace
}  // namespace mergepath_test
