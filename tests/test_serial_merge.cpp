// serial_merge, serial_merge_pairs, their chained forms and serial_merge_n (one thread's share)
// against std::merge.
#include <gtest/gtest.h>

#include <algorithm>
#include <mergepath/thread/merge_path.hpp>
#include <mergepath/thread/serial_merge.hpp>
#include <numeric>
#include <random>
#include <vector>

#include "test_util.hpp"

namespace mergepath_test {
namespace {

using mergepath::bounds;

const std::vector<index_t> small_sizes{0, 1, 2, 3, 7, 16, 100, 1009};

// merge(a, a_count, b, b_count, out, comp) against std::merge, with a guard after the output.
template <class Key, class Comp, class Merge>
void check_merge_against_std(const std::vector<index_t>& sizes, Comp comp, Merge merge) {
  for (const merge_case& c : merge_cases(sizes)) {
    SCOPED_TRACE(c.name());
    merge_input<Key> in = make_merge_input<Key>(c, comp);
    std::vector<Key> out(in.a.size() + in.b.size() + guard_items, poison<Key>());
    merge(in.a.data(), c.a_count, in.b.data(), c.b_count, out.data(), comp);
    ASSERT_TRUE(ranges_equal(std_merge(in.a, in.b, comp), out));
    ASSERT_TRUE(untouched(out, out.size() - guard_items, out.size()));
  }
}

template <class Key, class Comp>
void check_serial_merge(Comp comp) {
  check_merge_against_std<Key>(small_sizes, comp, [](auto... args) { mergepath::serial_merge(args...); });
}

TEST(SerialMerge, MatchesStdMerge) {
  check_serial_merge<int>(mergepath::less<>{});
  check_serial_merge<double>(mergepath::greater<>{});
  check_serial_merge<point>(point_less{});
}

// Keys only, yet stability shows: point_x_less ties points of equal x, and y tells them apart.
TEST(SerialMerge, IsStable) { check_serial_merge<point>(point_x_less{}); }

// merge_pairs(a_keys, a_vals, a_count, b_keys, b_vals, b_count, out_keys, out_vals, comp) against
// std::merge: values record each key's origin, so stability shows in them.
template <class MergePairs>
void check_pairs_against_std(const std::vector<index_t>& sizes, MergePairs merge_pairs) {
  for (const merge_case& c : merge_cases(sizes)) {
    SCOPED_TRACE(c.name());
    merge_input<int> in = make_merge_input<int>(c, mergepath::less<>{});
    std::vector<long> a_vals = origins<long>(c.a_count, 0), b_vals = origins<long>(c.b_count, c.a_count);
    index_t total = c.a_count + c.b_count;
    std::vector<int> keys(static_cast<std::size_t>(total));
    std::vector<long> vals(static_cast<std::size_t>(total));
    merge_pairs(in.a.data(), a_vals.data(), c.a_count, in.b.data(), b_vals.data(), c.b_count, keys.data(),
                vals.data(), mergepath::less<>{});
    auto expected = std_merge_pairs(in.a, a_vals, in.b, b_vals, mergepath::less<>{});
    ASSERT_TRUE(ranges_equal(expected.first, keys));
    ASSERT_TRUE(ranges_equal(expected.second, vals));
  }
}

TEST(SerialMerge, Pairs) {
  check_pairs_against_std(small_sizes, [](auto... args) { mergepath::serial_merge_pairs(args...); });
}

// The chained form (a CPU thread's merge as four merges stepped together): sizes below and past
// its threshold, uneven splits, stability of keys and of pairs.
const std::vector<index_t> chained_sizes{0, 1, 255, 256, 257, 1009, 4099, 70001};

template <class Key, class Comp>
void check_serial_merge_chained(Comp comp) {
  check_merge_against_std<Key>(chained_sizes, comp, [](auto... args) { mergepath::serial_merge_chained(args...); });
}

TEST(SerialMergeChained, MatchesStdMerge) {
  check_serial_merge_chained<int>(mergepath::less<>{});
  check_serial_merge_chained<double>(mergepath::greater<>{});
  check_serial_merge_chained<point>(point_x_less{});  // stability: equal x, y tells them apart
}

TEST(SerialMergeChained, Pairs) {
  check_pairs_against_std(chained_sizes, [](auto... args) { mergepath::serial_merge_pairs_chained(args...); });
}

// Unsorted input: an unspecified order, but every write lands in [0, total) and the output is a
// permutation of the input (the chains' splits stay monotonic).
TEST(SerialMergeChained, UnsortedInputStaysInBounds) {
  std::mt19937 rng(5);
  for (index_t n : {index_t{300}, index_t{5000}}) {
    std::vector<int> a(static_cast<std::size_t>(n)), b(static_cast<std::size_t>(n / 3));
    for (int& x : a) x = static_cast<int>(rng() % 100);
    for (int& x : b) x = static_cast<int>(rng() % 100);
    std::vector<int> out(a.size() + b.size() + guard_items, poison<int>());
    mergepath::serial_merge_chained(a.data(), static_cast<index_t>(a.size()), b.data(),
                                    static_cast<index_t>(b.size()), out.data(), mergepath::less<>{});
    ASSERT_TRUE(untouched(out, out.size() - guard_items, out.size()));
    std::vector<int> got(out.begin(), out.end() - guard_items), want = a;
    want.insert(want.end(), b.begin(), b.end());
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    EXPECT_EQ(want, got);
  }
}

// One tile of the GPU merge, run on the host: keys[0, a_count) and keys[a_count, count) are the
// tile's runs; "thread" t starts at output ItemsPerThread * t by merge_path and makes
// ItemsPerThread outputs with serial_merge_n, as block::merge_tile_in_shared does. Returns the
// valid outputs' sources, concatenated. keys is bounds-checked: serial_merge_n may read up to
// ItemsPerThread + 1 slots past the tile (the padding the GPU tile buffers have); any read
// outside that fails the test.
template <int ItemsPerThread, bounds Bounds, class Comp>
std::vector<int> merge_tile_on_host(const std::vector<int>& keys, int a_count, Comp comp) {
  int count = static_cast<int>(keys.size());
  std::vector<int> storage = keys;
  storage.resize(keys.size() + ItemsPerThread + 1, -1);  // the tile buffer's padding
  bounds_checked<const int> view{storage.data(), 0, static_cast<index_t>(storage.size())};
  std::vector<int> sources;
  int threads = count / ItemsPerThread + 2;  // and some threads past the end, like a real block
  for (int t = 0; t < threads; ++t) {
    int diag = std::min(ItemsPerThread * t, count);
    int a_begin = mergepath::merge_path<Bounds>(view, a_count, view + a_count, count - a_count, diag, comp);
    int out[ItemsPerThread], source[ItemsPerThread];
    mergepath::serial_merge_n<ItemsPerThread, Bounds>(view, a_begin, a_count, a_count + diag - a_begin, count, out,
                                                      source, comp);
    for (int k = 0; k < std::min(ItemsPerThread, count - diag); ++k) {
      EXPECT_TRUE(0 <= source[k] && source[k] < count) << "thread " << t << " output " << k << " source " << source[k];
      if (0 <= source[k] && source[k] < count) {
        EXPECT_EQ(out[k], keys[static_cast<std::size_t>(source[k])]);
      }
      sources.push_back(source[k]);
    }
  }
  return sources;
}

// The sources a tile merge must produce: positions 0..a_count-1 and a_count..count-1 merged by
// their keys, ties to the a run (bounds::lower) or to the b run (bounds::upper).
template <class Comp>
std::vector<int> expected_tile_sources(const std::vector<int>& keys, int a_count, bounds which, Comp comp) {
  std::vector<int> a(static_cast<std::size_t>(a_count)), b(keys.size() - a.size()), out(keys.size());
  std::iota(a.begin(), a.end(), 0);
  std::iota(b.begin(), b.end(), a_count);
  auto by_key = [&](int l, int r) {
    return comp(keys[static_cast<std::size_t>(l)], keys[static_cast<std::size_t>(r)]);
  };
  if (which == bounds::lower)
    std::merge(a.begin(), a.end(), b.begin(), b.end(), out.begin(), by_key);
  else
    std::merge(b.begin(), b.end(), a.begin(), a.end(), out.begin(), by_key);
  return out;
}

template <int ItemsPerThread, bounds Bounds>
void check_serial_merge_n_tiles() {
  SCOPED_TRACE(::testing::Message() << "ItemsPerThread " << ItemsPerThread << ", "
                                    << (Bounds == bounds::lower ? "lower" : "upper"));
  std::mt19937_64 rng(case_seed({ItemsPerThread, static_cast<int>(Bounds)}));
  for (int trial = 0; trial < 300; ++trial) {
    int count = std::uniform_int_distribution<int>(0, 4 * ItemsPerThread + 3)(rng);
    int a_count = std::uniform_int_distribution<int>(0, count)(rng);
    std::vector<int> keys(static_cast<std::size_t>(count));
    for (int& k : keys) k = std::uniform_int_distribution<int>(0, 5)(rng);  // many ties
    std::sort(keys.begin(), keys.begin() + a_count);
    std::sort(keys.begin() + a_count, keys.end());
    SCOPED_TRACE(::testing::Message() << "trial " << trial << ", a_count " << a_count << ", count " << count
                                      << " (MERGEPATH_TEST_SEED=" << base_seed() << ")");
    std::vector<int> sources = merge_tile_on_host<ItemsPerThread, Bounds>(keys, a_count, mergepath::less<>{});
    ASSERT_EQ(sources, expected_tile_sources(keys, a_count, Bounds, mergepath::less<>{}));
  }
}

TEST(SerialMergeN, TileOfThreadsMatchesStdMerge) {
  check_serial_merge_n_tiles<1, bounds::lower>();
  check_serial_merge_n_tiles<7, bounds::lower>();
  check_serial_merge_n_tiles<15, bounds::lower>();
  check_serial_merge_n_tiles<1, bounds::upper>();
  check_serial_merge_n_tiles<7, bounds::upper>();
  check_serial_merge_n_tiles<15, bounds::upper>();
}

// Unsorted runs: the outputs are unspecified, but every read stays inside the tile and every
// valid output's source is a position of the tile (merge_tile_on_host checks both).
template <int ItemsPerThread, bounds Bounds>
void check_serial_merge_n_unsorted() {
  std::mt19937_64 rng(case_seed({ItemsPerThread, static_cast<int>(Bounds), 1}));
  for (int trial = 0; trial < 300; ++trial) {
    int count = std::uniform_int_distribution<int>(0, 4 * ItemsPerThread + 3)(rng);
    int a_count = std::uniform_int_distribution<int>(0, count)(rng);
    std::vector<int> keys(static_cast<std::size_t>(count));
    for (int& k : keys) k = std::uniform_int_distribution<int>(0, 1000)(rng);
    SCOPED_TRACE(::testing::Message() << "trial " << trial << ", a_count " << a_count << ", count " << count
                                      << " (MERGEPATH_TEST_SEED=" << base_seed() << ")");
    merge_tile_on_host<ItemsPerThread, Bounds>(keys, a_count, mergepath::less<>{});
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(SerialMergeN, UnsortedTileStaysInBounds) {
  check_serial_merge_n_unsorted<1, bounds::lower>();
  check_serial_merge_n_unsorted<7, bounds::lower>();
  check_serial_merge_n_unsorted<15, bounds::upper>();
}

// The slow path of a tile whose slices disagree (block/slice_check.cuh): every thread advances
// from the merge's start to its own, then walks its outputs. Under any comparator, <= and a coin
// flip included, the slices then tile the runs: each position taken once, by the walk the whole
// merge takes, and the a position after each thread's walk is where the next thread starts.
template <int ItemsPerThread, bounds Bounds, class Comp>
void check_advanced_slices_tile_the_runs(Comp comp, int salt) {
  std::mt19937_64 rng(case_seed({ItemsPerThread, static_cast<int>(Bounds), salt}));
  for (int trial = 0; trial < 300; ++trial) {
    const int count = std::uniform_int_distribution<int>(0, 6 * ItemsPerThread + 3)(rng);
    const int a_count = std::uniform_int_distribution<int>(0, count)(rng);
    std::vector<int> keys(static_cast<std::size_t>(count + ItemsPerThread + 1));  // serial_merge_n's padding
    for (int& k : keys) k = std::uniform_int_distribution<int>(0, 9)(rng);
    SCOPED_TRACE(::testing::Message() << "trial " << trial << ", a_count " << a_count << ", count " << count);
    std::vector<int> taken(static_cast<std::size_t>(count));
    int previous_end = 0;
    for (int diag = 0; diag < count; diag += ItemsPerThread) {
      int a = 0, b = a_count;
      mergepath::serial_merge_advance<Bounds>(keys.data(), a, a_count, b, count, diag, comp);
      ASSERT_EQ(a + (b - a_count), diag);
      ASSERT_EQ(a, previous_end);
      int out[ItemsPerThread], source[ItemsPerThread];
      previous_end = mergepath::serial_merge_n<ItemsPerThread, Bounds>(keys.data(), a, a_count, b, count, out, source, comp);
      for (int k = 0; k < ItemsPerThread && diag + k < count; ++k) {
        ASSERT_TRUE(source[k] >= 0 && source[k] < count) << "output " << diag + k;
        ++taken[source[k]];
      }
    }
    for (int p = 0; p < count; ++p) ASSERT_EQ(taken[p], 1) << "position " << p;
  }
}

TEST(SerialMergeAdvance, SlicesTileTheRunsUnderAnyComparator) {
  check_advanced_slices_tile_the_runs<1, bounds::lower>(mergepath::less<>{}, 1);
  check_advanced_slices_tile_the_runs<7, bounds::lower>([](int x, int y) { return x <= y; }, 2);
  check_advanced_slices_tile_the_runs<7, bounds::upper>([](int x, int y) { return x != y; }, 3);
  check_advanced_slices_tile_the_runs<15, bounds::lower>([](int x, int y) { return ((x * 7 + y * 3) & 1) != 0; }, 4);
}

}  // namespace
}  // namespace mergepath_test
