// The set operations on a host_context: the suites of suites/set_operations.hpp, and what only
// the host backend has (bounds-checked views of unsorted input, the GPU tile's walk run on the
// CPU, comparators that are not orders).
#include <gtest/gtest.h>

#include <mergepath/set_operations.hpp>
#include <vector>

#include "comparator_fuzz_util.hpp"
#include "suites/set_operations.hpp"

namespace mergepath_test {
namespace {

using mergepath::host_context;

INSTANTIATE_TYPED_TEST_SUITE_P(Host, SetOperations, on_host<set_cases>);
INSTANTIATE_TYPED_TEST_SUITE_P(Host, SetOperationCalls, on_host<>);

// Without checked mode unsorted input gives unspecified output, but every access stays inside
// a, b and out's capacity.
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
    for (auto [na, nb] :
         {std::pair<index_t, index_t>{0, 0}, {0, 9}, {9, 0}, {1, 1}, {47, 48}, {1000, 999}, {5000, 3000}}) {
      if (shape == pair_shape::identical) nb = na;
      SCOPED_TRACE(::testing::Message() << shape << " " << na << " x " << nb << " seed " << base_seed());
      auto in = make_key_pair<tagged>(shape, na, nb, case_seed({na, nb, 23}), tagged_less{});
      for_each_set_op([&](auto op) {
        constexpr set_op Op = decltype(op)::value;
        SCOPED_TRACE(::testing::Message() << Op);
        const auto expected = reference_set_op(Op, in.a, in.b, tagged_less{});
        EXPECT_EQ((tiled_merge_walk<Op, 5>(in.a, in.b, 4)), expected);
        EXPECT_EQ((tiled_merge_walk<Op, 7>(in.a, in.b, 3)), expected);
      });
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
