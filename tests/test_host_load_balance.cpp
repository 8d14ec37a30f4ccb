// The load-balancing family on the CPU against sequential references: every segment shape, sizes
// around the threads' shares, int32 and int64 starts, 1 to 3 threads.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <limits>
#include <mergepath/load_balance.hpp>
#include <numeric>
#include <vector>

#include "comparator_fuzz_util.hpp"
#include "load_balance_util.hpp"

namespace mergepath_test {
namespace {

using mergepath::host_context;

const index_t counts[] = {0, 1, 2, 7, 100, 4095, 4096, 4097, 12345, 1 << 17};
const int thread_counts[] = {1, 2, 3};

template <class Start>
struct HostLoadBalance : ::testing::Test {};
using start_types = ::testing::Types<std::int32_t, std::int64_t>;
TYPED_TEST_SUITE(HostLoadBalance, start_types);

TYPED_TEST(HostLoadBalance, SearchMatchesReference) {
  for (segment_shape shape : all_segment_shapes())
    for (index_t count : counts)
      for (int threads : thread_counts) {
        SCOPED_TRACE(::testing::Message() << shape << " count " << count << " threads " << threads << " seed "
                                          << base_seed());
        auto starts = make_segment_starts<TypeParam>(shape, count, case_seed({count, threads}));
        host_context ctx(threads);
        std::vector<std::int64_t> out(static_cast<std::size_t>(count), -7);
        mergepath::load_balancing_search(ctx, count, starts.data(), static_cast<index_t>(starts.size()), out.data());
        ASSERT_EQ(out, reference_segments(count, starts));
      }
}

TYPED_TEST(HostLoadBalance, TransformVisitsEveryItemOnceWithSegmentAndRank) {
  for (segment_shape shape : all_segment_shapes())
    for (index_t count : {index_t{0}, index_t{1}, index_t{4097}, index_t{50000}}) {
      SCOPED_TRACE(::testing::Message() << shape << " count " << count << " seed " << base_seed());
      auto starts = make_segment_starts<TypeParam>(shape, count, case_seed({count}));
      host_context ctx(3);
      std::vector<std::atomic<int>> visits(static_cast<std::size_t>(count));
      std::vector<index_t> segment(static_cast<std::size_t>(count), -1), rank(static_cast<std::size_t>(count), -1);
      mergepath::transform_lbs(
          ctx,
          [&](index_t i, index_t s, index_t r) {
            ++visits[static_cast<std::size_t>(i)];
            segment[static_cast<std::size_t>(i)] = s;
            rank[static_cast<std::size_t>(i)] = r;
          },
          count, starts.data(), static_cast<index_t>(starts.size()));
      auto expected = reference_segments(count, starts);
      for (index_t i = 0; i < count; ++i) {
        auto k = static_cast<std::size_t>(i);
        ASSERT_EQ(visits[k].load(), 1) << "item " << i;
        ASSERT_EQ(segment[k], expected[k]) << "item " << i;
        ASSERT_EQ(rank[k], i - static_cast<index_t>(starts[static_cast<std::size_t>(expected[k])])) << "item " << i;
      }
    }
}

TYPED_TEST(HostLoadBalance, IntervalExpandGatherScatterMove) {
  for (segment_shape shape : all_segment_shapes())
    for (index_t count : {index_t{0}, index_t{1}, index_t{4097}, index_t{30000}}) {
      SCOPED_TRACE(::testing::Message() << shape << " count " << count << " seed " << base_seed());
      auto starts = make_segment_starts<TypeParam>(shape, count, case_seed({count, 5}));
      const auto num_segments = static_cast<index_t>(starts.size());
      const auto segment = reference_segments(count, starts);
      host_context ctx(2);
      std::vector<int> values(starts.size());
      for (std::size_t s = 0; s < values.size(); ++s) values[s] = static_cast<int>(s * 7 + 1);
      std::vector<int> out(static_cast<std::size_t>(count));
      mergepath::interval_expand(ctx, values.data(), count, starts.data(), num_segments, out.data());
      for (index_t i = 0; i < count; ++i)
        ASSERT_EQ(out[static_cast<std::size_t>(i)], values[static_cast<std::size_t>(segment[static_cast<std::size_t>(i)])]);

      // gather: segment s copies the block of in starting at gather[s]: here the segments in reverse.
      std::vector<index_t> sizes(starts.size()), reversed_starts(starts.size());
      for (std::size_t s = 0; s < starts.size(); ++s)
        sizes[s] = (s + 1 < starts.size() ? static_cast<index_t>(starts[s + 1]) : count) - static_cast<index_t>(starts[s]);
      index_t at = 0;
      for (std::size_t s = starts.size(); s-- > 0;) reversed_starts[s] = at, at += sizes[s];
      std::vector<long long> in(static_cast<std::size_t>(count));
      for (index_t i = 0; i < count; ++i) in[static_cast<std::size_t>(i)] = 1000003LL * i + 11;
      std::vector<long long> gathered(static_cast<std::size_t>(count)), scattered(gathered), moved(gathered);
      mergepath::interval_gather(ctx, in.data(), count, starts.data(), num_segments, reversed_starts.data(),
                                 gathered.data());
      mergepath::interval_scatter(ctx, in.data(), count, starts.data(), num_segments, reversed_starts.data(),
                                  scattered.data());
      mergepath::interval_move(ctx, in.data(), count, starts.data(), num_segments, reversed_starts.data(),
                               reversed_starts.data(), moved.data());
      for (index_t i = 0; i < count; ++i) {
        auto k = static_cast<std::size_t>(i);
        auto s = static_cast<std::size_t>(segment[k]);
        index_t rank = i - static_cast<index_t>(starts[s]);
        ASSERT_EQ(gathered[k], in[static_cast<std::size_t>(reversed_starts[s] + rank)]) << "item " << i;
        ASSERT_EQ(scattered[static_cast<std::size_t>(reversed_starts[s] + rank)], in[k]) << "item " << i;
        ASSERT_EQ(moved[static_cast<std::size_t>(reversed_starts[s] + rank)],
                  in[static_cast<std::size_t>(reversed_starts[s] + rank)]);
      }
    }
}

TYPED_TEST(HostLoadBalance, SegmentedReduceSumsMinMax) {
  for (segment_shape shape : all_segment_shapes())
    for (index_t count : counts)
      for (int threads : thread_counts) {
        SCOPED_TRACE(::testing::Message() << shape << " count " << count << " threads " << threads << " seed "
                                          << base_seed());
        auto starts = make_segment_starts<TypeParam>(shape, count, case_seed({count, threads, 9}));
        const auto num_segments = static_cast<index_t>(starts.size());
        std::vector<int> values(static_cast<std::size_t>(count));
        std::mt19937 rng(static_cast<unsigned>(case_seed({count})));
        for (int& v : values) v = static_cast<int>(rng() % 2001) - 1000;
        host_context ctx(threads);
        std::vector<long long> sums(starts.size(), -1);
        mergepath::segmented_reduce(ctx, values.data(), count, starts.data(), num_segments, sums.data(), 5LL);
        auto value_at = [&](index_t i) { return values[static_cast<std::size_t>(i)]; };
        ASSERT_EQ(sums, reference_segmented_reduce<long long>(count, starts, value_at, 5LL, mergepath::plus<>{}));
        std::vector<int> mins(starts.size()), maxs(starts.size());
        mergepath::segmented_reduce(ctx, values.data(), count, starts.data(), num_segments, mins.data(), 1 << 30,
                                    mergepath::minimum<>{});
        mergepath::segmented_reduce(ctx, values.data(), count, starts.data(), num_segments, maxs.data(), -(1 << 30),
                                    mergepath::maximum<>{});
        ASSERT_EQ(mins, reference_segmented_reduce<int>(count, starts, value_at, 1 << 30, mergepath::minimum<>{}));
        ASSERT_EQ(maxs, reference_segmented_reduce<int>(count, starts, value_at, -(1 << 30), mergepath::maximum<>{}));
      }
}

TYPED_TEST(HostLoadBalance, SegmentedReduceKeepsTheItemsOrder) {
  for (segment_shape shape : all_segment_shapes())
    for (index_t count : {index_t{1}, index_t{4097}, index_t{40000}}) {
      SCOPED_TRACE(::testing::Message() << shape << " count " << count << " seed " << base_seed());
      auto starts = make_segment_starts<TypeParam>(shape, count, case_seed({count, 13}));
      auto maps = random_affine_maps(count, case_seed({count, 14}));
      host_context ctx(3);
      std::vector<affine_map> out(starts.size());
      const affine_map identity{1, 0};
      mergepath::segmented_reduce(ctx, maps.data(), count, starts.data(), static_cast<index_t>(starts.size()),
                                  out.data(), identity, compose_affine{});
      ASSERT_EQ(out, reference_segmented_reduce<affine_map>(
                         count, starts, [&](index_t i) { return maps[static_cast<std::size_t>(i)]; }, identity,
                         compose_affine{}));
    }
}

TEST(HostLoadBalanceReduce, FloatSumsWithinRounding) {
  const index_t count = 200000;
  auto starts = make_segment_starts<int>(segment_shape::mean_300, count, case_seed({3}));
  std::vector<float> values(static_cast<std::size_t>(count));
  std::mt19937 rng(static_cast<unsigned>(case_seed({4})));
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  for (float& v : values) v = u(rng);
  host_context ctx(2);
  std::vector<float> out(starts.size());
  mergepath::segmented_reduce(ctx, values.data(), count, starts.data(), static_cast<index_t>(starts.size()), out.data(),
                              0.f);
  auto exact = reference_segmented_reduce<double>(
      count, starts, [&](index_t i) { return values[static_cast<std::size_t>(i)]; }, 0.0, mergepath::plus<>{});
  for (std::size_t s = 0; s < out.size(); ++s) ASSERT_NEAR(out[s], exact[s], 1e-3) << "segment " << s;
}

TEST(HostLoadBalanceReduce, TransformSegmentedReduceIsCsrSpmv) {
  // y = A x for a CSR matrix: y[row] = sum over the row's nonzeros j of vals[j] * x[cols[j]].
  const index_t rows = 3000, cols = 500;
  auto row_starts = make_segment_starts<int>(segment_shape::mean_4, rows * 4, case_seed({21}));
  const auto nnz = rows * 4;
  std::mt19937 rng(7);
  std::vector<int> col(static_cast<std::size_t>(nnz));
  std::vector<double> val(static_cast<std::size_t>(nnz)), x(static_cast<std::size_t>(cols));
  for (auto& c : col) c = static_cast<int>(rng() % cols);
  for (auto& v : val) v = static_cast<double>(rng() % 100) / 8;
  for (auto& v : x) v = static_cast<double>(rng() % 100) / 4;
  host_context ctx(2);
  std::vector<double> y(row_starts.size());
  auto product = [&](index_t j) { return val[static_cast<std::size_t>(j)] * x[static_cast<std::size_t>(col[static_cast<std::size_t>(j)])]; };
  mergepath::transform_segmented_reduce(ctx, product, nnz, row_starts.data(), static_cast<index_t>(row_starts.size()),
                                        y.data(), 0.0);
  ASSERT_EQ(y, reference_segmented_reduce<double>(nnz, row_starts, product, 0.0, mergepath::plus<>{}));
}

TEST(HostLoadBalanceReduce, EmptySegmentsGetInit) {
  host_context ctx(2);
  std::vector<int> starts(1000, 0);  // count 0: every segment empty
  std::vector<long long> out(starts.size(), -1);
  mergepath::segmented_reduce(ctx, static_cast<const int*>(nullptr), 0, starts.data(), 1000, out.data(), 42LL);
  for (long long v : out) ASSERT_EQ(v, 42);
  mergepath::load_balancing_search(ctx, 0, starts.data(), 1000, static_cast<int*>(nullptr));
}

TEST(HostLoadBalanceArguments, BadArgumentsThrowBeforeWork) {
  host_context ctx(2);
  std::vector<int> starts = {0, 2, 5};
  std::vector<int> out(8, -1);
  EXPECT_THROW(mergepath::load_balancing_search(ctx, -1, starts.data(), 3, out.data()), std::invalid_argument);
  EXPECT_THROW(mergepath::load_balancing_search(ctx, 8, starts.data(), -1, out.data()), std::invalid_argument);
  EXPECT_THROW(mergepath::load_balancing_search(ctx, 8, starts.data(), 0, out.data()), std::invalid_argument);
  EXPECT_THROW(mergepath::load_balancing_search(ctx, 8, static_cast<int*>(nullptr), 3, out.data()),
               std::invalid_argument);
  EXPECT_THROW(mergepath::load_balancing_search(ctx, 8, starts.data(), 3, static_cast<int*>(nullptr)),
               std::invalid_argument);
  EXPECT_THROW(mergepath::segmented_reduce(ctx, static_cast<int*>(nullptr), 8, starts.data(), 3, out.data(), 0),
               std::invalid_argument);
  for (int v : out) EXPECT_EQ(v, -1);
}

TEST(HostLoadBalanceChecked, NamesTheFirstBadStartBeforeWriting) {
  struct bad_case {
    std::vector<int> starts;
    const char* message;
  };
  const bad_case cases[] = {
      {{1, 2, 5}, "segment_starts[0] = 1"},
      {{0, 2, 5, 4, 3}, "segment_starts[3] = 4 is less than segment_starts[2] = 5"},
      {{0, 2, 9, 12}, "segment_starts[2] = 9 is past count = 8"},
  };
  for (const bad_case& c : cases) {
    host_context ctx(2);
    ctx.set_checked(true);
    std::vector<int> out(8, -1);
    try {
      mergepath::load_balancing_search(ctx, 8, c.starts.data(), static_cast<index_t>(c.starts.size()), out.data());
      ADD_FAILURE() << "no exception for " << c.message;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
    }
    for (int v : out) EXPECT_EQ(v, -1);
    // Unchecked, the same starts give some result, with every segment inside [0, num_segments).
    ctx.set_checked(false);
    mergepath::transform_lbs(
        ctx,
        [&](index_t i, index_t s, index_t r) {
          ASSERT_GE(s, 0);
          ASSERT_LT(s, static_cast<index_t>(c.starts.size()));
          ASSERT_GE(r, 0);
          ASSERT_LE(r, i);
        },
        8, c.starts.data(), static_cast<index_t>(c.starts.size()));
    std::vector<int> sums(c.starts.size());
    std::vector<int> values(8, 1);
    mergepath::segmented_reduce(ctx, values.data(), 8, c.starts.data(), static_cast<index_t>(c.starts.size()),
                                sums.data(), 0);
  }
  host_context ctx(1);
  ctx.set_checked(true);
  std::vector<int> good = {0, 0, 3, 8, 8};
  std::vector<int> out(8);
  mergepath::load_balancing_search(ctx, 8, good.data(), 5, out.data());
  EXPECT_EQ(out, (std::vector<int>{1, 1, 1, 2, 2, 2, 2, 2}));
}

// ---------------------------------------------------------------------------------------------
// Malformed starts, unchecked: unspecified values, but every output written, in range, and no
// access outside the arrays (AddressSanitizer) nor undefined behaviour (UBSan: starts of the
// type's min and max) in any call of the family.

// Every call of the family on `starts`, each output checked as the contract promises.
template <class Start>
void check_malformed_starts(host_context& ctx, index_t count, const std::vector<Start>& starts) {
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

  std::vector<std::atomic<int>> visits(n);
  std::atomic<index_t> bad_calls{0};
  mergepath::transform_lbs(
      ctx,
      [&](index_t i, index_t seg, index_t rank) {
        ++visits[static_cast<std::size_t>(i)];
        bad_calls += seg < 0 || seg >= ns || rank < 0 || rank > i;
      },
      count, starts.data(), ns);
  ASSERT_EQ(bad_calls.load(), 0) << "transform_lbs: segment or rank out of range";
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(visits[i].load(), 1) << "transform_lbs: item " << i;

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
            host_context ctx(t);
            check_malformed_starts(ctx, count,
                                   make_bad_starts<TypeParam>(kind, count, ns, case_seed({round, count, ns, t})));
            if (this->HasFailure()) return;
          }
}

// The case: alternating starts on 8 threads left thousands of outputs unwritten.
TEST(HostLoadBalanceMalformed, AlternatingStartsOnEightThreads) {
  const index_t count = 1000000;
  host_context ctx(8);
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
