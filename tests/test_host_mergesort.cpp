// mergesort and mergesort_pairs on a host_context, against std::stable_sort: key types,
// comparators, sizes and distributions; stability; iterators; argument errors.
#include <gtest/gtest.h>

#include <deque>
#include <mergepath/mergepath.hpp>
#include <vector>

#include "comparator_fuzz_util.hpp"
#include "sort_util.hpp"

namespace mergepath_test {
namespace {

// One thread (serial), two, and four (more than CI's cores). Chunks hold at least 2^15 keys, so
// the sizes around 2^15 and 2^16 sort as one, two or three chunks.
const std::vector<int> thread_counts{1, 2, 4};

using key_cases =
    ::testing::Types<keys_case<std::int32_t, mergepath::less<>>, keys_case<std::int32_t, mergepath::greater<>>,
                     keys_case<std::int64_t, mergepath::greater<>>, keys_case<std::uint32_t, mergepath::less<>>,
                     keys_case<float, mergepath::less<>>, keys_case<double, mergepath::greater<>>,
                     keys_case<point, point_less>,
                     // ties on x with different y: keys-only stability shows in the output
                     keys_case<point, point_x_less>>;

template <class Case>
class HostMergesort : public ::testing::Test {};
TYPED_TEST_SUITE(HostMergesort, key_cases);

TYPED_TEST(HostMergesort, MatchesStdStableSort) {
  using Key = typename TypeParam::key;
  typename TypeParam::comp comp;
  for (const sort_case& c : sort_cases(sort_sizes())) {
    SCOPED_TRACE(c.name());
    std::vector<Key> keys = make_sort_keys<Key>(c);
    std::vector<Key> expected = std_stable_sort(keys, comp);
    for (int threads : thread_counts) {
      SCOPED_TRACE(::testing::Message() << "threads " << threads);
      mergepath::host_context ctx(threads);
      std::vector<Key> data = guarded(keys);
      mergepath::mergesort(ctx, data.data() + guard_items, c.count, comp);
      ASSERT_TRUE(guarded_equal(expected, data));
    }
  }
}

using pair_cases = ::testing::Types<pairs_case<std::int32_t, std::int32_t, mergepath::less<>>,
                                    pairs_case<std::int64_t, std::int64_t, mergepath::greater<>>,
                                    pairs_case<float, std::uint32_t, mergepath::less<>>,
                                    pairs_case<point, std::int32_t, point_x_less>>;

template <class Case>
class HostMergesortPairs : public ::testing::Test {};
TYPED_TEST_SUITE(HostMergesortPairs, pair_cases);

// Values record their key's origin (value i = i): of equal keys, the output's values must be in
// ascending order, as std::stable_sort leaves them.
TYPED_TEST(HostMergesortPairs, StableLikeStdStableSort) {
  using Key = typename TypeParam::key;
  using Value = typename TypeParam::value;
  typename TypeParam::comp comp;
  for (const sort_case& c : sort_cases(sort_sizes())) {
    SCOPED_TRACE(c.name());
    std::vector<Key> keys = make_sort_keys<Key>(c);
    auto expected = std_stable_sort_pairs<Key, Value>(keys, comp);
    for (int threads : thread_counts) {
      SCOPED_TRACE(::testing::Message() << "threads " << threads);
      mergepath::host_context ctx(threads);
      std::vector<Key> data_keys = guarded(keys);
      std::vector<Value> data_vals = guarded(origins<Value>(c.count, 0));
      mergepath::mergesort_pairs(ctx, data_keys.data() + guard_items, data_vals.data() + guard_items, c.count, comp);
      ASSERT_TRUE(guarded_equal(expected.first, data_keys));
      ASSERT_TRUE(guarded_equal(expected.second, data_vals));
    }
  }
}

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
// Bad arguments: std::invalid_argument before anything is written.

TEST(HostMergesortArguments, BadArgumentsThrowBeforeWriting) {
  mergepath::host_context ctx(2);
  const std::vector<int> keys{3, 1, 2}, vals{0, 1, 2};
  std::vector<int> k = keys, v = vals;
  int* null = nullptr;
  expect_invalid_argument([&] { mergepath::mergesort(ctx, k.data(), -1); }, "keys count is negative");
  expect_invalid_argument([&] { mergepath::mergesort(ctx, null, 3); }, "keys is a null pointer");
  expect_invalid_argument([&] { mergepath::mergesort(ctx, k.data(), -5, mergepath::greater<>{}); },
                          "keys count is negative");
  expect_invalid_argument([&] { mergepath::mergesort_pairs(ctx, k.data(), v.data(), -1); }, "keys count is negative");
  expect_invalid_argument([&] { mergepath::mergesort_pairs(ctx, null, v.data(), 3); }, "keys is a null pointer");
  expect_invalid_argument([&] { mergepath::mergesort_pairs(ctx, k.data(), null, 3); }, "vals is a null pointer");
  EXPECT_EQ(k, keys);
  EXPECT_EQ(v, vals);
}

TEST(HostMergesortArguments, NullPointersWithZeroCountAreFine) {
  mergepath::host_context ctx;
  int* null = nullptr;
  EXPECT_NO_THROW(mergepath::mergesort(ctx, null, 0));
  EXPECT_NO_THROW(mergepath::mergesort_pairs(ctx, null, null, 0));
}

// sort / sort_pairs on the CPU: the merge sort under another name; stable, arguments checked.
TEST(HostSort, StableLikeStdStableSort) {
  mergepath::host_context ctx(2);
  for (index_t n : {index_t{0}, index_t{1}, index_t{1009}, index_t{100003}}) {
    sort_case c{n, distribution::few_distinct, case_seed({n, 41})};
    SCOPED_TRACE(c.name());
    std::vector<float> keys = make_sort_keys<float>(c);
    std::vector<float> sorted = keys;
    mergepath::sort(ctx, sorted.data(), n, mergepath::greater<>{});
    EXPECT_TRUE(ranges_equal(std_stable_sort(keys, mergepath::greater<>{}), sorted));
    std::vector<float> pair_keys = keys;
    std::vector<int> vals = origins<int>(n, 0);
    mergepath::sort_pairs(ctx, pair_keys.data(), vals.data(), n);
    auto expected = std_stable_sort_pairs<float, int>(keys, mergepath::less<>{});
    EXPECT_TRUE(ranges_equal(expected.first, pair_keys));
    EXPECT_TRUE(ranges_equal(expected.second, vals));
    // Into other arrays, the inputs untouched.
    std::vector<float> copy(keys.size());
    const std::vector<float> before = keys;
    mergepath::sort_copy(ctx, keys.data(), n, copy.data(), mergepath::greater<>{});
    EXPECT_TRUE(ranges_equal(std_stable_sort(keys, mergepath::greater<>{}), copy));
    std::vector<float> copy_keys(keys.size());
    std::vector<int> copy_vals(keys.size());
    const std::vector<int> origin = origins<int>(n, 0);
    mergepath::sort_pairs_copy(ctx, keys.data(), origin.data(), n, copy_keys.data(), copy_vals.data());
    EXPECT_TRUE(ranges_equal(expected.first, copy_keys));
    EXPECT_TRUE(ranges_equal(expected.second, copy_vals));
    EXPECT_TRUE(ranges_equal(before, keys));
    std::vector<float> onto_itself = keys;  // the output may be the input
    mergepath::sort_copy(ctx, onto_itself.data(), n, onto_itself.data());
    EXPECT_TRUE(ranges_equal(std_stable_sort(keys, mergepath::less<>{}), onto_itself));
  }
  std::vector<int> k{2, 1};
  int* null = nullptr;
  expect_invalid_argument([&] { mergepath::sort(ctx, k.data(), -1); }, "keys count is negative");
  expect_invalid_argument([&] { mergepath::sort_pairs(ctx, k.data(), null, 2); }, "vals is a null pointer");
  expect_invalid_argument([&] { mergepath::sort_copy(ctx, k.data(), 2, null); }, "keys_out is a null pointer");
  expect_invalid_argument([&] { mergepath::sort_pairs_copy(ctx, k.data(), k.data(), 2, k.data(), null); },
                          "vals_out is a null pointer");
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
