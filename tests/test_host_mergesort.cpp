// mergesort, sort and their pairs and copying forms on a host_context: the suites of
// suites/mergesort.hpp, and what only the host backend has (any iterators, comparators that are
// not orders).
#include <gtest/gtest.h>

#include <cmath>
#include <deque>
#include <mergepath/mergepath.hpp>
#include <random>
#include <vector>

#include "comparator_fuzz_util.hpp"
#include "suites/mergesort.hpp"

namespace mergepath_test {
namespace {

INSTANTIATE_TYPED_TEST_SUITE_P(Host, Mergesort, on_host<mergesort_cases>);
// The host's sort is its mergesort, which Mergesort sweeps: a case of keys and one of pairs show
// that sort and its pairs and copying forms reach it.
using host_sort_cases =
    ::testing::Types<keys_case<float, mergepath::greater<>>, pairs_case<float, std::int32_t, mergepath::less<>>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Host, Sort, on_host<host_sort_cases>);
INSTANTIATE_TYPED_TEST_SUITE_P(Host, SortCalls, on_host<>);

// Any random-access iterators work: deque iterators and a lambda to compare.
TEST(HostMergesortIterators, DequeAndLambda) {
  auto by_tens = [](int l, int r) { return l / 10 < r / 10; };  // ties of up to ten keys
  mergepath::host_context ctx(3);
  for (index_t n : {index_t{0}, index_t{1}, index_t{1009}, index_t{100003}}) {
    sort_case c{n, distribution::uniform, case_seed({n, 21})};
    SCOPED_TRACE(c.name());
    std::vector<int> keys = make_sort_keys<int>(c);
    for (int& k : keys) k %= 1000;
    auto expected = std_stable_sort_pairs<int, int>(keys, by_tens);

    std::deque<int> d(keys.begin(), keys.end());
    mergepath::mergesort(ctx, d.begin(), n, by_tens);
    ASSERT_TRUE(ranges_equal(expected.first, std::vector<int>(d.begin(), d.end())));

    std::vector<int> origin = origins<int>(n, 0);
    std::deque<int> dk(keys.begin(), keys.end()), dv(origin.begin(), origin.end());
    mergepath::mergesort_pairs(ctx, dk.begin(), dv.begin(), n, by_tens);
    ASSERT_TRUE(ranges_equal(expected.first, std::vector<int>(dk.begin(), dk.end())));
    ASSERT_TRUE(ranges_equal(expected.second, std::vector<int>(dv.begin(), dv.end())));
  }
}

// ---------------------------------------------------------------------------------------------
// Comparators that are not strict weak orders: every sort returns, with a permutation of its keys
// (of its rows, for pairs), in an unspecified order.

TEST(HostComparatorFuzz, SortsPermuteTheirInput) {
  for (const fuzz_case& c : fuzz_cases(1)) {
    SCOPED_TRACE(::testing::Message() << c);
    mergepath::host_context ctx(c.threads);
    const bad_comp comp{c.order};
    const std::vector<double> keys = fuzz_keys(c, c.n, 0);
    const std::vector<std::int64_t> rows = row_numbers(c.n);
    std::vector<double> k = keys, out(keys.size());
    std::vector<std::int64_t> v = rows, out_vals(rows.size());
    mergepath::sort(ctx, k.data(), c.n, comp);  // the host's sort is mergesort
    ASSERT_TRUE(same_keys(keys, k)) << "sort";
    mergepath::sort_copy(ctx, keys.data(), c.n, out.data(), comp);
    ASSERT_TRUE(same_keys(keys, out)) << "sort_copy";
    k = keys;
    mergepath::sort_pairs(ctx, k.data(), v.data(), c.n, comp);
    ASSERT_TRUE(moved_together(keys, k, v)) << "sort_pairs";
    mergepath::sort_pairs_copy(ctx, keys.data(), rows.data(), c.n, out.data(), out_vals.data(), comp);
    ASSERT_TRUE(moved_together(keys, out, out_vals)) << "sort_pairs_copy";
  }
}

// The case: 65537 doubles with NaNs under less<> on 8 threads lost and copied keys.
TEST(HostComparatorFuzz, SortOfDoublesWithNaNsPermutes) {
  std::mt19937_64 rng(case_seed({67}));
  std::vector<double> keys(65537);
  for (double& k : keys) k = rng() % 10 == 0 ? std::nan("") : static_cast<double>(rng() % 1000);
  std::vector<double> sorted = keys;
  mergepath::host_context ctx(8);
  mergepath::sort(ctx, sorted.data(), static_cast<index_t>(sorted.size()));
  ASSERT_TRUE(same_keys(keys, sorted));
}

}  // namespace
}  // namespace mergepath_test
