// The distributed sort's tests, written once for every backend (CPU ranks over MPI, GPU ranks over
// MPI, GPU ranks over NCCL) as a type-parameterized suite. Run under mpirun with any number of
// ranks: every rank runs every test; rank 0 gathers the inputs and the outputs, checks them against
// std::stable_sort of the inputs concatenated in rank order (and that every rank kept its count),
// and tells the others the verdict, so a failure fails every rank.
//
// A Backend has
//   static std::string unavailable(MPI_Comm);  // why it cannot run here ("" if it can), the same on every rank
//   static constexpr bool has_message_limit;   // its communicator takes max_message_bytes (MPI)
//   template <bool Pairs, class Key, class Val, class Comp>
//   static void sort(MPI_Comm comm, Key* keys, Val* vals, index_t count, Comp comp,
//                    std::int64_t max_message_bytes, int threads);  // host arrays, in place; pointers
//                    // and count passed on as they are (null, negative) for the argument tests
#pragma once

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <mergepath/functional.hpp>
#include <numeric>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace distributed_test {

using mergepath::index_t;

inline int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
inline int world_size() {
  int s = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

// All ranks' arrays, concatenated in rank order, on rank 0 (empty elsewhere); counts of each rank.
template <class T>
std::vector<T> gather(MPI_Comm comm, const std::vector<T>& mine, std::vector<index_t>* counts = nullptr) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int bytes = static_cast<int>(mine.size() * sizeof(T));
  std::vector<int> all_bytes(static_cast<std::size_t>(size)), offsets(static_cast<std::size_t>(size), 0);
  MPI_Gather(&bytes, 1, MPI_INT, all_bytes.data(), 1, MPI_INT, 0, comm);
  std::vector<T> out;
  if (rank == 0) {
    std::partial_sum(all_bytes.begin(), all_bytes.end() - 1, offsets.begin() + 1);
    out.resize(static_cast<std::size_t>(offsets.back() + all_bytes.back()) / sizeof(T));
    if (counts) {
      counts->clear();
      for (int b : all_bytes) counts->push_back(b / static_cast<index_t>(sizeof(T)));
    }
  }
  MPI_Gatherv(mine.data(), bytes, MPI_BYTE, out.data(), all_bytes.data(), offsets.data(), MPI_BYTE, 0, comm);
  return out;
}

// Rank 0's verdict, everywhere: "" when fine, else what went wrong.
inline std::string share_verdict(MPI_Comm comm, std::string verdict) {
  int length = static_cast<int>(verdict.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, comm);
  verdict.resize(static_cast<std::size_t>(length));
  MPI_Bcast(&verdict[0], length, MPI_CHAR, 0, comm);
  return verdict;
}

// Skips the test on every rank when the backend cannot run here.
#define DISTRIBUTED_SKIP_UNAVAILABLE(Backend)                                 \
  do {                                                                        \
    const std::string why_not = Backend::unavailable(MPI_COMM_WORLD);         \
    if (!why_not.empty()) GTEST_SKIP() << why_not;                            \
  } while (0)

struct no_value {};

// Sorts keys (and vals, when Val is not no_value) on every rank of comm, then checks on rank 0.
template <class Backend, class Key, class Val, class Comp>
std::string sort_and_check(MPI_Comm comm, std::vector<Key> keys, std::vector<Val> vals, Comp comp,
                           std::int64_t max_message_bytes = INT_MAX, int threads = 1) {
  constexpr bool pairs = !std::is_same_v<Val, no_value>;
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::vector<index_t> in_counts, out_counts;
  const std::vector<Key> in_keys = gather(comm, keys, &in_counts);
  std::vector<Val> in_vals;
  if constexpr (pairs) in_vals = gather(comm, vals);

  Backend::template sort<pairs>(comm, keys.data(), pairs ? vals.data() : nullptr, static_cast<index_t>(keys.size()), comp,
                                max_message_bytes, threads);

  const std::vector<Key> out_keys = gather(comm, keys, &out_counts);
  std::vector<Val> out_vals;
  if constexpr (pairs) out_vals = gather(comm, vals);
  std::string verdict;
  if (rank == 0) {
    std::vector<std::size_t> order(in_keys.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return comp(in_keys[a], in_keys[b]); });
    std::ostringstream why;
    if (in_counts != out_counts) why << "a rank's count changed; ";
    for (std::size_t i = 0; i < order.size() && why.str().empty(); ++i) {
      if (std::memcmp(&in_keys[order[i]], &out_keys[i], sizeof(Key)) != 0) why << "key mismatch at global position " << i;
      if constexpr (pairs)
        if (why.str().empty() && std::memcmp(&in_vals[order[i]], &out_vals[i], sizeof(Val)) != 0)
          why << "value mismatch (not stable?) at global position " << i;
    }
    verdict = why.str();
  }
  return share_verdict(comm, verdict);
}

