// merge and merge_pairs on a host_context, against std::merge; argument errors; checked mode.
#include <gtest/gtest.h>

#include <deque>
#include <mergepath/mergepath.hpp>
#include <random>
#include <string>
#include <vector>

#include "comparator_fuzz_util.hpp"
#include "test_util.hpp"

namespace mergepath_test {
namespace {

// Thread counts: one (serial), two, an odd count and more threads than this machine has cores.
// Work under 2^15 items per chunk stays on one thread, so only the large sizes split.
const std::vector<int> thread_counts{1, 2, 3, 8};

using key_cases =
    ::testing::Types<keys_case<std::int32_t, mergepath::less<>>, keys_case<std::int32_t, mergepath::greater<>>,
                     keys_case<std::int64_t, mergepath::greater<>>, keys_case<std::uint32_t, mergepath::less<>>,
                     keys_case<float, mergepath::less<>>, keys_case<double, mergepath::greater<>>,
                     keys_case<point, point_less>,
                     // ties on x with different y: keys-only stability shows in the output
                     keys_case<point, point_x_less>>;

template <class Case>
class HostMerge : public ::testing::Test {};
TYPED_TEST_SUITE(HostMerge, key_cases);

TYPED_TEST(HostMerge, MatchesStdMerge) {
  using Key = typename TypeParam::key;
  typename TypeParam::comp comp;
  for (const merge_case& c : merge_cases(merge_sizes(merge_tile_items<Key>()))) {
    SCOPED_TRACE(c.name());
    merge_input<Key> in = make_merge_input<Key>(c, comp);
    std::vector<Key> expected = std_merge(in.a, in.b, comp);
    for (int threads : thread_counts) {
      SCOPED_TRACE(::testing::Message() << "threads " << threads);
      mergepath::host_context ctx(threads);
      std::vector<Key> out(expected.size() + guard_items, poison<Key>());
      mergepath::merge(ctx, in.a.data(), c.a_count, in.b.data(), c.b_count, out.data(), comp);
      ASSERT_TRUE(ranges_equal(expected, out));
      ASSERT_TRUE(untouched(out, expected.size(), out.size()));
    }
  }
}

using pair_cases =
    ::testing::Types<pairs_case<std::int32_t, std::int32_t, mergepath::less<>>,
                     pairs_case<std::int64_t, std::int64_t, mergepath::greater<>>,
                     pairs_case<float, std::uint32_t, mergepath::less<>>, pairs_case<point, std::int32_t, point_less>>;

template <class Case>
class HostMergePairs : public ::testing::Test {};
TYPED_TEST_SUITE(HostMergePairs, pair_cases);

// Values record their origin (a[i] carries i, b[j] carries a_count + j), so the output values
// show that of equal keys a's come first, each side in its own order.
TYPED_TEST(HostMergePairs, StableLikeStdMerge) {
  using Key = typename TypeParam::key;
  using Value = typename TypeParam::value;
  typename TypeParam::comp comp;
  for (const merge_case& c : merge_cases(merge_sizes(merge_tile_items<Key, Value>()))) {
    SCOPED_TRACE(c.name());
    merge_input<Key> in = make_merge_input<Key>(c, comp);
    std::vector<Value> a_vals = origins<Value>(c.a_count, 0), b_vals = origins<Value>(c.b_count, c.a_count);
    auto expected = std_merge_pairs(in.a, a_vals, in.b, b_vals, comp);
    for (int threads : thread_counts) {
      SCOPED_TRACE(::testing::Message() << "threads " << threads);
      mergepath::host_context ctx(threads);
      std::vector<Key> keys(expected.first.size() + guard_items, poison<Key>());
      std::vector<Value> vals(expected.first.size() + guard_items, poison<Value>());
      mergepath::merge_pairs(ctx, in.a.data(), a_vals.data(), c.a_count, in.b.data(), b_vals.data(), c.b_count,
                             keys.data(), vals.data(), comp);
      ASSERT_TRUE(ranges_equal(expected.first, keys));
      ASSERT_TRUE(ranges_equal(expected.second, vals));
      ASSERT_TRUE(untouched(keys, expected.first.size(), keys.size()));
      ASSERT_TRUE(untouched(vals, expected.first.size(), vals.size()));
    }
  }
}

// Any random-access iterators work: vector iterators in, a deque iterator out, a lambda to compare.
TEST(HostMerge, IteratorsAndLambdas) {
  merge_case c{70001, 60003, distribution::few_distinct, case_seed({4})};
  SCOPED_TRACE(c.name());
  auto by_value = [](int l, int r) { return l < r; };
  merge_input<int> in = make_merge_input<int>(c, by_value);
  std::vector<int> expected = std_merge(in.a, in.b, by_value);
  mergepath::host_context ctx(3);

  std::deque<int> out(expected.size());
  mergepath::merge(ctx, in.a.begin(), c.a_count, in.b.cbegin(), c.b_count, out.begin(), by_value);
  ASSERT_TRUE(ranges_equal(expected, std::vector<int>(out.begin(), out.end())));

  std::vector<int> a_vals = origins<int>(c.a_count, 0), b_vals = origins<int>(c.b_count, c.a_count);
  auto expected_pairs = std_merge_pairs(in.a, a_vals, in.b, b_vals, by_value);
  std::deque<int> keys(expected.size()), vals(expected.size());
  mergepath::merge_pairs(ctx, in.a.cbegin(), a_vals.begin(), c.a_count, in.b.begin(), b_vals.cbegin(), c.b_count,
                         keys.begin(), vals.begin(), by_value);
  ASSERT_TRUE(ranges_equal(expected_pairs.first, std::vector<int>(keys.begin(), keys.end())));
  ASSERT_TRUE(ranges_equal(expected_pairs.second, std::vector<int>(vals.begin(), vals.end())));
}

// ---------------------------------------------------------------------------------------------
// Bad arguments: std::invalid_argument before anything is written.

TEST(HostMerge, BadArgumentsThrowBeforeWriting) {
  mergepath::host_context ctx;
  std::vector<int> a{1, 2, 3}, b{2, 4}, out(5, poison<int>());
  std::vector<int> vals(5, poison<int>());
  int* null = nullptr;
  expect_invalid_argument([&] { mergepath::merge(ctx, a.data(), -1, b.data(), 2, out.data()); }, "a count is negative");
  expect_invalid_argument([&] { mergepath::merge(ctx, a.data(), 3, b.data(), -2, out.data()); }, "b count is negative");
  expect_invalid_argument([&] { mergepath::merge(ctx, null, 3, b.data(), 2, out.data()); }, "a is a null pointer");
  expect_invalid_argument([&] { mergepath::merge(ctx, a.data(), 3, null, 2, out.data()); }, "b is a null pointer");
  expect_invalid_argument([&] { mergepath::merge(ctx, a.data(), 3, b.data(), 2, null); }, "out is a null pointer");
  expect_invalid_argument(
      [&] { mergepath::merge_pairs(ctx, a.data(), a.data(), -1, b.data(), b.data(), 2, out.data(), vals.data()); },
      "a_keys count is negative");
  expect_invalid_argument(
      [&] { mergepath::merge_pairs(ctx, a.data(), null, 3, b.data(), b.data(), 2, out.data(), vals.data()); },
      "a_vals is a null pointer");
  expect_invalid_argument(
      [&] { mergepath::merge_pairs(ctx, a.data(), a.data(), 3, b.data(), null, 2, out.data(), vals.data()); },
      "b_vals is a null pointer");
  expect_invalid_argument(
      [&] { mergepath::merge_pairs(ctx, a.data(), a.data(), 3, b.data(), b.data(), 2, out.data(), null); },
      "out_vals is a null pointer");
  EXPECT_TRUE(untouched(out, 0, out.size()));
  EXPECT_TRUE(untouched(vals, 0, vals.size()));
}

TEST(HostMerge, NullPointersWithZeroCountsAreFine) {
  mergepath::host_context ctx;
  int* null = nullptr;
  EXPECT_NO_THROW(mergepath::merge(ctx, null, 0, null, 0, null));
  EXPECT_NO_THROW(mergepath::merge_pairs(ctx, null, null, 0, null, null, 0, null, null));
  std::vector<int> b{1, 2, 3}, out(3);
  mergepath::merge(ctx, null, 0, b.data(), 3, out.data());
  EXPECT_EQ(out, b);
}

TEST(HostContext, ZeroOrNegativeThreadsThrow) {
  EXPECT_THROW(mergepath::host_context(0), std::invalid_argument);
  EXPECT_THROW(mergepath::host_context(-3), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// Checked mode

// Sorted keys 0, 1, 2, ... with one element moved down at `position` (so x[position] < x[position-1]).
std::vector<int> sorted_except_at(index_t count, index_t position) {
  std::vector<int> v = origins<int>(count, 0);
  v[static_cast<std::size_t>(position)] = -1;
  return v;
}

TEST(HostMergeChecked, UnsortedInputThrowsNamingThePosition) {
  for (int threads : thread_counts) {
    SCOPED_TRACE(::testing::Message() << "threads " << threads);
    mergepath::host_context ctx(threads);
    ctx.set_checked(true);
    // Small arrays, and large ones whose second unsorted position lies in an earlier chunk than
    // a later one: the first position is named, whichever thread finds it.
    for (index_t count : {index_t{10}, index_t{300000}}) {
      std::vector<int> sorted = origins<int>(count, 0);
      std::vector<int> bad_a = sorted_except_at(count, 5), bad_b = sorted_except_at(count, 7);
      if (count > 100000) bad_a[250000] = -2;
      std::vector<int> out(static_cast<std::size_t>(2 * count), poison<int>()), vals = out;
      expect_invalid_argument([&] { mergepath::merge(ctx, bad_a.data(), count, sorted.data(), count, out.data()); },
                              "a[5]");
      expect_invalid_argument([&] { mergepath::merge(ctx, sorted.data(), count, bad_b.data(), count, out.data()); },
                              "b[7]");
      expect_invalid_argument(
          [&] {
            mergepath::merge_pairs(ctx, sorted.data(), sorted.data(), count, bad_b.data(), sorted.data(), count,
                                   out.data(), vals.data());
          },
          "b[7]");
      EXPECT_TRUE(untouched(out, 0, out.size()));
      EXPECT_TRUE(untouched(vals, 0, vals.size()));
    }
  }
}

TEST(HostMergeChecked, SortedInputPasses) {
  mergepath::host_context ctx(3);
  ctx.set_checked(true);
  EXPECT_TRUE(ctx.checked());
  for (const merge_case& c : merge_cases({0, 1, 1009, 65537})) {
    SCOPED_TRACE(c.name());
    for (bool descending : {false, true}) {
      merge_input<int> in =
          descending ? make_merge_input<int>(c, mergepath::greater<>{}) : make_merge_input<int>(c, mergepath::less<>{});
      std::vector<int> out(in.a.size() + in.b.size());
      if (descending) {
        mergepath::merge(ctx, in.a.data(), c.a_count, in.b.data(), c.b_count, out.data(), mergepath::greater<>{});
        ASSERT_TRUE(ranges_equal(std_merge(in.a, in.b, mergepath::greater<>{}), out));
      } else {
        mergepath::merge(ctx, in.a.data(), c.a_count, in.b.data(), c.b_count, out.data());
        ASSERT_TRUE(ranges_equal(std_merge(in.a, in.b, mergepath::less<>{}), out));
      }
    }
  }
}

TEST(HostMergeChecked, OrderIsTheComparatorsOrder) {
  mergepath::host_context ctx;
  ctx.set_checked(true);
  std::vector<int> up{1, 2, 3}, down{3, 2, 1}, out(6);
  expect_invalid_argument([&] { mergepath::merge(ctx, up.data(), 3, down.data(), 3, out.data()); }, "b[1]");
  expect_invalid_argument(
      [&] { mergepath::merge(ctx, up.data(), 3, down.data(), 3, out.data(), mergepath::greater<>{}); }, "a[1]");
}

// Without checked mode unsorted input gives unspecified output, but every access stays inside
// a, b and out (the bounds-checked views fail the test otherwise; valgrind sees the rest).
TEST(HostMerge, UnsortedInputStaysInBounds) {
  SCOPED_TRACE("MERGEPATH_TEST_SEED=" + std::to_string(base_seed()));
  std::mt19937_64 rng(case_seed({5}));
  for (int threads : thread_counts) {
    mergepath::host_context ctx(threads);
    for (index_t n : {index_t{0}, index_t{1}, index_t{100}, index_t{70001}, index_t{300007}}) {
      SCOPED_TRACE(::testing::Message() << "threads " << threads << ", n " << n);
      std::uniform_int_distribution<int> key(0, 1000);
      std::vector<int> a(static_cast<std::size_t>(n)), b(static_cast<std::size_t>(n / 3));
      for (int& x : a) x = key(rng);
      for (int& x : b) x = key(rng);
      std::vector<int> out(a.size() + b.size()), vals(out.size());
      std::vector<int> a_vals(a.size()), b_vals(b.size());
      mergepath::merge(ctx, checked_view(a), n, checked_view(b), n / 3, checked_view(out));
      mergepath::merge_pairs(ctx, checked_view(a), checked_view(a_vals), n, checked_view(b), checked_view(b_vals),
                             n / 3, checked_view(out), checked_view(vals));
      if (HasFailure()) return;
    }
  }
}

// Comparators that are not strict weak orders: merges return, with a permutation of a ++ b (of
// their rows, for pairs), each output written once.
TEST(HostComparatorFuzz, MergesPermuteTheirInput) {
  for (const fuzz_case& c : fuzz_cases(2)) {
    SCOPED_TRACE(::testing::Message() << c);
    mergepath::host_context ctx(c.threads);
    const bad_comp comp{c.order};
    const index_t na = c.n * 2 / 3, nb = c.n - na;
    const std::vector<double> a = fuzz_keys(c, na, 0), b = fuzz_keys(c, nb, 1);
    std::vector<double> both = a;
    both.insert(both.end(), b.begin(), b.end());
    std::vector<double> out(both.size(), -1.0);
    mergepath::merge(ctx, a.data(), na, b.data(), nb, out.data(), comp);
    ASSERT_TRUE(same_keys(both, out)) << "merge";
    const std::vector<std::int64_t> a_rows = row_numbers(na), b_rows = row_numbers(nb, na);
    std::vector<std::int64_t> out_rows(both.size(), -1);
    mergepath::merge_pairs(ctx, a.data(), a_rows.data(), na, b.data(), b_rows.data(), nb, out.data(), out_rows.data(),
                           comp);
    ASSERT_TRUE(moved_together(both, out, out_rows)) << "merge_pairs";
  }
}

}  // namespace
}  // namespace mergepath_test
