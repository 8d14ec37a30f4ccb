// The set operations, written once over both backends (test_host_set_operations.cpp and
// test_gpu_set_operations.cu instantiate it): against std::set_* for every operation, input shape
// and key type, tagged keys and the _by_key forms for the copies taken; argument errors; checked
// mode.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <mergepath/set_operations.hpp>
#include <mergepath/tuning/set_operations.hpp>
#include <vector>

#include "../backends.hpp"
#include "../join_util.hpp"

namespace mergepath_test {

using set_cases = ::testing::Types<keys_case<std::int32_t, mergepath::less<>>,
                                   keys_case<std::int64_t, mergepath::greater<>>, keys_case<tagged, tagged_less>>;

// Empty and tiny inputs, then each backend's edges and large cases: on the host the threads'
// shares (work under 2^15 items a chunk stays on one thread); on the GPU one tile, two and many
// of each operation's tile for keys of key_bytes (a tile holds up to tile_items keys, its splits
// tile_span apart).
template <class Backend>
size_pairs set_sizes(std::size_t key_bytes, bool by_key) {
  size_pairs sizes = {{0, 0}, {0, 5}, {5, 0}, {1, 1}, {7, 100}, {1000, 999}};
  if constexpr (is_host_backend<Backend>) {
    sizes.insert(sizes.end(), {{(1 << 15) + 1, (1 << 15) - 1}, {1 << 17, 1 << 16}, {3, 1 << 17}});
  } else {
    sizes.insert(sizes.end(), {{1 << 18, 1 << 17}, {3, 1 << 18}, {(1 << 20) + 3, 1 << 20}});
    for (set_op op : all_set_ops()) {
      const index_t s = mergepath::set_operation_tuning_for(op, key_bytes, by_key).tile_span();
      for (auto edge :
           size_pairs{{s - 1, 0}, {s, 0}, {s, 1}, {s / 2, s / 2 + 1}, {s / 2 + 1, s / 2 + 1}, {2 * s + 3, 1000}})
        if (std::find(sizes.begin(), sizes.end(), edge) == sizes.end()) sizes.push_back(edge);
    }
  }
  return capped_sizes(sizes);
}

// out holds expected, and nothing was written past it (out started poisoned).
template <class Buffer, class T>
::testing::AssertionResult holds_exactly(const Buffer& out, const std::vector<T>& expected) {
  const std::vector<T> got = out.download();
  if (auto r = ranges_equal(expected, got); !r) return r;
  return untouched(got, expected.size(), got.size());
}

// A sweep's inputs and each operation's std::set_* output (by all_set_ops()), computed once for
// all contexts.
template <class Key>
struct set_case {
  key_pair<Key> in;
  std::vector<std::vector<Key>> expected;

