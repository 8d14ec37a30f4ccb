// The load-balancing family (load_balancing_search, transform_lbs, interval_expand, _gather,
// _scatter and _move, segmented_reduce, transform_segmented_reduce), written once over both
// backends (test_host_load_balance.cpp and test_gpu_load_balance.cu instantiate it): against the
// sequential references over every segment shape, counts around the GPU's tiles, int32 and int64
// starts and a non-commutative op; argument errors; checked mode. Also the checks and functors the
// GPU-only tests share with these suites.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <mergepath/load_balance.hpp>
#include <mergepath/tuning/load_balance.hpp>
#include <ostream>
#include <random>
#include <type_traits>
#include <vector>

#include "../backends.hpp"
#include "../load_balance_util.hpp"

namespace mergepath_test {

template <class Start>
struct starts_case {
  using start = Start;
};
using start_cases = ::testing::Types<starts_case<std::int32_t>, starts_case<std::int64_t>>;

// The GPU's tiles, in steps of the path (starts plus items).
constexpr index_t lbs_tile = mergepath::default_transform_lbs_tuning.tile_items();
constexpr index_t search_tile = mergepath::load_balancing_search_tuning.tile_items();
// interval_expand's tile, also the short-segment search's.
constexpr index_t expand_tile = mergepath::interval_expand_tuning.tile_items();
static_assert(mergepath::load_balancing_search_short_tuning.tile_items() == expand_tile,
              "tile edges: add the search's");
constexpr index_t reduce_tile = mergepath::segmented_reduce_tuning_for(sizeof(int)).tile_items();

// The counts of the sweeps. On the GPU, around its tiles, and millions of items, which fill
// several waves of tiles. On the host, up to host_largest: by default 3 * 2^15 + 1, where every
// shape's path splits three ways among the threads (a share takes 2^15 steps at least), so that one
// segment can span a share.
template <class Backend>
std::vector<index_t> load_balance_counts(index_t host_largest = 3 * (1 << 15) + 1) {
  if constexpr (std::is_same_v<Backend, host_backend>)
    return sorted_unique_capped({0, 1, 2, 7, 100, 4095, 4096, 4097, 12345, host_largest});
  std::vector<index_t> counts = {0,    1,    2,     7,       100,     2 * lbs_tile + 3, 4095,
                                 4096, 4097, 12345, 1 << 17, 1 << 18, (3 << 20) + 17};
  for (index_t tile : {lbs_tile, search_tile, expand_tile, reduce_tile})
    counts.insert(counts.end(), {tile - 1, tile, tile + 1});
  return sorted_unique_capped(counts);
}

// Items cut into segments of one shape, and each item's segment by the sequential reference.
template <class Start>
struct segment_case {
  starts_shape shape;
  index_t count;
  std::vector<Start> starts;
  index_t num_segments;
  std::vector<index_t> segment;

  segment_case(starts_shape shape_, index_t count_, std::uint64_t seed)
      : shape(shape_),
        count(count_),
        starts(make_segment_starts<Start>(shape_, count_, seed)),
        num_segments(static_cast<index_t>(starts.size())),
        segment(reference_segments(count_, starts)) {}

