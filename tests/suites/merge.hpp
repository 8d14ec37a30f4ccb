// merge and merge_pairs, written once over both backends (test_host_merge.cpp and
// test_gpu_merge.cu instantiate it): against std::merge over key types, comparators, sizes and
// distributions; argument errors; checked mode.
#pragma once

#include <gtest/gtest.h>

#include <mergepath/mergepath.hpp>
#include <vector>

#include "../backends.hpp"

namespace mergepath_test {

using merge_key_cases =
    ::testing::Types<keys_case<std::int32_t, mergepath::less<>>, keys_case<std::int32_t, mergepath::greater<>>,
                     keys_case<std::int64_t, mergepath::greater<>>, keys_case<std::uint32_t, mergepath::less<>>,
                     keys_case<float, mergepath::less<>>, keys_case<double, mergepath::greater<>>,
                     keys_case<point, point_less>,
                     // ties on x with different y: keys-only stability shows in the output
                     keys_case<point, point_x_less>>;

// 8-, 16- and 12-byte pairs take three default GPU tunings (the 16-byte one needs more than 48
// KiB of shared memory); point keys cannot be copied asynchronously, their int values can.
using merge_pair_cases =
    ::testing::Types<pairs_case<std::int32_t, std::int32_t, mergepath::less<>>,
                     pairs_case<std::int64_t, std::int64_t, mergepath::greater<>>,
                     pairs_case<float, std::uint32_t, mergepath::less<>>, pairs_case<point, std::int32_t, point_less>>;

template <class Param>
class Merge : public backend_suite<Param> {};
TYPED_TEST_SUITE_P(Merge);

TYPED_TEST_P(Merge, MatchesStdMerge) {
  using Key = typename TypeParam::key;
  using Comp = typename TypeParam::comp;
  const auto contexts = TypeParam::backend::contexts();
  for (const merge_case& c : merge_cases(merge_sizes(merge_tile_items<Key>()))) {
    SCOPED_TRACE(c.name());
    const merge_input<Key> in = make_merge_input<Key>(c, Comp{});
    const std::vector<Key> expected = std_merge(in.a, in.b, Comp{});
    ASSERT_NO_FATAL_FAILURE(on_each(contexts, [&](auto& ctx) {
      check_merge_against(ctx, in, expected, [](auto& ctx, auto a, index_t na, auto b, index_t nb, auto out) {
        mergepath::merge(ctx, a, na, b, nb, out, Comp{});
      });
    }));
  }
}

REGISTER_TYPED_TEST_SUITE_P(Merge, MatchesStdMerge);

template <class Param>
class MergePairs : public backend_suite<Param> {};
TYPED_TEST_SUITE_P(MergePairs);

// Values record their origin (a[i] carries i, b[j] carries a_count + j), so the output values
// show that of equal keys a's come first, each side in its own order.
TYPED_TEST_P(MergePairs, StableLikeStdMerge) {
  using Key = typename TypeParam::key;
  using Value = typename TypeParam::value;
  using Comp = typename TypeParam::comp;
  const auto contexts = TypeParam::backend::contexts();
  for (const merge_case& c : merge_cases(merge_sizes(merge_tile_items<Key, Value>()))) {
    SCOPED_TRACE(c.name());
    const merge_input<Key> keys = make_merge_input<Key>(c, Comp{});
    const merge_pairs_input<Key, Value> in(keys, Comp{});
    ASSERT_NO_FATAL_FAILURE(on_each(contexts, [&](auto& ctx) {
      check_merge_pairs_against(
          ctx, in, [](auto& ctx, auto ak, auto av, index_t na, auto bk, auto bv, index_t nb, auto ok, auto ov) {
            mergepath::merge_pairs(ctx, ak, av, na, bk, bv, nb, ok, ov, Comp{});
          });
    }));
  }
}

REGISTER_TYPED_TEST_SUITE_P(MergePairs, StableLikeStdMerge);

// ---------------------------------------------------------------------------------------------
// The calls' contracts: bad arguments throw std::invalid_argument before anything is written;
// checked mode names the first unsorted position.

template <class Param>
class MergeCalls : public backend_suite<Param> {};
TYPED_TEST_SUITE_P(MergeCalls);

TYPED_TEST_P(MergeCalls, BadArgumentsThrowBeforeWriting) {
  using Backend = typename TypeParam::backend;
  typename Backend::context ctx;
  typename Backend::template buffer<int> a(std::vector<int>{1, 2, 3}), b(std::vector<int>{2, 4}), out(5), vals(5);
  out.fill_poison();
  vals.fill_poison();
  int* null = nullptr;
  expect_invalid_argument([&] { mergepath::merge(ctx, a.data(), -1, b.data(), 2, out.data()); }, "a count is negative");
  expect_invalid_argument([&] { mergepath::merge(ctx, a.data(), 3, b.data(), -2, out.data()); }, "b count is negative");
  expect_invalid_argument([&] { mergepath::merge(ctx, null, 3, b.data(), 2, out.data()); }, "a is a null pointer");
  expect_invalid_argument([&] { mergepath::merge(ctx, a.data(), 3, null, 2, out.data()); }, "b is a null pointer");
  expect_invalid_argument([&] { mergepath::merge(ctx, a.data(), 3, b.data(), 2, null); }, "out is a null pointer");
  expect_invalid_argument(
      [&] { mergepath::merge_pairs(ctx, a.data(), a.data(), -1, b.data(), b.data(), 2, out.data(), vals.data()); },
      "a_keys count is negative");
  expect_invalid_argument(
      [&] { mergepath::merge_pairs(ctx, a.data(), a.data(), 3, b.data(), b.data(), -1, out.data(), vals.data()); },
      "b_keys count is negative");
  expect_invalid_argument(
      [&] { mergepath::merge_pairs(ctx, a.data(), null, 3, b.data(), b.data(), 2, out.data(), vals.data()); },
      "a_vals is a null pointer");
  expect_invalid_argument(
      [&] { mergepath::merge_pairs(ctx, a.data(), a.data(), 3, b.data(), null, 2, out.data(), vals.data()); },
      "b_vals is a null pointer");
  expect_invalid_argument(
      [&] { mergepath::merge_pairs(ctx, a.data(), a.data(), 3, b.data(), b.data(), 2, null, vals.data()); },
      "out_keys is a null pointer");
  expect_invalid_argument(
      [&] { mergepath::merge_pairs(ctx, a.data(), a.data(), 3, b.data(), b.data(), 2, out.data(), null); },
      "out_vals is a null pointer");
  Backend::finish(ctx);
  EXPECT_TRUE(untouched(out.download(), 0, 5));
  EXPECT_TRUE(untouched(vals.download(), 0, 5));
}

TYPED_TEST_P(MergeCalls, NullPointersWithZeroCountsAreFine) {
  using Backend = typename TypeParam::backend;
  typename Backend::context ctx;
  int* null = nullptr;
  EXPECT_NO_THROW(mergepath::merge(ctx, null, 0, null, 0, null));
  EXPECT_NO_THROW(mergepath::merge_pairs(ctx, null, null, 0, null, null, 0, null, null));
  typename Backend::template buffer<int> b(std::vector<int>{1, 2, 3}), out(3);
  mergepath::merge(ctx, null, 0, b.data(), 3, out.data());
  Backend::finish(ctx);
  EXPECT_EQ(out.download(), (std::vector<int>{1, 2, 3}));
}

// Sorted keys 0, 1, 2, ... with x[position] < x[position - 1].
inline std::vector<int> sorted_except_at(index_t count, index_t position) {
  std::vector<int> v = origins<int>(count, 0);
  v[static_cast<std::size_t>(position)] = -1;
  return v;
}

TYPED_TEST_P(MergeCalls, CheckedModeNamesTheFirstUnsortedPosition) {
  using Backend = typename TypeParam::backend;
  on_each(Backend::contexts(), [](auto& ctx) {
    ctx.set_checked(true);
    EXPECT_TRUE(ctx.checked());
    // Small arrays, and large ones whose second unsorted position lies in an earlier chunk than
    // a later one: the first position is named, whichever thread finds it.
    for (index_t count : {index_t{10}, index_t{300000}}) {
      SCOPED_TRACE(::testing::Message() << "count " << count);
      std::vector<int> bad_a = sorted_except_at(count, 5), bad_b = sorted_except_at(count, 7);
      if (count > 100000) bad_a[250000] = -2;
      typename Backend::template buffer<int> sorted(origins<int>(count, 0)), a(bad_a), b(bad_b);
      typename Backend::template buffer<int> out(static_cast<std::size_t>(2 * count)),
          vals(static_cast<std::size_t>(2 * count));
      out.fill_poison();
      vals.fill_poison();
      expect_invalid_argument([&] { mergepath::merge(ctx, a.data(), count, sorted.data(), count, out.data()); },
                              "a[5]");
      expect_invalid_argument([&] { mergepath::merge(ctx, sorted.data(), count, b.data(), count, out.data()); },
                              "b[7]");
      expect_invalid_argument(
          [&] {
            mergepath::merge_pairs(ctx, sorted.data(), sorted.data(), count, b.data(), sorted.data(), count,
                                   out.data(), vals.data());
          },
          "b[7]");
      EXPECT_TRUE(untouched(out.download(), 0, out.size()));
      EXPECT_TRUE(untouched(vals.download(), 0, vals.size()));
    }
  });
}

TYPED_TEST_P(MergeCalls, CheckedModePassesSortedInput) {
  const auto contexts = TypeParam::backend::contexts();
  for (const merge_case& c : merge_cases({0, 1, 2, 1009, 65537})) {
    SCOPED_TRACE(c.name());
    const merge_input<int> up = make_merge_input<int>(c, mergepath::less<>{});
    const merge_input<int> down = make_merge_input<int>(c, mergepath::greater<>{});
    ASSERT_NO_FATAL_FAILURE(on_each(contexts, [&](auto& ctx) {
      ctx.set_checked(true);
      ASSERT_NO_FATAL_FAILURE(check_default_merges(ctx, up, mergepath::less<>{}));
      ASSERT_NO_FATAL_FAILURE(check_default_merges(ctx, down, mergepath::greater<>{}));
    }));
  }
}

// Sorted means sorted by the call's comparator.
TYPED_TEST_P(MergeCalls, CheckedOrderIsTheComparatorsOrder) {
  using Backend = typename TypeParam::backend;
  typename Backend::context ctx;
  ctx.set_checked(true);
  typename Backend::template buffer<int> up(std::vector<int>{1, 2, 3}), down(std::vector<int>{3, 2, 1}), out(6);
  expect_invalid_argument([&] { mergepath::merge(ctx, up.data(), 3, down.data(), 3, out.data()); }, "b[1]");
  expect_invalid_argument(
      [&] { mergepath::merge(ctx, up.data(), 3, down.data(), 3, out.data(), mergepath::greater<>{}); }, "a[1]");
}

REGISTER_TYPED_TEST_SUITE_P(MergeCalls, BadArgumentsThrowBeforeWriting, NullPointersWithZeroCountsAreFine,
                            CheckedModeNamesTheFirstUnsortedPosition, CheckedModePassesSortedInput,
                            CheckedOrderIsTheComparatorsOrder);

}  // namespace mergepath_test
