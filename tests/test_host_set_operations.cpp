// The set operations on the CPU against std::set_*: every operation, every input shape, sizes
// around the threads' shares, greater<>, tagged keys (which copies are taken) and the _by_key
// forms; argument checks, checked mode, unsorted input in bounds.
#include <gtest/gtest.h>

#include <mergepath/set_operations.hpp>
#include <vector>

#include "comparator_fuzz_util.hpp"
#include "join_util.hpp"

namespace mergepath_test {
namespace {

using mergepath::host_context;

template <class Case>
struct HostSetOperations : ::testing::Test {};
using set_cases = ::testing::Types<keys_case<std::int32_t, mergepath::less<>>,
                                   keys_case<std::int64_t, mergepath::greater<>>, keys_case<tagged, tagged_less>>;
TYPED_TEST_SUITE(HostSetOperations, set_cases);

const std::pair<index_t, index_t> set_sizes[] = {
    {0, 0},      {0, 5}, {5, 0}, {1, 1}, {7, 100}, {1000, 999}, {(1 << 15) + 1, (1 << 15) - 1}, {1 << 17, 1 << 16},
    {3, 1 << 17}};

TYPED_TEST(HostSetOperations, MatchStdSetOperations) {
  using Key = typename TypeParam::key;
  using Comp = typename TypeParam::comp;
  for (pair_shape shape : all_pair_shapes())
    for (auto [a_size, b_size] : set_sizes)
      for (int threads : {1, 2, 3}) {
        const index_t na = a_size, nb = shape == pair_shape::identical ? a_size : b_size;
        SCOPED_TRACE(::testing::Message()
                     << shape << " " << na << " x " << nb << " threads " << threads << " seed " << base_seed());
        auto in = make_key_pair<Key>(shape, na, nb, case_seed({na, nb, static_cast<int>(shape)}), Comp{});
        host_context ctx(threads);
        for (set_op op : all_set_ops()) {
          SCOPED_TRACE(::testing::Message() << op);
          auto expected = reference_set_op(op, in.a, in.b, Comp{});
          std::vector<Key> out(in.a.size() + in.b.size() + guard_items, poison<Key>());
          const std::int64_t n = run_set_op(op, ctx, in.a.data(), na, in.b.data(), nb, out.data(), Comp{});
          ASSERT_EQ(n, static_cast<std::int64_t>(expected.size()));
          ASSERT_TRUE(ranges_equal(expected, out));
          if (!mergepath::detail::keeps_b_only(op)) {  // room for a_count only: nothing written past it
            ASSERT_TRUE(untouched(out, static_cast<std::size_t>(na), out.size()));
          }
        }
      }
}

// The _by_key forms: each key's value is its origin (a: i, b: -1 - j), so the values show which
// copies were taken, and they must match std::set_* on the (key, value) pairs ordered by key.
TEST(HostSetOperationsByKey, ValuesTravelWithTheirKeys) {
  for (pair_shape shape : all_pair_shapes())
    for (auto [a_size, b_size] : set_sizes)
      for (int threads : {1, 2}) {
        const index_t na = a_size, nb = shape == pair_shape::identical ? a_size : b_size;
        SCOPED_TRACE(::testing::Message() << shape << " " << na << " x " << nb << " seed " << base_seed());
        auto in = make_key_pair<tagged>(shape, na, nb, case_seed({na, nb, 11}), tagged_less{});
        std::vector<int> ak, bk, av, bv;
        for (const tagged& t : in.a) ak.push_back(t.key), av.push_back(t.tag);
        for (const tagged& t : in.b) bk.push_back(t.key), bv.push_back(t.tag);
        host_context ctx(threads);
        for (set_op op : all_set_ops()) {
          SCOPED_TRACE(::testing::Message() << op);
          auto expected = reference_set_op(op, in.a, in.b, tagged_less{});
          std::vector<int> ok(ak.size() + bk.size()), ov(ak.size() + bk.size());
          const std::int64_t n = run_set_op_by_key(op, ctx, ak.data(), av.data(), na, bk.data(), bv.data(), nb,
                                                   ok.data(), ov.data(), mergepath::less<>{});
          ASSERT_EQ(n, static_cast<std::int64_t>(expected.size()));
          for (std::size_t k = 0; k < expected.size(); ++k)
            ASSERT_EQ((tagged{ok[k], ov[k]}), expected[k]) << "at " << k;
        }
      }
}

// Of a key held m times in a and n in b, the copies std::set_* take.
TEST(HostSetOperationsCopies, SmallMultisetsByHand) {
  const std::vector<tagged> a = {{1, 0}, {2, 1}, {2, 2}, {2, 3}, {3, 4}}, b = {{2, -1}, {3, -2}, {3, -3}, {4, -4}};
  host_context ctx;
  std::vector<tagged> out(9);
  auto run = [&](set_op op) {
    auto n = run_set_op(op, ctx, a.data(), 5, b.data(), 4, out.data(), tagged_less{});
    return std::vector<tagged>(out.begin(), out.begin() + n);
  };
  EXPECT_EQ(run(set_op::union_), (std::vector<tagged>{{1, 0}, {2, 1}, {2, 2}, {2, 3}, {3, 4}, {3, -3}, {4, -4}}));
  EXPECT_EQ(run(set_op::intersection), (std::vector<tagged>{{2, 1}, {3, 4}}));
  EXPECT_EQ(run(set_op::difference), (std::vector<tagged>{{1, 0}, {2, 2}, {2, 3}}));
  EXPECT_EQ(run(set_op::symmetric_difference), (std::vector<tagged>{{1, 0}, {2, 2}, {2, 3}, {3, -3}, {4, -4}}));
}

TEST(HostSetOperationsArguments, BadArgumentsThrow) {
  host_context ctx;
  std::vector<int> a = {1, 2}, out(4);
  expect_invalid_argument([&] { mergepath::set_union(ctx, a.data(), -1, a.data(), 2, out.data()); }, "negative");
  expect_invalid_argument(
      [&] { mergepath::set_intersection(ctx, a.data(), 2, static_cast<int*>(nullptr), 2, out.data()); }, "null");
  expect_invalid_argument([&] { mergepath::set_difference(ctx, a.data(), 2, a.data(), 2, static_cast<int*>(nullptr)); },
                          "null");
  expect_invalid_argument(
      [&] {
        mergepath::set_union_by_key(ctx, a.data(), static_cast<int*>(nullptr), 2, a.data(), a.data(), 2, out.data(),
                                    out.data());
      },
      "a_vals");
}

TEST(HostSetOperationsChecked, UnsortedInputIsNamed) {
  host_context ctx(2);
  ctx.set_checked(true);
  std::vector<int> a = {1, 2, 3, 2, 5}, b = {1, 2}, out(7);
  expect_invalid_argument([&] { mergepath::set_union(ctx, a.data(), 5, b.data(), 2, out.data()); }, "a[3]");
  expect_invalid_argument([&] { mergepath::set_symmetric_difference(ctx, b.data(), 2, a.data(), 5, out.data()); },
                          "b[3]");
}

TEST(HostSetOperationsUnchecked, UnsortedInputStaysInBounds) {
  for (int threads : {1, 2, 3}) {
    const index_t n = 1 << 17;
    std::mt19937_64 rng(case_seed({n, threads}));
    std::vector<int> a(static_cast<std::size_t>(n)), b(static_cast<std::size_t>(n) / 2);
    for (auto& x : a) x = static_cast<int>(rng() % 50);
    for (auto& x : b) x = static_cast<int>(rng() % 50);
    host_context ctx(threads);
    for (set_op op : all_set_ops()) {
      std::vector<int> out(static_cast<std::size_t>(mergepath::detail::set_output_capacity(op, n, n / 2)));
      const auto written =
          run_set_op(op, ctx, checked_view(a), n, checked_view(b), n / 2, checked_view(out), mergepath::less<>{});
      EXPECT_LE(written, static_cast<std::int64_t>(out.size()));
    }
  }
}

// The GPU tile kernel's walk (set_operation_merge_n), run here as its blocks would: tiles cut at
// set_path points one short of the keys they hold, each tile cut into threads' shares by
// merge_path (ties ordered as set_merge_order says), each share merged in a fixed number of steps
// from a padded buffer. What the shares keep, in order, must be std::set_*'s output, copies
// included (tagged keys).
template <set_op Op, int Items>
std::vector<tagged> tiled_merge_walk(const std::vector<tagged>& a, const std::vector<tagged>& b, int threads) {
  const tagged_less comp;
  const index_t tile_keys = static_cast<index_t>(threads) * Items, span = tile_keys - 1;
  const index_t na = static_cast<index_t>(a.size()), nb = static_cast<index_t>(b.size());
  std::vector<tagged> kept;
  for (index_t diag = 0; diag < na + nb; diag += span) {
    const auto s0 = mergepath::set_path(a.data(), na, b.data(), nb, diag, comp);
    const auto s1 = mergepath::set_path(a.data(), na, b.data(), nb, std::min(diag + span, na + nb), comp);
    const int a_count = static_cast<int>(s1.a - s0.a), b_count = static_cast<int>(s1.b - s0.b);
    EXPECT_LE(a_count + b_count, tile_keys);
    // The shared buffer: a's run, a gap (the GPU's alignment slack), b's run, then padding the
    // walk may read.
    constexpr int gap = 3;
    const tagged poison{-7, -7};
    std::vector<tagged> buffer(a.begin() + s0.a, a.begin() + s1.a);
    buffer.resize(buffer.size() + gap, poison);
    buffer.insert(buffer.end(), b.begin() + s0.b, b.begin() + s1.b);
    buffer.resize(buffer.size() + Items + 2, poison);
    const int b_begin = a_count + gap;
    const tagged* ta = buffer.data();
    const tagged* tb = buffer.data() + b_begin;
    for (int t = 0; t < threads; ++t) {
      const int d = std::min(t * Items, a_count + b_count);
      const int i = mergepath::merge_path<mergepath::set_merge_order(Op)>(ta, a_count, tb, b_count, d, comp);
      tagged out[Items];
      int source[Items];
      const unsigned bits = mergepath::set_operation_merge_n<Op, Items>(
          buffer.data(), 0, a_count, b_begin, b_begin + b_count, i, b_begin + d - i, out, source, comp);
      for (int k = 0; k < std::min(Items, a_count + b_count - d); ++k)
        if (bits >> k & 1u) {
          kept.push_back(out[k]);
          EXPECT_EQ(out[k], buffer[static_cast<std::size_t>(source[k])]);
          EXPECT_TRUE(source[k] < a_count || source[k] >= b_begin) << "a kept step from the gap";
        }
    }
  }
  return kept;
}

TEST(HostSetOperationsMergeWalk, TiledLikeTheGpuMatchesStd) {
  for (pair_shape shape : all_pair_shapes())
    for (auto [na, nb] : {std::pair<index_t, index_t>{0, 0}, {0, 9}, {9, 0}, {1, 1}, {47, 48}, {1000, 999}, {5000, 3000}}) {
      if (shape == pair_shape::identical) nb = na;
      SCOPED_TRACE(::testing::Message() << shape << " " << na << " x " << nb << " seed " << base_seed());
      auto in = make_key_pair<tagged>(shape, na, nb, case_seed({na, nb, 23}), tagged_less{});
      auto check = [&](auto op) {
        constexpr set_op Op = decltype(op)::value;
        SCOPED_TRACE(::testing::Message() << Op);
        const auto expected = reference_set_op(Op, in.a, in.b, tagged_less{});
        EXPECT_EQ((tiled_merge_walk<Op, 5>(in.a, in.b, 4)), expected);
        EXPECT_EQ((tiled_merge_walk<Op, 7>(in.a, in.b, 3)), expected);
      };
      check(std::integral_constant<set_op, set_op::union_>{});
      check(std::integral_constant<set_op, set_op::intersection>{});
      check(std::integral_constant<set_op, set_op::difference>{});
      check(std::integral_constant<set_op, set_op::symmetric_difference>{});
    }
}

// Comparators that are not strict weak orders (set_union of {0, 1, 2} with itself under <= never
// returned): every operation returns a count within its output's room, each output an element of
// its input (intersection and difference: of a), none twice but where comp answers at random.
TEST(HostComparatorFuzz, SetOperationsReturnInputElements) {
  for (const fuzz_case& c : fuzz_cases(4)) {
    SCOPED_TRACE(::testing::Message() << c);
    host_context ctx(c.threads);
    const bad_comp comp{c.order};
    const index_t na = c.n * 2 / 3, nb = c.n - na;
    const std::vector<double> a = fuzz_keys(c, na, 0), b = fuzz_keys(c, nb, 1);
    const std::vector<std::int64_t> a_rows = row_numbers(na), b_rows = row_numbers(nb, na);
    std::vector<double> both = a;
    both.insert(both.end(), b.begin(), b.end());
    for (set_op op : all_set_ops()) {
      SCOPED_TRACE(::testing::Message() << op);
      const auto room = static_cast<std::size_t>(mergepath::detail::set_output_capacity(op, na, nb));
      std::vector<double> out(room, -1.0);
      std::vector<std::int64_t> out_rows(room, -1);
      const std::int64_t n = run_set_op_by_key(op, ctx, a.data(), a_rows.data(), na, b.data(), b_rows.data(), nb,
                                               out.data(), out_rows.data(), comp);
      ASSERT_TRUE(n >= 0 && n <= static_cast<std::int64_t>(room)) << n;
      out.resize(static_cast<std::size_t>(n));
      out_rows.resize(static_cast<std::size_t>(n));
      const bool from_a_only = !mergepath::detail::keeps_b_only(op);
      ASSERT_TRUE(keys_of_rows(from_a_only ? a : both, out, out_rows, c.order != bad_order::random));
      std::vector<double> keys_only(room, -1.0);
      const std::int64_t n_keys = run_set_op(op, ctx, a.data(), na, b.data(), nb, keys_only.data(), comp);
      ASSERT_TRUE(n_keys >= 0 && n_keys <= static_cast<std::int64_t>(room)) << n_keys;
    }
  }
}

}  // namespace
}  // namespace mergepath_test
