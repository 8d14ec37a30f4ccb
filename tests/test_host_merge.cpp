// merge and merge_pairs on a host_context: the suites of suites/merge.hpp, and what only the host
// backend has (any iterators, thread counts, bounds-checked views of unsorted input, comparators
// that are not orders).
#include <gtest/gtest.h>

#include <deque>
#include <mergepath/mergepath.hpp>
#include <random>
#include <string>
#include <vector>

#include "comparator_fuzz_util.hpp"
#include "suites/merge.hpp"

namespace mergepath_test {
namespace {

INSTANTIATE_TYPED_TEST_SUITE_P(Host, Merge, on_host<merge_key_cases>);
INSTANTIATE_TYPED_TEST_SUITE_P(Host, MergePairs, on_host<merge_pair_cases>);
INSTANTIATE_TYPED_TEST_SUITE_P(Host, MergeCalls, on_host<>);

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

TEST(HostContext, ZeroOrNegativeThreadsThrow) {
  EXPECT_THROW(mergepath::host_context(0), std::invalid_argument);
  EXPECT_THROW(mergepath::host_context(-3), std::invalid_argument);
}

// Without checked mode unsorted input gives unspecified output, but every access stays inside
// a, b and out (the bounds-checked views fail the test otherwise; valgrind sees the rest).
TEST(HostMerge, UnsortedInputStaysInBounds) {
  SCOPED_TRACE("MERGEPATH_TEST_SEED=" + std::to_string(base_seed()));
  std::mt19937_64 rng(case_seed({5}));
  on_each(host_backend::contexts(), [&](mergepath::host_context& ctx) {
    for (index_t n : {index_t{0}, index_t{1}, index_t{100}, index_t{70001}, index_t{300007}}) {
      SCOPED_TRACE(::testing::Message() << "n " << n);
      std::uniform_int_distribution<int> key(0, 1000);
      std::vector<int> a(static_cast<std::size_t>(n)), b(static_cast<std::size_t>(n / 3));
      for (int& x : a) x = key(rng);
      for (int& x : b) x = key(rng);
      std::vector<int> out(a.size() + b.size()), vals(out.size());
      std::vector<int> a_vals(a.size()), b_vals(b.size());
      mergepath::merge(ctx, checked_view(a), n, checked_view(b), n / 3, checked_view(out));
      mergepath::merge_pairs(ctx, checked_view(a), checked_view(a_vals), n, checked_view(b), checked_view(b_vals),
                             n / 3, checked_view(out), checked_view(vals));
      if (::testing::Test::HasFailure()) return;
    }
  });
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
