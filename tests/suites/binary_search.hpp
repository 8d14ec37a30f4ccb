// binary_search, eytzinger_layout, eytzinger_search, batch_search (every strategy) and
// eytzinger_index (its search, and its view where the context's work runs), written once over
// both backends (test_host_binary_search.cpp and test_gpu_binary_search.cu instantiate it):
// against std::lower_bound / std::upper_bound per needle over key types, comparators, haystack
// sizes at powers of two and either side and at the GPU's tree edges, duplicates, needles below,
// above, between and equal to the keys, and output types; the layout against a recursive in-order
// construction; the searches of the Futhark binary search example; argument errors; unsorted
// haystacks; checked mode. Also the checks the GPU-only tests share with these suites.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <mergepath/binary_search.hpp>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "../backends.hpp"
#include "../binary_search_util.hpp"

namespace mergepath_test {

using bsearch_key_cases =
    ::testing::Types<keys_case<std::int32_t, mergepath::less<>>, keys_case<std::int32_t, mergepath::greater<>>,
                     keys_case<std::int64_t, mergepath::less<>>, keys_case<std::uint32_t, mergepath::less<>>,
                     keys_case<std::uint32_t, mergepath::greater<>>, keys_case<float, mergepath::less<>>,
                     keys_case<double, mergepath::less<>>, keys_case<double, mergepath::greater<>>,
                     keys_case<point, point_less>,
                     // ties on x with different y: a bound is taken over equivalent keys, not identical ones
                     keys_case<point, point_x_less>,
                     // an arithmetic key whose comparator is neither less nor greater: the mergesort, not radix
                     keys_case<std::int32_t, reverse_order>>;

// ---------------------------------------------------------------------------------------------
// Where the context's work runs: an index's view searched by code of the user's (a loop on the
// host, a kernel on the GPU), and memory the library allocated read back.

template <bounds Bounds, class View, class Needle>
MERGEPATH_HD index_t view_bound(const View& view, const Needle& x) {
  return Bounds == bounds::lower ? view.lower_bound(x) : view.upper_bound(x);
}

// out[i] = the view's bound of needles[i].
template <bounds Bounds, class View, class Needle, class Out>
void view_search(mergepath::host_context&, View view, const Needle* needles, index_t n, Out* out) {
  for (index_t i = 0; i < n; ++i) out[i] = static_cast<Out>(view_bound<Bounds>(view, needles[i]));
}

template <class T>
std::vector<T> read_back(mergepath::host_context&, const T* data, index_t count) {
  return std::vector<T>(data, data + count);
}

#ifdef __CUDACC__
template <bounds Bounds, class View, class Needle, class Out>
__global__ void view_search_kernel(View view, const Needle* needles, index_t n, Out* out) {
  for (index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<index_t>(gridDim.x) * blockDim.x)
    out[i] = static_cast<Out>(view_bound<Bounds>(view, needles[i]));
}

template <bounds Bounds, class View, class Needle, class Out>
void view_search(mergepath::cuda_context& ctx, View view, const Needle* needles, index_t n, Out* out) {
  if (n == 0) return;
  const unsigned grid = static_cast<unsigned>(std::min<index_t>((n + 255) / 256, 1024));
  view_search_kernel<Bounds><<<grid, 256, 0, ctx.stream()>>>(view, needles, n, out);
  MERGEPATH_CUDA_CHECK(cudaGetLastError());
}

template <class T>
std::vector<T> read_back(mergepath::cuda_context& ctx, const T* data, index_t count) {
  ctx.synchronize();
  std::vector<T> host(static_cast<std::size_t>(count));
  if (count > 0) MERGEPATH_CUDA_CHECK(cudaMemcpy(host.data(), data, host.size() * sizeof(T), cudaMemcpyDeviceToHost));
  return host;
}
#endif

// ---------------------------------------------------------------------------------------------
// Checked runs

// Every path, bounds Bounds into Out, against what std says: binary_search; eytzinger_layout
// (against the recursive construction) then eytzinger_search; batch_search with every strategy;
// an eytzinger_index (its tree too), its search, and its view.
template <bounds Bounds, class Out, class Context, class Key, class Comp>
void check_every_path(Context& ctx, const buffer_for<Context, Key>& haystack_buffer,
                      const buffer_for<Context, Key>& needle_buffer, const bsearch_expected<Key>& expected, Comp comp) {
  SCOPED_TRACE(std::string("bounds ") + to_string(Bounds));
  const std::vector<Out> want = converted<Out>(Bounds == bounds::lower ? expected.lower : expected.upper);
  const index_t n = static_cast<index_t>(needle_buffer.size()), h = static_cast<index_t>(haystack_buffer.size());
  const Key* needles = needle_buffer.data();
  const Key* haystack = haystack_buffer.data();
  buffer_for<Context, Out> out(static_cast<std::size_t>(n) + 2 * guard_items);
  auto check = [&](const char* path, auto run) {
    SCOPED_TRACE(path);
    out.fill_poison();
    run(out.data() + guard_items);
    finish(ctx);
    ASSERT_TRUE(guarded_equal(want, out.download()));
  };

  ASSERT_NO_FATAL_FAILURE(
      check("binary_search", [&](Out* o) { mergepath::binary_search<Bounds>(ctx, needles, n, haystack, h, o, comp); }));

  buffer_for<Context, Key> tree(static_cast<std::size_t>(h) + 2 * guard_items);
  tree.fill_poison();
  mergepath::eytzinger_layout(ctx, haystack, h, tree.data() + guard_items);
  finish(ctx);
  ASSERT_TRUE(guarded_equal(expected.tree, tree.download())) << "eytzinger_layout";
  ASSERT_NO_FATAL_FAILURE(check("eytzinger_search", [&](Out* o) {
    mergepath::eytzinger_search<Bounds>(ctx, needles, n, tree.data() + guard_items, h, o, comp);
  }));

  for (search_strategy s : all_strategies) {
    ASSERT_NO_FATAL_FAILURE(check(
        to_string(s), [&](Out* o) { mergepath::batch_search<Bounds>(ctx, needles, n, haystack, h, o, comp, s); }));
  }

  const mergepath::eytzinger_index<Key, Comp> index(ctx, haystack, h, comp);
  ASSERT_EQ(index.size(), h);
  ASSERT_EQ(index.on_device(), (!std::is_same_v<Context, mergepath::host_context>));
  ASSERT_TRUE(ranges_equal(expected.tree, read_back(ctx, index.tree(), h))) << "eytzinger_index's tree";
  ASSERT_NO_FATAL_FAILURE(
      check("eytzinger_index::search", [&](Out* o) { index.template search<Bounds>(ctx, needles, n, o); }));
  ASSERT_NO_FATAL_FAILURE(
      check("eytzinger_view", [&](Out* o) { view_search<Bounds>(ctx, index.view(), needles, n, o); }));
}

// Each case on each context: lower bounds into LowerOut, upper bounds into UpperOut (OutputTypes
// swaps them), what std says worked out once.
template <class Key, class LowerOut = std::int64_t, class UpperOut = std::int32_t, class Context, class Comp>
void check_cases(const std::vector<std::unique_ptr<Context>>& contexts, const std::vector<bsearch_case>& cases,
                 Comp comp) {
  for (const bsearch_case& c : cases) {
    SCOPED_TRACE(c.name());
    const bsearch_input<Key> in = make_bsearch_input<Key>(c, comp);
    const bsearch_expected<Key> expected(in, comp);
    const buffer_for<Context, Key> haystack(in.haystack), needles(in.needles);
    ASSERT_NO_FATAL_FAILURE(on_each(contexts, [&](Context& ctx) {
      ASSERT_NO_FATAL_FAILURE((check_every_path<bounds::lower, LowerOut>(ctx, haystack, needles, expected, comp)));
      ASSERT_NO_FATAL_FAILURE((check_every_path<bounds::upper, UpperOut>(ctx, haystack, needles, expected, comp)));
    }));
  }
}

// Every element of the buffers still holds the poison, once the context's work is done.
template <class Context, class... Buffers>
::testing::AssertionResult still_poisoned(Context& ctx, const Buffers&... buffers) {
  finish(ctx);
  for (const ::testing::AssertionResult& r : {untouched(buffers.download(), 0, buffers.size())...})
    if (!r) return r;
  return ::testing::AssertionSuccess();
}

// The cases no larger than $MERGEPATH_TEST_MAX_SIZE.
inline std::vector<bsearch_case> capped(std::vector<bsearch_case> cases) {
  const index_t cap = max_test_size();
  cases.erase(std::remove_if(cases.begin(), cases.end(),
                             [&](const bsearch_case& c) { return c.haystack_count > cap || c.needle_count > cap; }),
              cases.end());
  return cases;
}

// A backend's first context and its last (the GPU has only one). On the host: one thread, for
// sweeps that vary the input (work under 2^15 items a chunk stays on one thread whatever the
// context), and the most threads, for inputs large enough to split.
template <class Backend>
std::vector<std::unique_ptr<typename Backend::context>> one_thread_context() {
  auto all = Backend::contexts();
  all.resize(1);
  return all;
}
template <class Backend>
std::vector<std::unique_ptr<typename Backend::context>> most_threads_context() {
  auto all = Backend::contexts();
  all.erase(all.begin(), all.end() - 1);
  return all;
}

// Haystack sizes that matter to Key's tree on the GPU: the shared-memory-cached top levels (whole
// levels, 2^j - 1 nodes) and one either side, and the layout's blocks and one either side.
template <class Key>
std::vector<index_t> gpu_edge_sizes() {
  constexpr mergepath::binary_search_tuning tuning = mergepath::binary_search_tuning_for(90, sizeof(Key));
  const index_t slots = tuning.cached_tree_bytes / static_cast<index_t>(sizeof(Key));
  index_t cached = 1;
  while (2 * cached + 1 <= slots) cached = 2 * cached + 1;
  const index_t block = tuning.layout_items(sizeof(Key));
  return {cached - 1, cached, cached + 1, block - 1, block, block + 1, 2 * block + 1};
}

// Haystacks of 0 to 3 keys, 2^k - 1, 2^k and 2^k + 1 up to 2^16 + 1, the GPU's tree edges and
// random sizes, each with a few thousand needles; the small ones and the GPU's tree edges also
// with no needle and with one. Every k to 2^13 on the host, where a case costs little; a
// sample on the GPU, whose suite compute-sanitizer runs too.
template <class Backend, class Key>
std::vector<bsearch_case> sweep_cases() {
  constexpr bool host = std::is_same_v<Backend, host_backend>;
  std::vector<index_t> extras = gpu_edge_sizes<Key>();
  for (index_t n : random_sizes(host ? 4 : 2, 4, 20000, 510)) extras.push_back(n);
  std::vector<bsearch_case> cases =
      bsearch_cases(power_edge_sizes(host ? std::vector<int>{2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 16}
                                          : std::vector<int>{2, 3, 5, 8, 12, 16},
                                     extras),
                    {3001});
  const std::vector<bsearch_case> few = bsearch_cases(
      power_edge_sizes(host ? std::vector<int>{2, 3, 4, 5, 12} : std::vector<int>{2, 3}, gpu_edge_sizes<Key>()),
      {0, 1});
  cases.insert(cases.end(), few.begin(), few.end());
  return cases;
}

// ---------------------------------------------------------------------------------------------
// Every path against std::lower_bound / std::upper_bound, over key types and comparators

template <class Param>
class BinarySearch : public backend_suite<Param> {};
TYPED_TEST_SUITE_P(BinarySearch);

TYPED_TEST_P(BinarySearch, EveryPathMatchesStdBounds) {
  using Key = typename TypeParam::key;
  using Backend = typename TypeParam::backend;
  ASSERT_NO_FATAL_FAILURE(
      check_cases<Key>(one_thread_context<Backend>(), sweep_cases<Backend, Key>(), typename TypeParam::comp{}));
}

// Needles enough for the host's batch_search to sort them when automatic (search_strategy_for),
// and work enough to be split over its threads.
TYPED_TEST_P(BinarySearch, ManyNeedles) {
  const index_t h = 4097, n = (1 << 18) + 3;
  ASSERT_NO_FATAL_FAILURE(check_cases<typename TypeParam::key>(
      most_threads_context<typename TypeParam::backend>(),
      capped({{h, n, haystack_distribution::few_distinct, case_seed({h, n, 520})}}), typename TypeParam::comp{}));
}

REGISTER_TYPED_TEST_SUITE_P(BinarySearch, EveryPathMatchesStdBounds, ManyNeedles);

// ---------------------------------------------------------------------------------------------
// The calls on one key type: sizes, contexts and output types; the Futhark example; argument
// errors; unsorted haystacks; checked mode; the layout.

template <class Param>
class BinarySearchCalls : public backend_suite<Param> {};
TYPED_TEST_SUITE_P(BinarySearchCalls);

// [1, 3, 5, 7, 9, 11] searched for 0, 9 and 2, both bounds, on every path.
TYPED_TEST_P(BinarySearchCalls, ExampleOnEveryPath) {
  namespace ex = futhark_example;
  using Backend = typename TypeParam::backend;
  typename Backend::context ctx;
  typename Backend::template buffer<int> haystack(ex::haystack), needles(ex::needles), tree(6);
  typename Backend::template buffer<index_t> out(3);
  mergepath::eytzinger_layout(ctx, haystack.data(), 6, tree.data());
  Backend::finish(ctx);
  EXPECT_EQ(tree.download(), (std::vector<int>{7, 3, 11, 1, 5, 9}));
  const mergepath::eytzinger_index<int> index(ctx, haystack.data(), 6);
  auto got = [&] {
    Backend::finish(ctx);
    std::vector<index_t> v = out.download();
    out.fill_poison();
    return v;
  };
  for_both_bounds([&](auto b) {
    constexpr bounds Bounds = decltype(b)::value;
    SCOPED_TRACE(to_string(Bounds));
    const std::vector<index_t>& expected = Bounds == bounds::lower ? ex::lower : ex::upper;
    out.fill_poison();
    mergepath::binary_search<Bounds>(ctx, needles.data(), 3, haystack.data(), 6, out.data());
    EXPECT_EQ(got(), expected) << "binary_search";
    mergepath::eytzinger_search<Bounds>(ctx, needles.data(), 3, tree.data(), 6, out.data());
    EXPECT_EQ(got(), expected) << "eytzinger_search";
    for (search_strategy s : all_strategies) {
      mergepath::batch_search<Bounds>(ctx, needles.data(), 3, haystack.data(), 6, out.data(), mergepath::less<>{}, s);
      EXPECT_EQ(got(), expected) << "batch_search " << to_string(s);
    }
    index.template search<Bounds>(ctx, needles.data(), 3, out.data());
    EXPECT_EQ(got(), expected) << "eytzinger_index::search";
    view_search<Bounds>(ctx, index.view(), needles.data(), 3, out.data());
    EXPECT_EQ(got(), expected) << "eytzinger_view";
  });
}

// Inputs large enough to split over the host's threads, on every context: 2^17 + 1 keys, and more
// needles than keys.
TYPED_TEST_P(BinarySearchCalls, LargeInputsOnEveryContext) {
  const index_t h = (1 << 17) + 1, n = 70001, more = (1 << 18) + 1;
  ASSERT_NO_FATAL_FAILURE(
      check_cases<std::int32_t>(TypeParam::backend::contexts(),
                                capped({{h, n, haystack_distribution::uniform, case_seed({h, n, 522})},
                                        {100003, more, haystack_distribution::uniform, case_seed({530})}}),
                                mergepath::less<>{}));
}

// Lower bounds into int32, upper bounds into int64 (the other way round from the sweeps).
TYPED_TEST_P(BinarySearchCalls, OutputTypesSwapped) {
  std::vector<bsearch_case> cases = bsearch_cases(power_edge_sizes({4, 12, 13}, {70001}), {0, 1, 3001});
  cases.push_back({4097, 70001, haystack_distribution::uniform, case_seed({4097, 70001, 525})});
  ASSERT_NO_FATAL_FAILURE((check_cases<std::int64_t, std::int32_t, std::int64_t>(
      most_threads_context<typename TypeParam::backend>(), capped(cases), mergepath::less<>{})));
}

// Bad arguments: std::invalid_argument before any work (the outputs and their guards stay
// poisoned).
TYPED_TEST_P(BinarySearchCalls, BadArgumentsThrowBeforeWriting) {
  using Backend = typename TypeParam::backend;
  typename Backend::context ctx;
  typename Backend::template buffer<int> hay(std::vector<int>{1, 3, 5}), needles(std::vector<int>{0, 4}),
      good_tree(std::vector<int>{3, 1, 5}), tree(3 + 2 * guard_items);
  typename Backend::template buffer<std::int64_t> out(2 + 2 * guard_items);
  out.fill_poison();
  tree.fill_poison();
  std::int64_t* dest = out.data() + guard_items;
  int* tree_dest = tree.data() + guard_items;
  const int* null = nullptr;
  std::int64_t* null_out = nullptr;

  // binary_search and batch_search (every strategy) check the same arguments.
  auto searches = [&](const int* n_ptr, index_t n, const int* h_ptr, index_t h, std::int64_t* o) {
    std::vector<std::function<void()>> calls;
    calls.push_back([=, &ctx] { mergepath::binary_search(ctx, n_ptr, n, h_ptr, h, o); });
    calls.push_back([=, &ctx] { mergepath::binary_search<bounds::upper>(ctx, n_ptr, n, h_ptr, h, o); });
    for (search_strategy s : all_strategies)
      calls.push_back([=, &ctx] { mergepath::batch_search(ctx, n_ptr, n, h_ptr, h, o, mergepath::less<>{}, s); });
    calls.push_back([=, &ctx] {
      mergepath::batch_search<bounds::upper>(ctx, n_ptr, n, h_ptr, h, o, mergepath::less<>{},
                                             search_strategy::sort_then_search);
    });
    return calls;
  };
  for (auto& call : searches(needles.data(), -1, hay.data(), 3, dest))
    expect_invalid_argument(call, "needles count is negative");
  for (auto& call : searches(needles.data(), 2, hay.data(), -3, dest))
    expect_invalid_argument(call, "haystack count is negative");
  for (auto& call : searches(null, 2, hay.data(), 3, dest)) expect_invalid_argument(call, "needles is a null pointer");
  for (auto& call : searches(needles.data(), 2, null, 3, dest))
    expect_invalid_argument(call, "haystack is a null pointer");
  for (auto& call : searches(needles.data(), 2, hay.data(), 3, null_out))
    expect_invalid_argument(call, "out is a null pointer");

  expect_invalid_argument([&] { mergepath::eytzinger_layout(ctx, hay.data(), -1, tree_dest); }, "count is negative");
  expect_invalid_argument([&] { mergepath::eytzinger_layout(ctx, null, 3, tree_dest); }, "sorted is a null pointer");
  expect_invalid_argument([&] { mergepath::eytzinger_layout(ctx, hay.data(), 3, static_cast<int*>(nullptr)); },
                          "tree is a null pointer");

  expect_invalid_argument([&] { mergepath::eytzinger_search(ctx, needles.data(), -2, good_tree.data(), 3, dest); },
                          "needles count is negative");
  expect_invalid_argument([&] { mergepath::eytzinger_search(ctx, needles.data(), 2, good_tree.data(), -3, dest); },
                          "tree count is negative");
  expect_invalid_argument([&] { mergepath::eytzinger_search(ctx, null, 2, good_tree.data(), 3, dest); },
                          "needles is a null pointer");
  expect_invalid_argument([&] { mergepath::eytzinger_search(ctx, needles.data(), 2, null, 3, dest); },
                          "tree is a null pointer");
  expect_invalid_argument(
      [&] { mergepath::eytzinger_search<bounds::upper>(ctx, needles.data(), 2, good_tree.data(), 3, null_out); },
      "out is a null pointer");

  expect_invalid_argument([&] { mergepath::eytzinger_index<int> index(ctx, hay.data(), -1); }, "count is negative");
  expect_invalid_argument([&] { mergepath::eytzinger_index<int> index(ctx, null, 3); }, "null pointer");
  const mergepath::eytzinger_index<int> index(ctx, hay.data(), 3);
  expect_invalid_argument([&] { index.search(ctx, needles.data(), -1, dest); }, "count is negative");
  expect_invalid_argument([&] { index.search(ctx, null, 2, dest); }, "needles is a null pointer");
  expect_invalid_argument([&] { index.search<bounds::upper>(ctx, needles.data(), 2, null_out); },
                          "out is a null pointer");

  EXPECT_TRUE(still_poisoned(ctx, out, tree));
}

// Null pointers are fine where their count is zero; an empty haystack gives every needle 0.
TYPED_TEST_P(BinarySearchCalls, NullPointersWithZeroCounts) {
  using Backend = typename TypeParam::backend;
  typename Backend::context ctx;
  typename Backend::template buffer<int> hay(std::vector<int>{1, 3, 5}), needles(std::vector<int>{0, 4, 9});
  typename Backend::template buffer<index_t> out(3 + 2 * guard_items);
  out.fill_poison();
  index_t* dest = out.data() + guard_items;
  const int* null = nullptr;
  index_t* null_out = nullptr;
  EXPECT_NO_THROW(mergepath::binary_search(ctx, null, 0, null, 0, null_out));
  EXPECT_NO_THROW(mergepath::eytzinger_layout(ctx, null, 0, static_cast<int*>(nullptr)));
  EXPECT_NO_THROW(mergepath::eytzinger_search(ctx, null, 0, null, 0, null_out));
  for (search_strategy s : all_strategies) {
    EXPECT_NO_THROW(mergepath::batch_search(ctx, null, 0, null, 0, null_out, mergepath::less<>{}, s));
    EXPECT_NO_THROW(mergepath::batch_search(ctx, null, 0, hay.data(), 3, null_out, mergepath::less<>{}, s));
  }
  EXPECT_TRUE(still_poisoned(ctx, out));
  auto zeros = [&] {
    Backend::finish(ctx);
    const std::vector<index_t> got = out.download();
    out.fill_poison();
    return guarded_equal(std::vector<index_t>{0, 0, 0}, got);
  };
  for (search_strategy s : all_strategies) {
    mergepath::batch_search<bounds::upper>(ctx, needles.data(), 3, null, 0, dest, mergepath::less<>{}, s);
    EXPECT_TRUE(zeros()) << to_string(s);
  }
  mergepath::binary_search(ctx, needles.data(), 3, null, 0, dest);
  EXPECT_TRUE(zeros()) << "binary_search";
  mergepath::eytzinger_search(ctx, needles.data(), 3, null, 0, dest);
  EXPECT_TRUE(zeros()) << "eytzinger_search";
  const mergepath::eytzinger_index<int> empty(ctx, null, 0);
  empty.search<bounds::upper>(ctx, needles.data(), 3, dest);
  EXPECT_TRUE(zeros()) << "eytzinger_index::search";
  view_search<bounds::lower>(ctx, empty.view(), needles.data(), 3, dest);
  EXPECT_TRUE(zeros()) << "eytzinger_view";
  EXPECT_NO_THROW(empty.search(ctx, null, 0, null_out));
}

// Every path on an unsorted haystack (also searched as a tree), both bounds, into a guarded
// output: unspecified bounds, but no fault (compute-sanitizer runs the GPU suite), nothing written
// outside the output, every bound within [0, count].
template <class Context, class Buffer, class Comp>
void search_unsorted(Context& ctx, const Buffer& hay, const Buffer& needles, Comp comp) {
  using Key = std::remove_pointer_t<decltype(hay.data())>;
  const index_t h = static_cast<index_t>(hay.size()), n = static_cast<index_t>(needles.size());
  buffer_for<Context, index_t> out(static_cast<std::size_t>(n) + 2 * guard_items);
  auto check = [&](const std::string& path, auto run) {
    SCOPED_TRACE(path);
    out.fill_poison();
    run(out.data() + guard_items);
    EXPECT_NO_THROW(finish(ctx));
    const std::vector<index_t> got = out.download();
    EXPECT_TRUE(untouched(got, 0, guard_items));
    EXPECT_TRUE(untouched(got, guard_items + static_cast<std::size_t>(n), got.size()));
    EXPECT_TRUE(bounds_within(std::vector<index_t>(got.begin() + guard_items, got.end() - guard_items), h));
  };
  const mergepath::eytzinger_index<Key, Comp> index(ctx, hay.data(), h, comp);
  for_both_bounds([&](auto b) {
    constexpr bounds Bounds = decltype(b)::value;
    SCOPED_TRACE(to_string(Bounds));
    check("binary_search",
          [&](index_t* o) { mergepath::binary_search<Bounds>(ctx, needles.data(), n, hay.data(), h, o, comp); });
    check("eytzinger_search",
          [&](index_t* o) { mergepath::eytzinger_search<Bounds>(ctx, needles.data(), n, hay.data(), h, o, comp); });
    for (search_strategy s : all_strategies) {
      check(std::string("batch_search ") + to_string(s),
            [&](index_t* o) { mergepath::batch_search<Bounds>(ctx, needles.data(), n, hay.data(), h, o, comp, s); });
    }
    check("eytzinger_index::search", [&](index_t* o) { index.template search<Bounds>(ctx, needles.data(), n, o); });
    check("eytzinger_view", [&](index_t* o) { view_search<Bounds>(ctx, index.view(), needles.data(), n, o); });
  });
}

TYPED_TEST_P(BinarySearchCalls, UnsortedHaystackStaysInBounds) {
  using Backend = typename TypeParam::backend;
  const auto contexts = Backend::contexts();
  std::mt19937_64 rng(case_seed({650}));
  SCOPED_TRACE("MERGEPATH_TEST_SEED=" + std::to_string(base_seed()));
  for (index_t h : {index_t{1}, index_t{2}, index_t{7}, index_t{100}, index_t{4097}, index_t{8193}, index_t{70001}}) {
    SCOPED_TRACE(::testing::Message() << "haystack_count " << h);
    std::vector<int> hay(static_cast<std::size_t>(h)), needles(5000);
    for (int& x : hay) x = std::uniform_int_distribution<int>(-1000, 1000)(rng);
    for (int& x : needles) x = std::uniform_int_distribution<int>(-1100, 1100)(rng);
    std::vector<point> point_hay, point_needles;
    for (int x : hay) point_hay.push_back(key_from_rank<point>(x + 2000));
    for (int x : needles) point_needles.push_back(key_from_rank<point>(x + 2000));
    const typename Backend::template buffer<int> d_hay(hay), d_needles(needles);
    const typename Backend::template buffer<point> d_point_hay(point_hay), d_point_needles(point_needles);
    ASSERT_NO_FATAL_FAILURE(on_each(contexts, [&](auto& ctx) {
      ASSERT_NO_FATAL_FAILURE(search_unsorted(ctx, d_hay, d_needles, mergepath::less<>{}));
      ASSERT_NO_FATAL_FAILURE(search_unsorted(ctx, d_point_hay, d_point_needles, point_less{}));
    }));
  }
}

// Checked mode: a haystack (eytzinger_layout: its sorted input) out of comp's order throws,
// naming the first position out of order, before anything is written.
TYPED_TEST_P(BinarySearchCalls, CheckedModeNamesTheFirstUnsortedPosition) {
  using Backend = typename TypeParam::backend;
  on_each(Backend::contexts(), [](auto& ctx) {
    ctx.set_checked(true);
    for (index_t count : {index_t{10}, index_t{300000}}) {
      SCOPED_TRACE(::testing::Message() << "count " << count);
      std::vector<int> host_hay = origins<int>(count, 0);
      host_hay[6] = -1;
      if (count > 100000) host_hay[250000] = -2;  // a later offender in another thread's share: still [6]
      typename Backend::template buffer<int> hay(host_hay), needles(std::vector<int>{1, 5, 9}),
          tree(static_cast<std::size_t>(count));
      typename Backend::template buffer<index_t> out(3);
      out.fill_poison();
      tree.fill_poison();
      expect_invalid_argument([&] { mergepath::binary_search(ctx, needles.data(), 3, hay.data(), count, out.data()); },
                              "binary_search: input haystack is not sorted: haystack[6]");
      expect_invalid_argument(
          [&] { mergepath::binary_search<bounds::upper>(ctx, needles.data(), 3, hay.data(), count, out.data()); },
          "haystack[6]");
      for (search_strategy s : {search_strategy::per_needle, search_strategy::sort_then_search})
        expect_invalid_argument(
            [&] {
              mergepath::batch_search(ctx, needles.data(), 3, hay.data(), count, out.data(), mergepath::less<>{}, s);
            },
            "batch_search: input haystack is not sorted: haystack[6]");
      expect_invalid_argument([&] { mergepath::eytzinger_layout(ctx, hay.data(), count, tree.data()); },
                              "eytzinger_layout: input sorted is not sorted: sorted[6]");
      expect_invalid_argument([&] { mergepath::eytzinger_index<int> index(ctx, hay.data(), count); }, "sorted[6]");
      EXPECT_TRUE(still_poisoned(ctx, out, tree));
    }
  });
}

// Sorted means sorted by the call's comparator; keys without operator< are not checked by the
// layout's default comparator, and are by theirs.
TYPED_TEST_P(BinarySearchCalls, CheckedOrderIsTheComparatorsOrder) {
  using Backend = typename TypeParam::backend;
  typename Backend::context ctx;
  ctx.set_checked(true);
  typename Backend::template buffer<int> down(std::vector<int>{9, 7, 7, 3, 1}), needles(std::vector<int>{7, 2}),
      tree(5);
  typename Backend::template buffer<index_t> out(2);
  mergepath::binary_search(ctx, needles.data(), 2, down.data(), 5, out.data(), mergepath::greater<>{});
  Backend::finish(ctx);
  EXPECT_EQ(out.download(), (std::vector<index_t>{1, 4}));
  expect_invalid_argument([&] { mergepath::binary_search(ctx, needles.data(), 2, down.data(), 5, out.data()); },
                          "haystack[1]");
  mergepath::eytzinger_layout(ctx, down.data(), 5, tree.data(), mergepath::greater<>{});
  const mergepath::eytzinger_index<int, mergepath::greater<>> index(ctx, down.data(), 5);
  typename Backend::template buffer<point> points(std::vector<point>{{1, 0.f}, {2, 0.f}, {0, 0.f}}), point_tree(3);
  mergepath::eytzinger_layout(ctx, points.data(), 3, point_tree.data());
  expect_invalid_argument([&] { mergepath::eytzinger_layout(ctx, points.data(), 3, point_tree.data(), point_less{}); },
                          "sorted[2]");
  Backend::finish(ctx);
}

// Every count to 1100, powers of two and either side to 2^22, the GPU layout's block edges,
// primes: element by element equal to the recursive in-order construction.
TYPED_TEST_P(BinarySearchCalls, LayoutMatchesRecursiveInOrderConstruction) {
  using Backend = typename TypeParam::backend;
  const auto contexts = Backend::contexts();
  std::vector<index_t> counts;
  for (index_t n = 0; n <= 1100; ++n) counts.push_back(n);
  const index_t block = mergepath::binary_search_tuning_for(90, sizeof(int)).layout_items(sizeof(int));
  for (index_t n : power_edge_sizes({11, 12, 13, 14, 15, 16, 17, 20, 22},
                                    {block - 1, block, block + 1, 3 * block - 1, 3 * block + 1, 100003, 1234567}))
    counts.push_back(n);
  counts = sorted_unique_capped(counts);
  // A prefix of 0, 1, 2, ... is sorted.
  const typename Backend::template buffer<std::int32_t> sorted(origins<std::int32_t>(counts.back(), 0));
  for (index_t n : counts) {
    SCOPED_TRACE(::testing::Message() << "count " << n);
    const std::vector<std::int32_t> expected = eytzinger_reference(origins<std::int32_t>(n, 0));
    typename Backend::template buffer<std::int32_t> tree(static_cast<std::size_t>(n) + 2 * guard_items);
    ASSERT_NO_FATAL_FAILURE(on_each(contexts, [&](auto& ctx) {
      tree.fill_poison();
      mergepath::eytzinger_layout(ctx, sorted.data(), n, tree.data() + guard_items);
      Backend::finish(ctx);
      ASSERT_TRUE(guarded_equal(expected, tree.download()));
    }));
  }
}

// Keys of 1, 8 and 12 bytes (a struct) are moved whole.
TYPED_TEST_P(BinarySearchCalls, LayoutMovesOtherKeySizesWhole) {
  using Backend = typename TypeParam::backend;
  const auto contexts = Backend::contexts();
  for (index_t n :
       {index_t{0}, index_t{1}, index_t{7}, index_t{8}, index_t{300}, index_t{1000}, index_t{8193}, index_t{70001}}) {
    SCOPED_TRACE(::testing::Message() << "count " << n);
    std::vector<std::int8_t> bytes;
    std::vector<double> doubles;
    std::vector<point> points;
    for (index_t i = 0; i < n; ++i) {
      bytes.push_back(static_cast<std::int8_t>(i * 255 / std::max<index_t>(n, 1) - 128));
      doubles.push_back(key_from_rank<double>(i));
      points.push_back(key_from_rank<point>(i));
    }
    const std::vector<std::int8_t> bytes_tree = eytzinger_reference(bytes);
    const std::vector<double> doubles_tree = eytzinger_reference(doubles);
    const std::vector<point> points_tree = eytzinger_reference(points);
    auto check = [&](auto& ctx, const auto& sorted, const auto& expected) {
      using T = typename std::decay_t<decltype(sorted)>::value_type;
      const typename Backend::template buffer<T> in(sorted);
      typename Backend::template buffer<T> tree(static_cast<std::size_t>(n) + 2 * guard_items);
      tree.fill_poison();
      mergepath::eytzinger_layout(ctx, in.data(), n, tree.data() + guard_items);
      Backend::finish(ctx);
      return guarded_equal(expected, tree.download());
    };
    ASSERT_NO_FATAL_FAILURE(on_each(contexts, [&](auto& ctx) {
      EXPECT_TRUE(check(ctx, bytes, bytes_tree)) << "int8";
      EXPECT_TRUE(check(ctx, doubles, doubles_tree)) << "double";
      EXPECT_TRUE(check(ctx, points, points_tree)) << "point";
    }));
  }
}

REGISTER_TYPED_TEST_SUITE_P(BinarySearchCalls, ExampleOnEveryPath, LargeInputsOnEveryContext, OutputTypesSwapped,
                            BadArgumentsThrowBeforeWriting, NullPointersWithZeroCounts, UnsortedHaystackStaysInBounds,
                            CheckedModeNamesTheFirstUnsortedPosition, CheckedOrderIsTheComparatorsOrder,
                            LayoutMatchesRecursiveInOrderConstruction, LayoutMovesOtherKeySizesWhole);

}  // namespace mergepath_test
