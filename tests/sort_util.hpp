// Shared by the sort tests (host and GPU): sort problems (a size, a distribution, a seed), their
// keys, the std::stable_sort oracles, guarded arrays that show nothing was written outside the
// sorted range, the checks that an output permutes its input; under nvcc, a CUDA graph capture.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "test_util.hpp"

#if MERGEPATH_HAS_CUDA
#include <cuda_runtime.h>

#include <mergepath/error.hpp>
#endif

namespace mergepath_test {

// One sort problem: how many keys, and how they look before the sort.
struct sort_case {
  index_t count;
  distribution dist;
  std::uint64_t seed;

  std::string name() const {
    std::ostringstream os;
    os << "count " << count << ", " << to_string(dist) << " (MERGEPATH_TEST_SEED=" << base_seed() << ")";
    return os.str();
  }
};

// Every size times every distribution.
inline std::vector<sort_case> sort_cases(const std::vector<index_t>& sizes) {
  ::testing::Test::RecordProperty("MERGEPATH_TEST_SEED", std::to_string(base_seed()));
  std::vector<sort_case> cases;
  for (index_t n : sizes)
    for (distribution d : all_distributions()) cases.push_back({n, d, case_seed({n, static_cast<int>(d), 20})});
  return cases;
}

// Sizes for any sort: empty, tiny, around the host's 16-key runs, an odd prime, around the host's
// 2^15-key chunks (one, two, three chunks), and a large one; capped by MERGEPATH_TEST_MAX_SIZE.
inline std::vector<index_t> sort_sizes(index_t large = (1 << 20) + 7) {
  return sorted_unique_capped(
      {0, 1, 2, 3, 15, 16, 17, 33, 1009, (1 << 15) - 1, 1 << 15, (1 << 15) + 1, (1 << 16) + 1, 100003, large});
}

// The keys of a case, unsorted. Unlike merge inputs, "sorted" and "reversed" stay that way (for
// mergepath::greater<> they swap roles), and "organ_pipe" rises then falls.
template <class Key>
std::vector<Key> make_sort_keys(const sort_case& c) {
  std::mt19937_64 rng(c.seed);
  std::vector<std::int64_t> values = make_values(c.dist, c.count, rng);
  std::vector<Key> keys(values.size());
  std::transform(values.begin(), values.end(), keys.begin(), key_from<Key>);
  return keys;
}

// std::stable_sort of keys: the expected output of mergesort.
template <class Key, class Comp>
std::vector<Key> std_stable_sort(std::vector<Key> keys, Comp comp) {
  std::stable_sort(keys.begin(), keys.end(), comp);
  return keys;
}

// The expected output of mergesort_pairs when each value records its key's origin (value i = i):
// std::stable_sort of (key, origin) compared on keys only.
template <class Key, class Value, class Comp>
std::pair<std::vector<Key>, std::vector<Value>> std_stable_sort_pairs(const std::vector<Key>& keys, Comp comp) {
  std::vector<std::pair<Key, index_t>> rows(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) rows[i] = {keys[i], static_cast<index_t>(i)};
  std::stable_sort(rows.begin(), rows.end(), [&](const auto& l, const auto& r) { return comp(l.first, r.first); });
  std::pair<std::vector<Key>, std::vector<Value>> sorted;
  sorted.first.reserve(rows.size());
  sorted.second.reserve(rows.size());
  for (const auto& [key, origin] : rows) {
    sorted.first.push_back(key);
    sorted.second.push_back(static_cast<Value>(origin));
  }
  return sorted;
}

// contents between guard_items of poison either side: a sort in place gets data() + guard_items,
// and guarded_equal (test_util.hpp) checks the result and that the guards are untouched.
template <class T>
std::vector<T> guarded(const std::vector<T>& contents) {
  std::vector<T> v(contents.size() + 2 * guard_items, poison<T>());
  std::copy(contents.begin(), contents.end(), v.begin() + guard_items);
  return v;
}

// The output is a permutation of the input: the same keys, byte for byte, as often.
template <class Key>
::testing::AssertionResult same_keys(std::vector<Key> input, std::vector<Key> output) {
  if (input.size() != output.size())
    return ::testing::AssertionFailure() << "size " << output.size() << ", expected " << input.size();
  auto bytes_less = [](const Key& l, const Key& r) { return std::memcmp(&l, &r, sizeof(Key)) < 0; };
  std::sort(input.begin(), input.end(), bytes_less);
  std::sort(output.begin(), output.end(), bytes_less);
  for (std::size_t i = 0; i < input.size(); ++i)
    if (std::memcmp(&input[i], &output[i], sizeof(Key)) != 0)
      return ::testing::AssertionFailure() << "the output is not a permutation of the input";
  return ::testing::AssertionSuccess();
}

// With values that record each key's origin: they are a permutation of 0 .. count - 1 and every
// key is still paired with its value (keys[i] is input[vals[i]]).
template <class Key, class Value>
::testing::AssertionResult moved_together(const std::vector<Key>& input, const std::vector<Key>& keys,
                                          const std::vector<Value>& vals) {
  if (keys.size() != input.size() || vals.size() != input.size())
    return ::testing::AssertionFailure() << "sizes " << keys.size() << " and " << vals.size() << ", expected "
                                         << input.size();
  std::vector<bool> seen(input.size(), false);
  for (std::size_t i = 0; i < input.size(); ++i) {
    auto origin = static_cast<std::size_t>(vals[i]);
    if (origin >= input.size() || seen[origin])
      return ::testing::AssertionFailure() << "vals[" << i << "] = " << vals[i] << " is not a fresh origin";
    seen[origin] = true;
    if (std::memcmp(&keys[i], &input[origin], sizeof(Key)) != 0)
      return ::testing::AssertionFailure()
             << "keys[" << i << "] = " << keys[i] << " is not input[" << origin << "] = " << input[origin];
  }
  return ::testing::AssertionSuccess();
}

}  // namespace mergepath_test
