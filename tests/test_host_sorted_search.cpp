// sorted_search and sorted_equality_count on a host_context: the suites of
// suites/sorted_search.hpp, and what only the host backend has (the galloping search of few
// needles, thread counts, any iterators, bounds-checked views of unsorted input, comparators that
// are not orders).
#include <gtest/gtest.h>

#include <deque>
#include <mergepath/mergepath.hpp>
#include <random>
#include <string>
#include <vector>

#include "comparator_fuzz_util.hpp"
#include "suites/sorted_search.hpp"

namespace mergepath_test {
namespace {

INSTANTIATE_TYPED_TEST_SUITE_P(Host, SortedSearch, on_host<sweep_cases<true>>);
INSTANTIATE_TYPED_TEST_SUITE_P(Host, SortedSearchOutputs, on_host<>);
INSTANTIATE_TYPED_TEST_SUITE_P(Host, SortedSearchCalls, on_host<>);

// Work under 2^15 items per thread stays on one thread: the sizes over 4 * 2^15 are split by
// all four threads, 100003 by three.
constexpr int sweep_threads = 4;

// ---------------------------------------------------------------------------------------------
// Few needles in a long b: the galloping search

// The galloping ratio: the in-cache one where b's bytes fit a known last-level cache.
TEST(HostSortedSearchGallop, RatioFollowsTheCache) {
  EXPECT_EQ(mergepath::host_gallop_ratio(1000, 0), mergepath::host_gallop_ratio_beyond_cache);
  EXPECT_EQ(mergepath::host_gallop_ratio(1000, 1000), mergepath::host_gallop_ratio_in_cache);
  EXPECT_EQ(mergepath::host_gallop_ratio(1001, 1000), mergepath::host_gallop_ratio_beyond_cache);
  EXPECT_LT(mergepath::host_gallop_ratio_in_cache, mergepath::host_gallop_ratio_beyond_cache);
}

template <class Case>
class HostSortedSearchKeys : public ::testing::Test {};
TYPED_TEST_SUITE(HostSortedSearchKeys, sweep_cases<true>);

// Plain bounds of a few needles in a b at least the galloping ratio times longer gallop from
// needle to needle: shapes either side of the ratio that applies to b, a lone needle, the short
// form and the complete form with nothing for b, both bounds; and sorted_equality_count, which
// takes the same path.
TYPED_TEST(HostSortedSearchKeys, FewNeedlesGallop) {
  using Key = typename TypeParam::key;
  const typename TypeParam::comp comp{};
  mergepath::host_context ctx(sweep_threads);
  std::vector<shape> shapes;
  constexpr index_t in_cache = mergepath::host_gallop_ratio_in_cache;
  constexpr index_t beyond = mergepath::host_gallop_ratio_beyond_cache;
  for (index_t b : {in_cache, 3 * in_cache + 1, beyond, 3 * beyond + 1, index_t{140009}}) {
    const index_t ratio = mergepath::host::gallop_ratio<const Key*>(b);
    for (index_t a : {index_t{1}, index_t{2}, b / ratio - 1, b / ratio, b / ratio + 1})
      if (a > 0) shapes.push_back({a, b});
  }
  for_each_search_case<Key, mergepath::host_context>(shapes, comp, [&](const auto& in, const search_oracle& expect) {
    ASSERT_NO_FATAL_FAILURE(check_short_search<bounds::lower>(ctx, in, expect, comp));
    ASSERT_NO_FATAL_FAILURE(check_short_search<bounds::upper>(ctx, in, expect, comp));
    ASSERT_NO_FATAL_FAILURE((check_search<bounds::lower, search::index, search::none>(ctx, in, expect, comp)));
    ASSERT_NO_FATAL_FAILURE(
        (check_search<bounds::upper, search::index, search::none, std::int32_t>(ctx, in, expect, comp)));
    ASSERT_NO_FATAL_FAILURE(
        check_equality_count(ctx, in, expect.a.lower, expect, mergepath::equality_count_op{}, comp));
  });
}

// The same path with its needles split over threads (int32): enough needles for four chunks.
TEST(HostSortedSearchGallop, SplitOverThreads) {
  const index_t a = 4 * (index_t{1} << 15) / mergepath::host_gallop_work_per_needle;
  const index_t b = a * mergepath::host_gallop_ratio_beyond_cache + 3;  // gallops, in cache or not
  const mergepath::less<> comp{};
  for (search_distribution d : {search_distribution::uniform, search_distribution::few_distinct}) {
    const search_case c{a, b, d, case_seed({a, b, 100 + static_cast<int>(d)})};
    SCOPED_TRACE(c.name());
    const merge_input<int> in = make_search_input<int>(c, comp);
    const search_oracle expect = sorted_search_oracle(in, comp);
    const search_buffers<mergepath::host_context, int> buffers(in);
    for (int threads : {1, 3, 8}) {
      SCOPED_TRACE(::testing::Message() << "threads " << threads);
      mergepath::host_context ctx(threads);
      ASSERT_NO_FATAL_FAILURE(check_short_search<bounds::lower>(ctx, buffers, expect, comp));
      ASSERT_NO_FATAL_FAILURE(check_short_search<bounds::upper>(ctx, buffers, expect, comp));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Thread counts: every kind at sizes split over several threads (int32), and the same answer on
// any thread count.

TEST(HostSortedSearchThreads, EveryKindSplitOverThreads) {
  mergepath::host_context ctx(sweep_threads);
  const mergepath::less<> comp{};
  for_each_search_case<int, mergepath::host_context>(
      search_shapes({100003, 140009}), comp,
      [&](const auto& in, const search_oracle& expect) { check_every_kind(ctx, in, expect, comp); });
}

// Long runs (few_distinct, all_equal) put chunk edges inside runs of equal keys, where the match
// tests look past a chunk's end.
TEST(HostSortedSearchThreads, AnyThreadCount) {
  const auto contexts = host_backend::contexts();
  const mergepath::less<> comp{};
  for_each_search_case<int, mergepath::host_context>(
      {{70001, 70003}, {9001, 131071}, {131071, 9001}}, comp, [&](const auto& in, const search_oracle& expect) {
        on_each(contexts, [&](mergepath::host_context& ctx) {
          ASSERT_NO_FATAL_FAILURE(
              (check_search<bounds::lower, search::index_match, search::index_match>(ctx, in, expect, comp)));
          ASSERT_NO_FATAL_FAILURE(
              (check_search<bounds::upper, search::match, search::index_match>(ctx, in, expect, comp)));
        });
      });
}

// ---------------------------------------------------------------------------------------------
// Host iterators

// Any random-access iterators: vector iterators in, deque iterators out, a lambda to compare.
TEST(HostSortedSearch, IteratorsAndLambdas) {
  search_case c{30011, 50021, search_distribution::few_distinct, case_seed({200})};
  SCOPED_TRACE(c.name());
  auto by_value = [](int l, int r) { return l < r; };
  merge_input<int> in = make_search_input<int>(c, by_value);
  search_oracle expect = sorted_search_oracle(in, by_value);
  mergepath::host_context ctx(3);
  std::deque<index_t> a_out(in.a.size());
  std::deque<int> b_out(in.b.size());
  mergepath::match_counts m = mergepath::sorted_search<bounds::upper, search::index, search::index_match>(
      ctx, in.a.cbegin(), c.a_count, in.b.begin(), c.b_count, a_out.begin(), b_out.begin(), by_value);
  EXPECT_TRUE(ranges_equal(expect.a.upper, std::vector<index_t>(a_out.begin(), a_out.end())));
  EXPECT_TRUE(ranges_equal(expected_output<search::index_match, int>(expect.b.lower, expect.b.match),
                           std::vector<int>(b_out.begin(), b_out.end())));
  EXPECT_EQ(m.a, 0);
  EXPECT_EQ(m.b, expect.b.matches);

  std::deque<index_t> short_out(in.a.size());
  mergepath::sorted_search(ctx, in.a.begin(), c.a_count, in.b.cbegin(), c.b_count, short_out.begin(), by_value);
  EXPECT_TRUE(ranges_equal(expect.a.lower, std::vector<index_t>(short_out.begin(), short_out.end())));
}

// ---------------------------------------------------------------------------------------------
// Unsorted input without checked mode: unspecified output, but every read stays inside a and b
// (bounds-checked views fail the test otherwise) and nothing is written outside the outputs.

TEST(HostSortedSearchUnsorted, StaysInBounds) {
  SCOPED_TRACE("MERGEPATH_TEST_SEED=" + std::to_string(base_seed()));
  std::mt19937_64 rng(case_seed({201}));
  for (int threads : {1, 3, 8}) {
    mergepath::host_context ctx(threads);
    for (index_t n : {index_t{0}, index_t{1}, index_t{100}, index_t{70001}, index_t{300007}, -index_t{300007}}) {
      SCOPED_TRACE(::testing::Message() << "threads " << threads << ", n " << n);
      std::uniform_int_distribution<int> key(0, 1000);
      // n < 0: a few needles in a long b (the galloping search), else more needles than b holds.
      const index_t na = n < 0 ? -n / mergepath::host_gallop_ratio_beyond_cache : n, nb = n < 0 ? -n : n / 3 + 1;
      std::vector<int> a(static_cast<std::size_t>(na)), b(static_cast<std::size_t>(nb));
      std::vector<index_t> lower(a.size());
      for (int& x : a) x = key(rng);
      for (int& x : b) x = key(rng);
      for (index_t& x : lower) x = key(rng);
      auto a_in = checked_view(a);
      auto b_in = checked_view(b);
      std::vector<index_t> a_out = guarded_output<index_t>(na);
      std::vector<int> b_out = guarded_output<int>(nb);
      index_t* a_dest = a_out.data() + guard_items;
      int* b_dest = b_out.data() + guard_items;
      auto within_guards = [&] {
        EXPECT_TRUE(untouched(a_out, 0, guard_items));
        EXPECT_TRUE(untouched(a_out, guard_items + a.size(), a_out.size()));
        EXPECT_TRUE(untouched(b_out, 0, guard_items));
        EXPECT_TRUE(untouched(b_out, guard_items + b.size(), b_out.size()));
      };
      mergepath::sorted_search(ctx, a_in, na, b_in, nb, a_dest);
      mergepath::sorted_search<bounds::upper>(ctx, a_in, na, b_in, nb, a_dest);
      mergepath::sorted_search<bounds::lower, search::index_match, search::index_match>(ctx, a_in, na, b_in, nb, a_dest,
                                                                                        b_dest);
      mergepath::sorted_search<bounds::upper, search::match, search::index_match>(ctx, a_in, na, b_in, nb, a_dest,
                                                                                  b_dest);
      mergepath::sorted_search<bounds::upper, search::none, search::match>(ctx, a_in, na, b_in, nb, nullptr, b_dest);
      within_guards();
      mergepath::sorted_equality_count(ctx, a_in, na, b_in, nb, checked_view(lower), a_dest);
      mergepath::sorted_equality_count(ctx, a_in, na, b_in, nb, lower.data(), a_dest, mergepath::less<>{},
                                       left_join_rows{});
      within_guards();
      if (HasFailure()) return;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Comparators that are not strict weak orders: every search returns, every output is written,
// each bound lies in [0, other side's count], and the matches reported are at most the elements.

// Every a_out[i] (sentinel -1 before) is a bound in [0, nb], its match bit aside.
::testing::AssertionResult bounds_in_range(const std::vector<std::int64_t>& out, index_t nb) {
  constexpr auto match_bit = std::uint64_t{1} << 63;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const auto bound = static_cast<std::int64_t>(static_cast<std::uint64_t>(out[i]) & ~match_bit);
    if (out[i] == -1 || bound > nb) return ::testing::AssertionFailure() << "output " << i << " is " << out[i];
  }
  return ::testing::AssertionSuccess();
}

std::int64_t match_bits(const std::vector<std::int64_t>& out) {
  return std::count_if(out.begin(), out.end(), [](std::int64_t x) { return x < 0; });
}

TEST(HostComparatorFuzz, SearchesStayInBounds) {
  for (const fuzz_case& c : fuzz_cases(3))
    for (const bool few_needles : {false, true}) {  // few needles into a long b: the galloping search
      SCOPED_TRACE(::testing::Message() << c << (few_needles ? ", few needles" : ""));
      mergepath::host_context ctx(c.threads);
      const bad_comp comp{c.order};
      const index_t na = few_needles ? std::min<index_t>(c.n, 17) : c.n * 2 / 3, nb = c.n - (few_needles ? 0 : na);
      const std::vector<double> a = fuzz_keys(c, na, 0), b = fuzz_keys(c, nb, 1);
      auto fresh = [](index_t n) { return std::vector<std::int64_t>(static_cast<std::size_t>(n), -1); };
      std::vector<std::int64_t> lower = fresh(na), a_out = fresh(na), b_out = fresh(nb);
      mergepath::sorted_search(ctx, a.data(), na, b.data(), nb, lower.data(), comp);
      ASSERT_TRUE(bounds_in_range(lower, nb)) << "lower bounds";
      mergepath::sorted_search<bounds::upper>(ctx, a.data(), na, b.data(), nb, a_out.data(), comp);
      ASSERT_TRUE(bounds_in_range(a_out, nb)) << "upper bounds";
      a_out = fresh(na);
      const std::vector<std::int64_t> lower_bounds = lower;
      mergepath::sorted_equality_count(ctx, a.data(), na, b.data(), nb, lower_bounds.data(), a_out.data(), comp);
      for (index_t i = 0; i < na; ++i) {  // the count plus the lower bound is an upper bound
        const auto k = static_cast<std::size_t>(i);
        ASSERT_TRUE(a_out[k] + lower[k] >= 0 && a_out[k] + lower[k] <= nb) << "equality count " << i;
      }
      for (const bounds bound : {bounds::lower, bounds::upper}) {
        a_out = fresh(na), b_out = fresh(nb);
        const auto matches = bound == bounds::lower
                                 ? mergepath::sorted_search<bounds::lower, search::index_match, search::index_match>(
                                       ctx, a.data(), na, b.data(), nb, a_out.data(), b_out.data(), comp)
                                 : mergepath::sorted_search<bounds::upper, search::index_match, search::index_match>(
                                       ctx, a.data(), na, b.data(), nb, a_out.data(), b_out.data(), comp);
        ASSERT_TRUE(bounds_in_range(a_out, nb)) << "a's bounds";
        ASSERT_TRUE(bounds_in_range(b_out, na)) << "b's bounds";
        ASSERT_EQ(matches.a, match_bits(a_out));
        ASSERT_EQ(matches.b, match_bits(b_out));
      }
    }
}

}  // namespace
}  // namespace mergepath_test
