// merge_path (the co-rank search) and clamp_next_split on their own, against brute force.
#include <gtest/gtest.h>

#include <algorithm>
#include <mergepath/thread/merge_path.hpp>
#include <mergepath/thread/multiway_split.hpp>
#include <tuple>
#include <random>
#include <vector>

#include "test_util.hpp"

namespace mergepath_test {
namespace {

using mergepath::bounds;

// How many of the first diag outputs of the merge come from a, by std::merge itself: ties take
// a first (bounds::lower, the stable merge) or b first (bounds::upper).
template <class Comp>
index_t co_rank_by_std_merge(bounds which, const std::vector<int>& a, const std::vector<int>& b, index_t diag,
                             Comp comp) {
  using tagged = std::pair<int, bool>;  // (key, from a)
  std::vector<tagged> ta, tb, out(a.size() + b.size());
  for (int x : a) ta.push_back({x, true});
  for (int x : b) tb.push_back({x, false});
  auto by_key = [&](const tagged& l, const tagged& r) { return comp(l.first, r.first); };
  if (which == bounds::lower)
    std::merge(ta.begin(), ta.end(), tb.begin(), tb.end(), out.begin(), by_key);
  else
    std::merge(tb.begin(), tb.end(), ta.begin(), ta.end(), out.begin(), by_key);
  return std::count_if(out.begin(), out.begin() + diag, [](const tagged& t) { return t.second; });
}

// The lecture's definition: i (with j = diag - i) is the co-rank when a[i-1] goes out before
// b[j] and b[j-1] before a[i]. For sorted input exactly one i in range satisfies it.
template <class Comp>
std::vector<index_t> co_ranks_by_definition(bounds which, const std::vector<int>& a, const std::vector<int>& b,
                                            index_t diag, Comp comp) {
  index_t na = static_cast<index_t>(a.size()), nb = static_cast<index_t>(b.size());
  // "x goes out before y", x from a and y from b, or the other way round.
  auto a_before_b = [&](int x, int y) { return which == bounds::lower ? !comp(y, x) : comp(x, y); };
  auto b_before_a = [&](int y, int x) { return which == bounds::lower ? comp(y, x) : !comp(x, y); };
  std::vector<index_t> found;
  for (index_t i = std::max<index_t>(0, diag - nb); i <= std::min(diag, na); ++i) {
    index_t j = diag - i;
    bool a_ok = i == 0 || j == nb || a_before_b(a[i - 1], b[j]);
    bool b_ok = j == 0 || i == na || b_before_a(b[j - 1], a[i]);
    if (a_ok && b_ok) found.push_back(i);
  }
  return found;
}

std::vector<int> random_ints(std::mt19937_64& rng, int count, int distinct) {
  std::uniform_int_distribution<int> pick(0, distinct - 1);
  std::vector<int> v(static_cast<std::size_t>(count));
  for (int& x : v) x = pick(rng);
  return v;
}

template <class Comp>
void check_all_diagonals_against_brute_force(Comp comp) {
  SCOPED_TRACE("MERGEPATH_TEST_SEED=" + std::to_string(base_seed()));
  std::mt19937_64 rng(case_seed({1}));
  std::uniform_int_distribution<int> size(0, 12);
  for (int trial = 0; trial < 2000; ++trial) {
    // Few distinct values, so most diagonals cut through runs of ties.
    std::vector<int> a = random_ints(rng, size(rng), 4), b = random_ints(rng, size(rng), 4);
    std::sort(a.begin(), a.end(), comp);
    std::sort(b.begin(), b.end(), comp);
    index_t na = static_cast<index_t>(a.size()), nb = static_cast<index_t>(b.size());
    for (index_t diag = 0; diag <= na + nb; ++diag) {
      SCOPED_TRACE(::testing::Message() << "trial " << trial << ", diag " << diag);
      index_t lower = mergepath::merge_path<bounds::lower>(a.data(), na, b.data(), nb, diag, comp);
      index_t upper = mergepath::merge_path<bounds::upper>(a.data(), na, b.data(), nb, diag, comp);
      ASSERT_EQ(lower, co_rank_by_std_merge(bounds::lower, a, b, diag, comp));
      ASSERT_EQ(upper, co_rank_by_std_merge(bounds::upper, a, b, diag, comp));
      ASSERT_EQ(co_ranks_by_definition(bounds::lower, a, b, diag, comp), std::vector<index_t>{lower});
      ASSERT_EQ(co_ranks_by_definition(bounds::upper, a, b, diag, comp), std::vector<index_t>{upper});
      // Wider steps (the partition pass's) find the same split.
      ASSERT_EQ((mergepath::merge_path<bounds::lower, 3>(a.data(), na, b.data(), nb, diag, comp)), lower);
      ASSERT_EQ((mergepath::merge_path<bounds::upper, 3>(a.data(), na, b.data(), nb, diag, comp)), upper);
      ASSERT_EQ((mergepath::merge_path<bounds::lower, 7>(a.data(), na, b.data(), nb, diag, comp)), lower);
    }
  }
}

TEST(MergePath, MatchesBruteForceOnEveryDiagonal) { check_all_diagonals_against_brute_force(mergepath::less<>{}); }

TEST(MergePath, MatchesBruteForceWithGreater) { check_all_diagonals_against_brute_force(mergepath::greater<>{}); }

// The worked example of the ECE 508 lecture "Parallel Ordered Merge": A = {1, 7, 8, 9, 10},
// B = {7, 10, 10, 12} merge into C = {1, 7, 7, 8, 9, 10, 10, 10, 12}; co-rank(3) = (i 2, j 1)
// and co-rank(6) = (i 5, j 1).
TEST(MergePath, LectureWorkedExample) {
  std::vector<int> a{1, 7, 8, 9, 10}, b{7, 10, 10, 12};
  ASSERT_EQ(std_merge(a, b, mergepath::less<>{}), (std::vector<int>{1, 7, 7, 8, 9, 10, 10, 10, 12}));
  auto co_rank = [&](index_t k) {
    return mergepath::merge_path(a.data(), index_t{5}, b.data(), index_t{4}, k, mergepath::less<>{});
  };
  EXPECT_EQ(co_rank(3), 2);  // j = 3 - 2 = 1
  EXPECT_EQ(co_rank(6), 5);  // j = 6 - 5 = 1
  EXPECT_EQ(co_rank(0), 0);
  EXPECT_EQ(co_rank(9), 5);
}

// Unsorted input: the result still lies in [max(0, diag - nb), min(diag, na)] and nothing
// outside a[0, na) and b[0, nb) is read.
TEST(MergePath, UnsortedInputStaysInRange) {
  SCOPED_TRACE("MERGEPATH_TEST_SEED=" + std::to_string(base_seed()));
  std::mt19937_64 rng(case_seed({2}));
  std::uniform_int_distribution<int> size(0, 20);
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<int> a = random_ints(rng, size(rng), 1000), b = random_ints(rng, size(rng), 1000);
    index_t na = static_cast<index_t>(a.size()), nb = static_cast<index_t>(b.size());
    for (index_t diag = 0; diag <= na + nb; ++diag) {
      SCOPED_TRACE(::testing::Message() << "trial " << trial << ", diag " << diag);
      for (index_t i :
           {mergepath::merge_path<bounds::lower>(checked_view(a), na, checked_view(b), nb, diag, mergepath::less<>{}),
            mergepath::merge_path<bounds::upper>(checked_view(a), na, checked_view(b), nb, diag, mergepath::less<>{}),
            mergepath::merge_path<bounds::lower, 3>(checked_view(a), na, checked_view(b), nb, diag,
                                                    mergepath::less<>{})}) {
        ASSERT_GE(i, std::max<index_t>(0, diag - nb));
        ASSERT_LE(i, std::min(diag, na));
      }
    }
  }
}

// Every 2^shift-th element of v, as the partition pass samples its inputs.
std::vector<int> samples_of(const std::vector<int>& v, int shift) {
  std::vector<int> s;
  for (std::size_t i = 0; i < v.size(); i += std::size_t{1} << shift) s.push_back(v[i]);
  return s;
}

// merge_path_from_samples: for sorted input the window holds merge_path's answer, is at most
// 2^(shift + 1) wide, and merge_path_within it finds that answer; every diagonal, both tie
// rules, sample strides from 1 to wider than the inputs, and many ties.
template <class Comp>
void check_sampled_windows(Comp comp) {
  SCOPED_TRACE("MERGEPATH_TEST_SEED=" + std::to_string(base_seed()));
  std::mt19937_64 rng(case_seed({5}));
  std::uniform_int_distribution<int> size(0, 40);
  for (int trial = 0; trial < 600; ++trial) {
    int distinct = trial % 3 == 0 ? 1 : trial % 3 == 1 ? 5 : 1000;
    std::vector<int> a = random_ints(rng, size(rng), distinct), b = random_ints(rng, size(rng), distinct);
    std::sort(a.begin(), a.end(), comp);
    std::sort(b.begin(), b.end(), comp);
    index_t na = static_cast<index_t>(a.size()), nb = static_cast<index_t>(b.size());
    for (int shift = 0; shift <= 6; ++shift) {
      std::vector<int> as = samples_of(a, shift), bs = samples_of(b, shift);
      for (index_t diag = 0; diag <= na + nb; ++diag) {
        SCOPED_TRACE(::testing::Message() << "trial " << trial << ", shift " << shift << ", diag " << diag);
        for (bounds which : {bounds::lower, bounds::upper}) {
          index_t expected = which == bounds::lower
                                 ? mergepath::merge_path<bounds::lower>(a.data(), na, b.data(), nb, diag, comp)
                                 : mergepath::merge_path<bounds::upper>(a.data(), na, b.data(), nb, diag, comp);
          auto window =
              which == bounds::lower
                  ? mergepath::merge_path_from_samples<bounds::lower>(checked_view(as), na, checked_view(bs), nb,
                                                                      diag, shift, comp)
                  : mergepath::merge_path_from_samples<bounds::upper>(checked_view(as), na, checked_view(bs), nb,
                                                                      diag, shift, comp);
          ASSERT_LE(window.begin, expected);
          ASSERT_GE(window.end, expected);
          ASSERT_LE(window.end - window.begin, index_t{2} << shift);
          index_t found =
              which == bounds::lower
                  ? mergepath::merge_path_within<bounds::lower>(a.data(), b.data(), diag, window.begin, window.end,
                                                                comp)
                  : mergepath::merge_path_within<bounds::upper>(a.data(), b.data(), diag, window.begin, window.end,
                                                                comp);
          ASSERT_EQ(found, expected);
        }
      }
    }
  }
}

TEST(MergePathFromSamples, WindowHoldsTheSplit) { check_sampled_windows(mergepath::less<>{}); }

TEST(MergePathFromSamples, WindowHoldsTheSplitWithGreater) { check_sampled_windows(mergepath::greater<>{}); }

// Unsorted input: the window stays inside merge_path's whole interval, and only the samples are read.
TEST(MergePathFromSamples, UnsortedInputStaysInRange) {
  SCOPED_TRACE("MERGEPATH_TEST_SEED=" + std::to_string(base_seed()));
  std::mt19937_64 rng(case_seed({6}));
  std::uniform_int_distribution<int> size(0, 40);
  for (int trial = 0; trial < 1000; ++trial) {
    std::vector<int> a = random_ints(rng, size(rng), 1000), b = random_ints(rng, size(rng), 1000);
    index_t na = static_cast<index_t>(a.size()), nb = static_cast<index_t>(b.size());
    for (int shift = 0; shift <= 4; ++shift) {
      std::vector<int> as = samples_of(a, shift), bs = samples_of(b, shift);
      for (index_t diag = 0; diag <= na + nb; ++diag) {
        SCOPED_TRACE(::testing::Message() << "trial " << trial << ", shift " << shift << ", diag " << diag);
        auto window = mergepath::merge_path_from_samples<bounds::lower>(checked_view(as), na, checked_view(bs), nb,
                                                                        diag, shift, mergepath::less<>{});
        ASSERT_GE(window.begin, std::max<index_t>(0, diag - nb));
        ASSERT_LE(window.begin, window.end);
        ASSERT_LE(window.end, std::min(diag, na));
      }
    }
  }
}

// Counts beyond 2^31 need no memory when the arrays are computed: a = evens, b = odds.
struct multiples {
  std::int64_t step, offset;
  std::int64_t operator[](index_t i) const { return step * i + offset; }
};

TEST(MergePath, SixtyFourBitCounts) {
  const index_t n = index_t{3} << 30;  // 3 * 2^30 each, 6 * 2^30 outputs
  multiples evens{2, 0}, odds{2, 1};
  for (index_t diag : {index_t{0}, index_t{1}, (index_t{1} << 31) + 1, index_t{5} << 30, 2 * n - 1, 2 * n}) {
    // The first diag outputs are 0 .. diag - 1, of which ceil(diag / 2) are even.
    EXPECT_EQ(mergepath::merge_path(evens, n, odds, n, diag, mergepath::less<>{}), (diag + 1) / 2) << diag;
  }
  // All of a before all of b, and the other way round.
  multiples low{1, 0}, high{1, n};
  EXPECT_EQ(mergepath::merge_path(low, n, high, n, n + 7, mergepath::less<>{}), n);
  EXPECT_EQ(mergepath::merge_path(high, n, low, n, n + 7, mergepath::less<>{}), 7);
}

// clamp_next_split, over every small configuration: its result leaves both next ranges valid,
// lies in the next diagonal's range, and is the given split whenever that one already was fine.
TEST(ClampNextSplit, KeepsRangesValidAndSortedSplitsUnchanged) {
  for (index_t na = 0; na <= 5; ++na)
    for (index_t nb = 0; nb <= 5; ++nb)
      for (index_t diag0 = 0; diag0 <= na + nb; ++diag0)
        for (index_t diag1 = diag0; diag1 <= na + nb; ++diag1)
          for (index_t a0 = std::max<index_t>(0, diag0 - nb); a0 <= std::min(diag0, na); ++a0)
            for (index_t a1 = std::max<index_t>(0, diag1 - nb); a1 <= std::min(diag1, na); ++a1) {
              SCOPED_TRACE(::testing::Message() << "na " << na << " nb " << nb << " diag0 " << diag0 << " diag1 "
                                                << diag1 << " a0 " << a0 << " a1 " << a1);
              index_t r = mergepath::clamp_next_split(a0, a1, diag0, diag1);
              index_t b0 = diag0 - a0, b1 = diag1 - r;
              ASSERT_GE(r, a0);   // a[a0, r) is a range
              ASSERT_GE(b1, b0);  // b[b0, b1) is a range
              ASSERT_GE(r, std::max<index_t>(0, diag1 - nb));
              ASSERT_LE(r, std::min(diag1, na));
              if (a1 >= a0 && diag1 - a1 >= b0) {
                ASSERT_EQ(r, a1);  // already valid: unchanged
              }
            }
}

// The backends split the output at diagonals diag0 < diag1 < ... and give each chunk
// a[a0, a1) and b[diag0 - a0, diag1 - a1), with a0 searched at diag0 and a1 searched at diag1
// then clamped. Whatever the data, each chunk's ranges lie inside a and b and hold exactly
// diag1 - diag0 elements; for sorted data consecutive chunks also meet exactly.
TEST(ClampNextSplit, ChunksStayInsideTheInputs) {
  SCOPED_TRACE("MERGEPATH_TEST_SEED=" + std::to_string(base_seed()));
  std::mt19937_64 rng(case_seed({3}));
  std::uniform_int_distribution<int> size(0, 40);
  for (int trial = 0; trial < 4000; ++trial) {
    bool sorted = trial % 2 == 0;
    std::vector<int> a = random_ints(rng, size(rng), 50), b = random_ints(rng, size(rng), 50);
    if (sorted) {
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
    }
    index_t na = static_cast<index_t>(a.size()), nb = static_cast<index_t>(b.size()), total = na + nb;
    std::uniform_int_distribution<index_t> cut(0, total);
    std::vector<index_t> diags{0, total, cut(rng), cut(rng), cut(rng), cut(rng)};
    std::sort(diags.begin(), diags.end());
    auto split = [&](index_t diag) {
      return mergepath::merge_path(a.data(), na, b.data(), nb, diag, mergepath::less<>{});
    };
    index_t previous_a1 = 0;
    for (std::size_t c = 1; c < diags.size(); ++c) {
      SCOPED_TRACE(::testing::Message() << "trial " << trial << ", chunk " << c);
      index_t diag0 = diags[c - 1], diag1 = diags[c];
      index_t a0 = split(diag0);
      index_t a1 = mergepath::clamp_next_split(a0, split(diag1), diag0, diag1);
      index_t b0 = diag0 - a0, b1 = diag1 - a1;
      ASSERT_LE(0, a0);
      ASSERT_LE(a0, a1);
      ASSERT_LE(a1, na);
      ASSERT_LE(0, b0);
      ASSERT_LE(b0, b1);
      ASSERT_LE(b1, nb);
      if (sorted) {
        ASSERT_EQ(a0, previous_a1);
      }
      previous_a1 = a1;
    }
    if (sorted) {
      ASSERT_EQ(previous_a1, na);
    }
  }
}


// multiway_split against a stable sort of all the sequences' (value, sequence, position): for
// K = 1 .. 5, every rank, duplicates, empty and unequal sequences; and unsorted input stays in
// range with splits that sum to the rank.
template <int K>
void check_multiway_split(std::mt19937_64& rng, int trials, bool sorted) {
  for (int trial = 0; trial < trials; ++trial) {
    std::vector<int> seqs[K];
    const int max_length = std::uniform_int_distribution<int>(0, 3)(rng) == 0 ? 3 : 70;
    const int values = std::uniform_int_distribution<int>(1, 4)(rng) == 1 ? 2 : 1000;
    const int* starts[K];
    std::int64_t counts[K];
    std::vector<std::tuple<int, int, int>> all;
    for (int s = 0; s < K; ++s) {
      const int n = std::uniform_int_distribution<int>(0, max_length)(rng);
      for (int i = 0; i < n; ++i) seqs[s].push_back(std::uniform_int_distribution<int>(0, values)(rng));
      if (sorted) std::sort(seqs[s].begin(), seqs[s].end());
      starts[s] = seqs[s].data(), counts[s] = n;
      for (int i = 0; i < n; ++i) all.emplace_back(seqs[s][i], s, i);
    }
    std::sort(all.begin(), all.end());
    for (std::int64_t rank = 0; rank <= static_cast<std::int64_t>(all.size()); ++rank) {
      std::int64_t got[K];
      mergepath::multiway_split<K>(starts, counts, rank, got, mergepath::less<>{});
      std::int64_t want[K] = {}, sum = 0;
      for (std::int64_t k = 0; k < rank; ++k) ++want[std::get<1>(all[k])];
      for (int s = 0; s < K; ++s) {
        ASSERT_GE(got[s], 0);
        ASSERT_LE(got[s], counts[s]);
        sum += got[s];
        if (sorted) {
          ASSERT_EQ(got[s], want[s]) << "K " << K << ", rank " << rank << ", sequence " << s;
        }
      }
      ASSERT_EQ(sum, rank);
    }
  }
}

TEST(MultiwaySplit, MatchesStableSortOnEveryRank) {
  SCOPED_TRACE("MERGEPATH_TEST_SEED=" + std::to_string(base_seed()));
  std::mt19937_64 rng(base_seed());
  check_multiway_split<1>(rng, 100, true);
  check_multiway_split<2>(rng, 500, true);
  check_multiway_split<3>(rng, 500, true);
  check_multiway_split<4>(rng, 1000, true);
  check_multiway_split<5>(rng, 200, true);
}

TEST(MultiwaySplit, UnsortedInputStaysInRange) {
  SCOPED_TRACE("MERGEPATH_TEST_SEED=" + std::to_string(base_seed()));
  std::mt19937_64 rng(base_seed() + 1);
  check_multiway_split<4>(rng, 500, false);
}

}  // namespace
}  // namespace mergepath_test
