// distributed_sort and distributed_sort_pairs over MPI ranks (host_context). Run under mpirun with
// any number of ranks: every rank runs every test; rank 0 gathers the inputs and the outputs,
// checks them against std::stable_sort of the inputs concatenated in rank order (and that every
// rank kept its count), and tells the others the verdict, so a failure fails every rank.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <mergepath/distributed.hpp>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using mergepath::index_t;

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int world_size() {
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
std::string share_verdict(MPI_Comm comm, std::string verdict) {
  int length = static_cast<int>(verdict.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, comm);
  verdict.resize(static_cast<std::size_t>(length));
  MPI_Bcast(verdict.data(), length, MPI_CHAR, 0, comm);
  return verdict;
}

struct no_value {};

// Sorts keys (and vals, when Val is not no_value) on every rank of comm, then checks on rank 0.
template <class Key, class Val, class Comp>
std::string sort_and_check(MPI_Comm comm, std::vector<Key> keys, std::vector<Val> vals, Comp comp,
                           std::int64_t max_message_bytes = INT_MAX, int threads = 1) {
  constexpr bool pairs = !std::is_same_v<Val, no_value>;
  std::vector<index_t> in_counts, out_counts;
  const std::vector<Key> in_keys = gather(comm, keys, &in_counts);
  std::vector<Val> in_vals;
  if constexpr (pairs) in_vals = gather(comm, vals);

  mergepath::host_context ctx(threads);
  mergepath::mpi_communicator mc(comm, max_message_bytes);
  if constexpr (pairs)
    mergepath::distributed_sort_pairs(ctx, mc, keys.data(), vals.data(), static_cast<index_t>(keys.size()), comp);
  else
    mergepath::distributed_sort(ctx, mc, keys.data(), static_cast<index_t>(keys.size()), comp);

  const std::vector<Key> out_keys = gather(comm, keys, &out_counts);
  std::vector<Val> out_vals;
  if constexpr (pairs) out_vals = gather(comm, vals);
  std::string verdict;
  if (mc.rank() == 0) {
    std::vector<std::size_t> order(in_keys.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return comp(in_keys[a], in_keys[b]); });
    std::ostringstream why;
    if (in_counts != out_counts) why << "a rank's count changed; ";
    for (std::size_t i = 0; i < order.size() && why.str().empty(); ++i) {
      const Key& want = in_keys[order[i]];
      if (std::memcmp(&want, &out_keys[i], sizeof(Key)) != 0) why << "key mismatch at global position " << i;
      if constexpr (pairs)
        if (why.str().empty() && std::memcmp(&in_vals[order[i]], &out_vals[i], sizeof(Val)) != 0)
          why << "value mismatch (not stable?) at global position " << i;
    }
    verdict = why.str();
  }
  return share_verdict(comm, verdict);
}

template <class Key, class Comp = mergepath::less<>>
std::string sort_keys(std::vector<Key> keys, Comp comp = {}, std::int64_t max_message_bytes = INT_MAX, int threads = 1) {
  return sort_and_check<Key, no_value>(MPI_COMM_WORLD, std::move(keys), {}, comp, max_message_bytes, threads);
}
// Values are the keys' global identity (rank, position): stability shows in them.
template <class Key, class Comp = mergepath::less<>>
std::string sort_pairs(std::vector<Key> keys, Comp comp = {}, std::int64_t max_message_bytes = INT_MAX) {
  std::vector<std::uint64_t> vals(keys.size());
  for (std::size_t i = 0; i < vals.size(); ++i) vals[i] = (std::uint64_t(world_rank()) << 40) | i;
  return sort_and_check<Key, std::uint64_t>(MPI_COMM_WORLD, std::move(keys), std::move(vals), comp, max_message_bytes);
}

std::uint32_t seed_for(int rank, std::uint32_t salt) { return 0x9e3779b9u * (rank + 1) + salt; }

std::vector<std::int32_t> random_keys(index_t count, std::int32_t range, std::uint32_t salt) {
  std::mt19937 gen(seed_for(world_rank(), salt));
  std::uniform_int_distribution<std::int32_t> dist(0, range - 1);
  std::vector<std::int32_t> keys(static_cast<std::size_t>(count));
  for (auto& k : keys) k = dist(gen);
  return keys;
}

TEST(MpiDistributedSort, Random) {
  EXPECT_EQ("", sort_keys(random_keys(3000 + 777 * world_rank(), 1 << 30, 1)));
}

TEST(MpiDistributedSort, RandomTwoThreadsPerRank) {
  EXPECT_EQ("", sort_keys(random_keys(20000 + 1313 * world_rank(), 1 << 30, 2), mergepath::less<>{}, INT_MAX, 2));
}

