// Shared by the binary search / Eytzinger tests (host and GPU, plain C++): haystacks and unsorted
// needles shaped to hit every kind of bound, the std::lower_bound / std::upper_bound oracle, a
// recursive in-order Eytzinger construction to check the layout against, and the sizes. The
// checks over both backends are in suites/binary_search.hpp.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <mergepath/functional.hpp>
#include <numeric>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "search_util.hpp"
#include "test_util.hpp"

namespace mergepath_test {

using mergepath::bounds;
using mergepath::search_strategy;

// A strict weak order on arithmetic keys that is neither less nor greater: batch_search on the
// GPU sorts its needles with the mergesort, not CUB's radix sort, under it.
struct reverse_order {
  template <class T>
  MERGEPATH_HD bool operator()(const T& l, const T& r) const {
    return r < l;
  }
};

constexpr search_strategy all_strategies[] = {search_strategy::per_needle, search_strategy::sort_then_search,
                                              search_strategy::automatic};

// ---------------------------------------------------------------------------------------------
// Keys from ranks

// Test keys are made from ranks in [0, 2^23): the mapping keeps their order (ties only where a
// float rounds, and for point, whose x is rank / 4) and sends them across zero for signed and
// floating keys and across 2^31 for unsigned ones, where a radix sort's bit twiddling shows.
constexpr std::int64_t rank_center = std::int64_t{1} << 22;

template <class Key>
Key key_from_rank(std::int64_t rank) {
  if constexpr (std::is_same_v<Key, point>) {
    return {static_cast<int>((rank - rank_center) >> 2), static_cast<float>(rank & 3)};
  } else if constexpr (std::is_unsigned_v<Key>) {
    return static_cast<Key>(rank + (std::int64_t{1} << 31) - rank_center);
  } else {
    return static_cast<Key>(rank - rank_center);
  }
}

// ---------------------------------------------------------------------------------------------
// Inputs

// How the haystack looks: uniform (mostly distinct keys, even ranks, so odd-rank needles fall
// between them), few distinct (four keys: long runs of duplicates), all equal.
enum class haystack_distribution { uniform, few_distinct, all_equal };

inline const char* to_string(haystack_distribution d) {
  constexpr const char* names[] = {"uniform", "few_distinct", "all_equal"};
  return names[static_cast<int>(d)];
}

constexpr haystack_distribution all_haystack_distributions[] = {
    haystack_distribution::uniform, haystack_distribution::few_distinct, haystack_distribution::all_equal};

struct bsearch_case {
  index_t haystack_count, needle_count;
  haystack_distribution dist;
  std::uint64_t seed;

