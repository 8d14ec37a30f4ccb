// The textbook ladder (merge_basic, merge_tiled, merge_circular): same contract as merge, checked
// the same way, at sizes around its tile (1024) and section (16384).
#include <gtest/gtest.h>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <mergepath/textbook.hpp>
#include <random>
#include <vector>

#include "gpu_util.cuh"

namespace mergepath_test {
namespace {

template <class Case>
class GpuTextbook : public gpu_test {
 protected:
  using Key = typename Case::key;
  using Comp = typename Case::comp;

  template <class Merge>
  void check_against_std_merge(Merge merge) {
    mergepath::cuda_context ctx;
    for (const merge_case& c : merge_cases(textbook_sizes())) {
      SCOPED_TRACE(c.name());
      ASSERT_NO_FATAL_FAILURE(check_merge(ctx, make_merge_input<Key>(c, Comp{}), Comp{}, merge));
    }
  }
};
// point_x_less ties points of equal x, so an unstable merge shows in their y.
using textbook_cases = ::testing::Types<keys_case<std::int32_t, mergepath::less<>>, keys_case<point, point_x_less>>;
TYPED_TEST_SUITE(GpuTextbook, textbook_cases);

TYPED_TEST(GpuTextbook, Basic) {
  using Comp = typename TypeParam::comp;
  this->check_against_std_merge([](auto& ctx, auto a, index_t na, auto b, index_t nb, auto out) {
    mergepath::textbook::merge_basic(ctx, a, na, b, nb, out, Comp{});
  });
}

TYPED_TEST(GpuTextbook, Tiled) {
  using Comp = typename TypeParam::comp;
  this->check_against_std_merge([](auto& ctx, auto a, index_t na, auto b, index_t nb, auto out) {
    mergepath::textbook::merge_tiled(ctx, a, na, b, nb, out, Comp{});
  });
}

TYPED_TEST(GpuTextbook, Circular) {
  using Comp = typename TypeParam::comp;
  this->check_against_std_merge([](auto& ctx, auto a, index_t na, auto b, index_t nb, auto out) {
    mergepath::textbook::merge_circular(ctx, a, na, b, nb, out, Comp{});
  });
}

class GpuTextbookMisc : public gpu_test {};

// a = 0, 1, 2, ... from a counting iterator.
TEST_F(GpuTextbookMisc, CountingIteratorInput) {
  mergepath::cuda_context ctx;
  for (index_t n : textbook_sizes()) {
    index_t na = n / 2, nb = n - n / 2;
    SCOPED_TRACE(::testing::Message() << "a_count " << na << ", b_count " << nb);
    std::vector<int> a = origins<int>(na, 0), b(static_cast<std::size_t>(nb));
    std::mt19937_64 rng(case_seed({n, 8}));
    for (int& x : b) x = std::uniform_int_distribution<int>(0, static_cast<int>(na))(rng);
    std::sort(b.begin(), b.end());
    std::vector<int> expected = std_merge(a, b, mergepath::less<>{});
    device_vector<int> db(b), out(expected.size());
    mergepath::textbook::merge_circular(ctx, thrust::counting_iterator<int>(0), na, db.data(), nb, out.data());
    ASSERT_TRUE(ranges_equal(expected, out.download()));
  }
}

TEST_F(GpuTextbookMisc, BadArgumentsThrow) {
  mergepath::cuda_context ctx;
  device_vector<int> a(std::vector<int>{1, 2}), out(4);
  int* null = nullptr;
  expect_invalid_argument([&] { mergepath::textbook::merge_basic(ctx, a.data(), -1, a.data(), 2, out.data()); },
                          "a count is negative");
  expect_invalid_argument([&] { mergepath::textbook::merge_tiled(ctx, a.data(), 2, null, 2, out.data()); },
                          "b is a null pointer");
  expect_invalid_argument([&] { mergepath::textbook::merge_circular(ctx, a.data(), 2, a.data(), 2, null); },
                          "out is a null pointer");
  EXPECT_NO_THROW(mergepath::textbook::merge_circular(ctx, null, 0, null, 0, null));
  ctx.synchronize();
}

// Unsorted input: unspecified output, no fault (run under compute-sanitizer; a few sections).
TEST_F(GpuTextbookMisc, UnsortedInputDoesNotFault) {
  mergepath::cuda_context ctx;
  std::mt19937_64 rng(case_seed({9}));
  for (index_t n : {index_t{1}, index_t{1000}, index_t{16385}, index_t{40000}}) {
    std::vector<int> a(static_cast<std::size_t>(n)), b(static_cast<std::size_t>(n / 3 + 1));
    for (int& x : a) x = std::uniform_int_distribution<int>(0, 1000)(rng);
    for (int& x : b) x = std::uniform_int_distribution<int>(0, 1000)(rng);
    index_t na = n, nb = n / 3 + 1;
    device_vector<int> da(a), db(b), out(a.size() + b.size());
    mergepath::textbook::merge_basic(ctx, da.data(), na, db.data(), nb, out.data());
    mergepath::textbook::merge_tiled(ctx, da.data(), na, db.data(), nb, out.data());
    mergepath::textbook::merge_circular(ctx, da.data(), na, db.data(), nb, out.data());
    EXPECT_NO_THROW(ctx.synchronize()) << "n " << n;
  }
}

}  // namespace
}  // namespace mergepath_test
