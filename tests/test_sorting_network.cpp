// sort_network (thread layer, host and device): against std::stable_sort for every valid count,
// stability through values that record each key's origin and through point keys tied on x, and
// the slots past `valid` left as they were.
#include <gtest/gtest.h>

#include <algorithm>
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

}  // namespace
}  // namespace mergepath_test