template <class Backend, class Key, class Comp = mergepath::less<>>
std::string sort_keys(std::vector<Key> keys, Comp comp = {}, std::int64_t max_message_bytes = INT_MAX, int threads = 1) {
  return sort_and_check<Backend, Key, no_value>(MPI_COMM_WORLD, std::move(keys), {}, comp, max_message_bytes, threads);
}
// Values are the keys' global identity (rank, position): stability shows in them.
template <class Backend, class Key, class Comp = mergepath::less<>>
std::string sort_pairs(std::vector<Key> keys, Comp comp = {}, std::int64_t max_message_bytes = INT_MAX) {
  std::vector<std::uint64_t> vals(keys.size());
  for (std::size_t i = 0; i < vals.size(); ++i) vals[i] = (std::uint64_t(world_rank()) << 40) | i;
  return sort_and_check<Backend, Key, std::uint64_t>(MPI_COMM_WORLD, std::move(keys), std::move(vals), comp,
                                                     max_message_bytes);
}

inline std::uint32_t seed_for(int rank, std::uint32_t salt) { return 0x9e3779b9u * (rank + 1) + salt; }

inline std::vector<std::int32_t> random_keys(index_t count, std::int32_t range, std::uint32_t salt) {
  std::mt19937 gen(seed_for(world_rank(), salt));
  std::uniform_int_distribution<std::int32_t> dist(0, range - 1);
  std::vector<std::int32_t> keys(static_cast<std::size_t>(count));
  for (auto& k : keys) k = dist(gen);
  return keys;
}

struct record {
  std::int32_t id;
  float weight;
  char tag[8];
};
struct by_weight_descending {
  MERGEPATH_HD bool operator()(const record& a, const record& b) const { return a.weight > b.weight; }
};

// Every rank calls; each must throw std::invalid_argument (and leave no collective half done).
template <class Call>
void expect_throws_everywhere(Call call) {
  std::string what;
  bool threw = false;
  try {
    call();
  } catch (const std::invalid_argument& e) {
    threw = true, what = e.what();
  }
  int threw_count = threw ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &threw_count, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(threw_count, world_size()) << "ranks that threw std::invalid_argument";
  if (world_rank() == 0 && threw) std::cout << "    every rank threw: " << what << "\n";
}

template <class Backend>
class DistributedSort : public ::testing::Test {};
TYPED_TEST_SUITE_P(DistributedSort);

TYPED_TEST_P(DistributedSort, Random) {
  DISTRIBUTED_SKIP_UNAVAILABLE(TypeParam);
  EXPECT_EQ("", sort_keys<TypeParam>(random_keys(3000 + 777 * world_rank(), 1 << 30, 1)));
}

TYPED_TEST_P(DistributedSort, RandomTwoThreadsPerRank) {
  DISTRIBUTED_SKIP_UNAVAILABLE(TypeParam);
  EXPECT_EQ("", sort_keys<TypeParam>(random_keys(20000 + 1313 * world_rank(), 1 << 30, 2), mergepath::less<>{}, INT_MAX, 2));
}

TYPED_TEST_P(DistributedSort, RandomLargeSeveralRounds) {
  DISTRIBUTED_SKIP_UNAVAILABLE(TypeParam);
  // 2^17 keys a rank: several rounds (3 of 64 samples on MPI, 2 of 1024 on NCCL).
  EXPECT_EQ("", sort_keys<TypeParam>(random_keys(index_t{1} << 17, 1 << 30, 3)));
}

