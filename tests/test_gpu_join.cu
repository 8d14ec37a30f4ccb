// Joins and set operations on the GPU against the sequential references: every join kind and set
// operation, every input shape, sizes around the tiles, int32 and int64 Index, greater<> and
// struct keys, tagged keys for the copies taken, the _by_key forms, a key group of 6e6 rows,
// argument checks, checked mode and unsorted input. MERGEPATH_TEST_MAX_SIZE caps the sizes.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <mergepath/join.hpp>
#include <mergepath/set_operations.hpp>
#include <random>
#include <utility>
#include <vector>

#include "gpu_util.cuh"
#include "join_util.hpp"

namespace mergepath_test {
namespace {

using mergepath::cuda_context;

template <class Key, class Comp, class Index>
struct join_case {
  using key = Key;
  using comp = Comp;
  using index = Index;
};

template <class Case>
struct GpuJoin : gpu_test {};
using join_cases = ::testing::Types<join_case<std::int32_t, mergepath::less<>, std::int32_t>,
                                    join_case<std::int64_t, mergepath::greater<>, std::int64_t>,
                                    join_case<tagged, tagged_less, std::int32_t>>;
TYPED_TEST_SUITE(GpuJoin, join_cases);

// Around the load-balancing tile (the expansion) and the search's tiles, large, and few rows of a
// into a long b (their bounds one needle at a time, then a scan of their rows).
std::vector<std::pair<index_t, index_t>> gpu_join_sizes() {
  const index_t lbs = mergepath::default_transform_lbs_tuning.tile_items();
  std::vector<std::pair<index_t, index_t>> sizes = {
      {0, 0},        {0, 5}, {5, 0}, {1, 1}, {lbs - 1, lbs + 1}, {lbs, 1}, {3 * lbs + 5, 777}, {1 << 18, 1 << 17},
      {200, 1 << 16}};
  std::vector<std::pair<index_t, index_t>> capped;
  for (auto s : sizes)
    if (s.first + s.second <= max_test_size()) capped.push_back(s);
  return capped;
}

template <join_kind Kind, class Index, class Key, class Comp>
void check_gpu_join(cuda_context& ctx, const key_pair<Key>& in, bool sort_first, Comp comp) {
  const auto na = static_cast<index_t>(in.a.size()), nb = static_cast<index_t>(in.b.size());
  device_vector<Key> a(in.a), b(in.b);
  auto r = sort_first ? mergepath::sort_merge_join<Kind, Index>(ctx, a.data(), na, b.data(), nb, comp)
                      : mergepath::merge_join<Kind, Index>(ctx, a.data(), na, b.data(), nb, comp);
  const bool has_b = Kind != join_kind::left_semi && Kind != join_kind::left_anti;
  if (!has_b) {
    EXPECT_EQ(r.b_index(), nullptr);
  }
  std::vector<Index> ha(static_cast<std::size_t>(r.size())), hb(has_b ? ha.size() : 0);
  ctx.synchronize();
  if (r.size() > 0) {
    MERGEPATH_CUDA_CHECK(cudaMemcpy(ha.data(), r.a_index(), ha.size() * sizeof(Index), cudaMemcpyDeviceToHost));
    if (has_b)
      MERGEPATH_CUDA_CHECK(cudaMemcpy(hb.data(), r.b_index(), hb.size() * sizeof(Index), cudaMemcpyDeviceToHost));
  }
  auto expected = sort_first ? reference_sort_join(Kind, in.a, in.b, comp) : reference_join(Kind, in.a, in.b, comp);
  ASSERT_TRUE(join_matches(expected, r.size(), ha, hb, has_b));
}

TYPED_TEST(GpuJoin, MergeJoinMatchesReference) {
  using Key = typename TypeParam::key;
  using Comp = typename TypeParam::comp;
  cuda_context ctx;
  for (pair_shape shape : all_pair_shapes())
    for (auto [na, nb] : gpu_join_sizes()) {
      if (shape == pair_shape::few_distinct && na * nb > (index_t{1} << 24)) continue;  // the reference's time
      SCOPED_TRACE(::testing::Message() << shape << " " << na << " x " << nb << " seed " << base_seed());
      auto in = make_key_pair<Key>(shape, na, nb, case_seed({na, nb, static_cast<int>(shape)}), Comp{});
      for (join_kind kind : all_join_kinds()) {
        SCOPED_TRACE(::testing::Message() << kind);
        with_join_kind(kind, [&](auto k) {
          check_gpu_join<decltype(k)::value, typename TypeParam::index>(ctx, in, false, Comp{});
        });
      }
    }
}

TYPED_TEST(GpuJoin, SortMergeJoinMatchesReference) {
  using Key = typename TypeParam::key;
  using Comp = typename TypeParam::comp;
  cuda_context ctx;
  for (pair_shape shape : all_pair_shapes())
    for (auto [na, nb] : gpu_join_sizes()) {
      if (shape == pair_shape::few_distinct && na * nb > (index_t{1} << 24)) continue;
      SCOPED_TRACE(::testing::Message() << shape << " " << na << " x " << nb << " seed " << base_seed());
      auto in = make_key_pair<Key>(shape, na, nb, case_seed({na, nb, 5}), Comp{});
      std::mt19937_64 rng(case_seed({na, 6}));
      std::shuffle(in.a.begin(), in.a.end(), rng);
      std::shuffle(in.b.begin(), in.b.end(), rng);
      for (join_kind kind : {join_kind::inner, join_kind::full_outer, join_kind::left_anti}) {
        SCOPED_TRACE(::testing::Message() << kind);
        with_join_kind(kind, [&](auto k) {
          check_gpu_join<decltype(k)::value, typename TypeParam::index>(ctx, in, true, Comp{});
        });
      }
    }
}

struct GpuJoinMisc : gpu_test {};

// 3000 x 2000 equal keys: 6e6 rows from one key group (each a row's partners galloped up from
// its lower bound).
TEST_F(GpuJoinMisc, JoinOneKeyGroupOfSixMillionRows) {
  cuda_context ctx;
  key_pair<std::int32_t> in;
  in.a.assign(3000, 42), in.b.assign(2000, 42);
  in.a.insert(in.a.begin(), 7), in.b.push_back(99);
  check_gpu_join<join_kind::full_outer, std::int32_t>(ctx, in, false, mergepath::less<>{});
  check_gpu_join<join_kind::inner, std::int32_t>(ctx, in, false, mergepath::less<>{});
}

TEST_F(GpuJoinMisc, JoinArgumentsAndCheckedMode) {
  cuda_context ctx;
  device_vector<int> a(std::vector<int>{1, 2, 3, 2, 5}), b(std::vector<int>{1, 2});
  expect_invalid_argument([&] { mergepath::merge_join(ctx, a.data(), -1, b.data(), 2); }, "negative");
  expect_invalid_argument([&] { mergepath::merge_join(ctx, static_cast<int*>(nullptr), 3, b.data(), 2); }, "null");
  expect_invalid_argument(
      [&] { mergepath::merge_join<join_kind::inner, std::int8_t>(ctx, a.data(), 200, b.data(), 2); }, "Index");
  ctx.set_checked(true);
  expect_invalid_argument([&] { mergepath::merge_join(ctx, a.data(), 5, b.data(), 2); }, "a[3]");
  EXPECT_EQ(mergepath::sort_merge_join(ctx, a.data(), 5, b.data(), 2).size(), 3);
  ctx.set_checked(false);
  // Unsorted and unchecked: any result, nothing out of bounds (compute-sanitizer's part).
  auto r = mergepath::merge_join<join_kind::full_outer>(ctx, a.data(), 5, b.data(), 2);
  auto inner = mergepath::merge_join<join_kind::inner>(ctx, b.data(), 2, a.data(), 5);
  ctx.synchronize();
  EXPECT_GE(r.size(), 0);
  EXPECT_GE(inner.size(), 0);
  // Many tiles of unsorted keys, whose splits need not meet: some bounds are never written. (Not
  // at racecheck's sizes: there the walks' overlapping writes, which only unsorted input makes,
  // would be reported.)
  if (max_test_size() < 20000) return;
  std::mt19937_64 rng(case_seed({77}));
  std::vector<int> ua(12000), ub(8000), few(200);
  for (int& x : ua) x = static_cast<int>(rng() % 1000);
  for (int& x : ub) x = static_cast<int>(rng() % 1000);
  for (int& x : few) x = static_cast<int>(rng() % 1000);
  device_vector<int> da(ua), db(ub), dfew(few);
  for (join_kind kind : all_join_kinds()) {
    SCOPED_TRACE(::testing::Message() << kind);
    with_join_kind(kind, [&](auto k) {
      constexpr join_kind K = decltype(k)::value;
      EXPECT_GE((mergepath::merge_join<K, std::int32_t>(ctx, da.data(), 12000, db.data(), 8000).size()), 0);
      EXPECT_GE((mergepath::merge_join<K, std::int64_t>(ctx, dfew.data(), 200, db.data(), 8000).size()), 0);
    });
  }
  ctx.synchronize();
}

// ---------------------------------------------------------------------------------------------
// Set operations

template <class Case>
struct GpuSetOperations : gpu_test {};
using set_cases = ::testing::Types<keys_case<std::int32_t, mergepath::less<>>,
                                   keys_case<std::int64_t, mergepath::greater<>>, keys_case<tagged, tagged_less>>;
TYPED_TEST_SUITE(GpuSetOperations, set_cases);

// Sizes around the tile kernel's tiles: a tile holds up to tile_items keys and the splits are
// tile_span = tile_items - 1 apart; one tile, two, and many, for each operation's tile.
template <class Key>
std::vector<std::pair<index_t, index_t>> gpu_set_sizes(bool by_key = false) {
  std::vector<std::pair<index_t, index_t>> sizes = {
      {0, 0}, {0, 5}, {5, 0}, {1, 1}, {1 << 18, 1 << 17}, {3, 1 << 18}, {(1 << 20) + 3, 1 << 20}};
  for (set_op op : all_set_ops()) {
    const index_t span = mergepath::set_operation_tuning_for(op, sizeof(Key), by_key).tile_span();
    for (std::pair<index_t, index_t> s : {std::pair<index_t, index_t>{span - 1, 0},
                                          {span, 0},
                                          {span, 1},
                                          {span / 2, span / 2 + 1},
                                          {span / 2 + 1, span / 2 + 1},
                                          {2 * span + 3, 1000}})
      if (std::find(sizes.begin(), sizes.end(), s) == sizes.end()) sizes.push_back(s);
  }
  std::vector<std::pair<index_t, index_t>> capped;
  for (auto s : sizes)
    if (s.first + s.second <= max_test_size()) capped.push_back(s);
  return capped;
}

TYPED_TEST(GpuSetOperations, MatchStdSetOperations) {
  using Key = typename TypeParam::key;
  using Comp = typename TypeParam::comp;
  cuda_context ctx;
  for (pair_shape shape : all_pair_shapes())
    for (auto [a_size, b_size] : gpu_set_sizes<Key>()) {
      const index_t na = a_size, nb = shape == pair_shape::identical ? a_size : b_size;
      SCOPED_TRACE(::testing::Message() << shape << " " << na << " x " << nb << " seed " << base_seed());
      auto in = make_key_pair<Key>(shape, na, nb, case_seed({na, nb, static_cast<int>(shape)}), Comp{});
      device_vector<Key> a(in.a), b(in.b);
      for (set_op op : all_set_ops()) {
        SCOPED_TRACE(::testing::Message() << op);
        auto expected = reference_set_op(op, in.a, in.b, Comp{});
        const auto capacity = static_cast<std::size_t>(mergepath::detail::set_output_capacity(op, na, nb));
        device_vector<Key> out(capacity + guard_items);
        out.fill_poison();
        const std::int64_t n = run_set_op(op, ctx, a.data(), na, b.data(), nb, out.data(), Comp{});
        ASSERT_EQ(n, static_cast<std::int64_t>(expected.size()));
        std::vector<Key> got = out.download();
        ASSERT_TRUE(ranges_equal(expected, got));
        ASSERT_TRUE(untouched(got, expected.size(), got.size()));
      }
    }
}

TEST_F(GpuJoinMisc, SetOperationsByKeyTakeStdCopies) {
  cuda_context ctx;
  for (pair_shape shape : all_pair_shapes())
    for (auto [a_size, b_size] : gpu_set_sizes<int>(true)) {
      const index_t na = a_size, nb = shape == pair_shape::identical ? a_size : b_size;
      SCOPED_TRACE(::testing::Message() << shape << " " << na << " x " << nb << " seed " << base_seed());
      auto in = make_key_pair<tagged>(shape, na, nb, case_seed({na, nb, 13}), tagged_less{});
      std::vector<int> ak, bk, av, bv;
      for (const tagged& t : in.a) ak.push_back(t.key), av.push_back(t.tag);
      for (const tagged& t : in.b) bk.push_back(t.key), bv.push_back(t.tag);
      device_vector<int> dak(ak), dav(av), dbk(bk), dbv(bv), ok(ak.size() + bk.size()), ov(ak.size() + bk.size());
      for (set_op op : all_set_ops()) {
        SCOPED_TRACE(::testing::Message() << op);
        auto expected = reference_set_op(op, in.a, in.b, tagged_less{});
        const std::int64_t n = run_set_op_by_key(op, ctx, dak.data(), dav.data(), na, dbk.data(), dbv.data(), nb,
                                                 ok.data(), ov.data(), mergepath::less<>{});
        ASSERT_EQ(n, static_cast<std::int64_t>(expected.size()));
        auto keys = ok.download(), vals = ov.download();
        for (std::size_t k = 0; k < expected.size(); ++k) ASSERT_EQ((tagged{keys[k], vals[k]}), expected[k]) << k;
      }
    }
}

TEST_F(GpuJoinMisc, SetOperationsArgumentsCheckedModeAndUnsortedInput) {
  cuda_context ctx;
  device_vector<int> a(std::vector<int>{1, 2, 3, 2, 5}), b(std::vector<int>{1, 2}), out(7);
  expect_invalid_argument([&] { mergepath::set_union(ctx, a.data(), -1, b.data(), 2, out.data()); }, "negative");
  expect_invalid_argument([&] { mergepath::set_difference(ctx, a.data(), 5, b.data(), 2, static_cast<int*>(nullptr)); },
                          "null");
  ctx.set_checked(true);
  expect_invalid_argument([&] { mergepath::set_union(ctx, a.data(), 5, b.data(), 2, out.data()); }, "a[3]");
  ctx.set_checked(false);
  // Unsorted, unchecked, large: any count up to the capacity, nothing out of bounds.
  const index_t n = 1 << 18;
  std::mt19937_64 rng(case_seed({n}));
  std::vector<int> ha(static_cast<std::size_t>(n)), hb(static_cast<std::size_t>(n / 2));
  for (auto& x : ha) x = static_cast<int>(rng() % 50);
  for (auto& x : hb) x = static_cast<int>(rng() % 50);
  device_vector<int> da(ha), db(hb);
  for (set_op op : all_set_ops()) {
    device_vector<int> o(static_cast<std::size_t>(mergepath::detail::set_output_capacity(op, n, n / 2)));
    EXPECT_LE(run_set_op(op, ctx, da.data(), n, db.data(), n / 2, o.data(), mergepath::less<>{}),
              static_cast<std::int64_t>(o.size()));
  }
  ctx.synchronize();
}

// Small tiles, each asking L2 for the next one's runs (a distance of one tile on any GPU): the
// prefetch path at sizes the sanitizers run, on sorted input by key and on unsorted input.
struct prefetching_set_policy {
  static constexpr mergepath::set_operation_tuning tuning{128, 7, 1, 0.001f};
};

TEST_F(GpuJoinMisc, SetOperationsPrefetchingEveryNextTile) {
  cuda_context ctx;
  const index_t span = prefetching_set_policy::tuning.tile_span();
  for (auto [na, nb] :
       std::vector<std::pair<index_t, index_t>>{{1, 0}, {span, 1}, {3 * span + 2, 2 * span}, {5000, 7000}})
    for (bool sorted : {true, false}) {
      SCOPED_TRACE(::testing::Message() << na << " x " << nb << (sorted ? " sorted" : " unsorted"));
      std::mt19937_64 rng(case_seed({na, nb}));
      std::vector<int> ha(static_cast<std::size_t>(na)), hb(static_cast<std::size_t>(nb));
      for (auto& x : ha) x = static_cast<int>(rng() % 300);
      for (auto& x : hb) x = static_cast<int>(rng() % 300);
      if (sorted) std::sort(ha.begin(), ha.end()), std::sort(hb.begin(), hb.end());
      std::vector<int> ha_vals(ha.size()), hb_vals(hb.size());
      for (std::size_t k = 0; k < ha.size(); ++k) ha_vals[k] = static_cast<int>(k);
      for (std::size_t k = 0; k < hb.size(); ++k) hb_vals[k] = ~static_cast<int>(k);
      device_vector<int> a(ha), b(hb), av(ha_vals), bv(hb_vals), out(ha.size() + hb.size()), out_vals(out.size());
      const index_t n = mergepath::device::launch_set_operation<prefetching_set_policy, set_op::union_>(
          ctx, a.data(), av.data(), na, b.data(), bv.data(), nb, out.data(), out_vals.data(), mergepath::less<>{});
      std::vector<int> union_got = out.download(), union_vals = out_vals.download();
      const index_t m = mergepath::device::launch_set_operation<prefetching_set_policy, set_op::intersection>(
          ctx, a.data(), nullptr, na, b.data(), nullptr, nb, out.data(), nullptr, mergepath::less<>{});
      if (!sorted) continue;  // any counts, nothing out of bounds
      std::vector<int> union_keys, common;
      std::set_union(ha.begin(), ha.end(), hb.begin(), hb.end(), std::back_inserter(union_keys));
      std::set_intersection(ha.begin(), ha.end(), hb.begin(), hb.end(), std::back_inserter(common));
      ASSERT_EQ(n, static_cast<index_t>(union_keys.size()));
      union_got.resize(union_keys.size());
      ASSERT_EQ(union_got, union_keys);
      for (index_t k = 0; k < n; ++k) {  // each value names the key it came with
        const int v = union_vals[static_cast<std::size_t>(k)];
        ASSERT_EQ(v >= 0 ? ha[static_cast<std::size_t>(v)] : hb[static_cast<std::size_t>(~v)],
                  union_got[static_cast<std::size_t>(k)])
            << k;
      }
      ASSERT_EQ(m, static_cast<index_t>(common.size()));
      std::vector<int> got = out.download();
      got.resize(common.size());
      ASSERT_EQ(got, common);
    }
  ctx.synchronize();
}

}  // namespace
}  // namespace mergepath_test
