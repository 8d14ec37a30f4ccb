// merge_join and sort_merge_join on a host_context: the suites of suites/join.hpp, and what only
// the host backend has (bounds-checked views of unsorted input, chunks walked twice, the partner
// count's walk, comparators that are not orders).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <mergepath/join.hpp>
#include <numeric>
#include <random>
#include <vector>

#include "comparator_fuzz_util.hpp"
#include "suites/join.hpp"

namespace mergepath_test {
namespace {

using mergepath::host_context;

INSTANTIATE_TYPED_TEST_SUITE_P(Host, Join, on_host<join_cases<std::int64_t>>);
INSTANTIATE_TYPED_TEST_SUITE_P(Host, JoinCalls, on_host<>);

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
      for_each_join_kind([&](auto kind) { check_unsorted_b_rewalk<decltype(kind)::value>(a, b, threads); });
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
    for_each_join_kind([&](auto kind) { check_fuzz_join<decltype(kind)::value>(c, a, b); });
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
      auto r = mergepath::merge_join<Kind, std::int32_t>(ctx, a.data(), 40000, b.data(), 40000,
                                                         nearby_equivalent_at_random{});
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
