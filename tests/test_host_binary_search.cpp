// binary_search, eytzinger_layout, eytzinger_search, batch_search (every strategy) and
// eytzinger_index (its search and its view) on a host_context, against std::lower_bound /
// std::upper_bound per needle: key types and comparators, haystack sizes at powers of two and
// either side, duplicates, needles below, above, between and equal to the keys; the layout
// against a recursive in-order construction; eytzinger_shape's two directions; the searches of
// the Futhark binary search example; argument errors; unsorted haystacks stay in bounds.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <functional>
#include <memory>
#include <mergepath/binary_search.hpp>
#include <random>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "binary_search_util.hpp"
#include "test_util.hpp"

namespace mergepath_test {
namespace {

// Work under 2^15 items per thread stays on one thread: the sizes over 2^16 are split.
constexpr int sweep_threads = 4;

// ---------------------------------------------------------------------------------------------
// Checked runs

// One path of the search: writes the bounds of in.needles to out (a pointer).
template <class Out>
void check_path(const char* path, const std::vector<Out>& expected, index_t needle_count,
                const std::function<void(Out*)>& run) {
  SCOPED_TRACE(path);
  std::vector<Out> out = guarded_output<Out>(needle_count);
  run(out.data() + guard_items);
  ASSERT_TRUE(guarded_equal(expected, out));
}

// Every path, bounds Bounds into Out, against the oracle: binary_search; eytzinger_layout (checked
// against the recursive construction) then eytzinger_search; batch_search with every strategy;
// eytzinger_index::search and its view's lower_bound / upper_bound.
template <bounds Bounds, class Out, class Key, class Comp>
void check_every_path(mergepath::host_context& ctx, const bsearch_input<Key>& in, Comp comp) {
  SCOPED_TRACE(std::string("bounds ") + to_string(Bounds));
  const std::vector<Out> expected = converted<Out>(std_bounds<Bounds>(in.haystack, in.needles, comp));
  const index_t n = static_cast<index_t>(in.needles.size()), h = static_cast<index_t>(in.haystack.size());
  const Key* needles = in.needles.data();
  const Key* haystack = in.haystack.data();

  ASSERT_NO_FATAL_FAILURE(check_path<Out>("binary_search", expected, n, [&](Out* out) {
    mergepath::binary_search<Bounds>(ctx, needles, n, haystack, h, out, comp);
  }));

  std::vector<Key> tree = guarded_output<Key>(h);
  mergepath::eytzinger_layout(ctx, haystack, h, tree.data() + guard_items);
  ASSERT_TRUE(guarded_equal(eytzinger_reference(in.haystack), tree)) << "eytzinger_layout";
  ASSERT_NO_FATAL_FAILURE(check_path<Out>("eytzinger_search", expected, n, [&](Out* out) {
    mergepath::eytzinger_search<Bounds>(ctx, needles, n, tree.data() + guard_items, h, out, comp);
  }));

  for (search_strategy s : all_strategies) {
    ASSERT_NO_FATAL_FAILURE(check_path<Out>(to_string(s), expected, n, [&](Out* out) {
      mergepath::batch_search<Bounds>(ctx, needles, n, haystack, h, out, comp, s);
    }));
  }

  const mergepath::eytzinger_index<Key, Comp> index(ctx, haystack, h, comp);
  ASSERT_EQ(index.size(), h);
  ASSERT_FALSE(index.on_device());
  ASSERT_NO_FATAL_FAILURE(check_path<Out>("eytzinger_index::search", expected, n,
                                          [&](Out* out) { index.template search<Bounds>(ctx, needles, n, out); }));
  ASSERT_NO_FATAL_FAILURE(check_path<Out>("eytzinger_view", expected, n, [&](Out* out) {
    const mergepath::eytzinger_view<Key, Comp> view = index.view();
    for (index_t i = 0; i < n; ++i)
      out[i] = static_cast<Out>(Bounds == bounds::lower ? view.lower_bound(needles[i]) : view.upper_bound(needles[i]));
  }));
}

// Lower bounds into int64, upper bounds into int32 (HostBinarySearchOutputs swaps them).
template <class Key, class Comp>
void check_cases(const std::vector<bsearch_case>& cases, Comp comp) {
  mergepath::host_context ctx(sweep_threads);
  for (const bsearch_case& c : cases) {
    SCOPED_TRACE(c.name());
    bsearch_input<Key> in = make_bsearch_input<Key>(c, comp);
    ASSERT_NO_FATAL_FAILURE((check_every_path<bounds::lower, std::int64_t>(ctx, in, comp)));
    ASSERT_NO_FATAL_FAILURE((check_every_path<bounds::upper, std::int32_t>(ctx, in, comp)));
  }
}

// ---------------------------------------------------------------------------------------------
// The searches of the Futhark binary search example, on every path

TEST(HostBinarySearchSeed, ExampleOnEveryPath) {
  namespace ex = seed_example;
  mergepath::host_context ctx;
  std::vector<int> tree(6);
  mergepath::eytzinger_layout(ctx, ex::haystack.data(), 6, tree.data());
  EXPECT_EQ(tree, (std::vector<int>{7, 3, 11, 1, 5, 9}));
  mergepath::eytzinger_index<int> index(ctx, ex::haystack.data(), 6);
  for (bounds b : {bounds::lower, bounds::upper}) {
    SCOPED_TRACE(to_string(b));
    const std::vector<index_t>& expected = b == bounds::lower ? ex::lower : ex::upper;
    auto run = [&](auto search) {
      std::vector<index_t> out(3, -1);
      if (b == bounds::lower)
        search(std::integral_constant<bounds, bounds::lower>{}, out.data());
      else
        search(std::integral_constant<bounds, bounds::upper>{}, out.data());
      return out;
    };
    EXPECT_EQ(expected, run([&](auto B, index_t* out) {
                mergepath::binary_search<decltype(B)::value>(ctx, ex::needles.data(), 3, ex::haystack.data(), 6, out);
              }))
        << "binary_search";
    EXPECT_EQ(expected, run([&](auto B, index_t* out) {
                mergepath::eytzinger_search<decltype(B)::value>(ctx, ex::needles.data(), 3, tree.data(), 6, out);
              }))
        << "eytzinger_search";
    for (search_strategy s : all_strategies) {
      EXPECT_EQ(expected, run([&](auto B, index_t* out) {
                  mergepath::batch_search<decltype(B)::value>(ctx, ex::needles.data(), 3, ex::haystack.data(), 6, out,
                                                              mergepath::less<>{}, s);
                }))
          << "batch_search " << to_string(s);
    }
    EXPECT_EQ(expected,
              run([&](auto B, index_t* out) { index.search<decltype(B)::value>(ctx, ex::needles.data(), 3, out); }))
        << "eytzinger_index::search";
  }
  const mergepath::eytzinger_view<int> view = index.view();
  EXPECT_EQ(view.lower_bound(0), 0);
  EXPECT_EQ(view.lower_bound(9), 4);
  EXPECT_EQ(view.lower_bound(2), 1);
  EXPECT_EQ(view.upper_bound(9), 5);
  EXPECT_EQ(view.lower_bound(12), 6);
  EXPECT_EQ(view.upper_bound(11), 6);
}

// ---------------------------------------------------------------------------------------------
// Every path against std::lower_bound / std::upper_bound

using key_cases =
    ::testing::Types<keys_case<std::int32_t, mergepath::less<>>, keys_case<std::int32_t, mergepath::greater<>>,
                     keys_case<std::int64_t, mergepath::less<>>, keys_case<std::uint32_t, mergepath::less<>>,
                     keys_case<std::uint32_t, mergepath::greater<>>, keys_case<float, mergepath::less<>>,
                     keys_case<double, mergepath::less<>>, keys_case<double, mergepath::greater<>>,
                     keys_case<point, point_less>,
                     // ties on x with different y: a bound is taken over equivalent keys, not identical ones
                     keys_case<point, point_x_less>, keys_case<std::int32_t, reverse_order>>;

template <class Case>
class HostBinarySearch : public ::testing::Test {};
TYPED_TEST_SUITE(HostBinarySearch, key_cases);

// Haystacks of 0 to 3 keys, 2^k - 1, 2^k and 2^k + 1 up to 2^16 + 1, and random sizes, each with
// a few thousand needles; the smaller ones also with no needle and with one.
TYPED_TEST(HostBinarySearch, EveryPathMatchesStdBounds) {
  using Key = typename TypeParam::key;
  std::vector<bsearch_case> cases = bsearch_cases(
      power_edge_sizes({2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 16}, random_sizes(4, 4, 20000, 510)), {3001});
  const std::vector<bsearch_case> few = bsearch_cases(power_edge_sizes({2, 3, 4, 5, 12}), {0, 1});
  cases.insert(cases.end(), few.begin(), few.end());
  ASSERT_NO_FATAL_FAILURE(check_cases<Key>(cases, typename TypeParam::comp{}));
}

// Needles enough for batch_search's automatic strategy to sort them (search_strategy_for), and
// work enough to be split over the threads.
TYPED_TEST(HostBinarySearch, ManyNeedlesSplitOverThreads) {
  using Key = typename TypeParam::key;
  const index_t h = 4097, n = (1 << 18) + 3;
  ASSERT_EQ(mergepath::search_strategy_for(false, n, h), search_strategy::sort_then_search);
  ASSERT_NO_FATAL_FAILURE(check_cases<Key>({{h, n, haystack_distribution::few_distinct, case_seed({h, n, 520})}},
                                           typename TypeParam::comp{}));
}

// A large haystack split over the threads, as many needles.
TEST(HostBatchSearch, LargeHaystackSplitOverThreads) {
  const index_t h = (1 << 17) + 1, n = 70001;
  ASSERT_NO_FATAL_FAILURE(
      check_cases<std::int32_t>({{h, n, haystack_distribution::uniform, case_seed({h, n, 522})}}, mergepath::less<>{}));
}

// ---------------------------------------------------------------------------------------------
// Output types, threads, iterators

TEST(HostBinarySearchOutputs, LowerIntoInt32UpperIntoInt64) {
  mergepath::host_context ctx(sweep_threads);
  std::vector<bsearch_case> cases = bsearch_cases(power_edge_sizes({4, 12}, {70001}), {0, 1, 3001});
  cases.push_back({4097, 70001, haystack_distribution::uniform, case_seed({4097, 70001, 525})});
  for (const bsearch_case& c : cases) {
    SCOPED_TRACE(c.name());
    bsearch_input<std::int64_t> in = make_bsearch_input<std::int64_t>(c, mergepath::less<>{});
    ASSERT_NO_FATAL_FAILURE((check_every_path<bounds::lower, std::int32_t>(ctx, in, mergepath::less<>{})));
    ASSERT_NO_FATAL_FAILURE((check_every_path<bounds::upper, std::int64_t>(ctx, in, mergepath::less<>{})));
  }
}

TEST(HostBinarySearchThreads, AnyThreadCount) {
  const bsearch_case c{100003, (1 << 18) + 1, haystack_distribution::uniform, case_seed({530})};
  SCOPED_TRACE(c.name());
  bsearch_input<int> in = make_bsearch_input<int>(c, mergepath::less<>{});
  for (int threads : {1, 3, 8}) {
    SCOPED_TRACE(::testing::Message() << "threads " << threads);
    mergepath::host_context ctx(threads);
    ASSERT_NO_FATAL_FAILURE((check_every_path<bounds::lower, std::int64_t>(ctx, in, mergepath::less<>{})));
    ASSERT_NO_FATAL_FAILURE((check_every_path<bounds::upper, std::int32_t>(ctx, in, mergepath::less<>{})));
  }
}

// Any random-access iterators: vector iterators in, deque iterators out (and a deque tree), a
// lambda to compare.
TEST(HostBinarySearchOutputs, IteratorsAndLambdas) {
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
// The layout and the shape

// Every count to 1100, and large ones split over the threads: element by element equal to the
// recursive in-order construction.
TEST(HostEytzingerLayout, MatchesRecursiveInOrderConstruction) {
  mergepath::host_context ctx(sweep_threads);
  std::vector<index_t> counts;
  for (index_t n = 0; n <= 1100; ++n) counts.push_back(n);
  for (index_t n : power_edge_sizes({15, 16, 17, 20, 22}, {100003, 1234567})) counts.push_back(n);
  for (index_t n : sorted_unique_capped(counts)) {
    SCOPED_TRACE(::testing::Message() << "count " << n);
    const std::vector<std::int32_t> sorted = origins<std::int32_t>(n, 0);
    std::vector<std::int32_t> tree = guarded_output<std::int32_t>(n);
    mergepath::eytzinger_layout(ctx, sorted.data(), n, tree.data() + guard_items);
    ASSERT_TRUE(guarded_equal(eytzinger_reference(sorted), tree));
  }
}

// Keys that are not integers: the layout moves them whole.
TEST(HostEytzingerLayout, StructKeys) {
  mergepath::host_context ctx(2);
  for (index_t n : {index_t{0}, index_t{1}, index_t{7}, index_t{8}, index_t{1000}, index_t{70001}}) {
    SCOPED_TRACE(::testing::Message() << "count " << n);
    std::vector<point> sorted;
    for (index_t i = 0; i < n; ++i) sorted.push_back(key_from_rank<point>(i));
    std::vector<point> tree = guarded_output<point>(n);
    mergepath::eytzinger_layout(ctx, sorted.data(), n, tree.data() + guard_items);
    ASSERT_TRUE(guarded_equal(eytzinger_reference(sorted), tree));
  }
}

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
// Bad arguments: std::invalid_argument before any work (the outputs stay poisoned); null pointers
// are fine where their count is zero.

TEST(HostBinarySearchArguments, BadArgumentsThrowBeforeWriting) {
  mergepath::host_context ctx;
  const std::vector<int> hay{1, 3, 5}, needles{0, 4};
  const int* null = nullptr;
  std::int64_t* null_out = nullptr;
  std::vector<std::int64_t> out = guarded_output<std::int64_t>(2);
  std::vector<int> tree = guarded_output<int>(3);
  std::int64_t* dest = out.data() + guard_items;
  int* tree_dest = tree.data() + guard_items;

  // binary_search and batch_search (every strategy) check the same arguments.
  auto searches = [&](const int* n_ptr, index_t n, const int* h_ptr, index_t h, std::int64_t* o) {
    std::vector<std::function<void()>> calls;
    calls.push_back([=, &ctx] { mergepath::binary_search(ctx, n_ptr, n, h_ptr, h, o); });
    calls.push_back([=, &ctx] { mergepath::binary_search<bounds::upper>(ctx, n_ptr, n, h_ptr, h, o); });
    for (search_strategy s : all_strategies)
      calls.push_back([=, &ctx] { mergepath::batch_search(ctx, n_ptr, n, h_ptr, h, o, mergepath::less<>{}, s); });
    calls.push_back([=, &ctx] {
      mergepath::batch_search<bounds::upper>(ctx, n_ptr, n, h_ptr, h, o, mergepath::less<>{},
                                             search_strategy::sort_then_search);
    });
    return calls;
  };
  for (auto& call : searches(needles.data(), -1, hay.data(), 3, dest))
    expect_invalid_argument(call, "needles count is negative");
  for (auto& call : searches(needles.data(), 2, hay.data(), -3, dest))
    expect_invalid_argument(call, "haystack count is negative");
  for (auto& call : searches(null, 2, hay.data(), 3, dest)) expect_invalid_argument(call, "needles is a null pointer");
  for (auto& call : searches(needles.data(), 2, null, 3, dest))
    expect_invalid_argument(call, "haystack is a null pointer");
  for (auto& call : searches(needles.data(), 2, hay.data(), 3, null_out))
    expect_invalid_argument(call, "out is a null pointer");

  expect_invalid_argument([&] { mergepath::eytzinger_layout(ctx, hay.data(), -1, tree_dest); }, "count is negative");
  expect_invalid_argument([&] { mergepath::eytzinger_layout(ctx, null, 3, tree_dest); }, "sorted is a null pointer");
  expect_invalid_argument([&] { mergepath::eytzinger_layout(ctx, hay.data(), 3, static_cast<int*>(nullptr)); },
                          "tree is a null pointer");

  std::vector<int> good_tree{3, 1, 5};
  expect_invalid_argument([&] { mergepath::eytzinger_search(ctx, needles.data(), -2, good_tree.data(), 3, dest); },
                          "needles count is negative");
  expect_invalid_argument([&] { mergepath::eytzinger_search(ctx, needles.data(), 2, good_tree.data(), -3, dest); },
                          "tree count is negative");
  expect_invalid_argument([&] { mergepath::eytzinger_search(ctx, null, 2, good_tree.data(), 3, dest); },
                          "needles is a null pointer");
  expect_invalid_argument([&] { mergepath::eytzinger_search(ctx, needles.data(), 2, null, 3, dest); },
                          "tree is a null pointer");
  expect_invalid_argument(
      [&] { mergepath::eytzinger_search<bounds::upper>(ctx, needles.data(), 2, good_tree.data(), 3, null_out); },
      "out is a null pointer");

  expect_invalid_argument([&] { mergepath::eytzinger_index<int> index(ctx, hay.data(), -1); }, "count is negative");
  expect_invalid_argument([&] { mergepath::eytzinger_index<int> index(ctx, null, 3); }, "null pointer");
  mergepath::eytzinger_index<int> index(ctx, hay.data(), 3);
  expect_invalid_argument([&] { index.search(ctx, needles.data(), -1, dest); }, "count is negative");
  expect_invalid_argument([&] { index.search(ctx, null, 2, dest); }, "needles is a null pointer");
  expect_invalid_argument([&] { index.search<bounds::upper>(ctx, needles.data(), 2, null_out); },
                          "out is a null pointer");

  EXPECT_TRUE(guarded_untouched(out));
  EXPECT_TRUE(guarded_untouched(tree));
}

TEST(HostBinarySearchArguments, NullPointersWithZeroCounts) {
  mergepath::host_context ctx;
  const std::vector<int> hay{1, 3, 5}, needles{0, 4, 9};
  const int* null = nullptr;
  index_t* null_out = nullptr;
  std::vector<index_t> out = guarded_output<index_t>(3);
  index_t* dest = out.data() + guard_items;
  EXPECT_NO_THROW(mergepath::binary_search(ctx, null, 0, null, 0, null_out));
  EXPECT_NO_THROW(mergepath::eytzinger_layout(ctx, null, 0, static_cast<int*>(nullptr)));
  EXPECT_NO_THROW(mergepath::eytzinger_search(ctx, null, 0, null, 0, null_out));
  for (search_strategy s : all_strategies) {
    EXPECT_NO_THROW(mergepath::batch_search(ctx, null, 0, null, 0, null_out, mergepath::less<>{}, s));
    EXPECT_NO_THROW(mergepath::batch_search(ctx, null, 0, hay.data(), 3, null_out, mergepath::less<>{}, s));
  }
  EXPECT_TRUE(guarded_untouched(out));
  // An empty haystack: every bound is 0.
  for (search_strategy s : all_strategies) {
    mergepath::batch_search<bounds::upper>(ctx, needles.data(), 3, null, 0, dest, mergepath::less<>{}, s);
    EXPECT_TRUE(guarded_equal(std::vector<index_t>{0, 0, 0}, out)) << to_string(s);
  }
  mergepath::binary_search(ctx, needles.data(), 3, null, 0, dest);
  EXPECT_TRUE(guarded_equal(std::vector<index_t>{0, 0, 0}, out));
  mergepath::eytzinger_search(ctx, needles.data(), 3, null, 0, dest);
  EXPECT_TRUE(guarded_equal(std::vector<index_t>{0, 0, 0}, out));
  mergepath::eytzinger_index<int> empty(ctx, null, 0);
  empty.search<bounds::upper>(ctx, needles.data(), 3, dest);
  EXPECT_TRUE(guarded_equal(std::vector<index_t>{0, 0, 0}, out));
  EXPECT_NO_THROW(empty.search(ctx, null, 0, null_out));
}

// ---------------------------------------------------------------------------------------------
// An unsorted haystack: unspecified bounds, but every read inside the haystack (or tree), and
// every bound within [0, count].

TEST(HostBinarySearchUnsorted, StaysInBounds) {
  mergepath::host_context ctx(2);
  std::mt19937_64 rng(case_seed({560}));
  SCOPED_TRACE("MERGEPATH_TEST_SEED=" + std::to_string(base_seed()));
  for (index_t h : {index_t{1}, index_t{2}, index_t{7}, index_t{100}, index_t{4097}, index_t{70001}}) {
    SCOPED_TRACE(::testing::Message() << "haystack_count " << h);
    std::vector<int> hay(static_cast<std::size_t>(h)), needles(3000);
    for (int& x : hay) x = std::uniform_int_distribution<int>(-1000, 1000)(rng);
    for (int& x : needles) x = std::uniform_int_distribution<int>(-1100, 1100)(rng);
    const index_t n = static_cast<index_t>(needles.size());
    auto in_range = [&](const std::vector<index_t>& out) {
      for (std::size_t i = 0; i < out.size(); ++i)
        if (out[i] < 0 || out[i] > h)
          return ::testing::AssertionFailure() << "out[" << i << "] = " << out[i] << " outside [0, " << h << "]";
      return ::testing::AssertionSuccess();
    };
    std::vector<index_t> out(needles.size(), -1);
    const auto checked_hay = checked_view(hay);
    mergepath::binary_search(ctx, needles.data(), n, checked_hay, h, out.data());
    EXPECT_TRUE(in_range(out)) << "binary_search";
    mergepath::binary_search<bounds::upper>(ctx, needles.data(), n, checked_hay, h, out.data());
    EXPECT_TRUE(in_range(out)) << "binary_search upper";
    mergepath::eytzinger_search(ctx, needles.data(), n, checked_hay, h, out.data());
    EXPECT_TRUE(in_range(out)) << "eytzinger_search";
    mergepath::eytzinger_search<bounds::upper>(ctx, needles.data(), n, checked_hay, h, out.data());
    EXPECT_TRUE(in_range(out)) << "eytzinger_search upper";
    // A pointer tree takes the prefetching descent (its prefetches stay inside the tree too).
    mergepath::eytzinger_search(ctx, needles.data(), n, hay.data(), h, out.data());
    EXPECT_TRUE(in_range(out)) << "eytzinger_search, pointer tree";
    mergepath::batch_search(ctx, needles.data(), n, checked_hay, h, out.data(), mergepath::less<>{},
                            search_strategy::per_needle);
    EXPECT_TRUE(in_range(out)) << "batch_search per_needle";
    // The sorting path walks the haystack with sorted_search.
    for (bounds b : {bounds::lower, bounds::upper}) {
      if (b == bounds::lower)
        mergepath::batch_search<bounds::lower>(ctx, needles.data(), n, hay.data(), h, out.data(), mergepath::less<>{},
                                               search_strategy::sort_then_search);
      else
        mergepath::batch_search<bounds::upper>(ctx, needles.data(), n, hay.data(), h, out.data(), mergepath::less<>{},
                                               search_strategy::sort_then_search);
      EXPECT_TRUE(in_range(out)) << "batch_search sort_then_search " << to_string(b);
    }
    mergepath::eytzinger_index<int> index(ctx, hay.data(), h);
    index.search<bounds::upper>(ctx, needles.data(), n, out.data());
    EXPECT_TRUE(in_range(out)) << "eytzinger_index::search";
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

// ---------------------------------------------------------------------------------------------
// Checked mode: a haystack (eytzinger_layout: its sorted input) out of comp's order throws,
// naming the first position out of order, before anything is written.

TEST(HostBinarySearchChecked, UnsortedHaystackThrowsNamingThePosition) {
  for (int threads : {1, 3, 8}) {
    mergepath::host_context ctx(threads);
    ctx.set_checked(true);
    for (index_t count : {index_t{10}, index_t{300000}}) {
      SCOPED_TRACE(::testing::Message() << "threads " << threads << ", count " << count);
      std::vector<int> hay = origins<int>(count, 0);
      hay[6] = -1;
      if (count > 100000) hay[250000] = -2;  // a later offender in another thread's share: still [6]
      const std::vector<int> needles{1, 5, 9};
      std::vector<index_t> out(needles.size(), -7);
      std::vector<int> tree(static_cast<std::size_t>(count), poison<int>());
      expect_invalid_argument([&] { mergepath::binary_search(ctx, needles.data(), 3, hay.data(), count, out.data()); },
                              "binary_search: input haystack is not sorted: haystack[6]");
      expect_invalid_argument(
          [&] { mergepath::binary_search<bounds::upper>(ctx, needles.data(), 3, hay.data(), count, out.data()); },
          "haystack[6]");
      for (search_strategy s : {search_strategy::per_needle, search_strategy::sort_then_search})
        expect_invalid_argument(
            [&] {
              mergepath::batch_search(ctx, needles.data(), 3, hay.data(), count, out.data(), mergepath::less<>{}, s);
            },
            "batch_search: input haystack is not sorted: haystack[6]");
      expect_invalid_argument([&] { mergepath::eytzinger_layout(ctx, hay.data(), count, tree.data()); },
                              "eytzinger_layout: input sorted is not sorted: sorted[6]");
      expect_invalid_argument([&] { mergepath::eytzinger_index<int> index(ctx, hay.data(), count); }, "sorted[6]");
      EXPECT_TRUE(std::all_of(out.begin(), out.end(), [](index_t x) { return x == -7; }));
      EXPECT_TRUE(untouched(tree, 0, tree.size()));
    }
  }
}

TEST(HostBinarySearchChecked, OrderIsTheComparatorsOrder) {
  mergepath::host_context ctx(2);
  ctx.set_checked(true);
  const std::vector<int> down{9, 7, 7, 3, 1}, needles{7, 2};
  std::vector<index_t> out(2);
  mergepath::binary_search(ctx, needles.data(), 2, down.data(), 5, out.data(), mergepath::greater<>{});
  EXPECT_EQ(out, (std::vector<index_t>{1, 4}));
  expect_invalid_argument([&] { mergepath::binary_search(ctx, needles.data(), 2, down.data(), 5, out.data()); },
                          "haystack[1]");
  std::vector<int> tree(5);
  mergepath::eytzinger_layout(ctx, down.data(), 5, tree.data(), mergepath::greater<>{});
  mergepath::eytzinger_index<int, mergepath::greater<>> index(ctx, down.data(), 5);
  // Keys without operator<: the layout (default comparator) cannot check them; with theirs it does.
  const std::vector<point> points{{1, 0.f}, {2, 0.f}, {0, 0.f}};
  std::vector<point> point_tree(3);
  mergepath::eytzinger_layout(ctx, points.data(), 3, point_tree.data());
  expect_invalid_argument(
      [&] { mergepath::eytzinger_layout(ctx, points.data(), 3, point_tree.data(), point_less{}); }, "sorted[2]");
}

}  // namespace
}  // namespace mergepath_test