TEST(MpiDistributedSort, RandomLargeSeveralRounds) {
  // 2^17 keys a rank: a window of 2^17 needs three rounds of 64 samples.
  EXPECT_EQ("", sort_keys(random_keys(index_t{1} << 17, 1 << 30, 3)));
}

TEST(MpiDistributedSort, FewDistinctPairsStable) {
  EXPECT_EQ("", sort_pairs(random_keys(5000 - 1000 * (world_rank() % 3), 8, 4)));
}

TEST(MpiDistributedSort, AllEqualPairsStable) {
  EXPECT_EQ("", sort_pairs(std::vector<std::int32_t>(static_cast<std::size_t>(1000 + 10 * world_rank()), 7)));
}

TEST(MpiDistributedSort, AlreadySorted) {
  std::vector<std::int64_t> keys(4096);
  std::iota(keys.begin(), keys.end(), std::int64_t{4096} * world_rank());
  EXPECT_EQ("", sort_pairs(keys));
}

TEST(MpiDistributedSort, ReverseSorted) {
  std::vector<std::int64_t> keys(4096);
  for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = -std::int64_t{4096} * world_rank() - std::int64_t(i);
  EXPECT_EQ("", sort_pairs(keys));
}

TEST(MpiDistributedSort, OneRankEmpty) {
  const index_t n = world_rank() == std::min(1, world_size() - 1) ? 0 : 2500;
  EXPECT_EQ("", sort_pairs(random_keys(n, 100, 5)));
}

TEST(MpiDistributedSort, FirstRankHoldsEverything) {
  EXPECT_EQ("", sort_pairs(random_keys(world_rank() == 0 ? 10000 : 0, 1000, 6)));
}

TEST(MpiDistributedSort, LastRankHoldsEverything) {
  EXPECT_EQ("", sort_pairs(random_keys(world_rank() == world_size() - 1 ? 10000 : 0, 1000, 7)));
}

TEST(MpiDistributedSort, AllEmpty) { EXPECT_EQ("", sort_pairs(std::vector<std::int32_t>{})); }

TEST(MpiDistributedSort, OneKeyPerRank) { EXPECT_EQ("", sort_pairs(random_keys(1, 3, 8))); }

TEST(MpiDistributedSort, VeryDifferentSizes) {
  const index_t sizes[] = {1, 40000, 0, 7, 1000, 3};
  EXPECT_EQ("", sort_pairs(random_keys(sizes[world_rank() % 6], 5000, 9)));
}

TEST(MpiDistributedSort, FewerKeysThanSamples) {
  // Windows smaller than the sample count are proposed whole.
  EXPECT_EQ("", sort_pairs(random_keys(5 + 20 * world_rank(), 10, 10)));
}

TEST(MpiDistributedSort, PointToPointExchange) {
  // Messages of at most 100 bytes: the path for arrays past INT_MAX bytes, on small arrays.
  EXPECT_EQ("", sort_pairs(random_keys(3000 + 500 * world_rank(), 50, 11), mergepath::less<>{}, 100));
}

struct record {
  std::int32_t id;
  float weight;
  char tag[6];
};
struct by_weight_descending {
  bool operator()(const record& a, const record& b) const { return a.weight > b.weight; }
};

TEST(MpiDistributedSort, CustomComparatorStructKey) {
  std::mt19937 gen(seed_for(world_rank(), 12));
  std::vector<record> keys(static_cast<std::size_t>(2000 + 300 * world_rank()));
  for (std::size_t i = 0; i < keys.size(); ++i) {
    keys[i] = record{static_cast<std::int32_t>(i), static_cast<float>(gen() % 64) * 0.5f, {}};
    std::memcpy(keys[i].tag, "abcde", 6);
  }
  // Keys-only with equal weights but distinct ids: the stable order shows in the keys themselves.
  EXPECT_EQ("", sort_keys(keys, by_weight_descending{}));
  EXPECT_EQ("", sort_pairs(keys, by_weight_descending{}));
}

TEST(MpiDistributedSort, Doubles) {
  std::mt19937_64 gen(seed_for(world_rank(), 13));
  std::normal_distribution<double> dist;
  std::vector<double> keys(3333);
  for (auto& k : keys) k = dist(gen);
  EXPECT_EQ("", sort_keys(keys, mergepath::greater<>{}));
}