  std::string name() const {
    return "haystack_count " + std::to_string(haystack_count) + ", needle_count " + std::to_string(needle_count) +
           ", " + to_string(dist) + " (MERGEPATH_TEST_SEED=" + std::to_string(base_seed()) + ")";
  }
};

// Every haystack count times every needle count times every distribution (sizes over
// $MERGEPATH_TEST_MAX_SIZE left out).
inline std::vector<bsearch_case> bsearch_cases(const std::vector<index_t>& haystack_counts,
                                               const std::vector<index_t>& needle_counts) {
  ::testing::Test::RecordProperty("MERGEPATH_TEST_SEED", std::to_string(base_seed()));
  std::vector<bsearch_case> cases;
  for (index_t h : sorted_unique_capped(haystack_counts))
    for (index_t n : sorted_unique_capped(needle_counts))
      for (haystack_distribution d : all_haystack_distributions)
        cases.push_back({h, n, d, case_seed({h, n, 500 + static_cast<int>(d)})});
  return cases;
}

// 0, 1, 2, 3 and 2^k - 1, 2^k, 2^k + 1 for each k, plus the extras.
inline std::vector<index_t> power_edge_sizes(const std::vector<int>& ks, std::vector<index_t> extras = {}) {
  std::vector<index_t> sizes{0, 1, 2, 3};
  for (int k : ks) sizes.insert(sizes.end(), {(index_t{1} << k) - 1, index_t{1} << k, (index_t{1} << k) + 1});
  sizes.insert(sizes.end(), extras.begin(), extras.end());
  return sorted_unique_capped(sizes);
}

// `count` sizes drawn from [low, high], the same for one run's seed.
inline std::vector<index_t> random_sizes(int count, index_t low, index_t high, std::int64_t salt) {
  std::mt19937_64 rng(case_seed({salt}));
  std::vector<index_t> sizes;
  for (int i = 0; i < count; ++i) sizes.push_back(std::uniform_int_distribution<index_t>(low, high)(rng));
  return sizes;
}

template <class Key>
struct bsearch_input {
  std::vector<Key> haystack;  // sorted by the comparator
  std::vector<Key> needles;   // any order, duplicates
};

// The haystack's ranks (sorted) as the distribution says; the needles' ranks: a third are keys
// of the haystack, the rest anywhere from below the smallest key to above the largest (between
// keys where the rank is odd); the extremes themselves and one either side are always among them
// when there are at least eight needles. Then made keys, the haystack sorted by comp.
template <class Key, class Comp>
bsearch_input<Key> make_bsearch_input(const bsearch_case& c, Comp comp) {
  std::mt19937_64 rng(c.seed);
  auto uniform = [&](std::int64_t below) { return std::uniform_int_distribution<std::int64_t>(0, below - 1)(rng); };
  const std::int64_t distinct = std::min<std::int64_t>(std::int64_t{1} << 21, 2 * c.haystack_count + 2);
  std::vector<std::int64_t> hay(static_cast<std::size_t>(c.haystack_count));
  for (auto& r : hay) {
    switch (c.dist) {
      case haystack_distribution::uniform:
        r = 2 + 2 * uniform(distinct);
        break;
      case haystack_distribution::few_distinct:
        r = 2 + 2 * uniform(4);
        break;
      case haystack_distribution::all_equal:
        r = 42;
        break;
    }
  }
  std::sort(hay.begin(), hay.end());
  const std::int64_t top = 2 * distinct + 4;  // above every key
  std::vector<std::int64_t> needles(static_cast<std::size_t>(c.needle_count));
  for (auto& r : needles)
    r = !hay.empty() && uniform(3) == 0 ? hay[static_cast<std::size_t>(uniform(c.haystack_count))] : uniform(top + 1);
  if (needles.size() >= 8) {
    const std::int64_t lo = hay.empty() ? 2 : hay.front(), hi = hay.empty() ? 2 : hay.back();
    const std::int64_t edges[] = {0, lo - 1, lo, hi, hi + 1, top, 1, (lo + hi) / 2};
    std::copy(std::begin(edges), std::end(edges), needles.begin());
    std::shuffle(needles.begin(), needles.end(), rng);
  }
  bsearch_input<Key> in;
  for (std::int64_t r : hay) in.haystack.push_back(key_from_rank<Key>(r));
  for (std::int64_t r : needles) in.needles.push_back(key_from_rank<Key>(r));
  std::sort(in.haystack.begin(), in.haystack.end(), comp);
  return in;
}

// ---------------------------------------------------------------------------------------------
// Oracles

// The Eytzinger layout as its definition builds it: walk the complete binary tree of count nodes
// (node k, from 1, has children 2k and 2k + 1) in order, handing out the sorted keys one by one.
template <class T>
void eytzinger_fill(const std::vector<T>& sorted, std::vector<T>& tree, std::size_t k, std::size_t& next) {
  if (k > sorted.size()) return;
  eytzinger_fill(sorted, tree, 2 * k, next);
  tree[k - 1] = sorted[next++];
  eytzinger_fill(sorted, tree, 2 * k + 1, next);
}

template <class T>
std::vector<T> eytzinger_reference(const std::vector<T>& sorted) {
  std::vector<T> tree(sorted.size());
  std::size_t next = 0;
  eytzinger_fill(sorted, tree, 1, next);
  return tree;
}

// out[i] = std::lower_bound (or std::upper_bound) of needles[i] in haystack, as an index. Many
// needles are searched in sorted order, each from the last one's bound: the same answers, cache
// friendly.
template <bounds Bounds, class Key, class Comp>
std::vector<index_t> std_bounds(const std::vector<Key>& haystack, const std::vector<Key>& needles, Comp comp) {
  auto bound = [&](auto first, const Key& x) {
    return Bounds == bounds::lower ? std::lower_bound(first, haystack.end(), x, comp)
                                   : std::upper_bound(first, haystack.end(), x, comp);
  };
  std::vector<index_t> out(needles.size());
  if (needles.size() <= (std::size_t{1} << 16)) {
    for (std::size_t i = 0; i < needles.size(); ++i) out[i] = bound(haystack.begin(), needles[i]) - haystack.begin();
    return out;
  }
  std::vector<std::size_t> order(needles.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t l, std::size_t r) { return comp(needles[l], needles[r]); });
  auto from = haystack.begin();
  for (std::size_t i : order) {
    from = bound(from, needles[i]);
    out[i] = from - haystack.begin();
  }
  return out;
}

// What std says of one input: both bounds of every needle, and the haystack's layout. Worked out
// once for all of a backend's contexts.
template <class Key>
struct bsearch_expected {
  std::vector<index_t> lower, upper;
  std::vector<Key> tree;

  template <class Comp>
  bsearch_expected(const bsearch_input<Key>& in, Comp comp)
      : lower(std_bounds<bounds::lower>(in.haystack, in.needles, comp)),
        upper(std_bounds<bounds::upper>(in.haystack, in.needles, comp)),
        tree(eytzinger_reference(in.haystack)) {}
};

template <class Out>
std::vector<Out> converted(const std::vector<index_t>& v) {
  std::vector<Out> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = static_cast<Out>(v[i]);
  return out;
}

// For every node k of the tree of count nodes, the sorted index it holds (tree[k - 1]).
inline std::vector<index_t> eytzinger_reference_indices(index_t count) {
  return eytzinger_reference(origins<index_t>(count, 0));
}

// Every bound in out within [0, haystack_count].
inline ::testing::AssertionResult bounds_within(const std::vector<index_t>& out, index_t haystack_count) {
  for (std::size_t i = 0; i < out.size(); ++i)
    if (out[i] < 0 || out[i] > haystack_count)
      return ::testing::AssertionFailure()
             << "out[" << i << "] = " << out[i] << " outside [0, " << haystack_count << "]";
  return ::testing::AssertionSuccess();
}

// f(std::integral_constant<bounds, bounds::lower>{}), then the same for bounds::upper: a call
// written once for both (read the bound as decltype(b)::value).
template <class F>
void for_both_bounds(F f) {
  f(std::integral_constant<bounds, bounds::lower>{});
  f(std::integral_constant<bounds, bounds::upper>{});
}

// The Futhark binary search example's searches: [1, 3, 5, 7, 9, 11] searched for 0, 9 and 2.
namespace futhark_example {
inline const std::vector<int> haystack{1, 3, 5, 7, 9, 11};
inline const std::vector<int> needles{0, 9, 2};
inline const std::vector<index_t> lower{0, 4, 1};
inline const std::vector<index_t> upper{0, 5, 1};
}  // namespace futhark_example

}  // namespace mergepath_test
