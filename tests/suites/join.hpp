// merge_join and sort_merge_join, written once over both backends (test_host_join.cpp and
// test_gpu_join.cu instantiate it): against the sequential reference join for every kind, input
// shape and Index width; a key group of 6e6 rows; the result's ownership; argument errors;
// checked mode.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <mergepath/join.hpp>
#include <mergepath/tuning/load_balance.hpp>
#include <random>
#include <type_traits>
#include <vector>

#include "../backends.hpp"
#include "../join_util.hpp"

namespace mergepath_test {

template <class Key, class Comp, class Index>
struct join_case {
  using key = Key;
  using comp = Comp;
  using index = Index;
};

// Index int32 and int64, greater<>, and tagged keys (equal keys told apart) with the Index width
// each backend's file names.
template <class TaggedIndex>
using join_cases = ::testing::Types<join_case<std::int32_t, mergepath::less<>, std::int32_t>,
                                    join_case<std::int64_t, mergepath::greater<>, std::int64_t>,
                                    join_case<tagged, tagged_less, TaggedIndex>>;

// Empty and tiny inputs, then each backend's edges and a large case: on the host the threads'
// shares (work under 2^15 items a chunk stays on one thread); on the GPU the load-balancing
// expansion's tile and few rows of a into a long b (their bounds one needle at a time, then a
// scan of their rows).
template <class Backend>
size_pairs join_sizes() {
  size_pairs sizes = {{0, 0}, {0, 5}, {5, 0}, {1, 1}, {7, 100}, {1000, 999}};
  if constexpr (is_host_backend<Backend>) {
    sizes.insert(sizes.end(), {{(1 << 15) + 1, (1 << 15) - 1}, {1 << 17, 1 << 16}});
  } else {
    const index_t lbs = mergepath::default_transform_lbs_tuning.tile_items();
    sizes.insert(sizes.end(), {{lbs - 1, lbs + 1}, {lbs, 1}, {3 * lbs + 5, 777}, {200, 1 << 16}, {1 << 18, 1 << 17}});
  }
  return capped_sizes(sizes);
}

// Joins in (sorted, or in any order with sort_first) on ctx, from buffers in the context's
// memory: the rows must be expected's, and sort_merge_join leaves its inputs as they were.
template <join_kind Kind, class Index, class Context, class Key, class Comp>
void check_join(Context& ctx, const key_pair<Key>& in, const join_rows& expected, bool sort_first, Comp comp) {
  const auto na = static_cast<index_t>(in.a.size()), nb = static_cast<index_t>(in.b.size());
  buffer_for<Context, Key> a(in.a), b(in.b);
  auto r = sort_first ? mergepath::sort_merge_join<Kind, Index>(ctx, a.data(), na, b.data(), nb, comp)
                      : mergepath::merge_join<Kind, Index>(ctx, a.data(), na, b.data(), nb, comp);
  constexpr bool has_b = mergepath::detail::has_b_index(Kind);
  if (!has_b) {
    EXPECT_EQ(r.b_index(), nullptr);
  }
  const std::vector<Index> rows_a = to_host(ctx, r.a_index(), r.size());
  const std::vector<Index> rows_b = has_b ? to_host(ctx, r.b_index(), r.size()) : std::vector<Index>{};
  ASSERT_TRUE(join_matches(expected, r.size(), rows_a, rows_b, has_b));
  if (sort_first) {
    ASSERT_TRUE(ranges_equal(in.a, a.download()));
    ASSERT_TRUE(ranges_equal(in.b, b.download()));
  }
}

template <class Param>
class Join : public backend_suite<Param> {};
TYPED_TEST_SUITE_P(Join);

// Every kind of every input shape and size, each kind's reference computed once for all contexts.
template <class Param>
void check_joins(bool sort_first) {
  using Key = typename Param::key;
  using Comp = typename Param::comp;
  const auto contexts = Param::backend::contexts();
  for (pair_shape shape : all_pair_shapes())
    for (auto [na, nb] : join_sizes<typename Param::backend>()) {
      if (shape == pair_shape::few_distinct && na * nb > (index_t{1} << 24)) continue;  // the reference's time
      // The host's time: sort_merge_join sorts on four contexts; 2^16 keys already take two chunks.
      if (sort_first && is_host_backend<typename Param::backend> && na + nb > (1 << 16)) continue;
      SCOPED_TRACE(::testing::Message() << shape << " " << na << " x " << nb << " seed " << base_seed());
      auto in = make_key_pair<Key>(shape, na, nb, case_seed({na, nb, static_cast<int>(shape)}), Comp{});
      if (sort_first) {
        std::mt19937_64 rng(case_seed({na, nb, 8}));
        std::shuffle(in.a.begin(), in.a.end(), rng);
        std::shuffle(in.b.begin(), in.b.end(), rng);
      }
      ASSERT_NO_FATAL_FAILURE(for_each_join_kind([&](auto kind) {
        constexpr join_kind Kind = decltype(kind)::value;
        SCOPED_TRACE(::testing::Message() << Kind);
        const join_rows expected =
            sort_first ? reference_sort_join(Kind, in.a, in.b, Comp{}) : reference_join(Kind, in.a, in.b, Comp{});
        on_each(contexts,
                [&](auto& ctx) { check_join<Kind, typename Param::index>(ctx, in, expected, sort_first, Comp{}); });
      }));
    }
}

TYPED_TEST_P(Join, MergeJoinMatchesReference) { check_joins<TypeParam>(false); }

TYPED_TEST_P(Join, SortMergeJoinMatchesReferenceAndLeavesInputs) { check_joins<TypeParam>(true); }

REGISTER_TYPED_TEST_SUITE_P(Join, MergeJoinMatchesReference, SortMergeJoinMatchesReferenceAndLeavesInputs);

// ---------------------------------------------------------------------------------------------
// The calls' contracts.

template <class Param>
class JoinCalls : public backend_suite<Param> {};
TYPED_TEST_SUITE_P(JoinCalls);

// 3000 x 2000 equal keys: 6e6 rows from one key group, spread over the threads like any work (on
// a GPU each a row's partners galloped up from its lower bound).
TYPED_TEST_P(JoinCalls, OneKeyGroupOfSixMillionRows) {
  key_pair<std::int32_t> in;
  in.a.assign(3000, 42), in.b.assign(2000, 42);
  in.a.insert(in.a.begin(), 7), in.b.push_back(99);
  join_rows full_outer;
  full_outer.a.reserve(6'000'002), full_outer.b.reserve(6'000'002);
  full_outer.a.push_back(0), full_outer.b.push_back(-1);
  for (std::int64_t i = 1; i <= 3000; ++i)
    for (std::int64_t j = 0; j < 2000; ++j) full_outer.a.push_back(i), full_outer.b.push_back(j);
  full_outer.a.push_back(-1), full_outer.b.push_back(2000);
  join_rows inner{{full_outer.a.begin() + 1, full_outer.a.end() - 1},
                  {full_outer.b.begin() + 1, full_outer.b.end() - 1}};
  on_each(TypeParam::backend::contexts(), [&](auto& ctx) {
    check_join<join_kind::full_outer, std::int32_t>(ctx, in, full_outer, false, mergepath::less<>{});
    check_join<join_kind::inner, std::int32_t>(ctx, in, inner, false, mergepath::less<>{});
  });
}

TYPED_TEST_P(JoinCalls, BadArgumentsThrow) {
  using Backend = typename TypeParam::backend;
  typename Backend::context ctx;
  typename Backend::template buffer<int> a(std::vector<int>{1, 2, 3}), b(std::vector<int>{2, 3}),
      many(std::vector<int>(200, 1));
  int* null = nullptr;
  expect_invalid_argument([&] { mergepath::merge_join(ctx, a.data(), -1, b.data(), 2); }, "a count is negative");
  expect_invalid_argument([&] { mergepath::merge_join(ctx, null, 3, b.data(), 2); }, "a is a null pointer");
  expect_invalid_argument([&] { mergepath::sort_merge_join(ctx, a.data(), 3, null, 2); }, "b is a null pointer");
  // An Index too narrow for the row counts (int8_t holds at most 127 rows).
  expect_invalid_argument(
      [&] { mergepath::merge_join<join_kind::inner, std::int8_t>(ctx, many.data(), 200, b.data(), 2); }, "Index");
  EXPECT_EQ((mergepath::merge_join<join_kind::inner, std::int8_t>(ctx, many.data(), 127, b.data(), 2).size()), 0);
}

TYPED_TEST_P(JoinCalls, CheckedModeNamesTheUnsortedInput) {
  using Backend = typename TypeParam::backend;
  on_each(Backend::contexts(), [](auto& ctx) {
    ctx.set_checked(true);
    typename Backend::template buffer<int> a(std::vector<int>{1, 2, 3, 2, 5}), b(std::vector<int>{1, 2});
    expect_invalid_argument([&] { mergepath::merge_join(ctx, a.data(), 5, b.data(), 2); }, "a[3]");
    expect_invalid_argument([&] { mergepath::merge_join(ctx, b.data(), 2, a.data(), 5); }, "b[3]");
    // sort_merge_join takes any order, checked or not.
    EXPECT_EQ(mergepath::sort_merge_join(ctx, a.data(), 5, b.data(), 2).size(), 3);
  });
}

TYPED_TEST_P(JoinCalls, ResultMovesAndOwnsItsRows) {
  using Backend = typename TypeParam::backend;
  typename Backend::context ctx;
  typename Backend::template buffer<int> a(std::vector<int>{1, 2, 2}), b(std::vector<int>{2, 2, 3});
  auto r = mergepath::merge_join(ctx, a.data(), 3, b.data(), 3);
  static_assert(!std::is_copy_constructible_v<decltype(r)>);
  auto moved = std::move(r);
  ASSERT_EQ(moved.size(), 4);
  EXPECT_EQ(to_host(ctx, moved.a_index(), 4), (std::vector<std::int64_t>{1, 1, 2, 2}));
  EXPECT_EQ(to_host(ctx, moved.b_index(), 4), (std::vector<std::int64_t>{0, 1, 0, 1}));
}

REGISTER_TYPED_TEST_SUITE_P(JoinCalls, OneKeyGroupOfSixMillionRows, BadArgumentsThrow, CheckedModeNamesTheUnsortedInput,
                            ResultMovesAndOwnsItsRows);

}  // namespace mergepath_test
