// merge_pairs on a cuda_context: values record their origin, so the output shows stability.
#include <gtest/gtest.h>

#include <mergepath/mergepath.hpp>

#include "gpu_util.cuh"

namespace mergepath_test {
namespace {

// 8-, 16- and 12-byte pairs: three default tunings; the 16-byte one needs more than 48 KiB of
// shared memory; point keys are not cp.async-able, their int values are.
using pair_cases = ::testing::Types<pairs_case<std::int32_t, std::int32_t, mergepath::less<>>,
                                    pairs_case<std::int64_t, std::int64_t, mergepath::greater<>>,
                                    pairs_case<point, std::int32_t, point_less>>;

template <class Case>
class GpuMergePairs : public gpu_test {};
TYPED_TEST_SUITE(GpuMergePairs, pair_cases);

TYPED_TEST(GpuMergePairs, StableLikeStdMerge) {
  using Key = typename TypeParam::key;
  using Value = typename TypeParam::value;
  using Comp = typename TypeParam::comp;
  mergepath::cuda_context ctx;
  for (const merge_case& c : merge_cases(merge_sizes(merge_tile_items<Key, Value>()))) {
    SCOPED_TRACE(c.name());
    ASSERT_NO_FATAL_FAILURE((check_gpu_merge_pairs<Key, Value>(
        ctx, make_merge_input<Key>(c, Comp{}), Comp{},
        [](auto& ctx, auto ak, auto av, index_t na, auto bk, auto bv, index_t nb, auto ok, auto ov) {
          mergepath::merge_pairs(ctx, ak, av, na, bk, bv, nb, ok, ov, Comp{});
        })));
  }
}

}  // namespace
}  // namespace mergepath_test
