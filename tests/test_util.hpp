// Shared by every test (plain C++, usable from .cpp and .cu): the key types and comparators,
// named input distributions, tile-edge sizes, seeded inputs, the std::merge oracles and checks
// that report the first mismatch instead of printing a million elements.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <limits>
#include <mergepath/detail/config.hpp>
#include <mergepath/functional.hpp>
#include <mergepath/tuning/merge.hpp>
#include <ostream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace mergepath_test {

using mergepath::index_t;

// ---------------------------------------------------------------------------------------------
// Key types and comparators

// Any trivially copyable struct can be a key; this one is ordered by point_less.
struct point {
  int x;
  float y;
};
inline bool operator==(const point& l, const point& r) { return l.x == r.x && l.y == r.y; }
inline bool operator!=(const point& l, const point& r) { return !(l == r); }
inline std::ostream& operator<<(std::ostream& os, const point& p) { return os << '(' << p.x << ", " << p.y << ')'; }

// Orders by x, then y. MERGEPATH_HD: usable on the GPU when compiled by nvcc.
struct point_less {
  MERGEPATH_HD bool operator()(const point& l, const point& r) const { return l.x < r.x || (l.x == r.x && l.y < r.y); }
};

// Orders by x alone: points with equal x and different y are ties, so an unstable keys-only
// merge shows in the y values.
struct point_x_less {
  MERGEPATH_HD bool operator()(const point& l, const point& r) const { return l.x < r.x; }
};

// Test keys are made from non-negative integers; the mapping keeps their order.
template <class Key>
Key key_from(std::int64_t v) {
  return static_cast<Key>(v);
}
template <>
inline point key_from<point>(std::int64_t v) {
  return {static_cast<int>(v >> 2), static_cast<float>(v & 3)};
}

// Typed-test cases: a key type and its comparator; for pairs also a value type (it records each
// element's origin). CTest shows them in the test names, e.g.
// HostMerge.MatchesStdMerge<mergepath_test::keys_case<long, mergepath::greater<void> > >.
template <class Key, class Comp>
struct keys_case {
  using key = Key;
  using comp = Comp;
};
template <class Key, class Value, class Comp>
struct pairs_case {
  using key = Key;
  using value = Value;
  using comp = Comp;
};

// The GPU merge's tile for these types (keys only: Value = void), as the tile-edge sizes use it.
template <class Key, class Value = void>
constexpr index_t merge_tile_items() {
  std::size_t value_bytes = 0;
  if constexpr (!std::is_void_v<Value>) value_bytes = sizeof(Value);
  return mergepath::merge_tuning_for(90, sizeof(Key), value_bytes).tile_items();
}

// ---------------------------------------------------------------------------------------------
// Seeds: one per run, printed with every failure; MERGEPATH_TEST_SEED=<n> replays a run.

inline std::uint64_t base_seed() {
  static const std::uint64_t seed = [] {
    if (const char* s = std::getenv("MERGEPATH_TEST_SEED")) return std::uint64_t{std::strtoull(s, nullptr, 0)};
    std::random_device device;
    return (std::uint64_t{device()} << 32) ^ device();
  }();
  return seed;
}

// A seed for one case, derived from the run's seed and the case's own numbers.
inline std::uint64_t case_seed(std::initializer_list<std::int64_t> parts) {
  std::uint64_t h = base_seed();
  for (std::int64_t p : parts) {  // splitmix64 steps
    h += 0x9e3779b97f4a7c15ull + static_cast<std::uint64_t>(p);
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
    h ^= h >> 31;
  }
  return h;
}

// Prints the seed once per run (the failures print it again in their trace).
class seed_environment : public ::testing::Environment {
 public:
  void SetUp() override { std::cout << "[ mergepath ] MERGEPATH_TEST_SEED=" << base_seed() << '\n'; }
};
inline ::testing::Environment* const seed_environment_registered =
    ::testing::AddGlobalTestEnvironment(new seed_environment);

// ---------------------------------------------------------------------------------------------
// Distributions and sizes

enum class distribution { uniform, sorted, reversed, all_equal, few_distinct, organ_pipe };

inline const char* to_string(distribution d) {
  switch (d) {
    case distribution::uniform:
      return "uniform";
    case distribution::sorted:
      return "sorted";
    case distribution::reversed:
      return "reversed";
    case distribution::all_equal:
      return "all_equal";
    case distribution::few_distinct:
      return "few_distinct";
    case distribution::organ_pipe:
      return "organ_pipe";
  }
  return "?";
}

inline const std::vector<distribution>& all_distributions() {
  static const std::vector<distribution> all{distribution::uniform,      distribution::sorted,
                                             distribution::reversed,     distribution::all_equal,
                                             distribution::few_distinct, distribution::organ_pipe};
  return all;
}

