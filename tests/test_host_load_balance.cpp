// The load-balancing family on a host_context: the suites of suites/load_balance.hpp, and what
// only the host backend promises on malformed starts (every output written and in range, f called
// once for every item, on 1 to 8 threads).
#include <gtest/gtest.h>

#include <limits>
#include <mergepath/load_balance.hpp>
#include <numeric>
#include <vector>

#include "comparator_fuzz_util.hpp"
#include "suites/load_balance.hpp"

namespace mergepath_test {
namespace {

INSTANTIATE_TYPED_TEST_SUITE_P(Host, LoadBalance, on_host<start_cases>);
INSTANTIATE_TYPED_TEST_SUITE_P(Host, LoadBalanceCalls, on_host<>);

// ---------------------------------------------------------------------------------------------
// Malformed starts, unchecked: unspecified values, but every output written, in range, and no
// access outside the arrays (AddressSanitizer) nor undefined behaviour (UBSan: starts of the
// type's min and max) in any call of the family.

// Every call of the family on `starts`, each output checked as the contract promises.
template <class Start>
void check_malformed_starts(mergepath::host_context& ctx, index_t count, const std::vector<Start>& starts) {
  const auto ns = static_cast<index_t>(starts.size());
  const auto n = static_cast<std::size_t>(count);
  auto in_range = [](const std::vector<std::int64_t>& out, std::int64_t lo, std::int64_t hi) {
    for (std::size_t i = 0; i < out.size(); ++i)
      if (out[i] < lo || out[i] >= hi)
        return ::testing::AssertionFailure()
               << "output " << i << " is " << out[i] << ", not in [" << lo << ", " << hi << ")";
    return ::testing::AssertionSuccess();
  };
  std::vector<std::int64_t> out(n, -2);
  mergepath::load_balancing_search(ctx, count, starts.data(), ns, out.data());
  ASSERT_TRUE(in_range(out, -1, ns)) << "load_balancing_search";

  std::vector<std::int64_t> values = row_numbers(ns, 1000);
  out.assign(n, -1);
  mergepath::interval_expand(ctx, values.data(), count, starts.data(), ns, out.data());
  ASSERT_TRUE(in_range(out, 1000, 1000 + ns)) << "interval_expand";

  std::vector<int> visits(n, 0);
  int bad_calls = 0;
  const count_bad_calls check{ns, count, &bad_calls};
  mergepath::transform_lbs(
      ctx,
      [&](index_t i, index_t seg, index_t rank) {
        add_one(&visits[static_cast<std::size_t>(i)]);
        check(i, seg, rank);
      },
      count, starts.data(), ns);
  ASSERT_EQ(bad_calls, 0) << "transform_lbs: item, segment or rank out of range";
  ASSERT_TRUE(ranges_equal(std::vector<int>(n, 1), visits)) << "transform_lbs: visits";

  // Gather and scatter at 0: a rank below count stays inside in and out.
  const std::vector<std::int64_t> in = row_numbers(count, 7);
  const std::vector<std::int64_t> zeros(static_cast<std::size_t>(ns), 0);
  out.assign(n, -1);
  mergepath::interval_gather(ctx, in.data(), count, starts.data(), ns, zeros.data(), out.data());
  ASSERT_TRUE(in_range(out, 7, 7 + count)) << "interval_gather";
  mergepath::interval_scatter(ctx, in.data(), count, starts.data(), ns, zeros.data(), out.data());
  mergepath::interval_move(ctx, in.data(), count, starts.data(), ns, zeros.data(), zeros.data(), out.data());

  const std::vector<int> ones(n, 1);
  std::vector<std::int64_t> sums(static_cast<std::size_t>(ns), -1);
  mergepath::segmented_reduce(ctx, ones.data(), count, starts.data(), ns, sums.data(), std::int64_t{0});
  ASSERT_TRUE(in_range(sums, 0, count + 1)) << "segmented_reduce";  // each item counted at most once
  ASSERT_LE(std::accumulate(sums.begin(), sums.end(), std::int64_t{0}), count) << "segmented_reduce";
}

template <class Start>
struct HostLoadBalance : ::testing::Test {};
using start_types = ::testing::Types<std::int32_t, std::int64_t>;
TYPED_TEST_SUITE(HostLoadBalance, start_types);

TYPED_TEST(HostLoadBalance, MalformedStartsWriteEveryOutputInRange) {
  const int rounds = fuzz_rounds();
  std::vector<index_t> sizes = {0, 1, 17, 1000, 100000};
  std::vector<int> threads = {1, 2, 3, 8};
  if (rounds > 0) sizes.push_back(1000000), threads = {1, 2, 3, 4, 5, 6, 7, 8};
  for (int t : threads)
    for (int round = 0; round < std::max(rounds, 1); ++round)
      for (bad_starts kind : all_bad_starts())
        for (index_t count : sizes)
          for (index_t ns : {index_t{1}, index_t{5}, count / 3 + 2}) {
            SCOPED_TRACE(::testing::Message() << kind << " count " << count << " segments " << ns << " threads " << t
                                              << " seed " << base_seed());
            mergepath::host_context ctx(t);
            check_malformed_starts(ctx, count,
                                   make_bad_starts<TypeParam>(kind, count, ns, case_seed({round, count, ns, t})));
            if (this->HasFailure()) return;
          }
}

// The case: alternating starts on 8 threads left thousands of outputs unwritten.
TEST(HostLoadBalanceMalformed, AlternatingStartsOnEightThreads) {
  const index_t count = 1000000;
  mergepath::host_context ctx(8);
  check_malformed_starts(ctx, count, make_bad_starts<std::int64_t>(bad_starts::alternating, count, count, 1));
}

// rank = item - start overflowed for a start of INT64_MIN (UBSan).
TEST(HostLoadBalanceMalformed, RankOfExtremeStarts) {
  const index_t big = std::numeric_limits<index_t>::max();
  EXPECT_EQ(mergepath::rank_in_segment(5, std::numeric_limits<index_t>::min()), 5);
  EXPECT_EQ(mergepath::rank_in_segment(5, big), 0);
  EXPECT_EQ(mergepath::rank_in_segment(5, 3), 2);
  EXPECT_EQ(mergepath::rank_in_segment(0, -1), 0);
}

}  // namespace
}  // namespace mergepath_test
