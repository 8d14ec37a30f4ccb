// sorted_search and sorted_equality_count on a host_context, against std::equal_range per
// element: every bounds x search type on both sides, key types, comparators, sizes and
// distributions; the demonstrations of moderngpu's Vectorized Sorted Search page; argument
// errors; checked mode; unsorted input.
#include <gtest/gtest.h>

#include <deque>
#include <mergepath/mergepath.hpp>
#include <random>
#include <string>
#include <vector>

#include "comparator_fuzz_util.hpp"
#include "search_util.hpp"
#include "test_util.hpp"

namespace mergepath_test {
namespace {

// Work under 2^15 items per thread stays on one thread: the sizes over 4 * 2^15 are split by
// all four threads, 100003 by three.
constexpr int sweep_threads = 4;

// ---------------------------------------------------------------------------------------------
// Checked runs

// Runs the complete search <Bounds, TypeA, TypeB> of in.a and in.b into guarded outputs (AOut for
// a, BOut for b; nullptr for a side of search::none) and checks them, their guards and the match
// counts against the oracle.
template <bounds Bounds, search TypeA, search TypeB, class AOut = std::int64_t, class BOut = std::int32_t, class AIt,
          class BIt, class Comp>
void check_complete_search(mergepath::host_context& ctx, AIt a, index_t a_count, BIt b, index_t b_count,
                           const search_oracle& expect, Comp comp) {
  SCOPED_TRACE((search_kind_name<Bounds, TypeA, TypeB>()));
  std::vector<AOut> a_out = guarded_output<AOut>(a_count);
  std::vector<BOut> b_out = guarded_output<BOut>(b_count);
  auto a_dest = [&] {
    if constexpr (TypeA == search::none)
      return nullptr;
    else
      return a_out.data() + guard_items;
  }();
  auto b_dest = [&] {
    if constexpr (TypeB == search::none)
      return nullptr;
    else
      return b_out.data() + guard_items;
  }();
  mergepath::match_counts matches =
      mergepath::sorted_search<Bounds, TypeA, TypeB>(ctx, a, a_count, b, b_count, a_dest, b_dest, comp);
  if constexpr (TypeA != search::none) {
    ASSERT_TRUE(guarded_equal(expected_output<TypeA, AOut>(a_bounds(Bounds, expect), expect.a.match), a_out));
  }
  if constexpr (TypeB != search::none) {
    ASSERT_TRUE(guarded_equal(expected_output<TypeB, BOut>(b_bounds(Bounds, expect), expect.b.match), b_out));
  }
  EXPECT_EQ(matches.a, expected_matches(TypeA, expect.a));
  EXPECT_EQ(matches.b, expected_matches(TypeB, expect.b));
}

template <bounds Bounds, search TypeA, search TypeB, class AOut = std::int64_t, class BOut = std::int32_t, class Key,
          class Comp>
void check_complete_search(mergepath::host_context& ctx, const merge_input<Key>& in, const search_oracle& expect,
                           Comp comp) {
  check_complete_search<Bounds, TypeA, TypeB, AOut, BOut>(ctx, in.a.data(), static_cast<index_t>(in.a.size()),
                                                          in.b.data(), static_cast<index_t>(in.b.size()), expect, comp);
}

// The short form: a_out[i] = the bound of a[i] in b, into a guarded Out.
template <bounds Bounds, class Out = index_t, class Key, class Comp>
void check_short_search(mergepath::host_context& ctx, const merge_input<Key>& in, const search_oracle& expect,
                        Comp comp) {
  SCOPED_TRACE(std::string("short form, bounds ") + to_string(Bounds));
  std::vector<Out> out = guarded_output<Out>(static_cast<index_t>(in.a.size()));
  mergepath::sorted_search<Bounds>(ctx, in.a.data(), static_cast<index_t>(in.a.size()), in.b.data(),
                                   static_cast<index_t>(in.b.size()), out.data() + guard_items, comp);
  ASSERT_TRUE(guarded_equal(expected_output<search::index, Out>(a_bounds(Bounds, expect), expect.a.match), out));
}

// ---------------------------------------------------------------------------------------------
// Every bounds x TypeA x TypeB against the oracle

using key_cases =
    ::testing::Types<keys_case<std::int32_t, mergepath::less<>>, keys_case<std::int32_t, mergepath::greater<>>,
                     keys_case<std::int64_t, mergepath::less<>>, keys_case<std::uint32_t, mergepath::less<>>,
                     keys_case<float, mergepath::less<>>, keys_case<double, mergepath::greater<>>,
                     keys_case<point, point_less>,
                     // ties on x with different y: a match is an equivalent key, not an identical one
                     keys_case<point, point_x_less>>;

template <class Case>
class HostSortedSearch : public ::testing::Test {};
TYPED_TEST_SUITE(HostSortedSearch, key_cases);

// Empty sides, 1, 1:16 and 16:1, primes; then one size split over the threads, where only the
// full search with match bits on both sides runs (HostSortedSearchThreads sweeps every kind there).
TYPED_TEST(HostSortedSearch, EveryKindMatchesTheOracle) {
  using Key = typename TypeParam::key;
  typename TypeParam::comp comp;
  mergepath::host_context ctx(sweep_threads);
  for (const search_case& c : search_cases(search_shapes({0, 1, 2, 17, 97, 1009, 4099, 140009}))) {
    SCOPED_TRACE(c.name());
    merge_input<Key> in = make_search_input<Key>(c, comp);
    search_oracle expect = sorted_search_oracle(in, comp);
    const bool split = c.a_count + c.b_count > 100000;
    for_each_search_kind([&](auto bounds_c, auto type_a, auto type_b) {
      constexpr bounds Bounds = decltype(bounds_c)::value;
      constexpr search TypeA = decltype(type_a)::value, TypeB = decltype(type_b)::value;
      if (split && !(TypeA == search::index_match && TypeB == search::index_match)) return;
      if (!this->HasFatalFailure()) check_complete_search<Bounds, TypeA, TypeB>(ctx, in, expect, comp);
    });
    ASSERT_FALSE(this->HasFatalFailure());
    ASSERT_NO_FATAL_FAILURE(check_short_search<bounds::lower>(ctx, in, expect, comp));
    ASSERT_NO_FATAL_FAILURE(check_short_search<bounds::upper>(ctx, in, expect, comp));
  }
}

// The galloping ratio: the in-cache one where b's bytes fit a known last-level cache.
TEST(HostSortedSearchGallop, RatioFollowsTheCache) {
  EXPECT_EQ(mergepath::host_gallop_ratio(1000, 0), mergepath::host_gallop_ratio_beyond_cache);
  EXPECT_EQ(mergepath::host_gallop_ratio(1000, 1000), mergepath::host_gallop_ratio_in_cache);
  EXPECT_EQ(mergepath::host_gallop_ratio(1001, 1000), mergepath::host_gallop_ratio_beyond_cache);
  EXPECT_LT(mergepath::host_gallop_ratio_in_cache, mergepath::host_gallop_ratio_beyond_cache);
}

// Plain bounds of a few needles in a b at least the galloping ratio times longer gallop from
// needle to needle: shapes either side of the ratio that applies to b, a lone needle, the short
// form and the complete form with nothing for b, both bounds; and sorted_equality_count, which
// takes the same path.
TYPED_TEST(HostSortedSearch, FewNeedlesGallop) {
  using Key = typename TypeParam::key;
  typename TypeParam::comp comp;
  mergepath::host_context ctx(sweep_threads);
  std::vector<shape> shapes;
  constexpr index_t in_cache = mergepath::host_gallop_ratio_in_cache;
  constexpr index_t beyond = mergepath::host_gallop_ratio_beyond_cache;
  for (index_t b : {in_cache, 3 * in_cache + 1, beyond, 3 * beyond + 1, index_t{140009}}) {
    const index_t ratio = mergepath::host::gallop_ratio<const Key*>(b);
    for (index_t a : {index_t{1}, index_t{2}, b / ratio - 1, b / ratio, b / ratio + 1})
      if (a > 0) shapes.push_back({a, b});
  }
  for (const search_case& c : search_cases(shapes)) {
    SCOPED_TRACE(c.name());
    merge_input<Key> in = make_search_input<Key>(c, comp);
    search_oracle expect = sorted_search_oracle(in, comp);
    ASSERT_NO_FATAL_FAILURE(check_short_search<bounds::lower>(ctx, in, expect, comp));
    ASSERT_NO_FATAL_FAILURE(check_short_search<bounds::upper>(ctx, in, expect, comp));
    ASSERT_NO_FATAL_FAILURE((check_complete_search<bounds::lower, search::index, search::none>(ctx, in, expect, comp)));
    ASSERT_NO_FATAL_FAILURE(
        (check_complete_search<bounds::upper, search::index, search::none, std::int32_t>(ctx, in, expect, comp)));
    std::vector<index_t> lower(in.a.size()), counts(in.a.size());
    mergepath::sorted_search(ctx, in.a.data(), c.a_count, in.b.data(), c.b_count, lower.data(), comp);
    mergepath::sorted_equality_count(ctx, in.a.data(), c.a_count, in.b.data(), c.b_count, lower.data(), counts.data(),
                                     comp);
    for (std::size_t i = 0; i < in.a.size(); ++i)
      ASSERT_EQ(counts[i], expect.a.upper[i] - expect.a.lower[i]) << "needle " << i;
  }
}

// The same path with its needles split over threads (int32): enough needles for four chunks.
TEST(HostSortedSearchGallop, SplitOverThreads) {
  const index_t a = 4 * (index_t{1} << 15) / mergepath::host_gallop_work_per_needle;
  const index_t b = a * mergepath::host_gallop_ratio_beyond_cache + 3;  // gallops, in cache or not
  std::vector<search_case> cases;
  for (search_distribution d : {search_distribution::uniform, search_distribution::few_distinct})
    cases.push_back({a, b, d, case_seed({a, b, 100 + static_cast<int>(d)})});
  for (const search_case& c : cases) {
    SCOPED_TRACE(c.name());
    merge_input<int> in = make_search_input<int>(c, mergepath::less<>{});
    search_oracle expect = sorted_search_oracle(in, mergepath::less<>{});
    for (int threads : {1, 3, 8}) {
      SCOPED_TRACE(::testing::Message() << "threads " << threads);
      mergepath::host_context ctx(threads);
      ASSERT_NO_FATAL_FAILURE(check_short_search<bounds::lower>(ctx, in, expect, mergepath::less<>{}));
      ASSERT_NO_FATAL_FAILURE(check_short_search<bounds::upper>(ctx, in, expect, mergepath::less<>{}));
    }
  }
}

// Every kind at sizes split over several threads (int32), and the same answer on any thread count.
class HostSortedSearchThreads : public ::testing::Test {};

TEST_F(HostSortedSearchThreads, EveryKindSplitOverThreads) {
  mergepath::host_context ctx(sweep_threads);
  for (const search_case& c : search_cases(search_shapes({100003, 140009}))) {
    SCOPED_TRACE(c.name());
    merge_input<int> in = make_search_input<int>(c, mergepath::less<>{});
    search_oracle expect = sorted_search_oracle(in, mergepath::less<>{});
    for_each_search_kind([&](auto bounds_c, auto type_a, auto type_b) {
      if (!HasFatalFailure())
        check_complete_search<decltype(bounds_c)::value, decltype(type_a)::value, decltype(type_b)::value>(
            ctx, in, expect, mergepath::less<>{});
    });
    ASSERT_FALSE(HasFatalFailure());
  }
}

TEST_F(HostSortedSearchThreads, AnyThreadCount) {
  // Long runs (few_distinct, all_equal) put chunk edges inside runs of equal keys, where the
  // match tests look past a chunk's end.
  for (const search_case& c : search_cases({{70001, 70003}, {9001, 131071}, {131071, 9001}})) {
    SCOPED_TRACE(c.name());
    merge_input<int> in = make_search_input<int>(c, mergepath::less<>{});
    search_oracle expect = sorted_search_oracle(in, mergepath::less<>{});
    for (int threads : {1, 2, 3, 8}) {
      SCOPED_TRACE(::testing::Message() << "threads " << threads);
      mergepath::host_context ctx(threads);
      ASSERT_NO_FATAL_FAILURE((check_complete_search<bounds::lower, search::index_match, search::index_match>(
          ctx, in, expect, mergepath::less<>{})));
      ASSERT_NO_FATAL_FAILURE((check_complete_search<bounds::upper, search::match, search::index_match>(
          ctx, in, expect, mergepath::less<>{})));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Output types: index_match sets the top bit of whichever integer type the output holds.

TEST(HostSortedSearchOutputs, IndexMatchAndMatchInOtherIntegerTypes) {
  mergepath::host_context ctx(sweep_threads);
  for (const search_case& c : search_cases({{0, 5}, {97, 1009}, {4099, 241}, {70001, 70003}})) {
    SCOPED_TRACE(c.name());
    merge_input<int> in = make_search_input<int>(c, mergepath::less<>{});
    search_oracle expect = sorted_search_oracle(in, mergepath::less<>{});
    mergepath::less<> comp;
    ASSERT_NO_FATAL_FAILURE(
        (check_complete_search<bounds::lower, search::index_match, search::index_match, std::uint32_t, std::uint32_t>(
            ctx, in, expect, comp)));
    ASSERT_NO_FATAL_FAILURE(
        (check_complete_search<bounds::upper, search::index_match, search::index_match, std::int32_t, std::int64_t>(
            ctx, in, expect, comp)));
    ASSERT_NO_FATAL_FAILURE(
        (check_complete_search<bounds::upper, search::index_match, search::index, std::uint64_t, std::uint32_t>(
            ctx, in, expect, comp)));
    ASSERT_NO_FATAL_FAILURE(
        (check_complete_search<bounds::lower, search::match, search::match, std::uint8_t, std::int16_t>(ctx, in, expect,
                                                                                                        comp)));
    ASSERT_NO_FATAL_FAILURE(
        (check_complete_search<bounds::upper, search::index, search::match, std::uint32_t, std::uint8_t>(
            ctx, in, expect, comp)));
    ASSERT_NO_FATAL_FAILURE((check_short_search<bounds::upper, std::int32_t>(ctx, in, expect, comp)));
  }
}

// The top bit is the match flag alone: with int32 outputs a match reads as a negative number.
TEST(HostSortedSearchOutputs, MatchBitIsTheSignBitOfInt32) {
  mergepath::host_context ctx;
  std::vector<int> a{1, 2, 4}, b{2, 3, 4, 4};
  std::vector<std::int32_t> a_out(3), b_out(4);
  mergepath::match_counts m = mergepath::sorted_search<bounds::lower, search::index_match, search::index_match>(
      ctx, a.data(), 3, b.data(), 4, a_out.data(), b_out.data());
  const std::int32_t bit = std::numeric_limits<std::int32_t>::min();
  EXPECT_EQ(a_out, (std::vector<std::int32_t>{0, 0 | bit, 2 | bit}));
  EXPECT_EQ(b_out, (std::vector<std::int32_t>{2 | bit, 2, 3 | bit, 3 | bit}));  // upper bounds of b in a
  EXPECT_EQ(m.a, 2);
  EXPECT_EQ(m.b, 3);
}

// Any random-access iterators: vector iterators in, deque iterators out, a lambda to compare.
TEST(HostSortedSearchOutputs, IteratorsAndLambdas) {
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
// The demonstrations of moderngpu's Vectorized Sorted Search page, exactly as printed there.

TEST(HostSortedSearchDemos, LowerBoundsOfNeedlesInTheHaystack) {
  std::vector<int> haystack = printed_values(demo1::haystack), needles = printed_values(demo1::needles);
  std::vector<int> expected = printed_values(demo1::lower_bounds);
  ASSERT_EQ(haystack.size(), 200u);
  ASSERT_EQ(needles.size(), 100u);
  ASSERT_EQ(expected.size(), 100u);
  for (int threads : {1, 4}) {
    mergepath::host_context ctx(threads);
    std::vector<int> out = guarded_output<int>(100);
    mergepath::sorted_search<bounds::lower>(ctx, needles.data(), 100, haystack.data(), 200, out.data() + guard_items);
    EXPECT_TRUE(guarded_equal(expected, out)) << "threads " << threads;
  }
}

TEST(HostSortedSearchDemos, IndexMatchBothWays) {
  std::vector<int> a = printed_values(demo2::a), b = printed_values(demo2::b);
  std::vector<std::int32_t> a_expected = printed_index_match(demo2::a_indices);
  std::vector<std::int32_t> b_expected = printed_index_match(demo2::b_indices);
  ASSERT_EQ(a.size(), 100u);
  ASSERT_EQ(b.size(), 100u);
  ASSERT_EQ(a_expected.size(), 100u);
  ASSERT_EQ(b_expected.size(), 100u);
  mergepath::host_context ctx;
  std::vector<std::int32_t> a_out = guarded_output<std::int32_t>(100), b_out = guarded_output<std::int32_t>(100);
  mergepath::match_counts m = mergepath::sorted_search<bounds::lower, search::index_match, search::index_match>(
      ctx, a.data(), 100, b.data(), 100, a_out.data() + guard_items, b_out.data() + guard_items);
  EXPECT_TRUE(guarded_equal(a_expected, a_out));
  EXPECT_TRUE(guarded_equal(b_expected, b_out));
  EXPECT_EQ(m.a, printed_matches(demo2::a_indices));
  EXPECT_EQ(m.b, printed_matches(demo2::b_indices));
}

// ---------------------------------------------------------------------------------------------
// sorted_equality_count

// counts[i] = op(lower_bounds[i], upper bound of a[i] in b), lower bounds given by the oracle;
// expected[i] = the same op applied to the oracle's bounds.
template <class Key, class Lower, class Op, class Comp>
void check_equality_count(mergepath::host_context& ctx, const merge_input<Key>& in, const std::vector<Lower>& lower,
                          const search_oracle& expect, Op op, Comp comp) {
  std::vector<std::int32_t> expected;
  for (std::size_t i = 0; i < in.a.size(); ++i)
    expected.push_back(static_cast<std::int32_t>(op(static_cast<index_t>(lower[i]), expect.a.upper[i])));
  std::vector<std::int32_t> counts = guarded_output<std::int32_t>(static_cast<index_t>(in.a.size()));
  mergepath::sorted_equality_count(ctx, in.a.data(), static_cast<index_t>(in.a.size()), in.b.data(),
                                   static_cast<index_t>(in.b.size()), lower.data(), counts.data() + guard_items, comp,
                                   op);
  ASSERT_TRUE(guarded_equal(expected, counts));
}

template <class Key, class Comp>
void check_equality_counts(Comp comp) {
  mergepath::host_context ctx(sweep_threads);
  for (const search_case& c : search_cases(search_shapes({0, 1, 17, 1009, 140009}))) {
    SCOPED_TRACE(c.name());
    merge_input<Key> in = make_search_input<Key>(c, comp);
    search_oracle expect = sorted_search_oracle(in, comp);
    std::vector<index_t> counts_by_oracle;  // how many elements of b are equivalent to a[i]
    for (std::size_t i = 0; i < in.a.size(); ++i) counts_by_oracle.push_back(expect.a.upper[i] - expect.a.lower[i]);

    // The default op: ub - lb, the number of equal elements of b.
    std::vector<std::int32_t> counts = guarded_output<std::int32_t>(c.a_count);
    mergepath::sorted_equality_count(ctx, in.a.data(), c.a_count, in.b.data(), c.b_count, expect.a.lower.data(),
                                     counts.data() + guard_items, comp);
    std::vector<std::int32_t> expected_counts(counts_by_oracle.begin(), counts_by_oracle.end());
    ASSERT_TRUE(guarded_equal(expected_counts, counts)) << "default op";

    // User ops: a left join's row counts, and lower bounds that carry index_match's top bit (int32).
    ASSERT_NO_FATAL_FAILURE(check_equality_count(ctx, in, expect.a.lower, expect, left_join_rows{}, comp));
    std::vector<std::int32_t> flagged =
        expected_output<search::index_match, std::int32_t>(expect.a.lower, expect.a.match);
    ASSERT_NO_FATAL_FAILURE(check_equality_count(ctx, in, flagged, expect, count_from_index_match{}, comp));
  }
}

TEST(HostSortedEqualityCount, DefaultAndUserOps) {
  check_equality_counts<std::int32_t>(mergepath::less<>{});
  check_equality_counts<double>(mergepath::greater<>{});
  check_equality_counts<point>(point_x_less{});  // counts equivalent keys, not identical ones
}

// The lower bounds of the short form feed sorted_equality_count: the equal_range of each a[i].
TEST(HostSortedEqualityCount, AfterALowerBoundSearch) {
  std::vector<int> a{0, 1, 1, 3, 5, 5, 9}, b{1, 1, 1, 2, 5, 9, 9, 9, 9};
  mergepath::host_context ctx;
  std::vector<index_t> lower(a.size());
  std::vector<int> counts(a.size()), rows(a.size());
  mergepath::sorted_search(ctx, a.data(), 7, b.data(), 9, lower.data());
  mergepath::sorted_equality_count(ctx, a.data(), 7, b.data(), 9, lower.data(), counts.data());
  mergepath::sorted_equality_count(ctx, a.data(), 7, b.data(), 9, lower.data(), rows.data(), mergepath::less<>{},
                                   left_join_rows{});
  EXPECT_EQ(lower, (std::vector<index_t>{0, 0, 0, 4, 4, 4, 5}));
  EXPECT_EQ(counts, (std::vector<int>{0, 3, 3, 0, 1, 1, 4}));
  EXPECT_EQ(rows, (std::vector<int>{1, 3, 3, 1, 1, 1, 4}));
}

// ---------------------------------------------------------------------------------------------
// Bad arguments: std::invalid_argument before anything is written.

TEST(HostSortedSearchArguments, BadArgumentsThrowBeforeWriting) {
  mergepath::host_context ctx;
  std::vector<int> a{1, 2, 3}, b{2, 4};
  std::vector<index_t> lower{0, 0, 1};
  std::vector<int> a_out(3, poison<int>()), b_out(2, poison<int>());
  int* null = nullptr;
  auto full = [&](auto a_ptr, index_t na, auto b_ptr, index_t nb, auto a_dest, auto b_dest) {
    return mergepath::sorted_search<bounds::lower, search::index, search::match>(ctx, a_ptr, na, b_ptr, nb, a_dest,
                                                                                 b_dest);
  };
  expect_invalid_argument([&] { mergepath::sorted_search(ctx, a.data(), -1, b.data(), 2, a_out.data()); },
                          "a count is negative");
  expect_invalid_argument([&] { mergepath::sorted_search(ctx, a.data(), 3, b.data(), -2, a_out.data()); },
                          "b count is negative");
  expect_invalid_argument([&] { mergepath::sorted_search(ctx, null, 3, b.data(), 2, a_out.data()); },
                          "a is a null pointer");
  expect_invalid_argument([&] { mergepath::sorted_search(ctx, a.data(), 3, null, 2, a_out.data()); },
                          "b is a null pointer");
  expect_invalid_argument([&] { mergepath::sorted_search(ctx, a.data(), 3, b.data(), 2, null); },
                          "a_out is a null pointer");
  expect_invalid_argument([&] { full(a.data(), -1, b.data(), 2, a_out.data(), b_out.data()); }, "a count is negative");
  expect_invalid_argument([&] { full(a.data(), 3, b.data(), -1, a_out.data(), b_out.data()); }, "b count is negative");
  expect_invalid_argument([&] { full(null, 3, b.data(), 2, a_out.data(), b_out.data()); }, "a is a null pointer");
  expect_invalid_argument([&] { full(a.data(), 3, null, 2, a_out.data(), b_out.data()); }, "b is a null pointer");
  expect_invalid_argument([&] { full(a.data(), 3, b.data(), 2, null, b_out.data()); }, "a_out is a null pointer");
  expect_invalid_argument([&] { full(a.data(), 3, b.data(), 2, a_out.data(), null); }, "b_out is a null pointer");
  expect_invalid_argument(
      [&] {
        mergepath::sorted_search<bounds::upper, search::index_match, search::none>(ctx, a.data(), 3, b.data(), 2, null,
                                                                                   nullptr);
      },
      "a_out is a null pointer");
  expect_invalid_argument(
      [&] { mergepath::sorted_equality_count(ctx, a.data(), -3, b.data(), 2, lower.data(), a_out.data()); },
      "count is negative");
  expect_invalid_argument(
      [&] { mergepath::sorted_equality_count(ctx, a.data(), 3, b.data(), -2, lower.data(), a_out.data()); },
      "b count is negative");
  expect_invalid_argument(
      [&] { mergepath::sorted_equality_count(ctx, null, 3, b.data(), 2, lower.data(), a_out.data()); },
      "a is a null pointer");
  expect_invalid_argument(
      [&] { mergepath::sorted_equality_count(ctx, a.data(), 3, null, 2, lower.data(), a_out.data()); },
      "b is a null pointer");
  expect_invalid_argument(
      [&] {
        mergepath::sorted_equality_count(ctx, a.data(), 3, b.data(), 2, static_cast<index_t*>(nullptr), a_out.data());
      },
      "lower_bounds is a null pointer");
  expect_invalid_argument([&] { mergepath::sorted_equality_count(ctx, a.data(), 3, b.data(), 2, lower.data(), null); },
                          "counts is a null pointer");
  EXPECT_TRUE(untouched(a_out, 0, a_out.size()));
  EXPECT_TRUE(untouched(b_out, 0, b_out.size()));
}

// A side of search::none takes nullptr; every pointer may be null when its count is zero.
TEST(HostSortedSearchArguments, NullPointersWhereNothingIsWritten) {
  mergepath::host_context ctx;
  std::vector<int> a{1, 2, 3}, b{2, 4}, a_out(3), b_out(2);
  int* null = nullptr;
  mergepath::match_counts m = mergepath::sorted_search<bounds::lower, search::none, search::index_match>(
      ctx, a.data(), 3, b.data(), 2, nullptr, b_out.data());
  EXPECT_EQ(b_out, (std::vector<int>{with_match_bit<int>(2, true), 3}));
  EXPECT_EQ(m.a, 0);
  EXPECT_EQ(m.b, 1);
  m = mergepath::sorted_search<bounds::upper, search::match, search::none>(ctx, a.data(), 3, b.data(), 2, a_out.data(),
                                                                           null);
  EXPECT_EQ(a_out, (std::vector<int>{0, 1, 0}));
  EXPECT_EQ(m.a, 1);
  EXPECT_EQ(m.b, 0);
  m = mergepath::sorted_search<bounds::lower, search::none, search::none>(ctx, a.data(), 3, b.data(), 2, null, null);
  EXPECT_EQ(m.a + m.b, 0);
  EXPECT_NO_THROW(mergepath::sorted_search(ctx, null, 0, null, 0, null));
  EXPECT_NO_THROW((mergepath::sorted_search<bounds::upper, search::index_match, search::index_match>(ctx, null, 0, null,
                                                                                                     0, null, null)));
  EXPECT_NO_THROW(mergepath::sorted_equality_count(ctx, null, 0, null, 0, null, null));
  // a empty, b not: every element of b has bound 0 and no match.
  m = mergepath::sorted_search<bounds::lower, search::index_match, search::index_match>(ctx, null, 0, b.data(), 2, null,
                                                                                        b_out.data());
  EXPECT_EQ(b_out, (std::vector<int>{0, 0}));
  EXPECT_EQ(m.a + m.b, 0);
}

// A search::none side given a real output leaves it alone.
TEST(HostSortedSearchArguments, NoneSideIsNotWritten) {
  mergepath::host_context ctx;
  std::vector<int> a{1, 2, 3}, b{2, 4};
  std::vector<int> a_out = guarded_output<int>(3), b_out = guarded_output<int>(2);
  mergepath::sorted_search<bounds::lower, search::none, search::none>(
      ctx, a.data(), 3, b.data(), 2, a_out.data() + guard_items, b_out.data() + guard_items);
  EXPECT_TRUE(guarded_untouched(a_out));
  EXPECT_TRUE(guarded_untouched(b_out));
  mergepath::sorted_search<bounds::upper, search::index, search::none>(
      ctx, a.data(), 3, b.data(), 2, a_out.data() + guard_items, b_out.data() + guard_items);
  EXPECT_TRUE(guarded_equal(std::vector<int>{0, 1, 1}, a_out));
  EXPECT_TRUE(guarded_untouched(b_out));
}

// ---------------------------------------------------------------------------------------------
// Checked mode: unsorted input throws naming the first position, before anything is written.

// Sorted keys 0, 1, 2, ... with x[position] < x[position - 1].
std::vector<int> sorted_except_at(index_t count, index_t position) {
  std::vector<int> v = origins<int>(count, 0);
  v[static_cast<std::size_t>(position)] = -1;
  return v;
}

TEST(HostSortedSearchChecked, UnsortedInputThrowsNamingThePosition) {
  for (int threads : {1, 3, 8}) {
    mergepath::host_context ctx(threads);
    ctx.set_checked(true);
    for (index_t count : {index_t{10}, index_t{300000}}) {
      SCOPED_TRACE(::testing::Message() << "threads " << threads << ", count " << count);
      std::vector<int> sorted = origins<int>(count, 0);
      std::vector<int> bad_a = sorted_except_at(count, 5), bad_b = sorted_except_at(count, 7);
      if (count > 100000) bad_a[250000] = -2;  // a later offender in another thread's share: still a[5]
      std::vector<index_t> lower(static_cast<std::size_t>(count), 0);
      std::vector<int> a_out(static_cast<std::size_t>(count), poison<int>()), b_out = a_out;
      expect_invalid_argument(
          [&] { mergepath::sorted_search(ctx, bad_a.data(), count, sorted.data(), count, a_out.data()); }, "a[5]");
      expect_invalid_argument(
          [&] { mergepath::sorted_search(ctx, sorted.data(), count, bad_b.data(), count, a_out.data()); }, "b[7]");
      expect_invalid_argument(
          [&] {
            mergepath::sorted_search<bounds::upper, search::match, search::index_match>(
                ctx, bad_a.data(), count, sorted.data(), count, a_out.data(), b_out.data());
          },
          "a[5]");
      expect_invalid_argument(
          [&] {
            mergepath::sorted_search<bounds::lower, search::none, search::index>(
                ctx, sorted.data(), count, bad_b.data(), count, nullptr, b_out.data());
          },
          "b[7]");
      expect_invalid_argument(
          [&] {
            mergepath::sorted_equality_count(ctx, sorted.data(), count, bad_b.data(), count, lower.data(),
                                             a_out.data());
          },
          "b[7]");
      EXPECT_TRUE(untouched(a_out, 0, a_out.size()));
      EXPECT_TRUE(untouched(b_out, 0, b_out.size()));
    }
  }
}

TEST(HostSortedSearchChecked, SortedInputPasses) {
  mergepath::host_context ctx(3);
  ctx.set_checked(true);
  for (const search_case& c : search_cases(search_shapes({0, 1, 1009, 140009}))) {
    SCOPED_TRACE(c.name());
    merge_input<int> in = make_search_input<int>(c, mergepath::greater<>{});
    search_oracle expect = sorted_search_oracle(in, mergepath::greater<>{});
    ASSERT_NO_FATAL_FAILURE((check_complete_search<bounds::lower, search::index_match, search::match>(
        ctx, in, expect, mergepath::greater<>{})));
    ASSERT_NO_FATAL_FAILURE(check_short_search<bounds::upper>(ctx, in, expect, mergepath::greater<>{}));
  }
}

TEST(HostSortedSearchChecked, OrderIsTheComparatorsOrder) {
  mergepath::host_context ctx;
  ctx.set_checked(true);
  std::vector<int> up{1, 2, 3}, down{3, 2, 1}, out(3);
  expect_invalid_argument([&] { mergepath::sorted_search(ctx, up.data(), 3, down.data(), 3, out.data()); }, "b[1]");
  expect_invalid_argument(
      [&] { mergepath::sorted_search(ctx, up.data(), 3, down.data(), 3, out.data(), mergepath::greater<>{}); }, "a[1]");
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
        const auto matches =
            bound == bounds::lower
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