  std::size_t segment_of(index_t i) const { return static_cast<std::size_t>(segment[static_cast<std::size_t>(i)]); }
  // Item i's position in its segment.
  index_t rank(index_t i) const { return i - static_cast<index_t>(starts[segment_of(i)]); }
};

// run(c) for every shape and count (seeded by the count and salt), naming the case in a failure's
// trace; stops at the first fatal failure.
template <class Start, class Run>
void for_each_segment_case(const std::vector<index_t>& counts, std::int64_t salt, Run run) {
  for (starts_shape shape : all_starts_shapes())
    for (index_t count : counts) {
      SCOPED_TRACE(::testing::Message() << shape << " count " << count << " seed " << base_seed());
      run(segment_case<Start>(shape, count, case_seed({count, salt})));
      if (::testing::Test::HasFatalFailure()) return;
    }
}

// v's elements as T.
template <class T, class U>
std::vector<T> as_vector(const std::vector<U>& v) {
  return std::vector<T>(v.begin(), v.end());
}

// call(out) with out `offset` items into a poisoned buffer: out[0, expected.size()) equals
// expected and the items before out are untouched.
template <class T, class Context, class Call>
void check_written(Context& ctx, const std::vector<T>& expected, Call call, std::size_t offset = 0) {
  buffer_for<Context, T> buffer(offset + expected.size());
  buffer.fill_poison();
  call(buffer.data() + offset);
  finish(ctx);
  const std::vector<T> got = buffer.download();
  ASSERT_TRUE(untouched(got, 0, offset)) << "before the output";
  ASSERT_TRUE(ranges_equal(expected, got.data() + offset));
}

// *counter += 1, atomically among the threads of either backend.
MERGEPATH_HD inline void add_one(int* counter) {
#ifdef __CUDA_ARCH__
  atomicAdd(counter, 1);
#else
  __atomic_fetch_add(counter, 1, __ATOMIC_RELAXED);
#endif
}

// transform_lbs's f: records each item's segment and rank, and counts its visits.
struct record_visit {
  index_t* segment;
  index_t* rank;
  int* visits;
  MERGEPATH_HD void operator()(index_t i, index_t s, index_t r) const {
    segment[i] = s;
    rank[i] = r;
    add_one(visits + i);
  }
};

// transform_lbs's f on malformed starts: counts the calls whose item, segment or rank is out of range.
struct count_bad_calls {
  index_t num_segments;
  index_t count;
  int* bad;
  MERGEPATH_HD void operator()(index_t i, index_t s, index_t r) const {
    if (s < 0 || s >= num_segments || r < 0 || r > i || i >= count) add_one(bad);
  }
};

// A 16-byte value: the GPU's interval_expand copies a tile's values to shared memory in 16-byte pieces.
struct four_ints {
  int v[4];
  bool operator==(const four_ints& o) const {
    return v[0] == o.v[0] && v[1] == o.v[1] && v[2] == o.v[2] && v[3] == o.v[3];
  }
};
inline std::ostream& operator<<(std::ostream& os, const four_ints& x) {
  return os << '{' << x.v[0] << ", " << x.v[1] << ", " << x.v[2] << ", " << x.v[3] << '}';
}

// interval_expand over c of value_of_segment(s) for each segment s, and each item's expected value.
template <class Value>
struct expand_case {
  std::vector<Value> values, expected;

  template <class Start, class ValueOfSegment>
  expand_case(const segment_case<Start>& c, ValueOfSegment value_of_segment)
      : values(c.starts.size()), expected(static_cast<std::size_t>(c.count)) {
    for (std::size_t s = 0; s < values.size(); ++s) values[s] = value_of_segment(s);
    for (index_t i = 0; i < c.count; ++i) expected[static_cast<std::size_t>(i)] = values[c.segment_of(i)];
  }
};

template <class Context, class Start, class Value>
void check_interval_expand(Context& ctx, const segment_case<Start>& c, const expand_case<Value>& e,
                           std::size_t offset = 0) {
  const buffer_for<Context, Start> starts(c.starts);
  const buffer_for<Context, Value> values(e.values);
  check_written(
      ctx, e.expected,
      [&](Value* out) { mergepath::interval_expand(ctx, values.data(), c.count, starts.data(), c.num_segments, out); },
      offset);
}

// Random affine maps, and their composition over each segment of c by the sequential reference.
struct composed_maps {
  static constexpr affine_map identity{1, 0};
  std::vector<affine_map> maps, expected;