// 2^17 keys a rank and more, sorted locally by mergepath::sort (tuning/sort.hpp picks the method):
// pairs (stability shows in the values) and doubles under greater<> (its descending form).
TYPED_TEST_P(DistributedSort, LargePairsStable) {
  DISTRIBUTED_SKIP_UNAVAILABLE(TypeParam);
  EXPECT_EQ("", sort_pairs<TypeParam>(random_keys((index_t{1} << 17) + 1000 * world_rank(), 100, 14)));
}

TYPED_TEST_P(DistributedSort, LargeDoublesDescending) {
  DISTRIBUTED_SKIP_UNAVAILABLE(TypeParam);
  std::mt19937_64 gen(seed_for(world_rank(), 15));
  std::normal_distribution<double> dist;
  std::vector<double> keys((std::size_t{1} << 17) + 99 * static_cast<std::size_t>(world_rank()));
  for (auto& k : keys) k = dist(gen);
  EXPECT_EQ("", sort_keys<TypeParam>(keys, mergepath::greater<>{}));
}

TYPED_TEST_P(DistributedSort, FewDistinctPairsStable) {
  DISTRIBUTED_SKIP_UNAVAILABLE(TypeParam);
  EXPECT_EQ("", sort_pairs<TypeParam>(random_keys(5000 - 1000 * (world_rank() % 3), 8, 4)));
}

TYPED_TEST_P(DistributedSort, AllEqualPairsStable) {
  DISTRIBUTED_SKIP_UNAVAILABLE(TypeParam);
  EXPECT_EQ("", sort_pairs<TypeParam>(std::vector<std::int32_t>(static_cast<std::size_t>(1000 + 10 * world_rank()), 7)));
}

TYPED_TEST_P(DistributedSort, AlreadySorted) {
  DISTRIBUTED_SKIP_UNAVAILABLE(TypeParam);
  std::vector<std::int64_t> keys(4096);
  std::iota(keys.begin(), keys.end(), std::int64_t{4096} * world_rank());
  EXPECT_EQ("", sort_pairs<TypeParam>(keys));
}

TYPED_TEST_P(DistributedSort, ReverseSorted) {
  DISTRIBUTED_SKIP_UNAVAILABLE(TypeParam);
  std::vector<std::int64_t> keys(4096);
  for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = -std::int64_t{4096} * world_rank() - std::int64_t(i);
  EXPECT_EQ("", sort_pairs<TypeParam>(keys));
}

TYPED_TEST_P(DistributedSort, OneRankEmpty) {
  DISTRIBUTED_SKIP_UNAVAILABLE(TypeParam);
  const index_t n = world_rank() == std::min(1, world_size() - 1) ? 0 : 2500;
  EXPECT_EQ("", sort_pairs<TypeParam>(random_keys(n, 100, 5)));
}

TYPED_TEST_P(DistributedSort, FirstRankHoldsEverything) {
  DISTRIBUTED_SKIP_UNAVAILABLE(TypeParam);
  EXPECT_EQ("", sort_pairs<TypeParam>(random_keys(world_rank() == 0 ? 10000 : 0, 1000, 6)));
}

TYPED_TEST_P(DistributedSort, LastRankHoldsEverything) {
  DISTRIBUTED_SKIP_UNAVAILABLE(TypeParam);
  EXPECT_EQ("", sort_pairs<TypeParam>(random_keys(world_rank() == world_size() - 1 ? 10000 : 0, 1000, 7)));
}

TYPED_TEST_P(DistributedSort, AllEmpty) {
  DISTRIBUTED_SKIP_UNAVAILABLE(TypeParam);
  EXPECT_EQ("", sort_pairs<TypeParam>(std::vector<std::int32_t>{}));
}

TYPED_TEST_P(DistributedSort, OneKeyPerRank) {
  DISTRIBUTED_SKIP_UNAVAILABLE(TypeParam);
  EXPECT_EQ("", sort_pairs<TypeParam>(random_keys(1, 3, 8)));
}

TYPED_TEST_P(DistributedSort, VeryDifferentSizes) {
  DISTRIBUTED_SKIP_UNAVAILABLE(TypeParam);
  const index_t sizes[] = {1, 40000, 0, 7, 1000, 3};
  EXPECT_EQ("", sort_pairs<TypeParam>(random_keys(sizes[world_rank() % 6], 5000, 9)));
}

