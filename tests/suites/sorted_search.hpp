// sorted_search and sorted_equality_count, written once over both backends
// (test_host_sorted_search.cpp and test_gpu_sorted_search.cu instantiate it): against
// std::equal_range per element over every bounds x search type, key types, comparators, sizes and
// distributions; output types; the demonstrations of moderngpu's Vectorized Sorted Search page;
// argument errors; checked mode. Also the checked runs the backend-specific tests share.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <mergepath/mergepath.hpp>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "../backends.hpp"
#include "../search_util.hpp"

namespace mergepath_test {

// The default tile of the GPU search for this key type (tuning/sorted_search.hpp); searches
// that report matches have a tile of their own.
template <class Key, bool ReportsMatches = false, std::size_t ResultBytes = 0>
constexpr index_t search_tile_items() {
  return mergepath::default_sorted_search_policy<Key, ReportsMatches, ResultBytes>::tuning.tile_items();
}

// search_shapes over sizes around each tile's edges (a tile and one either side, more than two
// tiles), primes and 65537; and shapes placed on the tiles' edges themselves.
inline std::vector<shape> search_shapes_at_tiles(const std::vector<index_t>& tiles) {
  std::vector<index_t> sizes{0, 1, 2, 17, 1009, 65537};
  for (index_t t : tiles) sizes.insert(sizes.end(), {t - 1, t, t + 1, 2 * t + 1});
  std::vector<shape> shapes = search_shapes(sizes);
  for (index_t t : tiles)
    for (shape s : {shape{t, t}, shape{t + 1, t - 1}, shape{2 * t, 1}, shape{1, 2 * t}})
      if (s.first + s.second <= max_test_size()) shapes.push_back(s);
  std::sort(shapes.begin(), shapes.end());
  shapes.erase(std::unique(shapes.begin(), shapes.end()), shapes.end());
  return shapes;
}

// The sweeps' shapes: on the GPU around Key's tiles (with and without matches); on the host small
// sizes and 140009, which splits over four threads.
template <class Backend, class Key>
std::vector<shape> sweep_shapes() {
  if constexpr (std::is_same_v<Backend, host_backend>)
    return search_shapes({0, 1, 2, 17, 97, 1009, 4099, 140009});
  else
    return search_shapes_at_tiles({search_tile_items<Key>(), search_tile_items<Key, true>()});
}

// The context a sweep runs on: the backend's last (the host's with the most threads, so that a
// case splits as far as its size allows).
template <class Backend>
std::unique_ptr<typename Backend::context> sweep_context() {
  return std::move(Backend::contexts().back());
}

// ---------------------------------------------------------------------------------------------
// Checked runs

// a and b of a search in a backend's memory.
template <class Context, class Key>
struct search_buffers {
  buffer_for<Context, Key> a, b;
  index_t a_count, b_count;
  explicit search_buffers(const merge_input<Key>& in)
      : a(in.a), b(in.b), a_count(static_cast<index_t>(in.a.size())), b_count(static_cast<index_t>(in.b.size())) {}
};

// An output of count elements between poisoned guards in a backend's memory; dest() is where it starts.
template <class Context, class T>
class guarded_buffer {
 public:
  explicit guarded_buffer(index_t count) : buffer_(static_cast<std::size_t>(count) + 2 * guard_items) {
    buffer_.fill_poison();
  }
  T* dest() const { return buffer_.data() + guard_items; }
  std::vector<T> download() const { return buffer_.download(); }