  template <class Comp>
  set_case(pair_shape shape, index_t na, index_t nb, std::uint64_t seed, Comp comp)
      : in(make_key_pair<Key>(shape, na, nb, seed, comp)) {
    for (set_op op : all_set_ops()) expected.push_back(reference_set_op(op, in.a, in.b, comp));
  }
};

// One field of tagged rows: their keys or their tags.
inline std::vector<int> column(const std::vector<tagged>& rows, int tagged::*field) {
  std::vector<int> out;
  for (const tagged& t : rows) out.push_back(t.*field);
  return out;
}

// Every input shape at each of sizes (b as long as a where they are identical), its set_case
// checked by check(ctx, c, comp) on every context.
template <class Backend, class Key, class Comp, class Check>
void for_each_set_case(const size_pairs& sizes, Comp comp, Check check) {
  const auto contexts = Backend::contexts();
  for (pair_shape shape : all_pair_shapes())
    for (auto [na, nb] : sizes) {
      if (shape == pair_shape::identical) nb = na;
      SCOPED_TRACE(::testing::Message() << shape << " " << na << " x " << nb << " seed " << base_seed());
      const set_case<Key> c(shape, na, nb, case_seed({na, nb, static_cast<int>(shape)}), comp);
      ASSERT_NO_FATAL_FAILURE(on_each(contexts, [&](auto& ctx) { check(ctx, c, comp); }));
    }
}

// Every operation on ctx into poisoned outputs of their capacity and guard_items more.
template <class Context, class Key, class Comp>
void check_set_ops(Context& ctx, const set_case<Key>& c, Comp comp) {
  const auto na = static_cast<index_t>(c.in.a.size()), nb = static_cast<index_t>(c.in.b.size());
  buffer_for<Context, Key> a(c.in.a), b(c.in.b);
  for (std::size_t k = 0; k < all_set_ops().size(); ++k) {
    const set_op op = all_set_ops()[k];
    SCOPED_TRACE(::testing::Message() << op);
    buffer_for<Context, Key> out(static_cast<std::size_t>(mergepath::detail::set_output_capacity(op, na, nb)) +
                                 guard_items);
    out.fill_poison();
    const std::int64_t n = run_set_op(op, ctx, a.data(), na, b.data(), nb, out.data(), comp);
    finish(ctx);
    ASSERT_EQ(n, static_cast<std::int64_t>(c.expected[k].size()));
    ASSERT_TRUE(holds_exactly(out, c.expected[k]));
  }
}

// The _by_key forms on tagged keys split into int keys and their tags as values.
template <class Context>
void check_set_ops_by_key(Context& ctx, const set_case<tagged>& c) {
  const auto na = static_cast<index_t>(c.in.a.size()), nb = static_cast<index_t>(c.in.b.size());
  buffer_for<Context, int> ak(column(c.in.a, &tagged::key)), av(column(c.in.a, &tagged::tag)),
      bk(column(c.in.b, &tagged::key)), bv(column(c.in.b, &tagged::tag));
  for (std::size_t k = 0; k < all_set_ops().size(); ++k) {
    const set_op op = all_set_ops()[k];
    SCOPED_TRACE(::testing::Message() << op);
    const auto room = static_cast<std::size_t>(mergepath::detail::set_output_capacity(op, na, nb)) + guard_items;
    buffer_for<Context, int> ok(room), ov(room);
    ok.fill_poison();
    ov.fill_poison();
    const std::int64_t n = run_set_op_by_key(op, ctx, ak.data(), av.data(), na, bk.data(), bv.data(), nb, ok.data(),
                                             ov.data(), mergepath::less<>{});
    finish(ctx);
    ASSERT_EQ(n, static_cast<std::int64_t>(c.expected[k].size()));
    ASSERT_TRUE(holds_exactly(ok, column(c.expected[k], &tagged::key)));
    ASSERT_TRUE(holds_exactly(ov, column(c.expected[k], &tagged::tag)));
  }
}

template <class Param>
class SetOperations : public backend_suite<Param> {};
TYPED_TEST_SUITE_P(SetOperations);

TYPED_TEST_P(SetOperations, MatchStdSetOperations) {
  using Key = typename TypeParam::key;
  for_each_set_case<typename TypeParam::backend, Key>(
      set_sizes<typename TypeParam::backend>(sizeof(Key), false), typename TypeParam::comp{},
      [](auto& ctx, const set_case<Key>& c, auto comp) { check_set_ops(ctx, c, comp); });
}

REGISTER_TYPED_TEST_SUITE_P(SetOperations, MatchStdSetOperations);

// ---------------------------------------------------------------------------------------------
// The _by_key forms, the copies taken, and the calls' contracts.

template <class Param>
class SetOperationCalls : public backend_suite<Param> {};
TYPED_TEST_SUITE_P(SetOperationCalls);

// Each key's value is its origin (a: i, b: -1 - j), so the values show which copies were taken:
// they must match std::set_* on the (key, value) pairs ordered by key.
TYPED_TEST_P(SetOperationCalls, ByKeyValuesTravelWithTheirKeys) {
  for_each_set_case<typename TypeParam::backend, tagged>(
      set_sizes<typename TypeParam::backend>(sizeof(int), true), tagged_less{},
      [](auto& ctx, const set_case<tagged>& c, tagged_less) { check_set_ops_by_key(ctx, c); });
}

// Of a key held m times in a and n in b, the copies std::set_* take.
TYPED_TEST_P(SetOperationCalls, SmallMultisetsByHand) {
  using Backend = typename TypeParam::backend;
  on_each(Backend::contexts(), [](auto& ctx) {
    typename Backend::template buffer<tagged> a(std::vector<tagged>{{1, 0}, {2, 1}, {2, 2}, {2, 3}, {3, 4}}),
        b(std::vector<tagged>{{2, -1}, {3, -2}, {3, -3}, {4, -4}}), out(9);
    auto run = [&](set_op op) {
      const auto n = static_cast<std::size_t>(run_set_op(op, ctx, a.data(), 5, b.data(), 4, out.data(), tagged_less{}));
      std::vector<tagged> got = out.download();
      got.resize(n);
      return got;
    };
    EXPECT_EQ(run(set_op::union_), (std::vector<tagged>{{1, 0}, {2, 1}, {2, 2}, {2, 3}, {3, 4}, {3, -3}, {4, -4}}));
    EXPECT_EQ(run(set_op::intersection), (std::vector<tagged>{{2, 1}, {3, 4}}));
    EXPECT_EQ(run(set_op::difference), (std::vector<tagged>{{1, 0}, {2, 2}, {2, 3}}));
    EXPECT_EQ(run(set_op::symmetric_difference), (std::vector<tagged>{{1, 0}, {2, 2}, {2, 3}, {3, -3}, {4, -4}}));
  });
}

TYPED_TEST_P(SetOperationCalls, BadArgumentsThrowBeforeWriting) {
  using Backend = typename TypeParam::backend;
  typename Backend::context ctx;
  typename Backend::template buffer<int> a(std::vector<int>{1, 2}), out(4);
  out.fill_poison();
  int* null = nullptr;
  expect_invalid_argument([&] { mergepath::set_union(ctx, a.data(), -1, a.data(), 2, out.data()); },
                          "a count is negative");
  expect_invalid_argument([&] { mergepath::set_intersection(ctx, a.data(), 2, null, 2, out.data()); },
                          "b is a null pointer");
  expect_invalid_argument([&] { mergepath::set_difference(ctx, a.data(), 2, a.data(), 2, null); },
                          "out is a null pointer");
  expect_invalid_argument(
      [&] { mergepath::set_union_by_key(ctx, a.data(), null, 2, a.data(), a.data(), 2, out.data(), out.data()); },
      "a_vals is a null pointer");
  Backend::finish(ctx);
  EXPECT_TRUE(untouched(out.download(), 0, out.size()));
}

TYPED_TEST_P(SetOperationCalls, CheckedModeNamesTheUnsortedInput) {
  using Backend = typename TypeParam::backend;
  on_each(Backend::contexts(), [](auto& ctx) {
    ctx.set_checked(true);
    typename Backend::template buffer<int> a(std::vector<int>{1, 2, 3, 2, 5}), b(std::vector<int>{1, 2}), out(7);
    out.fill_poison();
    expect_invalid_argument([&] { mergepath::set_union(ctx, a.data(), 5, b.data(), 2, out.data()); }, "a[3]");
    expect_invalid_argument([&] { mergepath::set_symmetric_difference(ctx, b.data(), 2, a.data(), 5, out.data()); },
                            "b[3]");
    EXPECT_TRUE(untouched(out.download(), 0, out.size()));
  });
}

REGISTER_TYPED_TEST_SUITE_P(SetOperationCalls, ByKeyValuesTravelWithTheirKeys, SmallMultisetsByHand,
                            BadArgumentsThrowBeforeWriting, CheckedModeNamesTheUnsortedInput);

}  // namespace mergepath_test
