// binary_search, eytzinger_layout, eytzinger_search, batch_search and eytzinger_index on a
// host_context: the suites of suites/binary_search.hpp, and what only the host backend has (any
// iterators and lambdas, eytzinger_shape and the thread-level searches called on the host,
// search_strategy_for's choice, the index's view on the host and its moves, bounds-checked views
// of an unsorted haystack).
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <memory>
#include <mergepath/binary_search.hpp>
#include <random>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "suites/binary_search.hpp"

namespace mergepath_test {
namespace {

INSTANTIATE_TYPED_TEST_SUITE_P(Host, BinarySearch, on_host<bsearch_key_cases>);
INSTANTIATE_TYPED_TEST_SUITE_P(Host, BinarySearchCalls, on_host<>);

// ---------------------------------------------------------------------------------------------
// Iterators and lambdas

// Any random-access iterators: vector iterators in, deque iterators out (and a deque tree), a
// lambda to compare.
TEST(HostBinarySearchIterators, IteratorsAndLambdas) {
  const bsearch_case c{5003, 20011, haystack_distribution::few_distinct, case_seed({540})};
  SCOPED_TRACE(c.name());
  auto by_value = [](int l, int r) { return l > r; };
  bsearch_input<int> in = make_bsearch_input<int>(c, by_value);
  const std::vector<index_t> lower = std_bounds<bounds::lower>(in.haystack, in.needles, by_value);
  const std::vector<index_t> upper = std_bounds<bounds::upper>(in.haystack, in.needles, by_value);
  const index_t n = c.needle_count, h = c.haystack_count;
  mergepath::host_context ctx(3);
  auto as_vector = [](const std::deque<index_t>& d) { return std::vector<index_t>(d.begin(), d.end()); };
  std::deque<index_t> out(static_cast<std::size_t>(n));

  mergepath::binary_search(ctx, in.needles.cbegin(), n, in.haystack.cbegin(), h, out.begin(), by_value);
  EXPECT_TRUE(ranges_equal(lower, as_vector(out))) << "binary_search";
  std::deque<int> tree(static_cast<std::size_t>(h));
  mergepath::eytzinger_layout(ctx, in.haystack.cbegin(), h, tree.begin());
  EXPECT_TRUE(ranges_equal(eytzinger_reference(in.haystack), std::vector<int>(tree.begin(), tree.end())));
  mergepath::eytzinger_search<bounds::upper>(ctx, in.needles.begin(), n, tree.cbegin(), h, out.begin(), by_value);
  EXPECT_TRUE(ranges_equal(upper, as_vector(out))) << "eytzinger_search";
  for (search_strategy s : all_strategies) {
    mergepath::batch_search<bounds::upper>(ctx, in.needles.cbegin(), n, in.haystack.begin(), h, out.begin(), by_value,
                                           s);
    EXPECT_TRUE(ranges_equal(upper, as_vector(out))) << "batch_search " << to_string(s);
  }
  mergepath::eytzinger_index<int, decltype(by_value)> index(ctx, in.haystack.data(), h, by_value);
  index.search(ctx, in.needles.begin(), n, out.begin());
  EXPECT_TRUE(ranges_equal(lower, as_vector(out))) << "eytzinger_index::search";
}

// ---------------------------------------------------------------------------------------------
// The shape

// sorted_index and node_of are inverse permutations of the tree's nodes, and agree with the
// recursive construction, for every count to 2000.
TEST(HostEytzingerShape, SortedIndexAndNodeOfAreInverse) {
  for (index_t n = 0; n <= 2000; ++n) {
    SCOPED_TRACE(::testing::Message() << "count " << n);
    const mergepath::eytzinger_shape shape(n);
    ASSERT_EQ(shape.count, n);
    const std::vector<index_t> reference = eytzinger_reference_indices(n);
    std::vector<char> seen(static_cast<std::size_t>(n), 0);
    for (index_t k = 1; k <= n; ++k) {
      const index_t i = shape.sorted_index(k);
      ASSERT_EQ(i, reference[static_cast<std::size_t>(k - 1)]) << "sorted_index(" << k << ")";
      ASSERT_EQ(shape.node_of(i), k) << "node_of(sorted_index(" << k << "))";
      seen[static_cast<std::size_t>(i)] = 1;
    }
    for (index_t i = 0; i < n; ++i) {
      const index_t k = shape.node_of(i);
      ASSERT_GE(k, 1) << "node_of(" << i << ")";
      ASSERT_LE(k, n) << "node_of(" << i << ")";
      ASSERT_EQ(shape.sorted_index(k), i) << "sorted_index(node_of(" << i << "))";
    }
    ASSERT_EQ(std::count(seen.begin(), seen.end(), 1), n);
  }
}

// Far beyond memory: the closed forms still invert each other, the root holds the in-order
// position of the perfect tree's root shifted by the missing leaves, and the last node is the
// last leaf.
TEST(HostEytzingerShape, HugeCounts) {
  std::mt19937_64 rng(case_seed({550}));
  SCOPED_TRACE("MERGEPATH_TEST_SEED=" + std::to_string(base_seed()));
  for (index_t n : {(index_t{1} << 31) + 12345, (index_t{1} << 32) - 1, index_t{1} << 32, (index_t{1} << 40) + 3,
                    (index_t{1} << 61) + 7, (index_t{1} << 62) - 1}) {
    SCOPED_TRACE(::testing::Message() << "count " << n);
    const mergepath::eytzinger_shape shape(n);
    std::vector<index_t> nodes{1, 2, 3, n, n - 1, n / 2, n / 2 + 1};
    for (int s = 0; s < 2000; ++s) nodes.push_back(std::uniform_int_distribution<index_t>(1, n)(rng));
    for (index_t k : nodes) {
      const index_t i = shape.sorted_index(k);
      ASSERT_GE(i, 0) << "sorted_index(" << k << ")";
      ASSERT_LT(i, n) << "sorted_index(" << k << ")";
      ASSERT_EQ(shape.node_of(i), k) << "node_of(sorted_index(" << k << "))";
    }
    for (int s = 0; s < 2000; ++s) {
      const index_t i = std::uniform_int_distribution<index_t>(0, n - 1)(rng);
      ASSERT_EQ(shape.sorted_index(shape.node_of(i)), i) << "sorted_index(node_of(" << i << "))";
    }
    // Left turns only lead to the smallest key, right turns only to the largest.
    index_t leftmost = 1;
    while (2 * leftmost <= n) leftmost *= 2;
    EXPECT_EQ(shape.sorted_index(leftmost), 0);
    EXPECT_EQ(shape.node_of(0), leftmost);
    index_t rightmost = 1;
    while (2 * rightmost + 1 <= n) rightmost = 2 * rightmost + 1;
    EXPECT_EQ(shape.sorted_index(rightmost), n - 1);
  }
}

// ---------------------------------------------------------------------------------------------
// search_strategy_for: its qualitative choice (the crossovers themselves are measured).

TEST(HostBatchSearchStrategy, AutomaticChoice) {
  using mergepath::search_strategy_for;
  for (bool gpu : {false, true}) {
    SCOPED_TRACE(gpu ? "gpu" : "cpu");
    EXPECT_EQ(search_strategy_for(gpu, 0, 1000), search_strategy::per_needle);
    EXPECT_EQ(search_strategy_for(gpu, 1000, 1 << 20), search_strategy::per_needle);  // few needles
    EXPECT_EQ(search_strategy_for(gpu, index_t{1} << 24, index_t{1} << 24), search_strategy::sort_then_search);
    // A small haystack: on the GPU it sits in L2 and one search each wins; the CPU walks it fast.
    EXPECT_EQ(search_strategy_for(gpu, index_t{1} << 24, 1000),
              gpu ? search_strategy::per_needle : search_strategy::sort_then_search);
    // Many needles, but a far larger haystack: one search each touches less.
    EXPECT_EQ(search_strategy_for(gpu, index_t{1} << 24, index_t{1} << 40), search_strategy::per_needle);
  }
  // BinarySearch.ManyNeedles' input: on the host, automatic sorts the needles.
  EXPECT_EQ(search_strategy_for(false, (1 << 18) + 3, 4097), search_strategy::sort_then_search);
  static_assert(search_strategy_for(false, 1, 1) == search_strategy::per_needle);
}

TEST(HostBatchSearchStrategy, Names) {
  EXPECT_STREQ(mergepath::to_string(search_strategy::automatic), "automatic");
  EXPECT_STREQ(mergepath::to_string(search_strategy::per_needle), "per_needle");
  EXPECT_STREQ(mergepath::to_string(search_strategy::sort_then_search), "sort_then_search");
  static_assert(std::string_view(mergepath::to_string(search_strategy::per_needle)) == "per_needle");
}

// ---------------------------------------------------------------------------------------------
// The index and its view

TEST(HostEytzingerIndex, ViewIsTriviallyCopyable) {
  static_assert(std::is_trivially_copyable_v<mergepath::eytzinger_view<int>>);
  static_assert(std::is_trivially_copyable_v<mergepath::eytzinger_view<point, point_less>>);
  mergepath::host_context ctx;
  const std::vector<int> keys{2, 4, 4, 4, 8};
  mergepath::eytzinger_index<int> index(ctx, keys.data(), 5);
  EXPECT_EQ(index.size(), 5);
  EXPECT_FALSE(index.on_device());
  ASSERT_NE(index.tree(), nullptr);
  EXPECT_EQ(std::vector<int>(index.tree(), index.tree() + 5), (std::vector<int>{4, 4, 8, 2, 4}));
  const auto view = index.view();
  EXPECT_EQ(view.count, 5);
  EXPECT_EQ(view.tree, index.tree());
  for (int x = 0; x <= 10; ++x) {
    EXPECT_EQ(view.lower_bound(x), std::lower_bound(keys.begin(), keys.end(), x) - keys.begin()) << x;
    EXPECT_EQ(view.upper_bound(x), std::upper_bound(keys.begin(), keys.end(), x) - keys.begin()) << x;
  }
  // A needle of another type, compared by the transparent less<>.
  EXPECT_EQ(view.lower_bound(4.5), 4);
  EXPECT_EQ(view.upper_bound(3.99), 1);

  // An empty index: every bound is 0.
  mergepath::eytzinger_index<int> empty(ctx, nullptr, 0);
  EXPECT_EQ(empty.size(), 0);
  EXPECT_EQ(empty.view().lower_bound(3), 0);
  EXPECT_EQ(empty.view().upper_bound(3), 0);

  // The Futhark example's index, past its largest key.
  const mergepath::eytzinger_index<int> example(ctx, futhark_example::haystack.data(), 6);
  EXPECT_EQ(example.view().lower_bound(12), 6);
  EXPECT_EQ(example.view().upper_bound(11), 6);
}

// Move-only: a copy would share (and outlive) the original's tree. A move carries the tree along,
// so the moved-to index and its view stay valid when the moved-from one is gone.
TEST(HostEytzingerIndex, MoveOnlyAndMovesCarryTheTree) {
  using index_type = mergepath::eytzinger_index<int>;
  static_assert(!std::is_copy_constructible_v<index_type>);
  static_assert(!std::is_copy_assignable_v<index_type>);
  static_assert(std::is_nothrow_move_constructible_v<index_type>);
  static_assert(std::is_nothrow_move_assignable_v<index_type>);
  mergepath::host_context ctx;
  const std::vector<int> keys = origins<int>(100, 0), needles{-1, 50, 100};
  auto original = std::make_unique<index_type>(ctx, keys.data(), 100);
  const int* tree = original->tree();
  index_type moved(std::move(*original));
  EXPECT_EQ(moved.tree(), tree);
  index_type assigned(ctx, keys.data(), 1);
  assigned = std::move(moved);
  EXPECT_EQ(assigned.tree(), tree);
  EXPECT_EQ(assigned.size(), 100);
  const auto view = assigned.view();
  original.reset();
  std::vector<index_t> out(3);
  assigned.search(ctx, needles.data(), 3, out.data());
  EXPECT_EQ(out, (std::vector<index_t>{0, 50, 100}));
  EXPECT_EQ(view.lower_bound(50), 50);
  EXPECT_EQ(view.upper_bound(50), 51);
}

// ---------------------------------------------------------------------------------------------
// An unsorted haystack read through a bounds-checked view: every read inside the haystack (or
// tree), every bound within [0, count].

TEST(HostBinarySearchUnsorted, ReadsStayInTheHaystack) {
  mergepath::host_context ctx(2);
  std::mt19937_64 rng(case_seed({560}));
  SCOPED_TRACE("MERGEPATH_TEST_SEED=" + std::to_string(base_seed()));
  for (index_t h : {index_t{1}, index_t{2}, index_t{7}, index_t{100}, index_t{4097}, index_t{70001}}) {
    SCOPED_TRACE(::testing::Message() << "haystack_count " << h);
    std::vector<int> hay(static_cast<std::size_t>(h)), needles(3000);
    for (int& x : hay) x = std::uniform_int_distribution<int>(-1000, 1000)(rng);
    for (int& x : needles) x = std::uniform_int_distribution<int>(-1100, 1100)(rng);
    const index_t n = static_cast<index_t>(needles.size());
    const auto checked_hay = checked_view(hay);
    std::vector<index_t> out(needles.size(), -1);
    for_both_bounds([&](auto b) {
      constexpr bounds Bounds = decltype(b)::value;
      SCOPED_TRACE(to_string(Bounds));
      mergepath::binary_search<Bounds>(ctx, needles.data(), n, checked_hay, h, out.data());
      EXPECT_TRUE(bounds_within(out, h)) << "binary_search";
      mergepath::eytzinger_search<Bounds>(ctx, needles.data(), n, checked_hay, h, out.data());
      EXPECT_TRUE(bounds_within(out, h)) << "eytzinger_search";
      mergepath::batch_search<Bounds>(ctx, needles.data(), n, checked_hay, h, out.data(), mergepath::less<>{},
                                      search_strategy::per_needle);
      EXPECT_TRUE(bounds_within(out, h)) << "batch_search per_needle";
    });
  }
}

// ---------------------------------------------------------------------------------------------
// The thread-level searches, binary_search_bound and fixed_halving_bound, in the count's own type
// (the GPU kernels step with int counts where the haystack allows): both bounds in 32 and 64
// bits, at sizes across powers of two, against std::lower_bound / upper_bound, and through a
// bounds-checked view on unsorted keys.

template <class Count>
void check_search_in_count_type(std::mt19937_64& rng) {
  SCOPED_TRACE(::testing::Message() << sizeof(Count) << "-byte count (MERGEPATH_TEST_SEED=" << base_seed() << ")");
  for (index_t n : {index_t{0}, index_t{1}, index_t{2}, index_t{3}, index_t{31}, index_t{32}, index_t{33},
                    index_t{1000}, index_t{65537}}) {
    std::vector<int> hay(static_cast<std::size_t>(n));
    for (int& x : hay) x = std::uniform_int_distribution<int>(0, static_cast<int>(n / 3 + 1))(rng);  // ties
    std::sort(hay.begin(), hay.end());
    for (int trial = 0; trial < 200; ++trial) {
      const int x = std::uniform_int_distribution<int>(-1, static_cast<int>(n / 3 + 2))(rng);
      const Count lower =
          mergepath::binary_search_bound<bounds::lower>(hay.data(), static_cast<Count>(n), x, mergepath::less<>{});
      const Count upper =
          mergepath::binary_search_bound<bounds::upper>(hay.data(), static_cast<Count>(n), x, mergepath::less<>{});
      static_assert(std::is_same_v<decltype(lower), const Count>, "the bound comes back in the count's type");
      ASSERT_EQ(lower, std::lower_bound(hay.begin(), hay.end(), x) - hay.begin()) << "n " << n << ", x " << x;
      ASSERT_EQ(upper, std::upper_bound(hay.begin(), hay.end(), x) - hay.begin()) << "n " << n << ", x " << x;
      ASSERT_EQ(lower, mergepath::fixed_halving_bound<bounds::lower>(hay.data(), static_cast<Count>(n), x,
                                                                     mergepath::less<>{}))
          << "fixed halving, n " << n << ", x " << x;
      ASSERT_EQ(upper, mergepath::fixed_halving_bound<bounds::upper>(hay.data(), static_cast<Count>(n), x,
                                                                     mergepath::less<>{}))
          << "fixed halving, n " << n << ", x " << x;
    }
    std::shuffle(hay.begin(), hay.end(), rng);  // unsorted: any bound, but read in bounds
    const auto checked = checked_view(hay);
    const Count any =
        mergepath::binary_search_bound<bounds::lower>(checked, static_cast<Count>(n), 5, mergepath::less<>{});
    ASSERT_TRUE(any >= 0 && any <= n) << "n " << n;
    const Count fixed =
        mergepath::fixed_halving_bound<bounds::lower>(checked, static_cast<Count>(n), 5, mergepath::less<>{});
    ASSERT_TRUE(fixed >= 0 && fixed <= n) << "fixed halving, n " << n;
  }
}

TEST(HostBinarySearchThreadLevel, BoundsInTheCountsType) {
  std::mt19937_64 rng(case_seed({580}));
  check_search_in_count_type<std::int32_t>(rng);
  check_search_in_count_type<std::int64_t>(rng);
}

// gallop_bound from any start at or before the bound (the needles' previous bound, in the host's
// search of a few sorted needles): both bounds, every start from 0 to the bound, against std; on
// unsorted keys through a bounds-checked view, a result in [from, n].
TEST(HostBinarySearchThreadLevel, GallopFromAnyEarlierStart) {
  std::mt19937_64 rng(case_seed({581}));
  SCOPED_TRACE(::testing::Message() << "MERGEPATH_TEST_SEED=" << base_seed());
  for (index_t n : {index_t{0}, index_t{1}, index_t{2}, index_t{7}, index_t{64}, index_t{65}, index_t{1000}}) {
    std::vector<int> hay(static_cast<std::size_t>(n));
    for (int& x : hay) x = std::uniform_int_distribution<int>(0, static_cast<int>(n / 3 + 1))(rng);  // ties
    std::sort(hay.begin(), hay.end());
    for (int trial = 0; trial < 50; ++trial) {
      const int x = std::uniform_int_distribution<int>(-1, static_cast<int>(n / 3 + 2))(rng);
      const index_t lower = std::lower_bound(hay.begin(), hay.end(), x) - hay.begin();
      const index_t upper = std::upper_bound(hay.begin(), hay.end(), x) - hay.begin();
      for (index_t from = 0; from <= lower; ++from)
        ASSERT_EQ((mergepath::gallop_bound<bounds::lower>(hay.data(), from, n, x, mergepath::less<>{})), lower)
            << "n " << n << ", x " << x << ", from " << from;
      for (index_t from = 0; from <= upper; ++from)
        ASSERT_EQ((mergepath::gallop_bound<bounds::upper>(hay.data(), from, n, x, mergepath::less<>{})), upper)
            << "n " << n << ", x " << x << ", from " << from;
    }
    std::shuffle(hay.begin(), hay.end(), rng);
    const auto checked = checked_view(hay);
    for (index_t from = 0; from <= n; ++from) {
      const index_t any = mergepath::gallop_bound<bounds::lower>(checked, from, n, 5, mergepath::less<>{});
      ASSERT_TRUE(any >= from && any <= n) << "n " << n << ", from " << from;
    }
  }
}

}  // namespace
}  // namespace mergepath_test
