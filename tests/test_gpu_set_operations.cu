// The set operations on a cuda_context: the suites of suites/set_operations.hpp, and what only the
// GPU backend has (unsorted input under compute-sanitizer, a tuning that prefetches every next
// tile). MERGEPATH_TEST_MAX_SIZE caps the sizes.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <mergepath/set_operations.hpp>
#include <random>
#include <utility>
#include <vector>

#include "gpu_util.cuh"
#include "suites/set_operations.hpp"

namespace mergepath_test {
namespace {

using mergepath::cuda_context;

INSTANTIATE_TYPED_TEST_SUITE_P(Gpu, SetOperations, on_gpu<set_cases>);
INSTANTIATE_TYPED_TEST_SUITE_P(Gpu, SetOperationCalls, on_gpu<>);

struct GpuSetOperationsUnchecked : gpu_test {};

// Unsorted, unchecked, large: any count up to the capacity, nothing out of bounds.
TEST_F(GpuSetOperationsUnchecked, UnsortedInputCountsWithinCapacity) {
  cuda_context ctx;
  const index_t n = 1 << 18;
  std::mt19937_64 rng(case_seed({n}));
  std::vector<int> ha(static_cast<std::size_t>(n)), hb(static_cast<std::size_t>(n / 2));
  for (auto& x : ha) x = static_cast<int>(rng() % 50);
  for (auto& x : hb) x = static_cast<int>(rng() % 50);
  device_vector<int> da(ha), db(hb);
  for (set_op op : all_set_ops()) {
    device_vector<int> o(static_cast<std::size_t>(mergepath::detail::set_output_capacity(op, n, n / 2)));
    EXPECT_LE(run_set_op(op, ctx, da.data(), n, db.data(), n / 2, o.data(), mergepath::less<>{}),
              static_cast<std::int64_t>(o.size()));
  }
  ctx.synchronize();
}

// Small tiles, each asking L2 for the next one's runs (a distance of one tile on any GPU): the
// prefetch path at sizes the sanitizers run, on sorted input by key and on unsorted input.
struct prefetching_set_policy {
  static constexpr mergepath::set_operation_tuning tuning{128, 7, 1, 0.001f};
};
struct GpuSetOperationsTuned : gpu_test {};

TEST_F(GpuSetOperationsTuned, PrefetchingEveryNextTile) {
  cuda_context ctx;
  const index_t span = prefetching_set_policy::tuning.tile_span();
  for (auto [na, nb] :
       std::vector<std::pair<index_t, index_t>>{{1, 0}, {span, 1}, {3 * span + 2, 2 * span}, {5000, 7000}})
    for (bool sorted : {true, false}) {
      SCOPED_TRACE(::testing::Message() << na << " x " << nb << (sorted ? " sorted" : " unsorted"));
      std::mt19937_64 rng(case_seed({na, nb}));
      std::vector<int> ha(static_cast<std::size_t>(na)), hb(static_cast<std::size_t>(nb));
      for (auto& x : ha) x = static_cast<int>(rng() % 300);
      for (auto& x : hb) x = static_cast<int>(rng() % 300);
      if (sorted) std::sort(ha.begin(), ha.end()), std::sort(hb.begin(), hb.end());
      std::vector<int> ha_vals(ha.size()), hb_vals(hb.size());
      for (std::size_t k = 0; k < ha.size(); ++k) ha_vals[k] = static_cast<int>(k);
      for (std::size_t k = 0; k < hb.size(); ++k) hb_vals[k] = ~static_cast<int>(k);
      device_vector<int> a(ha), b(hb), av(ha_vals), bv(hb_vals), out(ha.size() + hb.size()), out_vals(out.size());
      const index_t n = mergepath::device::launch_set_operation<prefetching_set_policy, set_op::union_>(
          ctx, a.data(), av.data(), na, b.data(), bv.data(), nb, out.data(), out_vals.data(), mergepath::less<>{});
      std::vector<int> union_got = out.download(), union_vals = out_vals.download();
      const index_t m = mergepath::device::launch_set_operation<prefetching_set_policy, set_op::intersection>(
          ctx, a.data(), nullptr, na, b.data(), nullptr, nb, out.data(), nullptr, mergepath::less<>{});
      if (!sorted) continue;  // any counts, nothing out of bounds
      std::vector<int> union_keys, common;
      std::set_union(ha.begin(), ha.end(), hb.begin(), hb.end(), std::back_inserter(union_keys));
      std::set_intersection(ha.begin(), ha.end(), hb.begin(), hb.end(), std::back_inserter(common));
      ASSERT_EQ(n, static_cast<index_t>(union_keys.size()));
      union_got.resize(union_keys.size());
      ASSERT_EQ(union_got, union_keys);
      for (index_t k = 0; k < n; ++k) {  // each value names the key it came with
        const int v = union_vals[static_cast<std::size_t>(k)];
        ASSERT_EQ(v >= 0 ? ha[static_cast<std::size_t>(v)] : hb[static_cast<std::size_t>(~v)],
                  union_got[static_cast<std::size_t>(k)])
            << k;
      }
      ASSERT_EQ(m, static_cast<index_t>(common.size()));
      std::vector<int> got = out.download();
      got.resize(common.size());
      ASSERT_EQ(got, common);
    }
  ctx.synchronize();
}

}  // namespace
}  // namespace mergepath_test
