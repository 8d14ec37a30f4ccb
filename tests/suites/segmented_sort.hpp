// segmented_sort, segmented_sort_pairs, their _flags forms, locality_sort and locality_sort_pairs,
// written once over both backends (test_host_segmented_sort.cpp and test_gpu_segmented_sort.cu
// instantiate it): against std::stable_sort of each segment over key types, comparators, sizes,
// key distributions and segment shapes; stability; int32 heads and the bitfield's edges;
// malformed heads with and without checked mode; argument errors.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <mergepath/mergepath.hpp>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "../backends.hpp"
#include "../segsort_util.hpp"

namespace mergepath_test {

// Where a backend's sorts change course, which its test file says by defining:
//   template <class Key, class Value = void> static std::vector<segsort_case> cases();
//     segmented_sort's cases (Value void) and segmented_sort_pairs';
//   template <class Key, class Value = void> static std::vector<index_t> sizes();  locality_sort's;
//   static std::vector<segment_spec> specs();  every shape, heads around an int sort's tiles;
//   static std::vector<index_t> across_tiles();  sizes past its largest tiles, none a multiple of 32;
//   using tuned_policy = ...;  a tuning policy its calls take.
template <class Backend>
struct segsort_edges;

using segsort_key_cases =
    ::testing::Types<keys_case<std::int32_t, mergepath::less<>>, keys_case<std::int32_t, mergepath::greater<>>,
                     keys_case<std::int64_t, mergepath::greater<>>, keys_case<std::uint32_t, mergepath::less<>>,
                     keys_case<float, mergepath::less<>>, keys_case<double, mergepath::greater<>>,
                     keys_case<point, point_less>,
                     // ties on x with different y: keys-only stability shows in the output
                     keys_case<point, point_x_less>>;

// 8-, 16- and 12-byte pairs: three default GPU tunings.
using segsort_pair_cases = ::testing::Types<pairs_case<std::int32_t, std::int32_t, mergepath::less<>>,
                                            pairs_case<std::int64_t, std::int64_t, mergepath::greater<>>,
                                            pairs_case<float, std::uint32_t, mergepath::less<>>,
                                            pairs_case<point, std::int32_t, point_x_less>>;

// A segmented sort's heads in a backend's memory: int64 and int32 indices, and the bitfield.
template <class Backend>
struct segment_heads_on {
  index_t num_heads;
  typename Backend::template buffer<index_t> indices;
  typename Backend::template buffer<std::int32_t> indices32;
  typename Backend::template buffer<std::uint32_t> flags;

