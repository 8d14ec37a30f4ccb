// merge_join and sort_merge_join on a cuda_context: the suites of suites/join.hpp, and what only
// the GPU backend has (unsorted input under compute-sanitizer). MERGEPATH_TEST_MAX_SIZE caps the
// sizes.
#include <gtest/gtest.h>

#include <mergepath/join.hpp>
#include <random>
#include <vector>

#include "gpu_util.cuh"
#include "suites/join.hpp"

namespace mergepath_test {
namespace {

using mergepath::cuda_context;

INSTANTIATE_TYPED_TEST_SUITE_P(Gpu, Join, on_gpu<join_cases<std::int32_t>>);
INSTANTIATE_TYPED_TEST_SUITE_P(Gpu, JoinCalls, on_gpu<>);

struct GpuJoinUnchecked : gpu_test {};

// Unsorted and unchecked: any result, nothing out of bounds (compute-sanitizer's part).
TEST_F(GpuJoinUnchecked, UnsortedInputAnyResult) {
  cuda_context ctx;
  device_vector<int> a(std::vector<int>{1, 2, 3, 2, 5}), b(std::vector<int>{1, 2});
  auto r = mergepath::merge_join<join_kind::full_outer>(ctx, a.data(), 5, b.data(), 2);
  auto inner = mergepath::merge_join<join_kind::inner>(ctx, b.data(), 2, a.data(), 5);
  ctx.synchronize();
  EXPECT_GE(r.size(), 0);
  EXPECT_GE(inner.size(), 0);
  // Many tiles of unsorted keys, whose splits need not meet: some bounds are never written. (Not
  // at racecheck's sizes: there the walks' overlapping writes, which only unsorted input makes,
  // would be reported.)
  if (max_test_size() < 20000) return;
  std::mt19937_64 rng(case_seed({77}));
  std::vector<int> ua(12000), ub(8000), few(200);
  for (int& x : ua) x = static_cast<int>(rng() % 1000);
  for (int& x : ub) x = static_cast<int>(rng() % 1000);
  for (int& x : few) x = static_cast<int>(rng() % 1000);
  device_vector<int> da(ua), db(ub), dfew(few);
  for_each_join_kind([&](auto kind) {
    constexpr join_kind Kind = decltype(kind)::value;
    SCOPED_TRACE(::testing::Message() << Kind);
    EXPECT_GE((mergepath::merge_join<Kind, std::int32_t>(ctx, da.data(), 12000, db.data(), 8000).size()), 0);
    EXPECT_GE((mergepath::merge_join<Kind, std::int64_t>(ctx, dfew.data(), 200, db.data(), 8000).size()), 0);
  });
  ctx.synchronize();
}

}  // namespace
}  // namespace mergepath_test