  template <class Start>
  composed_maps(const segment_case<Start>& c, std::int64_t salt)
      : maps(random_affine_maps(c.count, case_seed({c.count, salt}))),
        expected(reference_segmented_reduce<affine_map>(
            c.count, c.starts, [this](index_t i) { return maps[static_cast<std::size_t>(i)]; }, identity,
            compose_affine{})) {}
};

// reduce(maps, starts, out, identity) composes the maps over each segment of c into out: the
// composition keeps the items' order.
template <class Context, class Start, class Reduce>
void check_maps_composed(Context& ctx, const segment_case<Start>& c, const composed_maps& m, Reduce reduce) {
  const buffer_for<Context, Start> starts(c.starts);
  const buffer_for<Context, affine_map> maps(m.maps);
  check_written(ctx, m.expected, [&](affine_map* out) {
    reduce(static_cast<const affine_map*>(maps.data()), static_cast<const Start*>(starts.data()), out,
           composed_maps::identity);
  });
}

// y[row] = sum of vals[j] * x[cols[j]] over the row's nonzeros: CSR SpMV.
struct csr_product {
  const double* vals;
  const int* cols;
  const double* x;
  MERGEPATH_HD double operator()(index_t j) const { return vals[j] * x[cols[j]]; }
};

// ---------------------------------------------------------------------------------------------
// The calls against their sequential references, over start types.

template <class Param>
class LoadBalance : public backend_suite<Param> {};
TYPED_TEST_SUITE_P(LoadBalance);

TYPED_TEST_P(LoadBalance, SearchAndTransformMatchReference) {
  using Start = typename TypeParam::start;
  const auto contexts = TypeParam::backend::contexts();
  for_each_segment_case<Start>(
      load_balance_counts<typename TypeParam::backend>(), 1, [&](const segment_case<Start>& c) {
        const auto n = static_cast<std::size_t>(c.count);
        const std::vector<int> once(n, 1);
        std::vector<index_t> ranks(n);
        for (index_t i = 0; i < c.count; ++i) ranks[static_cast<std::size_t>(i)] = c.rank(i);
        on_each(contexts, [&](auto& ctx) {
          using Context = std::remove_reference_t<decltype(ctx)>;
          const buffer_for<Context, Start> starts(c.starts);
          ASSERT_NO_FATAL_FAILURE(check_written(ctx, c.segment, [&](index_t* out) {
            mergepath::load_balancing_search(ctx, c.count, starts.data(), c.num_segments, out);
          }));
          buffer_for<Context, index_t> segment(n), rank(n);
          buffer_for<Context, int> visits(std::vector<int>(n, 0));
          mergepath::transform_lbs(ctx, record_visit{segment.data(), rank.data(), visits.data()}, c.count,
                                   starts.data(), c.num_segments);
          finish(ctx);
          ASSERT_TRUE(ranges_equal(once, visits.download())) << "transform_lbs: visits";
          ASSERT_TRUE(ranges_equal(c.segment, segment.download())) << "transform_lbs: segments";
          ASSERT_TRUE(ranges_equal(ranks, rank.download())) << "transform_lbs: ranks";
        });
      });
}

// interval_expand of 4-byte values (the GPU-only tests take other sizes and alignments); each
// segment's block of in (gather) or out (scatter, move) at reversed[s]: the blocks in reverse order.
// On the host these calls are transform_lbs's walk, whose split SearchAndTransformMatchReference
// checks: counts within one share suffice there.
TYPED_TEST_P(LoadBalance, IntervalExpandGatherScatterMove) {
  using Start = typename TypeParam::start;
  const auto contexts = TypeParam::backend::contexts();
  for_each_segment_case<Start>(
      load_balance_counts<typename TypeParam::backend>(30000), 2, [&](const segment_case<Start>& c) {
        const auto n = static_cast<std::size_t>(c.count);
        std::vector<index_t> reversed(c.starts.size());
        for (std::size_t s = reversed.size(), at = 0; s-- > 0;) {
          reversed[s] = static_cast<index_t>(at);
          at += static_cast<std::size_t>((s + 1 < c.starts.size() ? static_cast<index_t>(c.starts[s + 1]) : c.count) -
                                         static_cast<index_t>(c.starts[s]));
        }
        const expand_case<std::int32_t> expand(c, [](std::size_t s) { return static_cast<std::int32_t>(s * 7 + 1); });
        std::vector<long long> in(n), gathered(n), scattered(n), moved(n);
        for (index_t i = 0; i < c.count; ++i) {
          const auto k = static_cast<std::size_t>(i),
                     to = static_cast<std::size_t>(reversed[c.segment_of(i)] + c.rank(i));
          in[k] = 1000003LL * i + 11;
          gathered[k] = 1000003LL * static_cast<index_t>(to) + 11;  // in[to]
          scattered[to] = in[k];
          moved[to] = gathered[k];
        }
        on_each(contexts, [&](auto& ctx) {
          using Context = std::remove_reference_t<decltype(ctx)>;
          const buffer_for<Context, Start> starts(c.starts);
          const buffer_for<Context, index_t> at(reversed);
          const buffer_for<Context, long long> d_in(in);
          const index_t ns = c.num_segments;
          ASSERT_NO_FATAL_FAILURE(check_interval_expand(ctx, c, expand)) << "interval_expand";
          ASSERT_NO_FATAL_FAILURE(check_written(ctx, gathered, [&](long long* out) {
            mergepath::interval_gather(ctx, d_in.data(), c.count, starts.data(), ns, at.data(), out);
          })) << "interval_gather";
          ASSERT_NO_FATAL_FAILURE(check_written(ctx, scattered, [&](long long* out) {
            mergepath::interval_scatter(ctx, d_in.data(), c.count, starts.data(), ns, at.data(), out);
          })) << "interval_scatter";
          ASSERT_NO_FATAL_FAILURE(check_written(ctx, moved, [&](long long* out) {
            mergepath::interval_move(ctx, d_in.data(), c.count, starts.data(), ns, at.data(), at.data(), out);
          })) << "interval_move";
        });
      });
}

TYPED_TEST_P(LoadBalance, SegmentedReduceSumsMinMax) {
  using Start = typename TypeParam::start;
  const auto contexts = TypeParam::backend::contexts();
  for_each_segment_case<Start>(
      load_balance_counts<typename TypeParam::backend>(), 3, [&](const segment_case<Start>& c) {
        std::vector<int> values(static_cast<std::size_t>(c.count));
        std::mt19937 rng(static_cast<unsigned>(case_seed({c.count, 4})));
        for (int& v : values) v = static_cast<int>(rng() % 2001) - 1000;
        const auto value_at = [&](index_t i) { return values[static_cast<std::size_t>(i)]; };
        const auto sums = reference_segmented_reduce<long long>(c.count, c.starts, value_at, 5LL, mergepath::plus<>{});
        const auto mins = reference_segmented_reduce<int>(c.count, c.starts, value_at, 1 << 30, mergepath::minimum<>{});
        const auto maxs =
            reference_segmented_reduce<int>(c.count, c.starts, value_at, -(1 << 30), mergepath::maximum<>{});
        on_each(contexts, [&](auto& ctx) {
          using Context = std::remove_reference_t<decltype(ctx)>;
          const buffer_for<Context, Start> starts(c.starts);
          const buffer_for<Context, int> d_values(values);
          auto reduce = [&](auto init, auto op) {
            return [&, init, op](auto out) {
              mergepath::segmented_reduce(ctx, d_values.data(), c.count, starts.data(), c.num_segments, out, init, op);
            };
          };
          ASSERT_NO_FATAL_FAILURE(check_written(ctx, sums, reduce(5LL, mergepath::plus<>{}))) << "sums";
          ASSERT_NO_FATAL_FAILURE(check_written(ctx, mins, reduce(1 << 30, mergepath::minimum<>{}))) << "minima";
          ASSERT_NO_FATAL_FAILURE(check_written(ctx, maxs, reduce(-(1 << 30), mergepath::maximum<>{}))) << "maxima";
        });
      });
}

TYPED_TEST_P(LoadBalance, SegmentedReduceKeepsTheItemsOrder) {
  using Start = typename TypeParam::start;
  const auto contexts = TypeParam::backend::contexts();
  for_each_segment_case<Start>(
      load_balance_counts<typename TypeParam::backend>(), 5, [&](const segment_case<Start>& c) {
        const composed_maps m(c, 6);
        on_each(contexts, [&](auto& ctx) {
          check_maps_composed(ctx, c, m, [&](auto maps, auto starts, auto out, affine_map identity) {
            mergepath::segmented_reduce(ctx, maps, c.count, starts, c.num_segments, out, identity, compose_affine{});
          });
        });
      });
}

REGISTER_TYPED_TEST_SUITE_P(LoadBalance, SearchAndTransformMatchReference, IntervalExpandGatherScatterMove,
                            SegmentedReduceSumsMinMax, SegmentedReduceKeepsTheItemsOrder);

// ---------------------------------------------------------------------------------------------
// Single calls: floating-point sums, a transform, empty segments, argument errors, checked mode.

template <class Param>
class LoadBalanceCalls : public backend_suite<Param> {};
TYPED_TEST_SUITE_P(LoadBalanceCalls);

// Float sums in a different association than a sequential loop's: within rounding of the exact sums.
TYPED_TEST_P(LoadBalanceCalls, FloatSumsWithinRounding) {
  const index_t count = std::min<index_t>(200000, max_test_size());
  const auto starts = make_segment_starts<int>(starts_shape::mean_300, count, case_seed({3}));
  std::vector<float> values(static_cast<std::size_t>(count));
  std::mt19937 rng(static_cast<unsigned>(case_seed({4})));
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  for (float& v : values) v = u(rng);
  const auto exact = reference_segmented_reduce<double>(
      count, starts, [&](index_t i) { return values[static_cast<std::size_t>(i)]; }, 0.0, mergepath::plus<>{});
  on_each(TypeParam::backend::contexts(), [&](auto& ctx) {
    using Context = std::remove_reference_t<decltype(ctx)>;
    const buffer_for<Context, int> d_starts(starts);
    const buffer_for<Context, float> d_values(values);
    buffer_for<Context, float> sums(starts.size());
    mergepath::segmented_reduce(ctx, d_values.data(), count, d_starts.data(), static_cast<index_t>(starts.size()),
                                sums.data(), 0.f);
    finish(ctx);
    const std::vector<float> got = sums.download();
    for (std::size_t s = 0; s < got.size(); ++s) ASSERT_NEAR(got[s], exact[s], 1e-3) << "segment " << s;
  });
}

// CSR SpMV by transform_segmented_reduce, short rows and long: the products are multiples of 1/32
// and their sums exact in any order.
TYPED_TEST_P(LoadBalanceCalls, TransformSegmentedReduceIsCsrSpmv) {
  const index_t nnz = load_balance_counts<typename TypeParam::backend>().back(), cols = 4096;
  std::mt19937 rng(static_cast<unsigned>(case_seed({8})));
  std::vector<int> col(static_cast<std::size_t>(nnz));
  std::vector<double> val(static_cast<std::size_t>(nnz)), x(static_cast<std::size_t>(cols));
  for (auto& c : col) c = static_cast<int>(rng() % cols);
  for (auto& v : val) v = static_cast<double>(static_cast<int>(rng() % 2001) - 1000) / 8;
  for (auto& v : x) v = static_cast<double>(rng() % 1000) / 4;
  const csr_product product{val.data(), col.data(), x.data()};
  for (starts_shape shape : {starts_shape::mean_4, starts_shape::mean_300}) {
    SCOPED_TRACE(::testing::Message() << shape << " seed " << base_seed());
    const auto row_starts = make_segment_starts<int>(shape, nnz, case_seed({7}));
    const auto rows = static_cast<index_t>(row_starts.size());
    const auto expected = reference_segmented_reduce<double>(nnz, row_starts, product, 0.0, mergepath::plus<>{});
    on_each(TypeParam::backend::contexts(), [&](auto& ctx) {
      using Context = std::remove_reference_t<decltype(ctx)>;
      const buffer_for<Context, int> d_starts(row_starts), d_col(col);
      const buffer_for<Context, double> d_val(val), d_x(x);
      check_written(ctx, expected, [&](double* y) {
        mergepath::transform_segmented_reduce(ctx, csr_product{d_val.data(), d_col.data(), d_x.data()}, nnz,
                                              d_starts.data(), rows, y, 0.0);
      });
    });
  }
}

TYPED_TEST_P(LoadBalanceCalls, EmptySegmentsGetInit) {
  on_each(TypeParam::backend::contexts(), [](auto& ctx) {
    using Context = std::remove_reference_t<decltype(ctx)>;
    const buffer_for<Context, int> starts(std::vector<int>(5000, 0));  // count 0: every segment empty
    check_written(ctx, std::vector<long long>(5000, 42), [&](long long* out) {
      mergepath::segmented_reduce(ctx, static_cast<const int*>(nullptr), 0, starts.data(), 5000, out, 42LL);
    });
    mergepath::load_balancing_search(ctx, 0, starts.data(), 5000, static_cast<int*>(nullptr));
    finish(ctx);
  });
}

TYPED_TEST_P(LoadBalanceCalls, BadArgumentsThrowBeforeWriting) {
  using Backend = typename TypeParam::backend;
  typename Backend::context ctx;
  typename Backend::template buffer<int> starts(std::vector<int>{0, 2, 5}), out(8);
  out.fill_poison();
  int* null = nullptr;
  expect_invalid_argument([&] { mergepath::load_balancing_search(ctx, -1, starts.data(), 3, out.data()); },
                          "count is negative");
  expect_invalid_argument([&] { mergepath::load_balancing_search(ctx, 8, starts.data(), -1, out.data()); },
                          "num_segments is negative");
  expect_invalid_argument([&] { mergepath::load_balancing_search(ctx, 8, starts.data(), 0, out.data()); },
                          "8 items but no segment");
  expect_invalid_argument([&] { mergepath::load_balancing_search(ctx, 8, null, 3, out.data()); },
                          "segment_starts is a null pointer");
  expect_invalid_argument([&] { mergepath::load_balancing_search(ctx, 8, starts.data(), 3, null); },
                          "out is a null pointer");
  expect_invalid_argument([&] { mergepath::segmented_reduce(ctx, null, 8, starts.data(), 3, out.data(), 0); },
                          "values is a null pointer");
  Backend::finish(ctx);
  EXPECT_TRUE(untouched(out.download(), 0, 8));
}

// Checked mode throws before writing; unchecked, the same starts give some result, with every
// segment and rank passed to f in range.
TYPED_TEST_P(LoadBalanceCalls, CheckedModeNamesTheFirstBadStart) {
  struct bad_case {
    std::vector<int> starts;
    const char* message;
  };
  const bad_case cases[] = {
      {{1, 2, 5}, "segment_starts[0] = 1"},
      {{0, 2, 5, 4, 3}, "segment_starts[3] = 4 is less than segment_starts[2] = 5"},
      {{0, 2, 9, 12}, "segment_starts[2] = 9 is past count = 8"},
  };
  on_each(TypeParam::backend::contexts(), [&](auto& ctx) {
    using Context = std::remove_reference_t<decltype(ctx)>;
    for (const bad_case& c : cases) {
      SCOPED_TRACE(c.message);
      const auto ns = static_cast<index_t>(c.starts.size());
      const buffer_for<Context, int> starts(c.starts), ones(std::vector<int>(8, 1));
      buffer_for<Context, int> out(8), bad(std::vector<int>{0}), sums(c.starts.size());
      out.fill_poison();
      ctx.set_checked(true);
      expect_invalid_argument([&] { mergepath::load_balancing_search(ctx, 8, starts.data(), ns, out.data()); },
                              c.message);
      EXPECT_TRUE(untouched(out.download(), 0, 8));
      ctx.set_checked(false);
      mergepath::transform_lbs(ctx, count_bad_calls{ns, 8, bad.data()}, 8, starts.data(), ns);
      mergepath::segmented_reduce(ctx, ones.data(), 8, starts.data(), ns, sums.data(), 0);
      finish(ctx);
      EXPECT_EQ(bad.download()[0], 0) << "transform_lbs calls with a segment or rank out of range";
    }
    ctx.set_checked(true);
    const buffer_for<Context, int> good(std::vector<int>{0, 0, 3, 8, 8});
    check_written(ctx, std::vector<int>{1, 1, 1, 2, 2, 2, 2, 2},
                  [&](int* out) { mergepath::load_balancing_search(ctx, 8, good.data(), 5, out); });
  });
}

REGISTER_TYPED_TEST_SUITE_P(LoadBalanceCalls, FloatSumsWithinRounding, TransformSegmentedReduceIsCsrSpmv,
                            EmptySegmentsGetInit, BadArgumentsThrowBeforeWriting, CheckedModeNamesTheFirstBadStart);

}  // namespace mergepath_test