// count non-negative values shaped by d: uniform in [0, 2^30), 0 1 2 ..., ... 2 1 0, all 42,
// four distinct values, or 0 1 .. m .. 1 0.
inline std::vector<std::int64_t> make_values(distribution d, index_t count, std::mt19937_64& rng) {
  std::vector<std::int64_t> v(static_cast<std::size_t>(count));
  std::uniform_int_distribution<std::int64_t> wide(0, (std::int64_t{1} << 30) - 1), few(0, 3);
  for (index_t i = 0; i < count; ++i) {
    auto& x = v[static_cast<std::size_t>(i)];
    switch (d) {
      case distribution::uniform:
        x = wide(rng);
        break;
      case distribution::sorted:
        x = i;
        break;
      case distribution::reversed:
        x = count - 1 - i;
        break;
      case distribution::all_equal:
        x = 42;
        break;
      case distribution::few_distinct:
        x = few(rng);
        break;
      case distribution::organ_pipe:
        x = std::min(i, count - 1 - i);
        break;
    }
  }
  return v;
}

// The largest size a sweep uses: $MERGEPATH_TEST_MAX_SIZE (the sanitizer runs set it), else all.
inline index_t max_test_size() {
  const char* s = std::getenv("MERGEPATH_TEST_MAX_SIZE");
  return s ? std::strtoll(s, nullptr, 0) : std::numeric_limits<index_t>::max();
}

inline std::vector<index_t> sorted_unique_capped(std::vector<index_t> sizes) {
  index_t cap = max_test_size();
  sizes.erase(std::remove_if(sizes.begin(), sizes.end(), [&](index_t n) { return n < 0 || n > cap; }), sizes.end());
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

// Output sizes that find tile-edge bugs: empty, tiny, a tile and one either side, more than two
// tiles, primes, and one large size.
inline std::vector<index_t> merge_sizes(index_t tile) {
  return sorted_unique_capped({0, 1, 2, tile - 1, tile, tile + 1, 2 * tile + 1, 1009, 65537, (1 << 20) + 3});
}

// The textbook ladder's edges: its tile (1024 per input) and its section (16384 outputs per block).
inline std::vector<index_t> textbook_sizes() {
  constexpr index_t tile = 1024, section = 16 * tile;
  return sorted_unique_capped({0, 1, 2, tile - 1, tile, tile + 1, 2 * tile + 1, section - 1, section, section + 1,
                               3 * section + 7, 65537, (1 << 20) + 3});
}

// One merge problem: how the output is shared between a and b, and how the keys look.
struct merge_case {
  index_t a_count, b_count;
  distribution dist;
  std::uint64_t seed;

  std::string name() const {
    std::ostringstream os;
    os << "a_count " << a_count << ", b_count " << b_count << ", " << to_string(dist)
       << " (MERGEPATH_TEST_SEED=" << base_seed() << ")";
    return os.str();
  }
};

// For every size n: n split evenly, all in a, all in b, and very unbalanced both ways (the largest
// sizes only evenly and one unbalanced way, to keep the suite fast); times every distribution.
inline std::vector<merge_case> merge_cases(const std::vector<index_t>& sizes) {
  ::testing::Test::RecordProperty("MERGEPATH_TEST_SEED", std::to_string(base_seed()));
  std::vector<merge_case> cases;
  for (index_t n : sizes) {
    std::vector<std::pair<index_t, index_t>> splits{{n / 2, n - n / 2}, {n / 50, n - n / 50}};
    if (n < 100000) splits.insert(splits.end(), {{n, 0}, {0, n}, {n - 1 - n / 50, 1 + n / 50}});
    for (auto [a_count, b_count] : splits) {
      if (a_count < 0 || b_count < 0) continue;
      for (distribution d : all_distributions())
        cases.push_back({a_count, b_count, d, case_seed({a_count, b_count, static_cast<int>(d)})});
    }
  }
  return cases;
}

// ---------------------------------------------------------------------------------------------
// Inputs and oracles

template <class Key>
struct merge_input {
  std::vector<Key> a, b;
};

// The distribution shapes the whole sequence a ++ b, then a and b are each sorted by comp: so
// "sorted" puts all of a before all of b, "reversed" all of b before a, "organ_pipe" interleaves
// them with ties, "all_equal" makes every key a tie.
template <class Key, class Comp>
merge_input<Key> make_merge_input(const merge_case& c, Comp comp) {
  std::mt19937_64 rng(c.seed);
  std::vector<std::int64_t> values = make_values(c.dist, c.a_count + c.b_count, rng);
  merge_input<Key> in;
  in.a.reserve(static_cast<std::size_t>(c.a_count));
  in.b.reserve(static_cast<std::size_t>(c.b_count));
  for (index_t i = 0; i < c.a_count + c.b_count; ++i)
    (i < c.a_count ? in.a : in.b).push_back(key_from<Key>(values[static_cast<std::size_t>(i)]));
  std::sort(in.a.begin(), in.a.end(), comp);
  std::sort(in.b.begin(), in.b.end(), comp);
  return in;
}

// Values that record where each element came from: a[i] carries i, b[j] carries a_count + j.
template <class Value>
std::vector<Value> origins(index_t count, index_t first) {
  std::vector<Value> v(static_cast<std::size_t>(count));
  for (index_t i = 0; i < count; ++i) v[static_cast<std::size_t>(i)] = static_cast<Value>(first + i);
  return v;
}

template <class Key, class Comp>
std::vector<Key> std_merge(const std::vector<Key>& a, const std::vector<Key>& b, Comp comp) {
  std::vector<Key> out(a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), out.begin(), comp);
  return out;
}