 private:
  buffer_for<Context, T> buffer_;
};

// Where a side of search type Type writes: nullptr for search::none.
template <search Type, class Out>
auto dest_of(const Out& out) {
  if constexpr (Type == search::none)
    return nullptr;
  else
    return out.dest();
}

// Runs the complete search <Bounds, TypeA, TypeB> with Policy's tuning into guarded outputs (AOut
// for a, BOut for b) and checks them, their guards and the match counts against the oracle.
template <class Policy, bounds Bounds, search TypeA, search TypeB, class AOut = std::int64_t, class BOut = std::int32_t,
          class Context, class AIt, class BIt, class Comp>
void check_tuned_search(Context& ctx, AIt a, index_t a_count, BIt b, index_t b_count, const search_oracle& expect,
                        Comp comp) {
  SCOPED_TRACE((search_kind_name<Bounds, TypeA, TypeB>()));
  guarded_buffer<Context, AOut> a_out(TypeA == search::none ? 0 : a_count);
  guarded_buffer<Context, BOut> b_out(TypeB == search::none ? 0 : b_count);
  const mergepath::match_counts matches = mergepath::sorted_search<Bounds, TypeA, TypeB, Policy>(
      ctx, a, a_count, b, b_count, dest_of<TypeA>(a_out), dest_of<TypeB>(b_out), comp);
  finish(ctx);
  if constexpr (TypeA != search::none) {
    ASSERT_TRUE(
        guarded_equal(expected_output<TypeA, AOut>(a_bounds(Bounds, expect), expect.a.match), a_out.download()));
  }
  if constexpr (TypeB != search::none) {
    ASSERT_TRUE(
        guarded_equal(expected_output<TypeB, BOut>(b_bounds(Bounds, expect), expect.b.match), b_out.download()));
  }
  EXPECT_EQ(matches.a, expected_matches(TypeA, expect.a));
  EXPECT_EQ(matches.b, expected_matches(TypeB, expect.b));
}

template <class Policy, bounds Bounds, search TypeA, search TypeB, class AOut = std::int64_t, class BOut = std::int32_t,
          class Context, class Key, class Comp>
void check_tuned_search(Context& ctx, const search_buffers<Context, Key>& in, const search_oracle& expect, Comp comp) {
  check_tuned_search<Policy, Bounds, TypeA, TypeB, AOut, BOut>(ctx, in.a.data(), in.a_count, in.b.data(), in.b_count,
                                                               expect, comp);
}

// The same with the default tuning.
template <bounds Bounds, search TypeA, search TypeB, class AOut = std::int64_t, class BOut = std::int32_t,
          class Context, class Key, class Comp>
void check_search(Context& ctx, const search_buffers<Context, Key>& in, const search_oracle& expect, Comp comp) {
  check_tuned_search<mergepath::default_tuning, Bounds, TypeA, TypeB, AOut, BOut>(ctx, in, expect, comp);
}

// The short form, a_out[i] = the bound of a[i] in b, into a guarded Out.
template <bounds Bounds, class Out = index_t, class Context, class Key, class Comp>
void check_short_search(Context& ctx, const search_buffers<Context, Key>& in, const search_oracle& expect, Comp comp) {
  SCOPED_TRACE(std::string("short form, bounds ") + to_string(Bounds));
  guarded_buffer<Context, Out> out(in.a_count);
  mergepath::sorted_search<Bounds>(ctx, in.a.data(), in.a_count, in.b.data(), in.b_count, out.dest(), comp);
  finish(ctx);
  ASSERT_TRUE(
      guarded_equal(expected_output<search::index, Out>(a_bounds(Bounds, expect), expect.a.match), out.download()));
}

// Every Bounds x TypeA x TypeB.
template <class Policy = mergepath::default_tuning, class Context, class Key, class Comp>
void check_every_kind(Context& ctx, const search_buffers<Context, Key>& in, const search_oracle& expect, Comp comp) {
  for_each_search_kind([&](auto bounds_c, auto type_a, auto type_b) {
    if (!::testing::Test::HasFatalFailure())
      check_tuned_search<Policy, decltype(bounds_c)::value, decltype(type_a)::value, decltype(type_b)::value>(
          ctx, in, expect, comp);
  });
}

// Both bounds with match bits on both sides, matches with indices, and one side left out.
template <class Policy = mergepath::default_tuning, class Context, class Key, class Comp>
void check_main_kinds(Context& ctx, const search_buffers<Context, Key>& in, const search_oracle& expect, Comp comp) {
  auto both_bounds = [&](auto bounds_c) {
    constexpr bounds Bounds = decltype(bounds_c)::value;
    ASSERT_NO_FATAL_FAILURE(
        (check_tuned_search<Policy, Bounds, search::index_match, search::index_match>(ctx, in, expect, comp)));
    ASSERT_NO_FATAL_FAILURE((check_tuned_search<Policy, Bounds, search::match, search::index>(ctx, in, expect, comp)));
    ASSERT_NO_FATAL_FAILURE((check_tuned_search<Policy, Bounds, search::none, search::match>(ctx, in, expect, comp)));
  };
  ASSERT_NO_FATAL_FAILURE(both_bounds(std::integral_constant<bounds, bounds::lower>{}));
  ASSERT_NO_FATAL_FAILURE(both_bounds(std::integral_constant<bounds, bounds::upper>{}));
}

// check(in, expect) for every case of these shapes, in and its oracle made once, naming the case
// in a failure's trace; stops at the first fatal failure.
template <class Key, class Context, class Comp, class Check>
void for_each_search_case(const std::vector<shape>& shapes, Comp comp, Check check) {
  for (const search_case& c : search_cases(shapes)) {
    SCOPED_TRACE(c.name());
    const merge_input<Key> in = make_search_input<Key>(c, comp);
    const search_oracle expect = sorted_search_oracle(in, comp);
    check(search_buffers<Context, Key>(in), expect);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// counts[i] = op(lower[i], upper bound of a[i] in b) into a guarded int32 output, against op
// applied to the oracle's upper bounds.
template <class Context, class Key, class Lower, class Op, class Comp>
void check_equality_count(Context& ctx, const search_buffers<Context, Key>& in, const std::vector<Lower>& lower,
                          const search_oracle& expect, Op op, Comp comp) {
  std::vector<std::int32_t> expected;
  for (std::size_t i = 0; i < lower.size(); ++i)
    expected.push_back(static_cast<std::int32_t>(op(static_cast<index_t>(lower[i]), expect.a.upper[i])));
  const buffer_for<Context, Lower> lower_in(lower);
  guarded_buffer<Context, std::int32_t> counts(in.a_count);
  mergepath::sorted_equality_count(ctx, in.a.data(), in.a_count, in.b.data(), in.b_count, lower_in.data(),
                                   counts.dest(), comp, op);
  finish(ctx);
  ASSERT_TRUE(guarded_equal(expected, counts.download()));
}

// ---------------------------------------------------------------------------------------------
// Every bounds x TypeA x TypeB against the oracle

// A sweep's key type and comparator, and whether it runs every kind of search or the main ones
// (on the GPU each kind is kernels to build: every kind for int32, the main ones for the rest).
template <class Key, class Comp, bool EveryKind>
struct sweep_case : keys_case<Key, Comp> {
  static constexpr bool every_kind = EveryKind;
};
// int32 (less) runs every kind; the other key types as EveryKind says.
template <bool EveryKind>
using sweep_cases = ::testing::Types<
    sweep_case<std::int32_t, mergepath::less<>, true>, sweep_case<std::int32_t, mergepath::greater<>, EveryKind>,
    sweep_case<std::int64_t, mergepath::less<>, EveryKind>, sweep_case<std::uint32_t, mergepath::less<>, EveryKind>,
    sweep_case<float, mergepath::less<>, EveryKind>, sweep_case<double, mergepath::greater<>, EveryKind>,
    sweep_case<point, point_less, EveryKind>,
    // ties on x with different y: a match is an equivalent key, not an identical one
    sweep_case<point, point_x_less, EveryKind>>;

template <class Param>
class SortedSearch : public backend_suite<Param> {};
TYPED_TEST_SUITE_P(SortedSearch);

// Over 100000 keys (the host's split sizes) only the full search with match bits on both sides
// runs, to keep the suite fast: EveryKindSplitOverThreads sweeps every kind there.
TYPED_TEST_P(SortedSearch, EveryKindMatchesTheOracle) {
  using Key = typename TypeParam::key;
  using Context = typename TypeParam::backend::context;
  const typename TypeParam::comp comp{};
  const auto sweep = sweep_context<typename TypeParam::backend>();
  Context& ctx = *sweep;
  for_each_search_case<Key, Context>(
      sweep_shapes<typename TypeParam::backend, Key>(), comp,
      [&](const search_buffers<Context, Key>& in, const search_oracle& expect) {
        if (in.a_count + in.b_count > 100000) {
          ASSERT_NO_FATAL_FAILURE(
              (check_search<bounds::lower, search::index_match, search::index_match>(ctx, in, expect, comp)));
        } else if constexpr (TypeParam::every_kind) {
          ASSERT_NO_FATAL_FAILURE(check_every_kind(ctx, in, expect, comp));
        } else {
          ASSERT_NO_FATAL_FAILURE(check_main_kinds(ctx, in, expect, comp));
        }
        ASSERT_NO_FATAL_FAILURE(check_short_search<bounds::lower>(ctx, in, expect, comp));
        ASSERT_NO_FATAL_FAILURE(check_short_search<bounds::upper>(ctx, in, expect, comp));
      });
}

REGISTER_TYPED_TEST_SUITE_P(SortedSearch, EveryKindMatchesTheOracle);

// ---------------------------------------------------------------------------------------------
// What the calls write: output types (index_match sets the top bit of whichever integer type the
// output holds), the demonstrations of moderngpu's Vectorized Sorted Search page exactly as
// printed there, and sorted_equality_count's counts.

template <class Param>
class SortedSearchOutputs : public backend_suite<Param> {};
TYPED_TEST_SUITE_P(SortedSearchOutputs);

TYPED_TEST_P(SortedSearchOutputs, IndexMatchAndMatchInOtherIntegerTypes) {
  using Context = typename TypeParam::backend::context;
  const auto sweep = sweep_context<typename TypeParam::backend>();
  Context& ctx = *sweep;
  const mergepath::less<> comp{};
  const index_t tile = search_tile_items<int>(), wide_tile = search_tile_items<int, false, 8>();
  // Over two GPU tiles of 32- and of 64-bit results; 70001 + 70003 splits over four host threads.
  const std::vector<shape> shapes{{0, 5},
                                  {97, 1009},
                                  {4099, 241},
                                  {30011, 50021},
                                  {70001, 70003},
                                  {2 * tile + 1, tile / 3},
                                  {2 * wide_tile + 1, wide_tile / 3}};
  for_each_search_case<int, Context>(
      shapes, comp, [&](const search_buffers<Context, int>& in, const search_oracle& expect) {
        ASSERT_NO_FATAL_FAILURE(
            (check_search<bounds::lower, search::index_match, search::index_match, std::uint32_t, std::uint32_t>(
                ctx, in, expect, comp)));
        ASSERT_NO_FATAL_FAILURE(
            (check_search<bounds::upper, search::index_match, search::index_match, std::int32_t, std::int64_t>(
                ctx, in, expect, comp)));
        ASSERT_NO_FATAL_FAILURE(
            (check_search<bounds::upper, search::index_match, search::index, std::uint64_t, std::uint32_t>(
                ctx, in, expect, comp)));
        ASSERT_NO_FATAL_FAILURE((check_search<bounds::lower, search::match, search::match, std::uint8_t, std::int16_t>(
            ctx, in, expect, comp)));
        ASSERT_NO_FATAL_FAILURE((check_search<bounds::upper, search::index, search::match, std::uint32_t, std::uint8_t>(
            ctx, in, expect, comp)));
        ASSERT_NO_FATAL_FAILURE((check_short_search<bounds::upper, std::int32_t>(ctx, in, expect, comp)));
      });
}

// The top bit is the match flag alone: with int32 outputs a match reads as a negative number.
TYPED_TEST_P(SortedSearchOutputs, MatchBitIsTheSignBitOfInt32) {
  using Backend = typename TypeParam::backend;
  typename Backend::context ctx;
  typename Backend::template buffer<int> a(std::vector<int>{1, 2, 4}), b(std::vector<int>{2, 3, 4, 4});
  typename Backend::template buffer<std::int32_t> a_out(3), b_out(4);
  const mergepath::match_counts m = mergepath::sorted_search<bounds::lower, search::index_match, search::index_match>(
      ctx, a.data(), 3, b.data(), 4, a_out.data(), b_out.data());
  Backend::finish(ctx);
  const std::int32_t bit = std::numeric_limits<std::int32_t>::min();
  EXPECT_EQ(a_out.download(), (std::vector<std::int32_t>{0, 0 | bit, 2 | bit}));
  EXPECT_EQ(b_out.download(), (std::vector<std::int32_t>{2 | bit, 2, 3 | bit, 3 | bit}));  // upper bounds of b in a
  EXPECT_EQ(m.a, 2);
  EXPECT_EQ(m.b, 3);
}

TYPED_TEST_P(SortedSearchOutputs, DemoLowerBoundsOfNeedlesInTheHaystack) {
  using Backend = typename TypeParam::backend;
  const std::vector<int> expected = printed_values(demo1::lower_bounds);
  ASSERT_EQ(expected.size(), 100u);
  typename Backend::template buffer<int> haystack(printed_values(demo1::haystack)),
      needles(printed_values(demo1::needles));
  ASSERT_EQ(haystack.size(), 200u);
  ASSERT_EQ(needles.size(), 100u);
  on_each(Backend::contexts(), [&](auto& ctx) {
    guarded_buffer<typename Backend::context, int> out(100);
    mergepath::sorted_search<bounds::lower>(ctx, needles.data(), 100, haystack.data(), 200, out.dest());
    Backend::finish(ctx);
    EXPECT_TRUE(guarded_equal(expected, out.download()));
  });
}

TYPED_TEST_P(SortedSearchOutputs, DemoIndexMatchBothWays) {
  using Backend = typename TypeParam::backend;
  const std::vector<std::int32_t> a_expected = printed_index_match(demo2::a_indices);
  const std::vector<std::int32_t> b_expected = printed_index_match(demo2::b_indices);
  ASSERT_EQ(a_expected.size(), 100u);
  ASSERT_EQ(b_expected.size(), 100u);
  typename Backend::template buffer<int> a(printed_values(demo2::a)), b(printed_values(demo2::b));
  ASSERT_EQ(a.size(), 100u);
  ASSERT_EQ(b.size(), 100u);
  on_each(Backend::contexts(), [&](auto& ctx) {
    guarded_buffer<typename Backend::context, std::int32_t> a_out(100), b_out(100);
    const mergepath::match_counts m = mergepath::sorted_search<bounds::lower, search::index_match, search::index_match>(
        ctx, a.data(), 100, b.data(), 100, a_out.dest(), b_out.dest());
    Backend::finish(ctx);
    EXPECT_TRUE(guarded_equal(a_expected, a_out.download()));
    EXPECT_TRUE(guarded_equal(b_expected, b_out.download()));
    EXPECT_EQ(m.a, printed_matches(demo2::a_indices));
    EXPECT_EQ(m.b, printed_matches(demo2::b_indices));
  });
}

// sorted_equality_count: counts[i] = op(lower_bounds[i], upper bound of a[i] in b).

// The default op (ub - lb: how many elements of b equal a[i]), a left join's row counts, and
// lower bounds that carry index_match's top bit (int32), over the sweep's shapes.
template <class Backend, class Key, class Comp>
void check_equality_counts(Comp comp) {
  using Context = typename Backend::context;
  const auto sweep = sweep_context<Backend>();
  Context& ctx = *sweep;
  for_each_search_case<Key, Context>(
      sweep_shapes<Backend, Key>(), comp, [&](const search_buffers<Context, Key>& in, const search_oracle& expect) {
        ASSERT_NO_FATAL_FAILURE(
            check_equality_count(ctx, in, expect.a.lower, expect, mergepath::equality_count_op{}, comp));
        ASSERT_NO_FATAL_FAILURE(check_equality_count(ctx, in, expect.a.lower, expect, left_join_rows{}, comp));
        const std::vector<std::int32_t> flagged =
            expected_output<search::index_match, std::int32_t>(expect.a.lower, expect.a.match);
        ASSERT_NO_FATAL_FAILURE(check_equality_count(ctx, in, flagged, expect, count_from_index_match{}, comp));
      });
}

TYPED_TEST_P(SortedSearchOutputs, EqualityCountDefaultAndUserOps) {
  using Backend = typename TypeParam::backend;
  ASSERT_NO_FATAL_FAILURE((check_equality_counts<Backend, std::int32_t>(mergepath::less<>{})));
  ASSERT_NO_FATAL_FAILURE((check_equality_counts<Backend, double>(mergepath::greater<>{})));
  ASSERT_NO_FATAL_FAILURE((check_equality_counts<Backend, point>(point_x_less{})));  // equivalent, not identical
}

// The lower bounds of the short form feed sorted_equality_count (default op and a left join's):
// the equal_range of each a[i], against counts written out by hand.
TYPED_TEST_P(SortedSearchOutputs, EqualityCountAfterALowerBoundSearch) {
  using Backend = typename TypeParam::backend;
  typename Backend::context ctx;
  typename Backend::template buffer<int> a(std::vector<int>{0, 1, 1, 3, 5, 5, 9}),
      b(std::vector<int>{1, 1, 1, 2, 5, 9, 9, 9, 9}), counts(7), rows(7);
  typename Backend::template buffer<index_t> lower(7);
  mergepath::sorted_search(ctx, a.data(), 7, b.data(), 9, lower.data());
  mergepath::sorted_equality_count(ctx, a.data(), 7, b.data(), 9, lower.data(), counts.data());
  mergepath::sorted_equality_count(ctx, a.data(), 7, b.data(), 9, lower.data(), rows.data(), mergepath::less<>{},
                                   left_join_rows{});
  Backend::finish(ctx);
  EXPECT_EQ(lower.download(), (std::vector<index_t>{0, 0, 0, 4, 4, 4, 5}));
  EXPECT_EQ(counts.download(), (std::vector<int>{0, 3, 3, 0, 1, 1, 4}));
  EXPECT_EQ(rows.download(), (std::vector<int>{1, 3, 3, 1, 1, 1, 4}));
}

REGISTER_TYPED_TEST_SUITE_P(SortedSearchOutputs, IndexMatchAndMatchInOtherIntegerTypes, MatchBitIsTheSignBitOfInt32,
                            DemoLowerBoundsOfNeedlesInTheHaystack, DemoIndexMatchBothWays,
                            EqualityCountDefaultAndUserOps, EqualityCountAfterALowerBoundSearch);

// ---------------------------------------------------------------------------------------------
// The calls' contracts: bad arguments throw std::invalid_argument before anything is written;
// null pointers where nothing is written; checked mode names the first unsorted position.

template <class Param>
class SortedSearchCalls : public backend_suite<Param> {};
TYPED_TEST_SUITE_P(SortedSearchCalls);

TYPED_TEST_P(SortedSearchCalls, BadArgumentsThrowBeforeWriting) {
  using Backend = typename TypeParam::backend;
  typename Backend::context ctx;
  typename Backend::template buffer<int> a(std::vector<int>{1, 2, 3}), b(std::vector<int>{2, 4}), a_out(3), b_out(2);
  typename Backend::template buffer<index_t> lower(std::vector<index_t>{0, 0, 1});
  a_out.fill_poison();
  b_out.fill_poison();
  int* null = nullptr;
  auto full = [&](auto a_ptr, index_t na, auto b_ptr, index_t nb, auto a_dest, auto b_dest) {
    return mergepath::sorted_search<bounds::lower, search::index, search::match>(ctx, a_ptr, na, b_ptr, nb, a_dest,
                                                                                 b_dest);
  };
  auto equality_count = [&](auto a_ptr, index_t na, auto b_ptr, index_t nb, auto lower_ptr, auto counts) {
    mergepath::sorted_equality_count(ctx, a_ptr, na, b_ptr, nb, lower_ptr, counts);
  };
  expect_invalid_argument([&] { mergepath::sorted_search(ctx, a.data(), -1, b.data(), 2, a_out.data()); },
                          "a count is negative");
  expect_invalid_argument([&] { mergepath::sorted_search(ctx, a.data(), 3, b.data(), -2, a_out.data()); },
                          "b count is negative");
  expect_invalid_argument([&] { mergepath::sorted_search(ctx, null, 3, b.data(), 2, a_out.data()); },
                          "a is a null pointer");
  expect_invalid_argument([&] { mergepath::sorted_search(ctx, a.data(), 3, null, 2, a_out.data()); },
                          "b is a null pointer");
  expect_invalid_argument([&] { mergepath::sorted_search(ctx, a.data(), 3, b.data(), 2, null); },
                          "a_out is a null pointer");
  expect_invalid_argument([&] { full(a.data(), -1, b.data(), 2, a_out.data(), b_out.data()); }, "a count is negative");
  expect_invalid_argument([&] { full(a.data(), 3, b.data(), -1, a_out.data(), b_out.data()); }, "b count is negative");
  expect_invalid_argument([&] { full(null, 3, b.data(), 2, a_out.data(), b_out.data()); }, "a is a null pointer");
  expect_invalid_argument([&] { full(a.data(), 3, null, 2, a_out.data(), b_out.data()); }, "b is a null pointer");
  expect_invalid_argument([&] { full(a.data(), 3, b.data(), 2, null, b_out.data()); }, "a_out is a null pointer");
  expect_invalid_argument([&] { full(a.data(), 3, b.data(), 2, a_out.data(), null); }, "b_out is a null pointer");
  // A named policy passes the same checks.
  expect_invalid_argument(
      [&] {
        mergepath::sorted_search<bounds::upper, search::index_match, search::none,
                                 mergepath::default_sorted_search_policy<int>>(ctx, a.data(), 3, b.data(), 2, null,
                                                                               nullptr);
      },
      "a_out is a null pointer");
  expect_invalid_argument([&] { equality_count(a.data(), -3, b.data(), 2, lower.data(), a_out.data()); },
                          "count is negative");
  expect_invalid_argument([&] { equality_count(a.data(), 3, b.data(), -2, lower.data(), a_out.data()); },
                          "b count is negative");
  expect_invalid_argument([&] { equality_count(null, 3, b.data(), 2, lower.data(), a_out.data()); },
                          "a is a null pointer");
  expect_invalid_argument([&] { equality_count(a.data(), 3, null, 2, lower.data(), a_out.data()); },
                          "b is a null pointer");
  expect_invalid_argument(
      [&] { equality_count(a.data(), 3, b.data(), 2, static_cast<index_t*>(nullptr), a_out.data()); },
      "lower_bounds is a null pointer");
  expect_invalid_argument([&] { equality_count(a.data(), 3, b.data(), 2, lower.data(), null); },
                          "counts is a null pointer");
  Backend::finish(ctx);
  EXPECT_TRUE(untouched(a_out.download(), 0, 3));
  EXPECT_TRUE(untouched(b_out.download(), 0, 2));
}

// A side of search::none takes nullptr, and a real output given to it stays untouched; every
// pointer may be null when its count is zero.
TYPED_TEST_P(SortedSearchCalls, NullPointersWhereNothingIsWritten) {
  using Backend = typename TypeParam::backend;
  using Context = typename Backend::context;
  Context ctx;
  typename Backend::template buffer<int> a(std::vector<int>{1, 2, 3}), b(std::vector<int>{2, 4});
  int* null = nullptr;
  guarded_buffer<Context, int> a_out(3), b_out(2);
  mergepath::match_counts m = mergepath::sorted_search<bounds::lower, search::none, search::index_match>(
      ctx, a.data(), 3, b.data(), 2, nullptr, b_out.dest());
  EXPECT_TRUE(guarded_equal(std::vector<int>{with_match_bit<int>(2, true), 3}, b_out.download()));
  EXPECT_EQ(m.a, 0);
  EXPECT_EQ(m.b, 1);
  m = mergepath::sorted_search<bounds::upper, search::match, search::none>(ctx, a.data(), 3, b.data(), 2, a_out.dest(),
                                                                           null);
  EXPECT_TRUE(guarded_equal(std::vector<int>{0, 1, 0}, a_out.download()));
  EXPECT_EQ(m.a, 1);
  EXPECT_EQ(m.b, 0);
  m = mergepath::sorted_search<bounds::lower, search::none, search::none>(ctx, a.data(), 3, b.data(), 2, null, null);
  EXPECT_EQ(m.a + m.b, 0);

  guarded_buffer<Context, int> untouched_a(3), untouched_b(2);
  mergepath::sorted_search<bounds::lower, search::none, search::none>(ctx, a.data(), 3, b.data(), 2, untouched_a.dest(),
                                                                      untouched_b.dest());
  mergepath::sorted_search<bounds::upper, search::index, search::none>(ctx, a.data(), 3, b.data(), 2, a_out.dest(),
                                                                       untouched_b.dest());
  Backend::finish(ctx);
  EXPECT_TRUE(guarded_untouched(untouched_a.download()));
  EXPECT_TRUE(guarded_untouched(untouched_b.download()));
  EXPECT_TRUE(guarded_equal(std::vector<int>{0, 1, 1}, a_out.download()));

  EXPECT_NO_THROW(mergepath::sorted_search(ctx, null, 0, null, 0, null));
  EXPECT_NO_THROW((mergepath::sorted_search<bounds::upper, search::index_match, search::index_match>(ctx, null, 0, null,
                                                                                                     0, null, null)));
  EXPECT_NO_THROW(mergepath::sorted_equality_count(ctx, null, 0, null, 0, null, null));
  // a empty, b not: every element of b has bound 0 and no match.
  m = mergepath::sorted_search<bounds::lower, search::index_match, search::index_match>(ctx, null, 0, b.data(), 2, null,
                                                                                        b_out.dest());
  EXPECT_TRUE(guarded_equal(std::vector<int>{0, 0}, b_out.download()));
  EXPECT_EQ(m.a + m.b, 0);
  EXPECT_NO_THROW(Backend::finish(ctx));
}

// Small arrays, and large ones with a second unsorted position in a later chunk: the first
// position is named, whichever thread finds it, and nothing is written.
TYPED_TEST_P(SortedSearchCalls, CheckedModeNamesTheFirstUnsortedPosition) {
  using Backend = typename TypeParam::backend;
  const auto contexts = Backend::contexts();
  for (index_t count : {index_t{10}, index_t{300000}}) {
    SCOPED_TRACE(::testing::Message() << "count " << count);
    const std::vector<int> sorted = origins<int>(count, 0);
    std::vector<int> bad_a = sorted, bad_b = sorted;
    bad_a[5] = -1;
    bad_b[7] = -1;
    if (count > 100000) bad_a[250000] = -2;
    on_each(contexts, [&](typename Backend::context& ctx) {
      ctx.set_checked(true);
      typename Backend::template buffer<int> up(sorted), a(bad_a), b(bad_b);
      typename Backend::template buffer<index_t> lower(std::vector<index_t>(sorted.size(), 0));
      typename Backend::template buffer<int> a_out(sorted.size()), b_out(sorted.size());
      a_out.fill_poison();
      b_out.fill_poison();
      expect_invalid_argument([&] { mergepath::sorted_search(ctx, a.data(), count, up.data(), count, a_out.data()); },
                              "a[5]");
      expect_invalid_argument([&] { mergepath::sorted_search(ctx, up.data(), count, b.data(), count, a_out.data()); },
                              "b[7]");
      expect_invalid_argument(
          [&] {
            mergepath::sorted_search<bounds::upper, search::match, search::index_match>(
                ctx, a.data(), count, up.data(), count, a_out.data(), b_out.data());
          },
          "a[5]");
      expect_invalid_argument(
          [&] {
            mergepath::sorted_search<bounds::lower, search::none, search::index,
                                     mergepath::default_sorted_search_policy<int>>(ctx, up.data(), count, b.data(),
                                                                                   count, nullptr, b_out.data());
          },
          "b[7]");
      expect_invalid_argument(
          [&] { mergepath::sorted_equality_count(ctx, up.data(), count, b.data(), count, lower.data(), a_out.data()); },
          "b[7]");
      // Sorted means sorted by the call's comparator: under greater<> the ascending input is the bad one.
      expect_invalid_argument(
          [&] {
            mergepath::sorted_search(ctx, up.data(), count, up.data(), count, a_out.data(), mergepath::greater<>{});
          },
          "a[1]");
      EXPECT_TRUE(untouched(a_out.download(), 0, a_out.size()));
      EXPECT_TRUE(untouched(b_out.download(), 0, b_out.size()));
    });
  }
}

// Input sorted by greater<> over the sweep's shapes: checked mode lets it through.
TYPED_TEST_P(SortedSearchCalls, CheckedModePassesSortedInput) {
  using Context = typename TypeParam::backend::context;
  const auto sweep = sweep_context<typename TypeParam::backend>();
  Context& ctx = *sweep;
  ctx.set_checked(true);
  const mergepath::greater<> comp{};
  for_each_search_case<int, Context>(
      sweep_shapes<typename TypeParam::backend, int>(), comp,
      [&](const search_buffers<Context, int>& in, const search_oracle& expect) {
        ASSERT_NO_FATAL_FAILURE(
            (check_search<bounds::lower, search::index_match, search::match>(ctx, in, expect, comp)));
        ASSERT_NO_FATAL_FAILURE(check_short_search<bounds::upper>(ctx, in, expect, comp));
      });
}

REGISTER_TYPED_TEST_SUITE_P(SortedSearchCalls, BadArgumentsThrowBeforeWriting, NullPointersWhereNothingIsWritten,
                            CheckedModeNamesTheFirstUnsortedPosition, CheckedModePassesSortedInput);

}  // namespace mergepath_test
