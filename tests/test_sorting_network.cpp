// sort_network (thread layer, host and device): against std::stable_sort for every valid count,
// stability through values that record each key's origin and through point keys tied on x, and
// the slots past `valid` left as they were. sort_network_unstable: the sorted valid keys, then
// padding that sorts last, for integer keys under less and greater.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <mergepath/thread/sorting_network.hpp>
#include <random>
#include <type_traits>
#include <vector>

#include "sort_util.hpp"

namespace mergepath_test {
namespace {

// keys[0, Count) and values[i] = i; sort_network over the first `valid`; the result must be the
// stable sort of keys[0, valid) (values showing where each came from) followed by the untouched rest.
template <int Count, class Key, class Comp>
::testing::AssertionResult network_sorts(const std::vector<Key>& input, int valid, Comp comp) {
  Key keys[Count];
  int values[Count];
  for (int i = 0; i < Count; ++i) {
    keys[i] = input[static_cast<std::size_t>(i)];
    values[i] = i;
  }
  mergepath::sort_network(keys, values, valid, comp);

  const int sorted = std::clamp(valid, 0, Count);
  auto expected = std_stable_sort_pairs<Key, int>(std::vector<Key>(input.begin(), input.begin() + sorted), comp);
  for (int i = sorted; i < Count; ++i) {  // past valid: as they were
    expected.first.push_back(input[static_cast<std::size_t>(i)]);
    expected.second.push_back(i);
  }
  if (auto r = ranges_equal(expected.first, keys); !r) return r << " (keys)";
  if (auto r = ranges_equal(expected.second, values); !r) return r << " (values)";

  // The keys-only form sorts the same keys the same way (point keys tied on x show its stability).
  Key keys_only[Count];
  std::copy(input.begin(), input.begin() + Count, keys_only);
  mergepath::sort_network(keys_only, valid, comp);
  if (auto r = ranges_equal(expected.first, keys_only); !r) return r << " (keys only)";
  return ::testing::AssertionSuccess();
}

// Random keys from `distinct` values, so small ranges hold many ties.
template <class Key>
std::vector<Key> random_keys(int count, int distinct, std::mt19937_64& rng) {
  std::vector<Key> keys(static_cast<std::size_t>(count));
  for (Key& k : keys) k = key_from<Key>(std::uniform_int_distribution<std::int64_t>(0, distinct - 1)(rng));
  return keys;
}

template <class CountConstant>
class SortNetwork : public ::testing::Test {};
using counts =
    ::testing::Types<std::integral_constant<int, 1>, std::integral_constant<int, 2>, std::integral_constant<int, 3>,
                     std::integral_constant<int, 8>, std::integral_constant<int, 15>, std::integral_constant<int, 16>>;
TYPED_TEST_SUITE(SortNetwork, counts);

// Every valid count 0..Count, over keys with many ties, keys with few, and the adversarial
// shapes; ascending, descending, and point keys compared on x alone.
TYPED_TEST(SortNetwork, MatchesStableSortForEveryValidCount) {
  constexpr int count = TypeParam::value;
  SCOPED_TRACE("MERGEPATH_TEST_SEED=" + std::to_string(base_seed()));
  std::mt19937_64 rng(case_seed({30, count}));
  for (int valid = 0; valid <= count; ++valid) {
    for (int trial = 0; trial < 200; ++trial) {
      SCOPED_TRACE(::testing::Message() << "valid " << valid << ", trial " << trial);
      int distinct = trial % 2 == 0 ? 3 : 1 << 20;
      ASSERT_TRUE(network_sorts<count>(random_keys<int>(count, distinct, rng), valid, mergepath::less<>{}));
      ASSERT_TRUE(network_sorts<count>(random_keys<int>(count, distinct, rng), valid, mergepath::greater<>{}));
      ASSERT_TRUE(network_sorts<count>(random_keys<point>(count, 4 * distinct, rng), valid, point_x_less{}));
    }
    for (distribution d : all_distributions()) {
      SCOPED_TRACE(::testing::Message() << "valid " << valid << ", " << to_string(d));
      std::vector<std::int64_t> values = make_values(d, count, rng);
      ASSERT_TRUE(network_sorts<count>(std::vector<double>(values.begin(), values.end()), valid, mergepath::less<>{}));
    }
  }
}

// Keys from {0, 1, 2} in every arrangement (3^Count of them): with ties in every position,
// stable sorting of each is the whole contract.
template <int Count>
void check_every_arrangement_of_three_values() {
  int arrangements = 1;
  for (int i = 0; i < Count; ++i) arrangements *= 3;
  for (int code = 0; code < arrangements; ++code) {
    std::vector<int> keys;
    for (int i = 0, c = code; i < Count; ++i, c /= 3) keys.push_back(c % 3);
    for (int valid : {Count - 1, Count}) {
      SCOPED_TRACE(::testing::Message() << "Count " << Count << ", arrangement " << code << ", valid " << valid);
      ASSERT_TRUE(network_sorts<Count>(keys, valid, mergepath::less<>{}));
    }
  }
}

TEST(SortNetworkExhaustive, EveryArrangementOfThreeValues) {
  ASSERT_NO_FATAL_FAILURE(check_every_arrangement_of_three_values<1>());
  ASSERT_NO_FATAL_FAILURE(check_every_arrangement_of_three_values<2>());
  ASSERT_NO_FATAL_FAILURE(check_every_arrangement_of_three_values<3>());
  ASSERT_NO_FATAL_FAILURE(check_every_arrangement_of_three_values<8>());
}

// The blocksort hands a thread `tile count - its first slot`, which is negative for threads past
// the tile's end and more than Count for full ones: those act as 0 and Count.
TYPED_TEST(SortNetwork, ValidOutsideZeroToCount) {
  constexpr int count = TypeParam::value;
  std::mt19937_64 rng(case_seed({31, count}));
  for (int valid : {-1, -count - 5, count + 1, 3 * count}) {
    SCOPED_TRACE(::testing::Message() << "valid " << valid << " (MERGEPATH_TEST_SEED=" << base_seed() << ")");
    ASSERT_TRUE(network_sorts<count>(random_keys<int>(count, 5, rng), valid, mergepath::less<>{}));
  }
}

// Which comparators let a keys-only sort reorder equal keys.
static_assert(mergepath::equal_keys_are_identical<int, mergepath::less<>>::value);
static_assert(mergepath::equal_keys_are_identical<std::int64_t, mergepath::greater<std::int64_t>>::value);
static_assert(mergepath::equal_keys_are_identical<unsigned, std::less<unsigned>>::value);
static_assert(mergepath::equal_keys_are_identical<std::uint8_t, std::greater<>>::value);
static_assert(!mergepath::equal_keys_are_identical<float, mergepath::less<>>::value);  // -0.0 == +0.0
static_assert(!mergepath::equal_keys_are_identical<int, mergepath::less<unsigned>>::value);  // another order
static_assert(!mergepath::equal_keys_are_identical<point, point_x_less>::value);

// keys[0, Count) through sort_network_unstable over the first `valid`: the sorted valid keys,
// then keys that sort last.
template <int Count, class Key, class Comp>
::testing::AssertionResult unstable_network_sorts(const std::vector<Key>& input, int valid, Comp comp) {
  Key keys[Count];
  std::copy(input.begin(), input.begin() + Count, keys);
  mergepath::sort_network_unstable(keys, valid, comp);
  const int sorted = std::clamp(valid, 0, Count);
  std::vector<Key> expected(input.begin(), input.begin() + sorted);
  std::stable_sort(expected.begin(), expected.end(), comp);
  const Key last = mergepath::integer_order<Comp, Key>::descending ? std::numeric_limits<Key>::lowest()
                                                                    : std::numeric_limits<Key>::max();
  expected.resize(Count, last);
  return ranges_equal(expected, keys);
}

template <int Count>
void check_unstable_network() {
  std::mt19937_64 rng(case_seed({32, Count}));
  for (int valid = -1; valid <= Count + 1; ++valid) {
    for (int trial = 0; trial < 100; ++trial) {
      SCOPED_TRACE(::testing::Message() << "Count " << Count << ", valid " << valid << ", trial " << trial
                                        << " (MERGEPATH_TEST_SEED=" << base_seed() << ")");
      const int distinct = trial % 2 == 0 ? 3 : 1 << 20;
      ASSERT_TRUE(unstable_network_sorts<Count>(random_keys<int>(Count, distinct, rng), valid, mergepath::less<>{}));
      ASSERT_TRUE(unstable_network_sorts<Count>(random_keys<std::int64_t>(Count, distinct, rng), valid,
                                                mergepath::greater<>{}));
      ASSERT_TRUE(unstable_network_sorts<Count>(random_keys<std::uint8_t>(Count, distinct, rng), valid,
                                                std::less<std::uint8_t>{}));
    }
  }
  // Extremes next to the padding: the type's own last key among the valid ones.
  std::vector<int> extremes(Count);
  for (int i = 0; i < Count; ++i)
    extremes[static_cast<std::size_t>(i)] = i % 3 == 0 ? std::numeric_limits<int>::max() : i % 3 == 1 ? -i : std::numeric_limits<int>::min();
  ASSERT_TRUE(unstable_network_sorts<Count>(extremes, Count - 1, mergepath::less<>{}));
  ASSERT_TRUE(unstable_network_sorts<Count>(extremes, Count - 1, mergepath::greater<>{}));
}

// Every 0-1 input (which proves a network, Knuth 5.3.4) up to 16 slots; random keys for the
// odd sizes the blocksorts use.
template <int Count>
void check_every_zero_one_input() {
  for (std::uint32_t code = 0; code < (1u << Count); ++code) {
    std::vector<int> keys;
    for (int i = 0; i < Count; ++i) keys.push_back(static_cast<int>(code >> i & 1u));
    SCOPED_TRACE(::testing::Message() << "Count " << Count << ", input " << code);
    ASSERT_TRUE(unstable_network_sorts<Count>(keys, Count, mergepath::less<>{}));
  }
}

TEST(SortNetworkUnstable, SortsEveryZeroOneInput) {
  ASSERT_NO_FATAL_FAILURE(check_every_zero_one_input<1>());
  ASSERT_NO_FATAL_FAILURE(check_every_zero_one_input<2>());
  ASSERT_NO_FATAL_FAILURE(check_every_zero_one_input<5>());
  ASSERT_NO_FATAL_FAILURE(check_every_zero_one_input<11>());
  ASSERT_NO_FATAL_FAILURE(check_every_zero_one_input<16>());
}

TEST(SortNetworkUnstable, MatchesSortForEveryValidCount) {
  ASSERT_NO_FATAL_FAILURE(check_unstable_network<1>());
  ASSERT_NO_FATAL_FAILURE(check_unstable_network<7>());
  ASSERT_NO_FATAL_FAILURE(check_unstable_network<19>());
  ASSERT_NO_FATAL_FAILURE(check_unstable_network<23>());
  ASSERT_NO_FATAL_FAILURE(check_unstable_network<32>());
  ASSERT_NO_FATAL_FAILURE(check_unstable_network<33>());
}

// The comparator counts the network comments quote, against transposition's Count (Count - 1) / 2.
static_assert(mergepath::detail::merge_exchange_network_v<33>.size == 246);
static_assert(mergepath::detail::merge_exchange_network_v<32>.size == 191);
static_assert(mergepath::detail::merge_exchange_network_v<23>.size == 127);

}  // namespace
}  // namespace mergepath_test
