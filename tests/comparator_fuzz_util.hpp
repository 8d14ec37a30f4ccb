// The host comparator fuzz (shared by the test_host_* files): comparators that are not strict weak
// orders, inputs for them, and the checks every call must pass whatever its comparator says: it
// returns, sorts and merges permute their input (same_keys, moved_together), counts and indices
// stay in their bounds.
// Small by default (CI); MERGEPATH_FUZZ_ROUNDS=n runs n rounds of fresh inputs on 1 to 8 threads
// with a larger size too (scripts/host_sanitize.sh).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <ostream>
#include <random>
#include <thread>
#include <vector>

#include "sort_util.hpp"  // same_keys, moved_together
#include "test_util.hpp"

namespace mergepath_test {

enum class bad_order { less_equal, always_true, always_false, random, nan_less, not_equal, cyclic, hashed };

inline const char* to_string(bad_order o) {
  switch (o) {
    case bad_order::less_equal: return "<=";
    case bad_order::always_true: return "always true";
    case bad_order::always_false: return "always false";
    case bad_order::random: return "random";
    case bad_order::nan_less: return "less<> with NaNs";
    case bad_order::not_equal: return "!=";
    case bad_order::cyclic: return "cyclic (x - y = 1 mod 3)";
    case bad_order::hashed: return "a hash of both";
  }
  return "?";
}
inline std::ostream& operator<<(std::ostream& os, bad_order o) { return os << to_string(o); }

inline const std::vector<bad_order>& all_bad_orders() {
  static const std::vector<bad_order> orders = {bad_order::less_equal, bad_order::always_true, bad_order::always_false,
                                                bad_order::random,     bad_order::nan_less,    bad_order::not_equal,
                                                bad_order::cyclic,     bad_order::hashed};
  return orders;
}

inline std::uint64_t bits_of(double x) {
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

inline std::uint64_t mix64(std::uint64_t h) {  // splitmix64's finalizer
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
  return h ^ (h >> 31);
}

// comp(x, y) as `order` says. random answers from a counter of the calling thread's, so the same
// question gets different answers from call to call.
struct bad_comp {
  bad_order order;
  bool operator()(double x, double y) const {
    thread_local std::uint64_t ticks = mix64(std::hash<std::thread::id>{}(std::this_thread::get_id()));
    switch (order) {
      case bad_order::less_equal: return x <= y;
      case bad_order::always_true: return true;
      case bad_order::always_false: return false;
      case bad_order::random: return mix64(++ticks) & 1;
      case bad_order::nan_less: return x < y;
      case bad_order::not_equal: return x != y;
      case bad_order::cyclic: return (static_cast<long long>(x) - static_cast<long long>(y) + 3) % 3 == 1;
      case bad_order::hashed: return mix64(bits_of(x) * 0x9e3779b97f4a7c15ull ^ bits_of(y)) & 1;
    }
    return false;
  }
};

// Orders under which many pairs of keys are equivalent (cyclic: a third): joins of them may make
// nearly |a| |b| rows.
inline bool equivalence_is_common(bad_order o) {
  return o == bad_order::always_false || o == bad_order::nan_less || o == bad_order::cyclic;
}

// MERGEPATH_FUZZ_ROUNDS, or 0: the CI's one small round.
inline int fuzz_rounds() {
  const char* s = std::getenv("MERGEPATH_FUZZ_ROUNDS");
  return s ? std::atoi(s) : 0;
}

// One call of the fuzz: a comparator, a size, a thread count, a seed, and whether the inputs are
// sorted first (by a real order, NaNs last), as callers of merges and searches would pass them.
struct fuzz_case {
  bad_order order;
  index_t n;
  int threads;
  std::uint64_t seed;
  bool sorted;
};
inline std::ostream& operator<<(std::ostream& os, const fuzz_case& c) {
  return os << c.order << ", n " << c.n << ", " << c.threads << " threads, " << (c.sorted ? "sorted" : "unsorted")
            << " inputs, MERGEPATH_TEST_SEED=" << base_seed();
}

// Every comparator x size x thread count: sizes around the host's chunks (2^15 items each) and a
// merge chain's 256; threads 1, 2, 3, 8 (1 to 8 in the longer rounds). salt tells tests apart.
inline std::vector<fuzz_case> fuzz_cases(int salt) {
  const int rounds = fuzz_rounds();
  std::vector<index_t> sizes = {0, 1, 2, 17, 1000, 65537};
  std::vector<int> threads = {1, 2, 3, 8};
  if (rounds > 0) {
    sizes.push_back(262147);
    threads = {1, 2, 3, 4, 5, 6, 7, 8};
  }
  std::vector<fuzz_case> cases;
  for (int t : threads)  // outermost: OpenMP's idle threads spin, and slow a team of another size
    for (int round = 0; round < std::max(rounds, 1); ++round)
      for (bad_order o : all_bad_orders())
        for (index_t n : sizes) {
          const std::uint64_t seed = case_seed({salt, round, static_cast<int>(o), n, t});
          cases.push_back({o, n, t, seed, seed % 2 == 0});
        }
  return cases;
}

// n keys for c: small integers (many ties), about one in eight NaN under nan_less; sorted first
// (NaNs last) where c says.
inline std::vector<double> fuzz_keys(const fuzz_case& c, index_t n, int salt) {
  std::mt19937_64 rng(c.seed + static_cast<std::uint64_t>(salt));
  const auto distinct = static_cast<std::uint64_t>(std::max<index_t>(2, n / 4));
  std::vector<double> keys(static_cast<std::size_t>(n));
  for (double& k : keys)
    k = c.order == bad_order::nan_less && rng() % 8 == 0 ? std::nan("") : static_cast<double>(rng() % distinct);
  if (c.sorted)
    std::sort(keys.begin(), keys.end(), [](double x, double y) { return std::isnan(y) ? !std::isnan(x) : x < y; });
  return keys;
}

// Row numbers 0, 1, ..., n - 1 (shifted by first): the values that say where each key came from.
inline std::vector<std::int64_t> row_numbers(index_t n, index_t first = 0) {
  std::vector<std::int64_t> rows(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) rows[static_cast<std::size_t>(i)] = first + i;
  return rows;
}

// out_keys[k] is the key of row out_vals[k] (keys[row], bit for bit) for every k, and where
// each_once says, no row comes twice.
inline ::testing::AssertionResult keys_of_rows(const std::vector<double>& keys, const std::vector<double>& out_keys,
                                               const std::vector<std::int64_t>& out_vals, bool each_once) {
  const auto n = static_cast<std::int64_t>(keys.size());
  std::vector<char> seen(keys.size(), 0);
  for (std::size_t k = 0; k < out_vals.size(); ++k) {
    const std::int64_t row = out_vals[k];
    if (row < 0 || row >= n) return ::testing::AssertionFailure() << "position " << k << " holds row " << row;
    if (each_once && seen[static_cast<std::size_t>(row)])
      return ::testing::AssertionFailure() << "position " << k << " holds row " << row << " again";
    seen[static_cast<std::size_t>(row)] = 1;
    if (bits_of(out_keys[k]) != bits_of(keys[static_cast<std::size_t>(row)]))
      return ::testing::AssertionFailure() << "position " << k << " holds row " << row << " with another key";
  }
  return ::testing::AssertionSuccess();
}

}  // namespace mergepath_test
