// segmented_sort, segmented_sort_pairs, their _flags forms, locality_sort and locality_sort_pairs
// on a host_context, against std::stable_sort of each segment: key types, comparators, sizes, key
// distributions and segment shapes; stability; head types and iterators; malformed heads with and
// without checked mode; argument errors; stats and their printed table.
#include <gtest/gtest.h>

#include <deque>
#include <mergepath/mergepath.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "comparator_fuzz_util.hpp"
#include "segsort_util.hpp"

namespace mergepath_test {
namespace {

// One thread (serial), two, and four (more than CI's cores).
const std::vector<int> thread_counts{1, 2, 4};

// Sizes: empty, tiny, the host's insertion-sort limit (24 keys) either side, odd primes, 2^15 either
// side (the shortest segment the host hands to its parallel mergesort), and about 10^5.
std::vector<index_t> host_small_sizes() { return sorted_unique_capped({0, 1, 2, 3, 17, 24, 25, 33, 1009}); }
std::vector<index_t> host_large_sizes() {
  return sorted_unique_capped({(1 << 15) - 1, 1 << 15, (1 << 15) + 1, 100003});
}
std::vector<index_t> host_segsort_sizes() {
  std::vector<index_t> sizes = host_small_sizes(), large = host_large_sizes();
  sizes.insert(sizes.end(), large.begin(), large.end());
  return sizes;
}

// Every segment shape; the tile edges are the host's: the insertion-sort limit, the smallest
// chunk (4096 keys) and the long-segment limit (2^15), so segment lengths straddle each.
std::vector<segment_spec> host_segment_specs() { return segment_specs({24, 4096, 1 << 15}); }

// The small sizes with every shape and every key distribution; the large ones with every shape,
// the distributions taken in turn.
std::vector<segsort_case> host_segsort_cases() {
  std::vector<segsort_case> cases = segsort_cases(host_small_sizes(), host_segment_specs());
  std::vector<segsort_case> large = segsort_cases_in_turn(host_large_sizes(), host_segment_specs());
  cases.insert(cases.end(), large.begin(), large.end());
  return cases;
}

index_t size_of(const std::vector<index_t>& heads) { return static_cast<index_t>(heads.size()); }

using key_cases =
    ::testing::Types<keys_case<std::int32_t, mergepath::less<>>, keys_case<std::int32_t, mergepath::greater<>>,
                     keys_case<std::int64_t, mergepath::greater<>>, keys_case<std::uint32_t, mergepath::less<>>,
                     keys_case<float, mergepath::less<>>, keys_case<double, mergepath::greater<>>,
                     keys_case<point, point_less>,
                     // ties on x with different y: keys-only stability shows in the output
                     keys_case<point, point_x_less>>;

using pair_cases = ::testing::Types<pairs_case<std::int32_t, std::int32_t, mergepath::less<>>,
                                    pairs_case<std::int64_t, std::int64_t, mergepath::greater<>>,
                                    pairs_case<float, std::uint32_t, mergepath::less<>>,
                                    pairs_case<point, std::int32_t, point_x_less>>;

// ---------------------------------------------------------------------------------------------
// segmented_sort and segmented_sort_flags

template <class Case>
class HostSegmentedSort : public ::testing::Test {};
TYPED_TEST_SUITE(HostSegmentedSort, key_cases);

// Heads as int64 indices and as the bitfield: both must give each segment's std::stable_sort.
// (The bitfield form shares the sort with the indices form: it runs with two threads only.)
TYPED_TEST(HostSegmentedSort, MatchesPerSegmentStableSort) {
  using Key = typename TypeParam::key;
  typename TypeParam::comp comp;
  for (const segsort_case& c : host_segsort_cases()) {
    SCOPED_TRACE(c.name());
    const std::vector<Key> keys = c.keys<Key>();
    const std::vector<index_t> heads = c.heads();
    const std::vector<std::uint32_t> flags = head_flags(heads, c.count);
    const std::vector<Key> expected = std_segmented_sort(keys, heads, comp);
    for (int threads : thread_counts) {
      SCOPED_TRACE(::testing::Message() << "threads " << threads << ", " << heads.size() << " heads");
      mergepath::host_context ctx(threads);
      std::vector<Key> data = guarded(keys);
      mergepath::segmented_sort(ctx, data.data() + guard_items, c.count, heads.data(), size_of(heads), comp);
      ASSERT_TRUE(guarded_equal(expected, data)) << "segmented_sort";
      if (threads != 2) continue;
      data = guarded(keys);
      mergepath::segmented_sort_flags(ctx, data.data() + guard_items, c.count, flags.data(), comp);
      ASSERT_TRUE(guarded_equal(expected, data)) << "segmented_sort_flags";
    }
  }
}

// Segments longer than 2^15 in several chunks: the host sorts each with its parallel mergesort.
TYPED_TEST(HostSegmentedSort, ManyLongSegments) {
  using Key = typename TypeParam::key;
  typename TypeParam::comp comp;
  for (const segsort_case& c :
       segsort_cases({300007}, {uniform_segments(50000)}, {distribution::uniform, distribution::few_distinct})) {
    SCOPED_TRACE(c.name());
    const std::vector<Key> keys = c.keys<Key>();
    const std::vector<index_t> heads = c.heads();
    const std::vector<Key> expected = std_segmented_sort(keys, heads, comp);
    for (int threads : thread_counts) {
      SCOPED_TRACE(::testing::Message() << "threads " << threads);
      mergepath::host_context ctx(threads);
      std::vector<Key> data = guarded(keys);
      mergepath::segmented_sort(ctx, data.data() + guard_items, c.count, heads.data(), size_of(heads), comp);
      ASSERT_TRUE(guarded_equal(expected, data));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// segmented_sort_pairs and segmented_sort_pairs_flags

template <class Case>
class HostSegmentedSortPairs : public ::testing::Test {};
TYPED_TEST_SUITE(HostSegmentedSortPairs, pair_cases);

// Values record their key's origin (value i = i): within a segment, equal keys keep their values
// in ascending order, and no value leaves its segment. The two forms of the heads must agree
// (the bitfield form with two threads only).
TYPED_TEST(HostSegmentedSortPairs, StableLikePerSegmentStableSort) {
  using Key = typename TypeParam::key;
  using Value = typename TypeParam::value;
  typename TypeParam::comp comp;
  for (const segsort_case& c : host_segsort_cases()) {
    SCOPED_TRACE(c.name());
    const std::vector<Key> keys = c.keys<Key>();
    const std::vector<index_t> heads = c.heads();
    const std::vector<std::uint32_t> flags = head_flags(heads, c.count);
    const auto expected = std_segmented_sort_pairs<Key, Value>(keys, heads, comp);
    const std::vector<Value> origin = origins<Value>(c.count, 0);
    for (int threads : thread_counts) {
      SCOPED_TRACE(::testing::Message() << "threads " << threads << ", " << heads.size() << " heads");
      mergepath::host_context ctx(threads);
      std::vector<Key> data_keys = guarded(keys);
      std::vector<Value> data_vals = guarded(origin);
      mergepath::segmented_sort_pairs(ctx, data_keys.data() + guard_items, data_vals.data() + guard_items, c.count,
                                      heads.data(), size_of(heads), comp);
      ASSERT_TRUE(guarded_equal(expected.first, data_keys)) << "segmented_sort_pairs";
      ASSERT_TRUE(guarded_equal(expected.second, data_vals)) << "segmented_sort_pairs";
      if (threads != 2) continue;
      data_keys = guarded(keys);
      data_vals = guarded(origin);
      mergepath::segmented_sort_pairs_flags(ctx, data_keys.data() + guard_items, data_vals.data() + guard_items,
                                            c.count, flags.data(), comp);
      ASSERT_TRUE(guarded_equal(expected.first, data_keys)) << "segmented_sort_pairs_flags";
      ASSERT_TRUE(guarded_equal(expected.second, data_vals)) << "segmented_sort_pairs_flags";
    }
  }
}

// ---------------------------------------------------------------------------------------------
// locality_sort and locality_sort_pairs: a whole-array stable sort

template <class Case>
class HostLocalitySort : public ::testing::Test {};
TYPED_TEST_SUITE(HostLocalitySort, key_cases);

TYPED_TEST(HostLocalitySort, MatchesStdStableSort) {
  using Key = typename TypeParam::key;
  typename TypeParam::comp comp;
  for (const locality_case& c : locality_cases(host_segsort_sizes())) {
    SCOPED_TRACE(c.name());
    const std::vector<Key> keys = c.keys<Key>();
    const std::vector<Key> expected = std_stable_sort(keys, comp);
    for (int threads : thread_counts) {
      SCOPED_TRACE(::testing::Message() << "threads " << threads);
      mergepath::host_context ctx(threads);
      std::vector<Key> data = guarded(keys);
      mergepath::locality_sort(ctx, data.data() + guard_items, c.count, comp);
      ASSERT_TRUE(guarded_equal(expected, data));
    }
  }
}

template <class Case>
class HostLocalitySortPairs : public ::testing::Test {};
TYPED_TEST_SUITE(HostLocalitySortPairs, pair_cases);

TYPED_TEST(HostLocalitySortPairs, StableLikeStdStableSort) {
  using Key = typename TypeParam::key;
  using Value = typename TypeParam::value;
  typename TypeParam::comp comp;
  for (const locality_case& c : locality_cases(host_segsort_sizes())) {
    SCOPED_TRACE(c.name());
    const std::vector<Key> keys = c.keys<Key>();
    const auto expected = std_stable_sort_pairs<Key, Value>(keys, comp);
    for (int threads : thread_counts) {
      SCOPED_TRACE(::testing::Message() << "threads " << threads);
      mergepath::host_context ctx(threads);
      std::vector<Key> data_keys = guarded(keys);
      std::vector<Value> data_vals = guarded(origins<Value>(c.count, 0));
      mergepath::locality_sort_pairs(ctx, data_keys.data() + guard_items, data_vals.data() + guard_items, c.count,
                                     comp);
      ASSERT_TRUE(guarded_equal(expected.first, data_keys));
      ASSERT_TRUE(guarded_equal(expected.second, data_vals));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Heads: integer types, iterators, and the bitfield's edges

// A few shapes with many heads, for the tests that vary how the heads are passed.
std::vector<segsort_case> head_form_cases() {
  return segsort_cases({33, 1009, 100003},
                       {uniform_segments(20), segments_of(segment_shape::power_law),
                        segments_of(segment_shape::one_huge), tile_edge_segments({32})},
                       {distribution::few_distinct});
}

// int64, int32 and uint32 heads, deque iterators for keys, values and heads, and a lambda to
// compare: all sort as the int64 pointers do.
TEST(HostSegmentedSortHeads, IntegerTypesAndIterators) {
  auto by_tens = [](int l, int r) { return l / 10 < r / 10; };  // ties of up to ten keys
  mergepath::host_context ctx(3);
  for (const segsort_case& c : head_form_cases()) {
    SCOPED_TRACE(c.name());
    std::vector<int> keys = c.keys<int>();
    for (int& k : keys) k %= 1000;
    const std::vector<index_t> heads = c.heads();
    const auto expected = std_segmented_sort_pairs<int, int>(keys, heads, by_tens);

    std::vector<int> data = keys;
    const std::vector<std::int32_t> heads32 = heads_as<std::int32_t>(heads);
    mergepath::segmented_sort(ctx, data.data(), c.count, heads32.data(), size_of(heads), by_tens);
    EXPECT_TRUE(ranges_equal(expected.first, data)) << "int32 heads";

    data = keys;
    const std::vector<std::uint32_t> heads_u32 = heads_as<std::uint32_t>(heads);
    mergepath::segmented_sort(ctx, data.data(), c.count, heads_u32.data(), size_of(heads), by_tens);
    EXPECT_TRUE(ranges_equal(expected.first, data)) << "uint32 heads";

    data = keys;
    mergepath::segmented_sort(ctx, data.data(), c.count, heads.cbegin(), size_of(heads), by_tens);
    EXPECT_TRUE(ranges_equal(expected.first, data)) << "vector iterator heads";

    std::deque<int> dk(keys.begin(), keys.end());
    const std::deque<int> dh(heads.begin(), heads.end());
    mergepath::segmented_sort(ctx, dk.begin(), c.count, dh.begin(), size_of(heads), by_tens);
    EXPECT_TRUE(ranges_equal(expected.first, std::vector<int>(dk.begin(), dk.end()))) << "deques";

    const std::vector<int> origin = origins<int>(c.count, 0);
    dk.assign(keys.begin(), keys.end());
    std::deque<int> dv(origin.begin(), origin.end());
    mergepath::segmented_sort_pairs(ctx, dk.begin(), dv.begin(), c.count, dh.begin(), size_of(heads), by_tens);
    EXPECT_TRUE(ranges_equal(expected.first, std::vector<int>(dk.begin(), dk.end()))) << "deques, pairs";
    EXPECT_TRUE(ranges_equal(expected.second, std::vector<int>(dv.begin(), dv.end()))) << "deques, pairs";

    const std::vector<std::uint32_t> flags = head_flags(heads, c.count);
    dk.assign(keys.begin(), keys.end());
    dv.assign(origin.begin(), origin.end());
    mergepath::segmented_sort_pairs_flags(ctx, dk.begin(), dv.begin(), c.count, flags.data(), by_tens);
    EXPECT_TRUE(ranges_equal(expected.first, std::vector<int>(dk.begin(), dk.end()))) << "deques, flags";
    EXPECT_TRUE(ranges_equal(expected.second, std::vector<int>(dv.begin(), dv.end()))) << "deques, flags";
  }
}

// Element 0 always starts a segment, whether or not bit 0 is set; bits for elements past count
// (the last word's spare bits) mark nothing.
TEST(HostSegmentedSortHeads, FlagsBitZeroAndSpareBits) {
  mergepath::host_context ctx(2);
  for (const segsort_case& c : head_form_cases()) {
    SCOPED_TRACE(c.name());
    const std::vector<int> keys = c.keys<int>();
    const std::vector<index_t> heads = c.heads();
    const std::vector<int> expected = std_segmented_sort(keys, heads, mergepath::less<>{});
    std::vector<std::uint32_t> flags = head_flags(heads, c.count);
    for (bool bit_zero : {false, true}) {
      SCOPED_TRACE(::testing::Message() << "bit 0 " << bit_zero);
      flags[0] = bit_zero ? flags[0] | 1u : flags[0] & ~1u;
      std::vector<int> data = guarded(keys);
      mergepath::segmented_sort_flags(ctx, data.data() + guard_items, c.count, flags.data());
      EXPECT_TRUE(guarded_equal(expected, data));
    }
    ASSERT_NE(c.count % 32, 0) << "the sizes leave spare bits";
    flags.back() |= ~0u << (c.count % 32);
    std::vector<int> data = guarded(keys);
    mergepath::segmented_sort_flags(ctx, data.data() + guard_items, c.count, flags.data());
    EXPECT_TRUE(guarded_equal(expected, data)) << "spare bits set";
  }
}

// ---------------------------------------------------------------------------------------------
// Malformed heads: the set of in-range indices, or std::invalid_argument in checked mode

// Sizes with enough heads (mean length 4) to make every malformation.
std::vector<segsort_case> malformed_cases() {
  return segsort_cases({33, 1009, (1 << 15) + 1, 100003}, {uniform_segments(4)},
                       {distribution::few_distinct, distribution::reversed});
}

std::vector<index_t> malformed_heads(const segsort_case& c, malformation m) {
  std::mt19937_64 rng(case_seed({static_cast<std::int64_t>(c.seed % 1000003), static_cast<int>(m), 33}));
  return malform_heads(c.heads(), c.count, m, rng);
}

// No exception, every element in bounds, and each segment of the in-range heads' set sorted:
// int64 and int32 heads, keys and pairs.
TEST(HostSegmentedSortMalformed, UncheckedUsesTheSetOfInRangeHeads) {
  for (const segsort_case& c : malformed_cases()) {
    for (malformation m : all_malformations()) {
      SCOPED_TRACE(::testing::Message() << c.name() << ", " << to_string(m));
      const std::vector<index_t> heads = malformed_heads(c, m);
      ASSERT_GE(first_bad_head(heads, c.count), 0) << "the heads must be malformed";
      const std::vector<std::int32_t> heads32 = heads_as<std::int32_t>(heads);
      const std::vector<int> keys = c.keys<int>();
      const auto expected = std_segmented_sort_pairs<int, int>(keys, heads, mergepath::less<>{});
      for (int threads : thread_counts) {
        SCOPED_TRACE(::testing::Message() << "threads " << threads);
        mergepath::host_context ctx(threads);
        std::vector<int> data = guarded(keys);
        mergepath::segmented_sort(ctx, data.data() + guard_items, c.count, heads.data(), size_of(heads));
        ASSERT_TRUE(guarded_equal(expected.first, data)) << "int64 heads";
        ASSERT_TRUE(same_keys(keys, std::vector<int>(data.begin() + guard_items, data.end() - guard_items)));

        data = guarded(keys);
        std::vector<int> vals = guarded(origins<int>(c.count, 0));
        mergepath::segmented_sort_pairs(ctx, data.data() + guard_items, vals.data() + guard_items, c.count,
                                        heads32.data(), size_of(heads));
        ASSERT_TRUE(guarded_equal(expected.first, data)) << "int32 heads, pairs";
        ASSERT_TRUE(guarded_equal(expected.second, vals)) << "int32 heads, pairs";
        ASSERT_TRUE(moved_together(keys, std::vector<int>(data.begin() + guard_items, data.end() - guard_items),
                                   std::vector<int>(vals.begin() + guard_items, vals.end() - guard_items)));
      }
    }
  }
}

// Checked mode names the first bad index and throws before any key or value moves.
TEST(HostSegmentedSortMalformed, CheckedModeThrowsBeforeWriting) {
  for (const segsort_case& c : malformed_cases()) {
    for (malformation m : all_malformations()) {
      SCOPED_TRACE(::testing::Message() << c.name() << ", " << to_string(m));
      const std::vector<index_t> heads = malformed_heads(c, m);
      const index_t bad = first_bad_head(heads, c.count);
      ASSERT_GE(bad, 0) << "the heads must be malformed";
      const std::string named =
          "heads[" + std::to_string(bad) + "] = " + std::to_string(heads[static_cast<std::size_t>(bad)]);
      const std::vector<std::int32_t> heads32 = heads_as<std::int32_t>(heads);
      const std::vector<int> keys = c.keys<int>(), origin = origins<int>(c.count, 0);
      for (int threads : thread_counts) {
        SCOPED_TRACE(::testing::Message() << "threads " << threads);
        mergepath::host_context ctx(threads);
        ctx.set_checked(true);
        std::vector<int> data = keys, vals = origin;
        expect_invalid_argument(
            [&] { mergepath::segmented_sort(ctx, data.data(), c.count, heads.data(), size_of(heads)); }, named);
        EXPECT_EQ(data, keys);
        expect_invalid_argument(
            [&] {
              mergepath::segmented_sort(ctx, data.data(), c.count, heads32.data(), size_of(heads),
                                        mergepath::greater<>{});
            },
            named);
        EXPECT_EQ(data, keys);
        expect_invalid_argument(
            [&] {
              mergepath::segmented_sort_pairs(ctx, data.data(), vals.data(), c.count, heads.data(), size_of(heads));
            },
            named);
        EXPECT_EQ(data, keys);
        EXPECT_EQ(vals, origin);
      }
    }
  }
}

// The messages: out of range, or not strictly increasing, each with the offending value.
TEST(HostSegmentedSortMalformed, CheckedModeMessages) {
  mergepath::host_context ctx(2);
  ctx.set_checked(true);
  std::vector<int> keys(10, 0);
  const std::vector<index_t> negative{0, 3, -2}, too_large{2, 10}, unordered{0, 5, 4}, repeated{1, 1};
  expect_invalid_argument([&] { mergepath::segmented_sort(ctx, keys.data(), 10, negative.data(), 3); },
                          "heads[2] = -2 is out of range [0, 10)");
  expect_invalid_argument([&] { mergepath::segmented_sort(ctx, keys.data(), 10, too_large.data(), 2); },
                          "heads[1] = 10 is out of range [0, 10)");
  expect_invalid_argument([&] { mergepath::segmented_sort(ctx, keys.data(), 10, unordered.data(), 3); },
                          "heads[2] = 4 is not greater than heads[1] = 5");
  expect_invalid_argument([&] { mergepath::segmented_sort(ctx, keys.data(), 10, repeated.data(), 2); },
                          "heads[1] = 1 is not greater than heads[0] = 1");
  // {0} for no keys: 0 is not in [0, 0).
  const std::vector<index_t> zero{0};
  expect_invalid_argument([&] { mergepath::segmented_sort(ctx, keys.data(), 0, zero.data(), 1); },
                          "heads[0] = 0 is out of range [0, 0)");
}

// Well-formed heads pass checked mode and sort as usual: the extremes 0 and count - 1, every
// shape, and the bitfield form (nothing to check there).
TEST(HostSegmentedSortMalformed, CheckedModeAcceptsWellFormedHeads) {
  for (const segsort_case& c : segsort_cases({1, 2, 1009, 100003}, host_segment_specs(), {distribution::uniform})) {
    SCOPED_TRACE(c.name());
    std::vector<index_t> heads = c.heads();
    if (c.segments.shape == segment_shape::uniform_lengths) {  // the first and the last index too
      if (heads.empty() || heads.front() != 0) heads.insert(heads.begin(), 0);
      if (heads.back() != c.count - 1) heads.push_back(c.count - 1);
    }
    ASSERT_EQ(first_bad_head(heads, c.count), -1);
    const std::vector<int> keys = c.keys<int>();
    const auto expected = std_segmented_sort_pairs<int, int>(keys, heads, mergepath::less<>{});
    mergepath::host_context ctx(2);
    ctx.set_checked(true);
    std::vector<int> data = keys, vals = origins<int>(c.count, 0);
    mergepath::segmented_sort_pairs(ctx, data.data(), vals.data(), c.count, heads.data(), size_of(heads));
    EXPECT_TRUE(ranges_equal(expected.first, data));
    EXPECT_TRUE(ranges_equal(expected.second, vals));
    data = keys;
    const std::vector<std::uint32_t> flags = head_flags(heads, c.count);
    mergepath::segmented_sort_flags(ctx, data.data(), c.count, flags.data());
    EXPECT_TRUE(ranges_equal(expected.first, data));
  }
}

// ---------------------------------------------------------------------------------------------
// Bad arguments: std::invalid_argument before anything is written.

TEST(HostSegmentedSortArguments, BadArgumentsThrowBeforeWriting) {
  mergepath::host_context ctx(2);
  const std::vector<int> keys{3, 1, 2}, vals{0, 1, 2};
  const std::vector<index_t> heads{0, 2};
  const std::vector<std::uint32_t> flags{1u};
  std::vector<int> k = keys, v = vals;
  int* null = nullptr;
  const index_t* null_heads = nullptr;
  const std::uint32_t* null_flags = nullptr;

  expect_invalid_argument([&] { mergepath::segmented_sort(ctx, k.data(), -1, heads.data(), 2); },
                          "keys count is negative");
  expect_invalid_argument([&] { mergepath::segmented_sort(ctx, null, 3, heads.data(), 2); }, "keys is a null pointer");
  expect_invalid_argument([&] { mergepath::segmented_sort(ctx, k.data(), 3, null_heads, 2); },
                          "heads is a null pointer");
  expect_invalid_argument([&] { mergepath::segmented_sort(ctx, k.data(), 3, heads.data(), -1); },
                          "heads count is negative");
  expect_invalid_argument([&] { mergepath::segmented_sort_pairs(ctx, k.data(), v.data(), -1, heads.data(), 2); },
                          "keys count is negative");
  expect_invalid_argument([&] { mergepath::segmented_sort_pairs(ctx, null, v.data(), 3, heads.data(), 2); },
                          "keys is a null pointer");
  expect_invalid_argument([&] { mergepath::segmented_sort_pairs(ctx, k.data(), null, 3, heads.data(), 2); },
                          "vals is a null pointer");
  expect_invalid_argument([&] { mergepath::segmented_sort_pairs(ctx, k.data(), v.data(), 3, null_heads, 2); },
                          "heads is a null pointer");
  expect_invalid_argument([&] { mergepath::segmented_sort_flags(ctx, k.data(), -1, flags.data()); },
                          "keys count is negative");
  expect_invalid_argument([&] { mergepath::segmented_sort_flags(ctx, null, 3, flags.data()); },
                          "keys is a null pointer");
  expect_invalid_argument([&] { mergepath::segmented_sort_flags(ctx, k.data(), 3, null_flags); },
                          "head_flags is a null pointer");
  expect_invalid_argument([&] { mergepath::segmented_sort_pairs_flags(ctx, k.data(), null, 3, flags.data()); },
                          "vals is a null pointer");
  expect_invalid_argument([&] { mergepath::segmented_sort_pairs_flags(ctx, k.data(), v.data(), 3, null_flags); },
                          "head_flags is a null pointer");
  expect_invalid_argument([&] { mergepath::locality_sort(ctx, k.data(), -1); }, "keys count is negative");
  expect_invalid_argument([&] { mergepath::locality_sort(ctx, null, 3); }, "keys is a null pointer");
  expect_invalid_argument([&] { mergepath::locality_sort_pairs(ctx, k.data(), null, 3); }, "vals is a null pointer");
  expect_invalid_argument([&] { mergepath::locality_sort_pairs(ctx, null, v.data(), 3, mergepath::greater<>{}); },
                          "keys is a null pointer");
  EXPECT_EQ(k, keys);
  EXPECT_EQ(v, vals);
}

TEST(HostSegmentedSortArguments, NullPointersWithZeroCountsAreFine) {
  mergepath::host_context ctx;
  int* null = nullptr;
  const index_t* null_heads = nullptr;
  const std::uint32_t* null_flags = nullptr;
  EXPECT_NO_THROW(mergepath::segmented_sort(ctx, null, 0, null_heads, 0));
  EXPECT_NO_THROW(mergepath::segmented_sort_pairs(ctx, null, null, 0, null_heads, 0));
  EXPECT_NO_THROW(mergepath::segmented_sort_flags(ctx, null, 0, null_flags));
  EXPECT_NO_THROW(mergepath::segmented_sort_pairs_flags(ctx, null, null, 0, null_flags));
  EXPECT_NO_THROW(mergepath::locality_sort(ctx, null, 0));
  EXPECT_NO_THROW(mergepath::locality_sort_pairs(ctx, null, null, 0));
  // No heads (null) with keys: one segment, the whole array.
  std::vector<int> k{3, 1, 2};
  mergepath::segmented_sort(ctx, k.data(), 3, null_heads, 0);
  EXPECT_EQ(k, (std::vector<int>{1, 2, 3}));
}

// ---------------------------------------------------------------------------------------------
// Stats

// The CPU has no merge passes: whatever stats held, they come back with no tiles and no passes,
// and passing them changes nothing in the output.
TEST(HostSegsortStats, ComeBackEmpty) {
  const segsort_case c{100003, distribution::uniform, uniform_segments(300), case_seed({34})};
  SCOPED_TRACE(c.name());
  const std::vector<int> keys = c.keys<int>(), origin = origins<int>(c.count, 0);
  const std::vector<index_t> heads = c.heads();
  const std::vector<std::uint32_t> flags = head_flags(heads, c.count);
  const auto expected = std_segmented_sort_pairs<int, int>(keys, heads, mergepath::less<>{});
  const auto expected_whole = std_stable_sort_pairs<int, int>(keys, mergepath::less<>{});
  mergepath::host_context ctx(2);
  auto stale = [] {
    mergepath::segsort_stats s;
    s.tiles = 12;
    s.passes = {{3, 4}, {5, 6}};
    return s;
  };
  auto expect_empty = [](const mergepath::segsort_stats& s) {
    EXPECT_EQ(s.tiles, 0);
    EXPECT_TRUE(s.passes.empty());
  };

  std::vector<int> k = keys, v = origin;
  mergepath::segsort_stats stats = stale();
  mergepath::segmented_sort(ctx, k.data(), c.count, heads.data(), size_of(heads), mergepath::less<>{}, &stats);
  expect_empty(stats);
  EXPECT_TRUE(ranges_equal(expected.first, k));

  k = keys;
  stats = stale();
  mergepath::segmented_sort_pairs(ctx, k.data(), v.data(), c.count, heads.data(), size_of(heads), mergepath::less<>{},
                                  &stats);
  expect_empty(stats);
  EXPECT_TRUE(ranges_equal(expected.first, k));
  EXPECT_TRUE(ranges_equal(expected.second, v));

  k = keys;
  stats = stale();
  mergepath::segmented_sort_flags(ctx, k.data(), c.count, flags.data(), mergepath::less<>{}, &stats);
  expect_empty(stats);
  EXPECT_TRUE(ranges_equal(expected.first, k));

  k = keys;
  v = origin;
  stats = stale();
  mergepath::segmented_sort_pairs_flags(ctx, k.data(), v.data(), c.count, flags.data(), mergepath::less<>{}, &stats);
  expect_empty(stats);
  EXPECT_TRUE(ranges_equal(expected.first, k));
  EXPECT_TRUE(ranges_equal(expected.second, v));

  k = keys;
  stats = stale();
  mergepath::locality_sort(ctx, k.data(), c.count, mergepath::less<>{}, &stats);
  expect_empty(stats);
  EXPECT_TRUE(ranges_equal(expected_whole.first, k));

  k = keys;
  v = origin;
  stats = stale();
  mergepath::locality_sort_pairs(ctx, k.data(), v.data(), c.count, mergepath::less<>{}, &stats);
  expect_empty(stats);
  EXPECT_TRUE(ranges_equal(expected_whole.first, k));
  EXPECT_TRUE(ranges_equal(expected_whole.second, v));
}

// operator<< prints the verbose table of moderngpu's Segmented Sort and Locality Sort page: its
// "Mean segment length = 300" run, filled in by hand (7103 tiles, 13 passes), must print exactly
// as the page shows it.
TEST(HostSegsortStats, PrintsTheSeedsTable) {
  mergepath::segsort_stats stats;
  stats.tiles = 7103;
  stats.passes = {{7098, 5}, {4443, 2658}, {2347, 3409}, {1168, 2275}, {572, 1168}, {302, 572}, {163, 302},
                  {78, 163}, {37, 78},     {18, 37},     {7, 18},      {6, 7},      {2, 6}};
  EXPECT_EQ(stats.total_merge_tiles(), 16241);
  EXPECT_EQ(stats.total_copy_tiles(), 10698);
  const std::string seed_table =
      "                Merge tiles            Copy tiles \n"
      "pass  0:      7098 ( 99.93%)           5 (  0.07%)\n"
      "pass  1:      4443 ( 62.55%)        2658 ( 37.42%)\n"
      "pass  2:      2347 ( 33.04%)        3409 ( 47.99%)\n"
      "pass  3:      1168 ( 16.44%)        2275 ( 32.03%)\n"
      "pass  4:       572 (  8.05%)        1168 ( 16.44%)\n"
      "pass  5:       302 (  4.25%)         572 (  8.05%)\n"
      "pass  6:       163 (  2.29%)         302 (  4.25%)\n"
      "pass  7:        78 (  1.10%)         163 (  2.29%)\n"
      "pass  8:        37 (  0.52%)          78 (  1.10%)\n"
      "pass  9:        18 (  0.25%)          37 (  0.52%)\n"
      "pass 10:         7 (  0.10%)          18 (  0.25%)\n"
      "pass 11:         6 (  0.08%)           7 (  0.10%)\n"
      "pass 12:         2 (  0.03%)           6 (  0.08%)\n"
      "average:      1249 ( 17.59%)         822 ( 11.59%)\n"
      "total  :     16241 (228.65%)       10698 (150.61%)\n";
  std::ostringstream os;
  os << stats;
  EXPECT_EQ(os.str(), seed_table);
}

// Empty stats (the CPU's) print the header and zero rows, without dividing by zero.
TEST(HostSegsortStats, PrintsEmptyStats) {
  std::ostringstream os;
  os << mergepath::segsort_stats{};
  EXPECT_EQ(os.str(),
            "                Merge tiles            Copy tiles \n"
            "average:         0 (  0.00%)           0 (  0.00%)\n"
            "total  :         0 (  0.00%)           0 (  0.00%)\n");
}

// ---------------------------------------------------------------------------------------------
// Comparators that are not strict weak orders: every call returns with each segment's keys
// permuted within it (locality_sort: the whole array's), whatever order it leaves them in.

// Heads at 0, n / 8 and n / 4 and a few more below n / 4: segments for insertion sort, the serial
// merge sort and (n = 65537) one over 2^15 keys for the parallel merge sort.
std::vector<index_t> fuzz_heads(const fuzz_case& c) {
  std::vector<index_t> heads = {0, c.n / 8, c.n / 4};
  std::mt19937_64 rng(c.seed);
  for (int k = 0; k < 20 && c.n > 0; ++k)
    heads.push_back(static_cast<index_t>(rng() % static_cast<std::uint64_t>(c.n / 4 + 1)));
  std::sort(heads.begin(), heads.end());
  heads.erase(std::unique(heads.begin(), heads.end()), heads.end());
  while (!heads.empty() && heads.back() >= c.n) heads.pop_back();
  return heads;
}

// Rows permuted, each staying in its segment.
::testing::AssertionResult permuted_within_segments(const std::vector<double>& keys, const std::vector<index_t>& heads,
                                                    const std::vector<double>& out_keys,
                                                    const std::vector<std::int64_t>& out_rows) {
  if (auto moved = moved_together(keys, out_keys, out_rows); !moved) return moved;
  for (std::size_t k = 0; k < out_rows.size(); ++k) {
    auto segment_of = [&](index_t i) { return std::upper_bound(heads.begin(), heads.end(), i) - heads.begin(); };
    if (segment_of(static_cast<index_t>(k)) != segment_of(out_rows[k]))
      return ::testing::AssertionFailure() << "row " << out_rows[k] << " left its segment for position " << k;
  }
  return ::testing::AssertionSuccess();
}

TEST(HostComparatorFuzz, SegmentedAndLocalitySortsPermuteTheirInput) {
  for (const fuzz_case& c : fuzz_cases(6)) {
    SCOPED_TRACE(::testing::Message() << c);
    mergepath::host_context ctx(c.threads);
    const bad_comp comp{c.order};
    const std::vector<double> keys = fuzz_keys(c, c.n, 0);
    const std::vector<std::int64_t> rows = row_numbers(c.n);
    const std::vector<index_t> heads = fuzz_heads(c);
    const std::vector<std::uint32_t> flags = head_flags(heads, c.n);
    std::vector<double> k = keys;
    std::vector<std::int64_t> v = rows;
    mergepath::segmented_sort_pairs(ctx, k.data(), v.data(), c.n, heads.data(), size_of(heads), comp);
    ASSERT_TRUE(permuted_within_segments(keys, heads, k, v)) << "segmented_sort_pairs";
    k = keys, v = rows;
    mergepath::segmented_sort_pairs_flags(ctx, k.data(), v.data(), c.n, flags.data(), comp);
    ASSERT_TRUE(permuted_within_segments(keys, heads, k, v)) << "segmented_sort_pairs_flags";
    k = keys;
    mergepath::segmented_sort(ctx, k.data(), c.n, heads.data(), size_of(heads), comp);
    ASSERT_TRUE(same_keys(keys, k)) << "segmented_sort";
    k = keys;
    mergepath::segmented_sort_flags(ctx, k.data(), c.n, flags.data(), comp);
    ASSERT_TRUE(same_keys(keys, k)) << "segmented_sort_flags";
    k = keys;
    mergepath::locality_sort(ctx, k.data(), c.n, comp);
    ASSERT_TRUE(same_keys(keys, k)) << "locality_sort";
    k = keys, v = rows;
    mergepath::locality_sort_pairs(ctx, k.data(), v.data(), c.n, comp);
    ASSERT_TRUE(moved_together(keys, k, v)) << "locality_sort_pairs";
  }
}

}  // namespace
}  // namespace mergepath_test