TEST(MpiDistributedSort, SubCommunicator) {
  // The even and the odd ranks sort separately, each group checked by its own rank 0.
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank() % 2, world_rank(), &half);
  std::vector<std::int32_t> keys = random_keys(1500 + 100 * world_rank(), 300, 14);
  std::vector<std::uint64_t> vals(keys.size());
  std::iota(vals.begin(), vals.end(), std::uint64_t(world_rank()) << 40);
  EXPECT_EQ("", (sort_and_check<std::int32_t, std::uint64_t>(half, keys, vals, mergepath::less<>{})));
  MPI_Comm_free(&half);
}

// Every rank calls; `bad` says what this rank passes. Every rank must throw invalid_argument.
template <class Call>
void expect_throws_everywhere(Call call) {
  std::string what;
  bool threw = false;
  try {
    call();
  } catch (const std::invalid_argument& e) {
    threw = true, what = e.what();
  }
  int threw_count = threw ? 1 : 0;  // a collective after it: no rank is left inside the sort's
  MPI_Allreduce(MPI_IN_PLACE, &threw_count, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(threw_count, world_size()) << "ranks that threw std::invalid_argument";
  if (world_rank() == 0 && threw) std::cout << "    every rank threw: " << what << "\n";
}

TEST(MpiDistributedSortArguments, NegativeCountOnLastRank) {
  std::vector<std::int32_t> keys(100, 1);
  mergepath::host_context ctx(1);
  mergepath::mpi_communicator mc;
  const index_t count = world_rank() == world_size() - 1 ? -5 : 100;
  expect_throws_everywhere([&] { mergepath::distributed_sort(ctx, mc, keys.data(), count); });
}

TEST(MpiDistributedSortArguments, NullKeysOnFirstRank) {
  std::vector<std::int32_t> keys(100, 1);
  mergepath::host_context ctx(1);
  mergepath::mpi_communicator mc;
  std::int32_t* p = world_rank() == 0 ? nullptr : keys.data();
  expect_throws_everywhere([&] { mergepath::distributed_sort(ctx, mc, p, index_t{100}); });
}

TEST(MpiDistributedSortArguments, NullValues) {
  std::vector<std::int32_t> keys(100, 1);
  std::vector<float> vals(100);
  mergepath::host_context ctx(1);
  mergepath::mpi_communicator mc;
  float* v = world_rank() == world_size() - 1 ? nullptr : vals.data();
  expect_throws_everywhere([&] { mergepath::distributed_sort_pairs(ctx, mc, keys.data(), v, index_t{100}); });
}

TEST(MpiDistributedSortArguments, MismatchedKeySizes) {
  if (world_size() < 2) GTEST_SKIP() << "needs two ranks";
  std::vector<std::int32_t> small(100, 1);
  std::vector<std::int64_t> large(100, 1);
  mergepath::host_context ctx(1);
  mergepath::mpi_communicator mc;
  expect_throws_everywhere([&] {
    if (world_rank() == 1)
      mergepath::distributed_sort(ctx, mc, large.data(), index_t{100});
    else
      mergepath::distributed_sort(ctx, mc, small.data(), index_t{100});
  });
}

TEST(MpiDistributedSortArguments, MismatchedCalls) {
  if (world_size() < 2) GTEST_SKIP() << "needs two ranks";
  std::vector<std::int32_t> keys(100, 1), vals(100, 2);
  mergepath::host_context ctx(1);
  mergepath::mpi_communicator mc;
  expect_throws_everywhere([&] {
    if (world_rank() == world_size() - 1)
      mergepath::distributed_sort_pairs(ctx, mc, keys.data(), vals.data(), index_t{100});
    else
      mergepath::distributed_sort(ctx, mc, keys.data(), index_t{100});
  });
}

TEST(MpiDistributedSortArguments, MismatchedMessageLimits) {
  if (world_size() < 2) GTEST_SKIP() << "needs two ranks";
  std::vector<std::int32_t> keys(100, 1);
  mergepath::host_context ctx(1);
  mergepath::mpi_communicator mc(MPI_COMM_WORLD, world_rank() == 1 ? 4096 : INT_MAX);
  expect_throws_everywhere([&] { mergepath::distributed_sort(ctx, mc, keys.data(), index_t{100}); });
}

TEST(MpiDistributedSortArguments, StillWorksAfterAThrow) {
  // The communicator is usable after an argument error: nothing was left in flight.
  mergepath::host_context ctx(1);
  mergepath::mpi_communicator mc;
  std::vector<std::int32_t> keys(10, 1);
  expect_throws_everywhere([&] { mergepath::distributed_sort(ctx, mc, keys.data(), world_rank() == 0 ? -1 : 10); });
  EXPECT_EQ("", sort_keys(random_keys(1000, 1 << 20, 15)));
}

}  // namespace

// Every rank runs every test; only rank 0 prints. A failure on any rank makes mpirun fail.
int main(int argc, char** argv) {
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
