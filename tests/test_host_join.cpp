// merge_join and sort_merge_join on the CPU against the sequential reference join: every kind,
// every input shape, sizes around the threads' shares, int32 and int64 Index, greater<> and a
// struct key; argument checks and checked mode.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <mergepath/join.hpp>
#include <numeric>
#include <random>
#include <vector>

#include "comparator_fuzz_util.hpp"
#include "join_util.hpp"

namespace mergepath_test {
namespace {

using mergepath::host_context;

template <class Key, class Comp, class Index>
struct join_case {
  using key = Key;
  using comp = Comp;
  using index = Index;
};

template <class Case>
struct HostJoin : ::testing::Test {};
using join_cases = ::testing::Types<join_case<std::int32_t, mergepath::less<>, std::int32_t>,
                                    join_case<std::int64_t, mergepath::greater<>, std::int64_t>,
                                    join_case<tagged, tagged_less, std::int64_t>>;
TYPED_TEST_SUITE(HostJoin, join_cases);

const std::pair<index_t, index_t> join_sizes[] = {
    {0, 0}, {0, 5}, {5, 0}, {1, 1}, {7, 100}, {1000, 999}, {(1 << 15) + 1, (1 << 15) - 1}, {1 << 17, 1 << 16}};
const int thread_counts[] = {1, 2, 3};

template <join_kind Kind, class Index, class Key, class Comp>
void check_join(const key_pair<Key>& in, int threads, bool sort_first, Comp comp) {
  host_context ctx(threads);
  const auto na = static_cast<index_t>(in.a.size()), nb = static_cast<index_t>(in.b.size());
  auto r = sort_first ? mergepath::sort_merge_join<Kind, Index>(ctx, in.a.data(), na, in.b.data(), nb, comp)
                      : mergepath::merge_join<Kind, Index>(ctx, in.a.data(), na, in.b.data(), nb, comp);
  const bool has_b = Kind != join_kind::left_semi && Kind != join_kind::left_anti;
  if (!has_b) {
    EXPECT_EQ(r.b_index(), nullptr);
  }
  std::vector<Index> a(r.a_index(), r.a_index() + r.size());
  std::vector<Index> b = has_b ? std::vector<Index>(r.b_index(), r.b_index() + r.size()) : std::vector<Index>{};
  auto expected = sort_first ? reference_sort_join(Kind, in.a, in.b, comp) : reference_join(Kind, in.a, in.b, comp);
  ASSERT_TRUE(join_matches(expected, r.size(), a, b, has_b));
}

TYPED_TEST(HostJoin, MergeJoinMatchesReference) {
  using Key = typename TypeParam::key;
  using Comp = typename TypeParam::comp;
  for (pair_shape shape : all_pair_shapes())
    for (auto [na, nb] : join_sizes)
      for (int threads : thread_counts) {
        if (shape == pair_shape::few_distinct && na * nb > (index_t{1} << 24)) {
          continue;  // the reference's time
        }
        SCOPED_TRACE(::testing::Message()
                     << shape << " " << na << " x " << nb << " threads " << threads << " seed " << base_seed());
        auto in = make_key_pair<Key>(shape, na, nb, case_seed({na, nb, static_cast<int>(shape)}), Comp{});
        for (join_kind kind : all_join_kinds()) {
          SCOPED_TRACE(::testing::Message() << kind);
          with_join_kind(kind, [&](auto k) {
            check_join<decltype(k)::value, typename TypeParam::index>(in, threads, false, Comp{});
          });
        }
      }
}

TYPED_TEST(HostJoin, SortMergeJoinMatchesReferenceAndLeavesInputs) {
  using Key = typename TypeParam::key;
  using Comp = typename TypeParam::comp;
  for (pair_shape shape : all_pair_shapes())
    for (auto [na, nb] : {std::pair<index_t, index_t>{0, 3}, {1, 1}, {1000, 999}, {1 << 17, 1 << 16}}) {
      if (shape == pair_shape::few_distinct && na * nb > (index_t{1} << 24)) continue;
      SCOPED_TRACE(::testing::Message() << shape << " " << na << " x " << nb << " seed " << base_seed());
      auto in = make_key_pair<Key>(shape, na, nb, case_seed({na, nb, 7}), Comp{});
      std::mt19937_64 rng(case_seed({na, 8}));
      std::shuffle(in.a.begin(), in.a.end(), rng);
      std::shuffle(in.b.begin(), in.b.end(), rng);
      const auto before = in;
      for (join_kind kind : all_join_kinds()) {
        SCOPED_TRACE(::testing::Message() << kind);
        with_join_kind(kind,
                       [&](auto k) { check_join<decltype(k)::value, typename TypeParam::index>(in, 2, true, Comp{}); });
      }
      ASSERT_TRUE(ranges_equal(before.a, in.a));
      ASSERT_TRUE(ranges_equal(before.b, in.b));
    }
}

// 3000 x 2000 equal keys: 6e6 rows from one key group, spread over the threads like any work.
TEST(HostJoinManyToMany, OneKeyGroupOfSixMillionRows) {
  std::vector<std::int32_t> a(3000, 42), b(2000, 42);
  a.insert(a.begin(), 7), b.push_back(99);
  host_context ctx(2);
  auto r = mergepath::merge_join<join_kind::full_outer, std::int32_t>(ctx, a.data(), 3001, b.data(), 2001);
  ASSERT_EQ(r.size(), 6'000'002);
  EXPECT_EQ(r.a_index()[0], 0);
  EXPECT_EQ(r.b_index()[0], -1);
  for (std::int64_t k = 1; k <= 6'000'000; ++k) {
    const std::int64_t i = 1 + (k - 1) / 2000, j = (k - 1) % 2000;
    if (r.a_index()[k] != i || r.b_index()[k] != j) FAIL() << "row " << k;
  }
  EXPECT_EQ(r.a_index()[6'000'001], -1);
  EXPECT_EQ(r.b_index()[6'000'001], 2000);
}

TEST(HostJoinArguments, BadArgumentsThrow) {
  host_context ctx;
  std::vector<int> a = {1, 2, 3}, b = {2, 3};
  expect_invalid_argument([&] { mergepath::merge_join(ctx, a.data(), -1, b.data(), 2); }, "negative");
  expect_invalid_argument([&] { mergepath::merge_join(ctx, static_cast<int*>(nullptr), 3, b.data(), 2); }, "null");
  expect_invalid_argument([&] { mergepath::sort_merge_join(ctx, a.data(), 3, static_cast<int*>(nullptr), 2); }, "null");
  // An Index too narrow for the row counts (int8_t holds at most 127 rows).
  std::vector<int> many(200, 1);
  expect_invalid_argument(
      [&] { mergepath::merge_join<join_kind::inner, std::int8_t>(ctx, many.data(), 200, b.data(), 2); }, "Index");
  auto fine = mergepath::merge_join<join_kind::inner, std::int8_t>(ctx, many.data(), 127, b.data(), 2);
  EXPECT_EQ(fine.size(), 0);
}

TEST(HostJoinChecked, UnsortedInputIsNamed) {
  host_context ctx(2);
  ctx.set_checked(true);
  std::vector<int> a = {1, 2, 3, 2, 5}, b = {1, 2};
  expect_invalid_argument([&] { mergepath::merge_join(ctx, a.data(), 5, b.data(), 2); }, "a[3]");
  expect_invalid_argument([&] { mergepath::merge_join(ctx, b.data(), 2, a.data(), 5); }, "b[3]");
  // sort_merge_join takes any order, checked or not.
  EXPECT_EQ(mergepath::sort_merge_join(ctx, a.data(), 5, b.data(), 2).size(), 3);
}

// Unsorted input, unchecked: any result, but no access outside the inputs.
TEST(HostJoinUnchecked, UnsortedInputStaysInBounds) {
  for (int threads : {1, 2})
    for (index_t n : {index_t{100}, index_t{70000}}) {  // b short: unsorted input can make up to n * 300 rows
      std::mt19937_64 rng(case_seed({n, threads}));
      std::vector<int> a(static_cast<std::size_t>(n)), b(300);
      for (auto& x : a) x = static_cast<int>(rng() % 50);
      for (auto& x : b) x = static_cast<int>(rng() % 50);
      host_context ctx(threads);
      {
        auto r = mergepath::merge_join<join_kind::full_outer>(ctx, checked_view(a), n, checked_view(b), 300);
        for (std::int64_t k = 0; k < r.size(); ++k)
          if (r.a_index()[k] < -1 || r.a_index()[k] >= n || r.b_index()[k] < -1 || r.b_index()[k] >= 300)
            FAIL() << "row " << k << " out of range";
      }
    }
}

// Sorted a against unsorted b on several threads: long runs of partners push the chunks past
// their stored rows, so each is walked again straight into the result. That second walk must make
// the rows the first counted (it once took another walk, whose rows on unsorted input differ, and
// wrote past the result: AddressSanitizer showed it).
template <join_kind Kind>
void check_unsorted_b_rewalk(const std::vector<int>& a, const std::vector<int>& b, int threads) {
  host_context ctx(threads);
  const auto na = static_cast<index_t>(a.size()), nb = static_cast<index_t>(b.size());
  auto r = mergepath::merge_join<Kind, std::int32_t>(ctx, checked_view(a), na, checked_view(b), nb);
  for (std::int64_t k = 0; k < r.size(); ++k) {
    ASSERT_TRUE(r.a_index()[k] >= -1 && r.a_index()[k] < na) << "row " << k;
    if constexpr (mergepath::detail::has_b_index(Kind)) {
      ASSERT_TRUE(r.b_index()[k] >= -1 && r.b_index()[k] < nb) << "row " << k;
    }
  }
}

TEST(HostJoinUnchecked, ChunksWalkedTwiceStayInBounds) {
  for (int threads : {2, 3})
    for (int range : {7, 40}) {
      SCOPED_TRACE(::testing::Message() << "threads " << threads << " keys in [0, " << range << ")");
      std::mt19937_64 rng(case_seed({threads, range}));
      std::vector<int> a(120000), b(2000);
      for (auto& x : a) x = static_cast<int>(rng() % static_cast<unsigned>(range));
      for (auto& x : b) x = static_cast<int>(rng() % static_cast<unsigned>(range));
      std::sort(a.begin(), a.end());
      check_unsorted_b_rewalk<join_kind::inner>(a, b, threads);
      check_unsorted_b_rewalk<join_kind::left>(a, b, threads);
      check_unsorted_b_rewalk<join_kind::right>(a, b, threads);
      check_unsorted_b_rewalk<join_kind::full_outer>(a, b, threads);
      check_unsorted_b_rewalk<join_kind::left_semi>(a, b, threads);
      check_unsorted_b_rewalk<join_kind::left_anti>(a, b, threads);
    }
}

// The GPU join's partner count: from each key's lower bound, partners_end finds its upper bound,
// for runs of every length around the three reads it issues together and at b's end; on unsorted b
// it stays in [lb, b_count] and reads only b.
TEST(HostJoinPartners, PartnersEndIsTheUpperBound) {
  std::vector<int> b;
  for (int k = 0; k < 12; ++k) b.insert(b.end(), static_cast<std::size_t>(k), 2 * k);  // k copies of 2k
  for (index_t n : {index_t{0}, index_t{3}, static_cast<index_t>(b.size())}) {
    const std::vector<int> prefix(b.begin(), b.begin() + n);
    for (int x = -1; x <= 24; ++x) {
      const auto lb = static_cast<index_t>(std::lower_bound(prefix.begin(), prefix.end(), x) - prefix.begin());
      const auto ub = static_cast<index_t>(std::upper_bound(prefix.begin(), prefix.end(), x) - prefix.begin());
      EXPECT_EQ(mergepath::detail::partners_end(checked_view(prefix), lb, n, x, mergepath::less<>{}), ub)
          << "n " << n << " key " << x;
    }
  }
  std::mt19937_64 rng(case_seed({7}));
  std::vector<int> unsorted(50);
  for (auto& x : unsorted) x = static_cast<int>(rng() % 4);
  for (index_t lb = 0; lb <= 50; ++lb) {
    const index_t end = mergepath::detail::partners_end(checked_view(unsorted), lb, 50, 2, mergepath::less<>{});
    EXPECT_TRUE(end >= lb && end <= 50) << lb;
  }
}

TEST(HostJoinResult, MovesAndOwns) {
  host_context ctx;
  std::vector<int> a = {1, 2, 2}, b = {2, 2, 3};
  auto r = mergepath::merge_join(ctx, a.data(), 3, b.data(), 3);
  static_assert(!std::is_copy_constructible_v<decltype(r)>);
  auto moved = std::move(r);
  ASSERT_EQ(moved.size(), 4);
  EXPECT_EQ(std::vector<std::int64_t>(moved.a_index(), moved.a_index() + 4), (std::vector<std::int64_t>{1, 1, 2, 2}));
  EXPECT_EQ(std::vector<std::int64_t>(moved.b_index(), moved.b_index() + 4), (std::vector<std::int64_t>{0, 1, 0, 1}));
}

// Comparators that are not strict weak orders: every join returns at most |a| |b| rows plus the
// lone ones, each row's indices in range, -1 only where the kind keeps lone rows.
template <join_kind Kind>
void check_fuzz_join(const fuzz_case& c, const std::vector<double>& a, const std::vector<double>& b) {
  SCOPED_TRACE(::testing::Message() << "kind " << static_cast<int>(Kind));
  host_context ctx(c.threads);
  const bad_comp comp{c.order};
  const auto na = static_cast<index_t>(a.size()), nb = static_cast<index_t>(b.size());
  for (const bool sort_first : {false, true}) {
    auto r = sort_first ? mergepath::sort_merge_join<Kind, std::int32_t>(ctx, a.data(), na, b.data(), nb, comp)
                        : mergepath::merge_join<Kind, std::int32_t>(ctx, a.data(), na, b.data(), nb, comp);
    ASSERT_LE(r.size(), na * nb + na + nb) << (sort_first ? "sort_merge_join" : "merge_join");
    for (std::int64_t k = 0; k < r.size(); ++k) {
      const std::int32_t i = r.a_index()[k];
      const std::int32_t j = mergepath::detail::has_b_index(Kind) ? r.b_index()[k] : 0;
      const bool lone_b_ok = mergepath::detail::keeps_lone_b(Kind), lone_a_ok = mergepath::detail::keeps_lone_a(Kind);
      ASSERT_TRUE(i < na && j < nb && (i >= 0 || (i == -1 && lone_b_ok && j >= 0)) &&
                  (j >= 0 || (j == -1 && lone_a_ok && i >= 0)))
          << (sort_first ? "sort_merge_join" : "merge_join") << " row " << k << ": (" << i << ", " << j << ")";
    }
  }
}

TEST(HostComparatorFuzz, JoinsStayInBounds) {
  for (fuzz_case c : fuzz_cases(5)) {
    // Up to |a| |b| rows: 3000 keys make up to 2 million, which join_by_rows balances on 2+ threads.
    if (equivalence_is_common(c.order)) c.n = std::min<index_t>(c.n, 3000);
    SCOPED_TRACE(::testing::Message() << c);
    const index_t na = c.n * 2 / 3, nb = c.n - na;
    const std::vector<double> a = fuzz_keys(c, na, 0), b = fuzz_keys(c, nb, 1);
    check_fuzz_join<join_kind::inner>(c, a, b);
    check_fuzz_join<join_kind::left>(c, a, b);
    check_fuzz_join<join_kind::right>(c, a, b);
    check_fuzz_join<join_kind::full_outer>(c, a, b);
    check_fuzz_join<join_kind::left_semi>(c, a, b);
    check_fuzz_join<join_kind::left_anti>(c, a, b);
    if (HasFailure()) return;
  }
}

// Orders keys more than 50 apart as less<> does, and calls nearer ones equivalent but for one
// question in 100, at random: a chunk's first walk counts about 100 partners a row, past what it
// stores, and its second walk (into place) finds other partners. Each row must still be written
// once, in range (the sanitizer run fills fresh memory with garbage).
struct nearby_equivalent_at_random {
  bool operator()(double x, double y) const {
    thread_local std::uint64_t ticks = mix64(std::hash<std::thread::id>{}(std::this_thread::get_id()));
    if (std::abs(x - y) > 50) return x < y;
    return mix64(++ticks) % 100 == 0 && x < y;
  }
};

TEST(HostJoinUnchecked, ChunksWalkedTwiceUnderARandomComparator) {
  for (int threads : {2, 3}) {
    SCOPED_TRACE(::testing::Message() << "threads " << threads);
    std::vector<double> a(40000), b(40000);
    std::iota(a.begin(), a.end(), 0.0);
    std::iota(b.begin(), b.end(), 0.0);
    host_context ctx(threads);
    const auto check = [&](auto kind) {
      constexpr join_kind Kind = decltype(kind)::value;
      auto r = mergepath::merge_join<Kind, std::int32_t>(ctx, a.data(), 40000, b.data(), 40000, nearby_equivalent_at_random{});
      for (std::int64_t k = 0; k < r.size(); ++k)
        ASSERT_TRUE(r.a_index()[k] >= -1 && r.a_index()[k] < 40000 && r.b_index()[k] >= -1 && r.b_index()[k] < 40000)
            << "kind " << static_cast<int>(Kind) << " row " << k;
    };
    check(std::integral_constant<join_kind, join_kind::inner>{});
    check(std::integral_constant<join_kind, join_kind::full_outer>{});
  }
}

}  // namespace
}  // namespace mergepath_test
