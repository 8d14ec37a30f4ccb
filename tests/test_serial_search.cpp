// serial_search_n (one GPU thread's share of a sorted-search tile) run on the host: every thread
// of a tile, each starting where merge_path puts it, against std::lower_bound / upper_bound and
// membership. The tile's buffer is bounds-checked, so a read past its padding fails the test.
#include <gtest/gtest.h>

#include <algorithm>
#include <mergepath/thread/merge_path.hpp>
#include <mergepath/thread/serial_search.hpp>
#include <random>
#include <vector>

#include "test_util.hpp"

namespace mergepath_test {
namespace {

using mergepath::bounds;

// One element's result: its bound in the other input and whether that input holds an equal.
struct found {
  index_t bound = -1;
  bool match = false;
  bool operator==(const found& o) const { return bound == o.bound && match == o.match; }
};

// The tile of the search's Merge Path between diagonals diag0 and diag1 of a and b, searched by
// threads of ItemsPerThread steps as the GPU kernel does; each step's result lands in a_found /
// b_found (at the element's global position). Where both runs have next elements the walk
// without end tests runs too: on sorted input it must decide the same, on unsorted input it
// must still read only the tile's buffer.
template <int ItemsPerThread, bounds Bounds>
void search_tile_on_host(const std::vector<int>& a, const std::vector<int>& b, index_t diag0, index_t diag1,
                         std::vector<found>& a_found, std::vector<found>& b_found, bool sorted = true) {
  mergepath::less<> comp;
  const index_t a_count = static_cast<index_t>(a.size()), b_count = static_cast<index_t>(b.size());
  const index_t a0 = mergepath::merge_path<Bounds>(a.data(), a_count, b.data(), b_count, diag0, comp);
  // Clamped as the kernel does: on unsorted input the two searches need not agree.
  const index_t a1 = mergepath::clamp_next_split(
      a0, mergepath::merge_path<Bounds>(a.data(), a_count, b.data(), b_count, diag1, comp), diag0, diag1);
  const index_t b0 = diag0 - a0, b1 = diag1 - a1;
  const int a_n = static_cast<int>(a1 - a0), b_n = static_cast<int>(b1 - b0);
  const int a_before = a0 > 0, a_after = a1<a_count, b_before = b0> 0, b_after = b1 < b_count;

  // The tile buffer: each run with its neighbours, then the padding the walk may read.
  std::vector<int> storage(a.begin() + (a0 - a_before), a.begin() + (a1 + a_after));
  const index_t b_pos = static_cast<index_t>(storage.size()) + b_before;
  storage.insert(storage.end(), b.begin() + (b0 - b_before), b.begin() + (b1 + b_after));
  storage.resize(storage.size() + ItemsPerThread + 1, -7);
  const index_t size = static_cast<index_t>(storage.size());
  const bounds_checked<const int> a_view{storage.data(), a_before, size}, b_view{storage.data(), b_pos, size};
  const mergepath::search_runs<bounds_checked<const int>> runs{a_view, a_n, a_before, a_after,
                                                               b_view, b_n, b_before, b_after};

  const int count = a_n + b_n;
  for (int t = 0; t <= count / ItemsPerThread + 1; ++t) {  // and a thread past the end, like a real block
    int diag = std::min(ItemsPerThread * t, count);
    int steps = std::min(ItemsPerThread, count - diag);
    int i = mergepath::merge_path<Bounds>(a_view, a_n, b_view, b_n, diag, comp);
    int j = diag - i;
    mergepath::search_steps decided =
        mergepath::serial_search_n<Bounds, true, true, ItemsPerThread>(runs, i, j, steps, comp);
    if (a_after && b_after) {  // the kernel's walk without end tests: the same decisions on sorted input
      mergepath::search_steps by_neighbours =
          mergepath::serial_search_n<Bounds, true, true, ItemsPerThread, mergepath::run_ends::by_neighbours>(
              runs, i, j, steps, comp);
      if (sorted) {
        EXPECT_EQ(by_neighbours.from_a, decided.from_a) << "thread " << t;
        EXPECT_EQ(by_neighbours.matched, decided.matched) << "thread " << t;
        EXPECT_TRUE(mergepath::search_steps_fit(runs, i, j, by_neighbours, steps)) << "thread " << t;
      }
    }
    EXPECT_TRUE(mergepath::search_steps_fit(runs, i, j, decided, steps)) << "thread " << t;
    unsigned past = steps >= 32 ? 0u : ~((1u << steps) - 1);
    EXPECT_EQ((decided.from_a | decided.matched) & past, 0u) << "thread " << t << ": decisions past its steps";
    for (int k = 0; k < steps; ++k) {
      bool match = (decided.matched >> k) & 1u;
      if ((decided.from_a >> k) & 1u)
        a_found[static_cast<std::size_t>(a0 + i++)] = {b0 + j, match};
      else
        b_found[static_cast<std::size_t>(b0 + j++)] = {a0 + i, match};
    }
  }
}

// What each element of a and b must get: bounds::lower gives a its lower bounds in b and b its
// upper bounds in a (ties come out a first); bounds::upper the reverse.
std::vector<found> expected_found(const std::vector<int>& keys, const std::vector<int>& other, bool lower) {
  std::vector<found> out;
  for (int key : keys) {
    auto at =
        lower ? std::lower_bound(other.begin(), other.end(), key) : std::upper_bound(other.begin(), other.end(), key);
    out.push_back({at - other.begin(), std::binary_search(other.begin(), other.end(), key)});
  }
  return out;
}

template <int ItemsPerThread, bounds Bounds>
void check_search_tiles() {
  SCOPED_TRACE(::testing::Message() << "ItemsPerThread " << ItemsPerThread << ", "
                                    << (Bounds == bounds::lower ? "lower" : "upper"));
  std::mt19937_64 rng(case_seed({ItemsPerThread, static_cast<int>(Bounds), 2}));
  for (int trial = 0; trial < 200; ++trial) {
    int a_count = std::uniform_int_distribution<int>(0, 5 * ItemsPerThread)(rng);
    int b_count = std::uniform_int_distribution<int>(0, 5 * ItemsPerThread)(rng);
    int range = std::uniform_int_distribution<int>(1, 3 * (a_count + b_count) + 1)(rng);  // from all equal to no ties
    std::vector<int> a(static_cast<std::size_t>(a_count)), b(static_cast<std::size_t>(b_count));
    for (int& k : a) k = std::uniform_int_distribution<int>(0, range - 1)(rng);
    for (int& k : b) k = std::uniform_int_distribution<int>(0, range - 1)(rng);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    SCOPED_TRACE(::testing::Message() << "trial " << trial << ", |a| " << a_count << ", |b| " << b_count
                                      << ", keys in [0, " << range << ") (MERGEPATH_TEST_SEED=" << base_seed() << ")");
    // Tiles of random length cover the path, so every element comes out of exactly one.
    std::vector<found> a_found(a.size()), b_found(b.size());
    index_t total = a_count + b_count;
    for (index_t diag0 = 0; diag0 < total;) {
      index_t diag1 = std::min<index_t>(total, diag0 + std::uniform_int_distribution<int>(1, 4 * ItemsPerThread)(rng));
      search_tile_on_host<ItemsPerThread, Bounds>(a, b, diag0, diag1, a_found, b_found);
      diag0 = diag1;
    }
    ASSERT_TRUE(a_found == expected_found(a, b, Bounds == bounds::lower));
    ASSERT_TRUE(b_found == expected_found(b, a, Bounds == bounds::upper));
  }
}

TEST(SerialSearchN, TilesOfThreadsMatchStdBounds) {
  check_search_tiles<1, bounds::lower>();
  check_search_tiles<7, bounds::lower>();
  check_search_tiles<23, bounds::lower>();
  check_search_tiles<32, bounds::lower>();
  check_search_tiles<1, bounds::upper>();
  check_search_tiles<7, bounds::upper>();
  check_search_tiles<23, bounds::upper>();
  check_search_tiles<32, bounds::upper>();
}

// Unsorted input: the results are unspecified, but every read stays inside the tile's buffer
// (bounds_checked fails the test otherwise) and no decision is reported past a thread's steps.
TEST(SerialSearchN, UnsortedTileStaysInBounds) {
  std::mt19937_64 rng(case_seed({3}));
  for (int trial = 0; trial < 200; ++trial) {
    int a_count = std::uniform_int_distribution<int>(0, 60)(rng);
    int b_count = std::uniform_int_distribution<int>(0, 60)(rng);
    std::vector<int> a(static_cast<std::size_t>(a_count)), b(static_cast<std::size_t>(b_count));
    for (int& k : a) k = std::uniform_int_distribution<int>(0, 1000)(rng);
    for (int& k : b) k = std::uniform_int_distribution<int>(0, 1000)(rng);
    SCOPED_TRACE(::testing::Message() << "trial " << trial << " (MERGEPATH_TEST_SEED=" << base_seed() << ")");
    std::vector<found> a_found(a.size()), b_found(b.size());
    index_t total = a_count + b_count;
    for (index_t diag0 = 0; diag0 < total; diag0 += 37)
      search_tile_on_host<7, bounds::lower>(a, b, diag0, std::min<index_t>(total, diag0 + 37), a_found, b_found, false);
    if (::testing::Test::HasFailure()) return;
  }
}

}  // namespace
}  // namespace mergepath_test