TYPED_TEST_P(DistributedSort, FewerKeysThanSamples) {
  DISTRIBUTED_SKIP_UNAVAILABLE(TypeParam);
  // Windows smaller than the sample count are proposed whole.
  EXPECT_EQ("", sort_pairs<TypeParam>(random_keys(5 + 20 * world_rank(), 10, 10)));
}

TYPED_TEST_P(DistributedSort, PointToPointExchange) {
  DISTRIBUTED_SKIP_UNAVAILABLE(TypeParam);
  if (!TypeParam::has_message_limit) GTEST_SKIP() << "no message limit on this communicator";
  // Messages of at most 100 bytes: the path for arrays past INT_MAX bytes, on small arrays.
  EXPECT_EQ("", sort_pairs<TypeParam>(random_keys(3000 + 500 * world_rank(), 50, 11), mergepath::less<>{}, 100));
}

TYPED_TEST_P(DistributedSort, CustomComparatorStructKey) {
  DISTRIBUTED_SKIP_UNAVAILABLE(TypeParam);
  std::mt19937 gen(seed_for(world_rank(), 12));
  std::vector<record> keys(static_cast<std::size_t>(2000 + 300 * world_rank()));
  for (std::size_t i = 0; i < keys.size(); ++i) {
    keys[i] = record{static_cast<std::int32_t>(i), static_cast<float>(gen() % 64) * 0.5f, {}};
    std::memcpy(keys[i].tag, "abcdefg", 8);
  }
  // Keys only, equal weights but distinct ids: the stable order shows in the keys themselves.
  EXPECT_EQ("", sort_keys<TypeParam>(keys, by_weight_descending{}));
  EXPECT_EQ("", sort_pairs<TypeParam>(keys, by_weight_descending{}));
}

TYPED_TEST_P(DistributedSort, DoublesDescending) {
  DISTRIBUTED_SKIP_UNAVAILABLE(TypeParam);
  std::mt19937_64 gen(seed_for(world_rank(), 13));
  std::normal_distribution<double> dist;
  std::vector<double> keys(3333);
  for (auto& k : keys) k = dist(gen);
  EXPECT_EQ("", sort_keys<TypeParam>(keys, mergepath::greater<>{}));
}

TYPED_TEST_P(DistributedSort, SubCommunicator) {
  DISTRIBUTED_SKIP_UNAVAILABLE(TypeParam);
  // The even and the odd ranks sort separately, each group checked by its own rank 0.
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank() % 2, world_rank(), &half);
  std::vector<std::int32_t> keys = random_keys(1500 + 100 * world_rank(), 300, 14);
  std::vector<std::uint64_t> vals(keys.size());
  std::iota(vals.begin(), vals.end(), std::uint64_t(world_rank()) << 40);
  EXPECT_EQ("", (sort_and_check<TypeParam, std::int32_t, std::uint64_t>(half, keys, vals, mergepath::less<>{})));
  MPI_Comm_free(&half);
}

TYPED_TEST_P(DistributedSort, NegativeCountOnLastRank) {
  DISTRIBUTED_SKIP_UNAVAILABLE(TypeParam);
  std::vector<std::int32_t> keys(100, 1);
  const index_t count = world_rank() == world_size() - 1 ? -5 : 100;
  expect_throws_everywhere([&] {
    TypeParam::template sort<false>(MPI_COMM_WORLD, keys.data(), static_cast<int*>(nullptr), count, mergepath::less<>{},
                                    INT_MAX, 1);
  });
}

TYPED_TEST_P(DistributedSort, NullKeysOnFirstRank) {
  DISTRIBUTED_SKIP_UNAVAILABLE(TypeParam);
  std::vector<std::int32_t> keys(100, 1);
  std::int32_t* p = world_rank() == 0 ? nullptr : keys.data();
  expect_throws_everywhere([&] {
    TypeParam::template sort<false>(MPI_COMM_WORLD, p, static_cast<int*>(nullptr), index_t{100}, mergepath::less<>{},
                                    INT_MAX, 1);
  });
}

TYPED_TEST_P(DistributedSort, NullValuesOnLastRank) {
  DISTRIBUTED_SKIP_UNAVAILABLE(TypeParam);
  std::vector<std::int32_t> keys(100, 1);
  std::vector<float> vals(100);
  float* v = world_rank() == world_size() - 1 ? nullptr : vals.data();
  expect_throws_everywhere([&] {
    TypeParam::template sort<true>(MPI_COMM_WORLD, keys.data(), v, index_t{100}, mergepath::less<>{}, INT_MAX, 1);
  });
}