  segment_heads_on(const std::vector<index_t>& heads, index_t count)
      : num_heads(static_cast<index_t>(heads.size())),
        indices(heads),
        indices32(heads_as<std::int32_t>(heads)),
        flags(head_flags(heads, count)) {}
};

// ---------------------------------------------------------------------------------------------
// Against the oracle: segmented sorts over the backend's cases, locality sorts over its sizes.

template <class Param>
class SegmentedSort : public backend_suite<Param> {};
TYPED_TEST_SUITE_P(SegmentedSort);

// Heads as int64 indices and as the bitfield: both must give each segment's std::stable_sort.
TYPED_TEST_P(SegmentedSort, MatchesPerSegmentStableSort) {
  using Backend = typename TypeParam::backend;
  using Key = typename TypeParam::key;
  using Comp = typename TypeParam::comp;
  const auto contexts = Backend::contexts();
  for (const segsort_case& c : segsort_edges<Backend>::template cases<Key>()) {
    SCOPED_TRACE(c.name());
    const std::vector<Key> keys = c.keys<Key>();
    const std::vector<index_t> heads = c.heads();
    const std::vector<Key> expected = std_segmented_sort(keys, heads, Comp{});
    const segment_heads_on<Backend> d(heads, c.count);
    ASSERT_NO_FATAL_FAILURE(on_each(contexts, [&](auto& ctx) {
      check_sort_against(ctx, keys, expected, [&](auto& ctx, auto k, index_t n) {
        mergepath::segmented_sort(ctx, k, n, d.indices.data(), d.num_heads, Comp{});
      });
    })) << "segmented_sort";
    // The bitfield form shares the sort with the indices form: one context will do.
    ASSERT_NO_FATAL_FAILURE(check_sort_against(*contexts.back(), keys, expected, [&](auto& ctx, auto k, index_t n) {
      mergepath::segmented_sort_flags(ctx, k, n, d.flags.data(), Comp{});
    })) << "segmented_sort_flags";
  }
}

// A whole-array stable sort of keys near (or far from) their places.
TYPED_TEST_P(SegmentedSort, LocalitySortMatchesStdStableSort) {
  using Backend = typename TypeParam::backend;
  using Key = typename TypeParam::key;
  using Comp = typename TypeParam::comp;
  const auto contexts = Backend::contexts();
  for (const locality_case& c : locality_cases(segsort_edges<Backend>::template sizes<Key>())) {
    SCOPED_TRACE(c.name());
    const std::vector<Key> keys = c.keys<Key>();
    const std::vector<Key> expected = std_stable_sort(keys, Comp{});
    ASSERT_NO_FATAL_FAILURE(on_each(contexts, [&](auto& ctx) {
      check_sort_against(ctx, keys, expected,
                    [](auto& ctx, auto k, index_t n) { mergepath::locality_sort(ctx, k, n, Comp{}); });
    }));
  }
}

REGISTER_TYPED_TEST_SUITE_P(SegmentedSort, MatchesPerSegmentStableSort, LocalitySortMatchesStdStableSort);

template <class Param>
class SegmentedSortPairs : public backend_suite<Param> {};
TYPED_TEST_SUITE_P(SegmentedSortPairs);

// Values record their key's origin (value i = i): within a segment, equal keys keep their values
// in ascending order, and no value leaves its segment. The two forms of the heads must agree.
TYPED_TEST_P(SegmentedSortPairs, StableLikePerSegmentStableSort) {
  using Backend = typename TypeParam::backend;
  using Key = typename TypeParam::key;
  using Value = typename TypeParam::value;
  using Comp = typename TypeParam::comp;
  const auto contexts = Backend::contexts();
  for (const segsort_case& c : segsort_edges<Backend>::template cases<Key, Value>()) {
    SCOPED_TRACE(c.name());
    const std::vector<Key> keys = c.keys<Key>();
    const std::vector<index_t> heads = c.heads();
    const auto expected = std_segmented_sort_pairs<Key, Value>(keys, heads, Comp{});
    const segment_heads_on<Backend> d(heads, c.count);
    ASSERT_NO_FATAL_FAILURE(on_each(contexts, [&](auto& ctx) {
      check_sort_pairs_against(ctx, keys, expected, [&](auto& ctx, auto k, auto v, index_t n) {
        mergepath::segmented_sort_pairs(ctx, k, v, n, d.indices.data(), d.num_heads, Comp{});
      });
    })) << "segmented_sort_pairs";
    ASSERT_NO_FATAL_FAILURE(check_sort_pairs_against(*contexts.back(), keys, expected,
                                                [&](auto& ctx, auto k, auto v, index_t n) {
                                                  mergepath::segmented_sort_pairs_flags(ctx, k, v, n, d.flags.data(),
                                                                                        Comp{});
                                                }))
        << "segmented_sort_pairs_flags";
  }
}

TYPED_TEST_P(SegmentedSortPairs, LocalitySortPairsStableLikeStdStableSort) {
  using Backend = typename TypeParam::backend;
  using Key = typename TypeParam::key;
  using Value = typename TypeParam::value;
  using Comp = typename TypeParam::comp;
  const auto contexts = Backend::contexts();
  for (const locality_case& c : locality_cases(segsort_edges<Backend>::template sizes<Key, Value>())) {
    SCOPED_TRACE(c.name());
    const std::vector<Key> keys = c.keys<Key>();
    const auto expected = std_stable_sort_pairs<Key, Value>(keys, Comp{});
    ASSERT_NO_FATAL_FAILURE(on_each(contexts, [&](auto& ctx) {
      check_sort_pairs_against(ctx, keys, expected, [](auto& ctx, auto k, auto v, index_t n) {
        mergepath::locality_sort_pairs(ctx, k, v, n, Comp{});
      });
    }));
  }
}

REGISTER_TYPED_TEST_SUITE_P(SegmentedSortPairs, StableLikePerSegmentStableSort,
                            LocalitySortPairsStableLikeStdStableSort);

// ---------------------------------------------------------------------------------------------
// The calls' contracts: heads as int32 indices and the bitfield's edges; malformed heads, with
// and without checked mode; bad arguments.

// A few sizes, and the backend's across its tiles: none a multiple of 32.
template <class Backend>
std::vector<index_t> sizes_across_tiles() {
  std::vector<index_t> sizes{33, 1009, 100003};
  for (index_t n : segsort_edges<Backend>::across_tiles()) sizes.push_back(n);
  return sizes;
}

// Enough heads (mean length 4) to make every malformation.
template <class Backend>
std::vector<segsort_case> malformed_cases() {
  return segsort_cases(sizes_across_tiles<Backend>(), {uniform_segments(4)},
                       {distribution::few_distinct, distribution::reversed});
}

inline std::vector<index_t> malformed_heads(const segsort_case& c, malformation m) {
  std::mt19937_64 rng(case_seed({static_cast<std::int64_t>(c.seed % 1000003), static_cast<int>(m), 47}));
  return malform_heads(c.heads(), c.count, m, rng);
}

template <class Param>
class SegmentedSortCalls : public backend_suite<Param> {};
TYPED_TEST_SUITE_P(SegmentedSortCalls);

// int32 heads sort as int64 heads do, at every size and shape.
TYPED_TEST_P(SegmentedSortCalls, Int32Heads) {
  using Backend = typename TypeParam::backend;
  typename Backend::context ctx;
  for (const segsort_case& c :
       segsort_cases_in_turn(segsort_edges<Backend>::template sizes<int>(), segsort_edges<Backend>::specs())) {
    SCOPED_TRACE(c.name());
    const std::vector<int> keys = c.keys<int>();
    const std::vector<index_t> heads = c.heads();
    const segment_heads_on<Backend> d(heads, c.count);
    ASSERT_NO_FATAL_FAILURE(check_sort_against(
        ctx, keys, std_segmented_sort(keys, heads, mergepath::greater<>{}), [&](auto& ctx, auto k, index_t n) {
          mergepath::segmented_sort(ctx, k, n, d.indices32.data(), d.num_heads, mergepath::greater<>{});
        }));
  }
}

// Element 0 always starts a segment, whether or not bit 0 is set; bits for elements past count
// (the last word's spare bits) mark nothing.
TYPED_TEST_P(SegmentedSortCalls, FlagsBitZeroAndSpareBits) {
  using Backend = typename TypeParam::backend;
  typename Backend::context ctx;
  for (const segsort_case& c :
       segsort_cases(sizes_across_tiles<Backend>(),
                     {uniform_segments(20), uniform_segments(10000), segments_of(segment_shape::power_law),
                      segments_of(segment_shape::one_huge), tile_edge_segments({32})},
                     {distribution::few_distinct})) {
    SCOPED_TRACE(c.name());
    const std::vector<int> keys = c.keys<int>();
    const std::vector<index_t> heads = c.heads();
    const std::vector<int> expected = std_segmented_sort(keys, heads, mergepath::less<>{});
    std::vector<std::uint32_t> flags = head_flags(heads, c.count);
    ASSERT_NE(c.count % 32, 0) << "the sizes leave spare bits";
    for (int variant = 0; variant < 3; ++variant) {
      SCOPED_TRACE(variant == 0 ? "bit 0 clear" : variant == 1 ? "bit 0 set" : "bit 0 and spare bits set");
      if (variant == 0) flags[0] &= ~1u;
      if (variant == 1) flags[0] |= 1u;
      if (variant == 2) flags.back() |= ~0u << (c.count % 32);
      const typename Backend::template buffer<std::uint32_t> d(flags);
      ASSERT_NO_FATAL_FAILURE(check_sort_against(ctx, keys, expected, [&](auto& ctx, auto k, index_t n) {
        mergepath::segmented_sort_flags(ctx, k, n, d.data());
      }));
    }
  }
}

// No fault, and each segment of the in-range heads' set sorted: int64 and int32 heads, keys and
// pairs. The output is a permutation of the input, keys still paired with their values.
TYPED_TEST_P(SegmentedSortCalls, UncheckedMalformedHeadsMeanTheSetOfInRangeHeads) {
  using Backend = typename TypeParam::backend;
  const auto contexts = Backend::contexts();
  for (const segsort_case& c : malformed_cases<Backend>()) {
    for (malformation m : all_malformations()) {
      SCOPED_TRACE(::testing::Message() << c.name() << ", " << to_string(m));
      const std::vector<index_t> heads = malformed_heads(c, m);
      ASSERT_GE(first_bad_head(heads, c.count), 0) << "the heads must be malformed";
      const std::vector<int> keys = c.keys<int>();
      const auto expected = std_segmented_sort_pairs<int, int>(keys, heads, mergepath::less<>{});
      const segment_heads_on<Backend> d(heads, c.count);
      ASSERT_NO_FATAL_FAILURE(on_each(contexts, [&](auto& ctx) {
        ASSERT_NO_FATAL_FAILURE(check_sort_against(ctx, keys, expected.first, [&](auto& ctx, auto k, index_t n) {
          mergepath::segmented_sort(ctx, k, n, d.indices.data(), d.num_heads);
        })) << "int64 heads";
        ASSERT_NO_FATAL_FAILURE(check_sort_pairs_against(ctx, keys, expected, [&](auto& ctx, auto k, auto v, index_t n) {
          mergepath::segmented_sort_pairs(ctx, k, v, n, d.indices32.data(), d.num_heads);
        })) << "int32 heads, pairs";
        ASSERT_NO_FATAL_FAILURE(check_sort_pairs_against(ctx, keys, expected, [&](auto& ctx, auto k, auto v, index_t n) {
          mergepath::segmented_sort_pairs(ctx, k, v, n, d.indices.data(), d.num_heads);
        })) << "int64 heads, pairs";
      }));
    }
  }
}

// Checked mode names the first bad index and throws before any key or value moves.
TYPED_TEST_P(SegmentedSortCalls, CheckedModeThrowsBeforeWriting) {
  using Backend = typename TypeParam::backend;
  using tuned = typename segsort_edges<Backend>::tuned_policy;
  const auto contexts = Backend::contexts();
  for (const segsort_case& c : malformed_cases<Backend>()) {
    for (malformation m : all_malformations()) {
      SCOPED_TRACE(::testing::Message() << c.name() << ", " << to_string(m));
      const std::vector<index_t> heads = malformed_heads(c, m);
      const index_t bad = first_bad_head(heads, c.count);
      ASSERT_GE(bad, 0) << "the heads must be malformed";
      const std::string named =
          "heads[" + std::to_string(bad) + "] = " + std::to_string(heads[static_cast<std::size_t>(bad)]);
      const segment_heads_on<Backend> d(heads, c.count);
      const std::vector<int> keys = c.keys<int>(), origin = origins<int>(c.count, 0);
      ASSERT_NO_FATAL_FAILURE(on_each(contexts, [&](auto& ctx) {
        ctx.set_checked(true);
        typename Backend::template buffer<int> k(keys), v(origin);
        auto unchanged = [&] {
          Backend::finish(ctx);
          EXPECT_EQ(k.download(), keys);
          EXPECT_EQ(v.download(), origin);
        };
        expect_invalid_argument(
            [&] { mergepath::segmented_sort(ctx, k.data(), c.count, d.indices.data(), d.num_heads); }, named);
        unchanged();
        expect_invalid_argument(
            [&] {
              mergepath::segmented_sort(ctx, k.data(), c.count, d.indices32.data(), d.num_heads,
                                        mergepath::greater<>{});
            },
            named);
        unchanged();
        expect_invalid_argument(
            [&] { mergepath::segmented_sort_pairs(ctx, k.data(), v.data(), c.count, d.indices.data(), d.num_heads); },
            named);
        unchanged();
        expect_invalid_argument(
            [&] { mergepath::segmented_sort<tuned>(ctx, k.data(), c.count, d.indices32.data(), d.num_heads); }, named);
        unchanged();
      }));
    }
  }
}

// The messages: out of range, or not strictly increasing, each with the offending value.
TYPED_TEST_P(SegmentedSortCalls, CheckedModeMessages) {
  using Backend = typename TypeParam::backend;
  using heads_buffer = typename Backend::template buffer<index_t>;
  typename Backend::context ctx;
  ctx.set_checked(true);
  typename Backend::template buffer<int> keys(std::vector<int>(10, 0));
  const heads_buffer negative(std::vector<index_t>{0, 3, -2}), too_large(std::vector<index_t>{2, 10}),
      unordered(std::vector<index_t>{0, 5, 4}), repeated(std::vector<index_t>{1, 1}), zero(std::vector<index_t>{0});
  expect_invalid_argument([&] { mergepath::segmented_sort(ctx, keys.data(), 10, negative.data(), 3); },
                          "heads[2] = -2 is out of range [0, 10)");
  expect_invalid_argument([&] { mergepath::segmented_sort(ctx, keys.data(), 10, too_large.data(), 2); },
                          "heads[1] = 10 is out of range [0, 10)");
  expect_invalid_argument([&] { mergepath::segmented_sort(ctx, keys.data(), 10, unordered.data(), 3); },
                          "heads[2] = 4 is not greater than heads[1] = 5");
  expect_invalid_argument([&] { mergepath::segmented_sort(ctx, keys.data(), 10, repeated.data(), 2); },
                          "heads[1] = 1 is not greater than heads[0] = 1");
  // {0} for no keys: 0 is not in [0, 0).
  expect_invalid_argument([&] { mergepath::segmented_sort(ctx, keys.data(), 0, zero.data(), 1); },
                          "heads[0] = 0 is out of range [0, 0)");
}

// Well-formed heads pass checked mode and sort as usual: the extremes 0 and count - 1, every
// shape, and the bitfield form (nothing to check there).
TYPED_TEST_P(SegmentedSortCalls, CheckedModeAcceptsWellFormedHeads) {
  using Backend = typename TypeParam::backend;
  typename Backend::context ctx;
  ctx.set_checked(true);
  for (const segsort_case& c :
       segsort_cases({1, 2, 1009, 100003}, segsort_edges<Backend>::specs(), {distribution::uniform})) {
    SCOPED_TRACE(c.name());
    std::vector<index_t> heads = c.heads();
    if (c.segments.shape == segment_shape::uniform_lengths) {  // the first and the last index too
      if (heads.empty() || heads.front() != 0) heads.insert(heads.begin(), 0);
      if (heads.back() != c.count - 1) heads.push_back(c.count - 1);
    }
    ASSERT_EQ(first_bad_head(heads, c.count), -1);
    const std::vector<int> keys = c.keys<int>();
    const auto expected = std_segmented_sort_pairs<int, int>(keys, heads, mergepath::less<>{});
    const segment_heads_on<Backend> d(heads, c.count);
    ASSERT_NO_FATAL_FAILURE(check_sort_pairs_against(ctx, keys, expected, [&](auto& ctx, auto k, auto v, index_t n) {
      mergepath::segmented_sort_pairs(ctx, k, v, n, d.indices.data(), d.num_heads);
    }));
    ASSERT_NO_FATAL_FAILURE(check_sort_against(ctx, keys, expected.first, [&](auto& ctx, auto k, index_t n) {
      mergepath::segmented_sort_flags(ctx, k, n, d.flags.data());
    }));
  }
}

// Bad arguments throw std::invalid_argument before anything is written, with any tuning.
TYPED_TEST_P(SegmentedSortCalls, BadArgumentsThrowBeforeWriting) {
  using Backend = typename TypeParam::backend;
  using tuned = typename segsort_edges<Backend>::tuned_policy;
  typename Backend::context ctx;
  const std::vector<int> keys{3, 1, 2}, vals{0, 1, 2};
  typename Backend::template buffer<int> k(keys), v(vals);
  const typename Backend::template buffer<index_t> heads(std::vector<index_t>{0, 2});
  const typename Backend::template buffer<std::uint32_t> flags(std::vector<std::uint32_t>{1u});
  int* null = nullptr;
  const index_t* null_heads = nullptr;
  const std::uint32_t* null_flags = nullptr;

  expect_invalid_argument([&] { mergepath::segmented_sort(ctx, k.data(), -1, heads.data(), 2); },
                          "keys count is negative");
  expect_invalid_argument([&] { mergepath::segmented_sort(ctx, null, 3, heads.data(), 2); }, "keys is a null pointer");
  expect_invalid_argument([&] { mergepath::segmented_sort(ctx, k.data(), 3, null_heads, 2); },
                          "heads is a null pointer");
  expect_invalid_argument([&] { mergepath::segmented_sort(ctx, k.data(), 3, heads.data(), -1); },
                          "heads count is negative");
  expect_invalid_argument([&] { mergepath::segmented_sort<tuned>(ctx, k.data(), -2, heads.data(), 2); },
                          "keys count is negative");
  expect_invalid_argument([&] { mergepath::segmented_sort_pairs(ctx, k.data(), v.data(), -1, heads.data(), 2); },
                          "keys count is negative");
  expect_invalid_argument([&] { mergepath::segmented_sort_pairs(ctx, null, v.data(), 3, heads.data(), 2); },
                          "keys is a null pointer");
  expect_invalid_argument([&] { mergepath::segmented_sort_pairs(ctx, k.data(), null, 3, heads.data(), 2); },
                          "vals is a null pointer");
  expect_invalid_argument([&] { mergepath::segmented_sort_pairs(ctx, k.data(), v.data(), 3, null_heads, 2); },
                          "heads is a null pointer");
  expect_invalid_argument([&] { mergepath::segmented_sort_pairs<tuned>(ctx, k.data(), null, 3, heads.data(), 2); },
                          "vals is a null pointer");
  expect_invalid_argument([&] { mergepath::segmented_sort_flags(ctx, k.data(), -1, flags.data()); },
                          "keys count is negative");
  expect_invalid_argument([&] { mergepath::segmented_sort_flags(ctx, null, 3, flags.data()); },
                          "keys is a null pointer");
  expect_invalid_argument([&] { mergepath::segmented_sort_flags(ctx, k.data(), 3, null_flags); },
                          "head_flags is a null pointer");
  expect_invalid_argument([&] { mergepath::segmented_sort_flags<tuned>(ctx, k.data(), 3, null_flags); },
                          "head_flags is a null pointer");
  expect_invalid_argument([&] { mergepath::segmented_sort_pairs_flags(ctx, k.data(), null, 3, flags.data()); },
                          "vals is a null pointer");
  expect_invalid_argument([&] { mergepath::segmented_sort_pairs_flags(ctx, k.data(), v.data(), 3, null_flags); },
                          "head_flags is a null pointer");
  expect_invalid_argument([&] { mergepath::segmented_sort_pairs_flags<tuned>(ctx, null, v.data(), 3, flags.data()); },
                          "keys is a null pointer");
  expect_invalid_argument([&] { mergepath::locality_sort(ctx, k.data(), -1); }, "keys count is negative");
  expect_invalid_argument([&] { mergepath::locality_sort(ctx, null, 3); }, "keys is a null pointer");
  expect_invalid_argument([&] { mergepath::locality_sort<tuned>(ctx, null, 3); }, "keys is a null pointer");
  expect_invalid_argument([&] { mergepath::locality_sort_pairs(ctx, k.data(), null, 3); }, "vals is a null pointer");
  expect_invalid_argument([&] { mergepath::locality_sort_pairs(ctx, null, v.data(), 3, mergepath::greater<>{}); },
                          "keys is a null pointer");
  expect_invalid_argument([&] { mergepath::locality_sort_pairs<tuned>(ctx, k.data(), v.data(), -1); },
                          "keys count is negative");
  Backend::finish(ctx);
  EXPECT_EQ(k.download(), keys);
  EXPECT_EQ(v.download(), vals);
}

TYPED_TEST_P(SegmentedSortCalls, NullPointersWithZeroCountsAreFine) {
  using Backend = typename TypeParam::backend;
  typename Backend::context ctx;
  int* null = nullptr;
  const index_t* null_heads = nullptr;
  const std::uint32_t* null_flags = nullptr;
  EXPECT_NO_THROW(mergepath::segmented_sort(ctx, null, 0, null_heads, 0));
  EXPECT_NO_THROW(mergepath::segmented_sort_pairs(ctx, null, null, 0, null_heads, 0));
  EXPECT_NO_THROW(mergepath::segmented_sort_flags(ctx, null, 0, null_flags));
  EXPECT_NO_THROW(mergepath::segmented_sort_pairs_flags(ctx, null, null, 0, null_flags));
  EXPECT_NO_THROW(mergepath::locality_sort(ctx, null, 0));
  EXPECT_NO_THROW(mergepath::locality_sort_pairs(ctx, null, null, 0));
  // No heads (null) with keys: one segment, the whole array.
  typename Backend::template buffer<int> k(std::vector<int>{3, 1, 2});
  mergepath::segmented_sort(ctx, k.data(), 3, null_heads, 0);
  Backend::finish(ctx);
  EXPECT_EQ(k.download(), (std::vector<int>{1, 2, 3}));
}

REGISTER_TYPED_TEST_SUITE_P(SegmentedSortCalls, Int32Heads, FlagsBitZeroAndSpareBits,
                            UncheckedMalformedHeadsMeanTheSetOfInRangeHeads, CheckedModeThrowsBeforeWriting,
                            CheckedModeMessages, CheckedModeAcceptsWellFormedHeads, BadArgumentsThrowBeforeWriting,
                            NullPointersWithZeroCountsAreFine);

}  // namespace mergepath_test