// std::merge of (key, value) pairs compared on keys only: stable, so of equal keys a's come
// first, each side in its own order. The expected output of merge_pairs.
template <class Key, class Value, class Comp>
std::pair<std::vector<Key>, std::vector<Value>> std_merge_pairs(const std::vector<Key>& a_keys,
                                                                const std::vector<Value>& a_vals,
                                                                const std::vector<Key>& b_keys,
                                                                const std::vector<Value>& b_vals, Comp comp) {
  using kv = std::pair<Key, Value>;
  std::vector<kv> a(a_keys.size()), b(b_keys.size()), out(a_keys.size() + b_keys.size());
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = {a_keys[i], a_vals[i]};
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = {b_keys[i], b_vals[i]};
  std::merge(a.begin(), a.end(), b.begin(), b.end(), out.begin(),
             [&](const kv& l, const kv& r) { return comp(l.first, r.first); });
  std::pair<std::vector<Key>, std::vector<Value>> result;
  for (const kv& e : out) {
    result.first.push_back(e.first);
    result.second.push_back(e.second);
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Checks

// actual[0, expected.size()) == expected; on failure names the first mismatch and how many.
template <class T>
::testing::AssertionResult ranges_equal(const std::vector<T>& expected, const T* actual) {
  std::size_t first = expected.size(), mismatches = 0;
  for (std::size_t i = 0; i < expected.size(); ++i)
    if (!(expected[i] == actual[i])) {
      if (mismatches++ == 0) first = i;
    }
  if (mismatches == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << mismatches << " of " << expected.size() << " elements differ; first at ["
                                       << first << "]: expected " << expected[first] << ", got " << actual[first];
}
template <class T>
::testing::AssertionResult ranges_equal(const std::vector<T>& expected, const std::vector<T>& actual) {
  if (actual.size() < expected.size())
    return ::testing::AssertionFailure() << "size " << actual.size() << ", expected " << expected.size();
  return ranges_equal(expected, actual.data());
}

// Output buffers start poisoned: every byte 0xA5 (a negative or huge value no test key takes).
template <class T>
T poison() {
  T x;
  std::memset(static_cast<void*>(&x), 0xA5, sizeof(T));
  return x;
}

// x[begin, end) still holds the poison: nothing was written there.
template <class T>
::testing::AssertionResult untouched(const std::vector<T>& x, std::size_t begin, std::size_t end) {
  T p = poison<T>();
  for (std::size_t i = begin; i < end; ++i)
    if (std::memcmp(&x[i], &p, sizeof(T)) != 0)
      return ::testing::AssertionFailure() << "element [" << i << "] was written (" << x[i] << ")";
  return ::testing::AssertionSuccess();
}

// Runs f, which must throw std::invalid_argument whose message contains `text`.
template <class F>
void expect_invalid_argument(F f, const std::string& text) {
  try {
    f();
    ADD_FAILURE() << "no exception; expected std::invalid_argument containing \"" << text << '"';
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
  }
}

// Elements written past the output's end would land here.
constexpr std::size_t guard_items = 257;

// got = guard ++ output ++ guard (guard_items each, poisoned): the output equals expected and
// both guards are untouched.
template <class T>
::testing::AssertionResult guarded_equal(const std::vector<T>& expected, const std::vector<T>& got) {
  if (got.size() != expected.size() + 2 * guard_items)
    return ::testing::AssertionFailure() << "guarded size " << got.size() << " for " << expected.size() << " outputs";
  if (auto r = untouched(got, 0, guard_items); !r) return r << " (guard before the output)";
  if (auto r = ranges_equal(expected, got.data() + guard_items); !r) return r;
  if (auto r = untouched(got, guard_items + expected.size(), got.size()); !r) return r << " (guard after the output)";
  return ::testing::AssertionSuccess();
}

// A random-access view of base[0, size) that fails the test on any access outside it (and then
// reads element 0 of a dummy instead). Used to show an algorithm stays in bounds on bad data.
template <class T>
struct bounds_checked {
  T* base;
  index_t position;
  index_t size;

  T& operator[](index_t i) const {
    index_t j = position + i;
    if (j < 0 || j >= size) {
      ADD_FAILURE() << "access to [" << j << "], outside [0, " << size << ")";
      static thread_local std::remove_const_t<T> dummy{};
      return dummy;
    }
    return base[j];
  }
  T& operator*() const { return (*this)[0]; }
  bounds_checked operator+(index_t n) const { return {base, position + n, size}; }
};

template <class T>
bounds_checked<T> checked_view(std::vector<T>& v) {
  return {v.data(), 0, static_cast<index_t>(v.size())};
}
template <class T>
bounds_checked<const T> checked_view(const std::vector<T>& v) {
  return {v.data(), 0, static_cast<index_t>(v.size())};
}

}  // namespace mergepath_test