TYPED_TEST_P(DistributedSort, MismatchedKeySizes) {
  DISTRIBUTED_SKIP_UNAVAILABLE(TypeParam);
  if (world_size() < 2) GTEST_SKIP() << "needs two ranks";
  std::vector<std::int32_t> small(100, 1);
  std::vector<std::int64_t> large(100, 1);
  expect_throws_everywhere([&] {
    if (world_rank() == 1)
      TypeParam::template sort<false>(MPI_COMM_WORLD, large.data(), static_cast<int*>(nullptr), index_t{100},
                                      mergepath::less<>{}, INT_MAX, 1);
    else
      TypeParam::template sort<false>(MPI_COMM_WORLD, small.data(), static_cast<int*>(nullptr), index_t{100},
                                      mergepath::less<>{}, INT_MAX, 1);
  });
}

TYPED_TEST_P(DistributedSort, MismatchedCalls) {
  DISTRIBUTED_SKIP_UNAVAILABLE(TypeParam);
  if (world_size() < 2) GTEST_SKIP() << "needs two ranks";
  std::vector<std::int32_t> keys(100, 1), vals(100, 2);
  expect_throws_everywhere([&] {
    if (world_rank() == world_size() - 1)
      TypeParam::template sort<true>(MPI_COMM_WORLD, keys.data(), vals.data(), index_t{100}, mergepath::less<>{}, INT_MAX, 1);
    else
      TypeParam::template sort<false>(MPI_COMM_WORLD, keys.data(), vals.data(), index_t{100}, mergepath::less<>{}, INT_MAX, 1);
  });
}

TYPED_TEST_P(DistributedSort, MismatchedMessageLimits) {
  DISTRIBUTED_SKIP_UNAVAILABLE(TypeParam);
  if (world_size() < 2) GTEST_SKIP() << "needs two ranks";
  if (!TypeParam::has_message_limit) GTEST_SKIP() << "no message limit on this communicator";
  std::vector<std::int32_t> keys(100, 1);
  expect_throws_everywhere([&] {
    TypeParam::template sort<false>(MPI_COMM_WORLD, keys.data(), static_cast<int*>(nullptr), index_t{100},
                                    mergepath::less<>{}, world_rank() == 1 ? 4096 : INT_MAX, 1);
  });
}

TYPED_TEST_P(DistributedSort, StillWorksAfterAThrow) {
  DISTRIBUTED_SKIP_UNAVAILABLE(TypeParam);
  // The communicator is usable after an argument error: nothing was left in flight.
  std::vector<std::int32_t> keys(10, 1);
  expect_throws_everywhere([&] {
    TypeParam::template sort<false>(MPI_COMM_WORLD, keys.data(), static_cast<int*>(nullptr),
                                    index_t{world_rank() == 0 ? -1 : 10}, mergepath::less<>{}, INT_MAX, 1);
  });
  EXPECT_EQ("", sort_keys<TypeParam>(random_keys(1000, 1 << 20, 15)));
}

REGISTER_TYPED_TEST_SUITE_P(DistributedSort, Random, RandomTwoThreadsPerRank, RandomLargeSeveralRounds,
                            LargePairsStable, LargeDoublesDescending, FewDistinctPairsStable, AllEqualPairsStable,
                            AlreadySorted, ReverseSorted, OneRankEmpty, FirstRankHoldsEverything,
                            LastRankHoldsEverything, AllEmpty, OneKeyPerRank, VeryDifferentSizes, FewerKeysThanSamples,
                            PointToPointExchange, CustomComparatorStructKey, DoublesDescending, SubCommunicator,
                            NegativeCountOnLastRank, NullKeysOnFirstRank, NullValuesOnLastRank, MismatchedKeySizes,
                            MismatchedCalls, MismatchedMessageLimits, StillWorksAfterAThrow);

// main for an MPI test program: every rank runs every test, only rank 0 prints, and a failure on
// any rank fails every rank's exit status.
inline int run_all_tests_on_every_rank(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  if (world_rank() != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  int failed = RUN_ALL_TESTS();
  int any_failed = 0;
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any_failed;
}

}  // namespace distributed_test
