// BINARY SEARCH DEMONSTRATION (after the Futhark "Binary search" example, docs/references.md):
// the example's three searches of [1,3,5,7,9,11], the Eytzinger (BFS) layout of that array and of
// 0..14, eytzinger_search giving binary_search's answers, batch_search on unsorted needles (both
// strategies, and what automatic picks), and an eytzinger_index searched through its view(), on
// the host or inside a kernel of our own.
// Not golden (the example prints no demonstration of ours to match); every result is checked
// against std::lower_bound / std::upper_bound and against an Eytzinger layout built the
// tutorial's sequential way, and a mismatch throws.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "demo.hpp"

namespace demo {
namespace {

using mergepath::bounds;
using mergepath::index_t;
using mergepath::search_strategy;

void require(bool ok, const std::string& what) {
  if (!ok) throw std::runtime_error("binary search demonstration: " + what);
}

index_t count_of(const std::vector<int>& v) { return static_cast<index_t>(v.size()); }

std::string join(const std::vector<int>& v) {
  std::string s;
  for (int x : v) s += (s.empty() ? "" : " ") + std::to_string(x);
  return s;
}

// One line of a table: its label, then the values in columns of 4.
void print_line(const char* label, const std::vector<int>& v) {
  std::string line = format("  %-18s", label);
  for (int x : v) line += format("%4d", x);
  std::printf("%s\n", line.c_str());
}

// The oracle: std::lower_bound (upper_bound) of each needle in sorted, as an index.
std::vector<int> std_bounds(const std::vector<int>& needles, const std::vector<int>& sorted, bounds which) {
  std::vector<int> out;
  for (int x : needles) {
    auto at = which == bounds::lower ? std::lower_bound(sorted.begin(), sorted.end(), x)
                                     : std::upper_bound(sorted.begin(), sorted.end(), x);
    out.push_back(static_cast<int>(at - sorted.begin()));
  }
  return out;
}

// The tutorial's sequential layout: an in-order walk of the heap-ordered tree (node k has children
// 2k and 2k + 1) hands out the sorted keys one by one. Shares nothing with the library's formula.
std::vector<int> sequential_eytzinger(const std::vector<int>& sorted) {
  std::vector<int> tree(sorted.size());
  std::size_t next = 0;
  std::function<void(std::size_t)> walk = [&](std::size_t k) {
    if (k > sorted.size()) return;
    walk(2 * k);
    tree[k - 1] = sorted[next++];
    walk(2 * k + 1);
  };
  walk(1);
  return tree;
}

// The example's closed formula, for n = 2^h - 1 keys: the sorted index of tree slot i.
std::int64_t futhark_eytzinger_index(std::int64_t n, std::int64_t i) {
  auto log2 = [](std::int64_t x) { return 63 - __builtin_clzll(static_cast<unsigned long long>(x)); };
  std::int64_t lvl = log2(i + 1);
  std::int64_t offset = std::int64_t{1} << (log2(n) - lvl);
  std::int64_t k = (std::int64_t{1} << lvl) - 1;
  return offset + (i - k) * offset * 2 - 1;
}

// binary_search of needles in sorted, on the backend.
std::vector<int> run_binary_search(backend& be, const std::vector<int>& needles, const std::vector<int>& sorted,
                                   bounds which = bounds::lower) {
  auto n = be.to_backend(needles), s = be.to_backend(sorted);
  auto out = be.make_array<int>(needles.size());
  be.run([&](auto& ctx) {
    if (which == bounds::lower)
      mergepath::binary_search<bounds::lower>(ctx, n.data(), count_of(needles), s.data(), count_of(sorted), out.data());
    else
      mergepath::binary_search<bounds::upper>(ctx, n.data(), count_of(needles), s.data(), count_of(sorted), out.data());
  });
  return be.to_host(out);
}

// eytzinger_layout of sorted, on the backend.
std::vector<int> run_layout(backend& be, const std::vector<int>& sorted) {
  auto s = be.to_backend(sorted);
  auto tree = be.make_array<int>(sorted.size());
  be.run([&](auto& ctx) { mergepath::eytzinger_layout(ctx, s.data(), count_of(sorted), tree.data()); });
  return be.to_host(tree);
}

// eytzinger_search of needles in an Eytzinger tree, on the backend.
std::vector<int> run_eytzinger_search(backend& be, const std::vector<int>& needles, const std::vector<int>& tree,
                                      bounds which = bounds::lower) {
  auto n = be.to_backend(needles), t = be.to_backend(tree);
  auto out = be.make_array<int>(needles.size());
  be.run([&](auto& ctx) {
    if (which == bounds::lower)
      mergepath::eytzinger_search<bounds::lower>(ctx, n.data(), count_of(needles), t.data(), count_of(tree),
                                                 out.data());
    else
      mergepath::eytzinger_search<bounds::upper>(ctx, n.data(), count_of(needles), t.data(), count_of(tree),
                                                 out.data());
  });
  return be.to_host(out);
}

// batch_search of (unsorted) needles in sorted, on the backend, with the given strategy.
std::vector<int> run_batch_search(backend& be, const std::vector<int>& needles, const std::vector<int>& sorted,
                                  search_strategy strategy) {
  auto n = be.to_backend(needles), s = be.to_backend(sorted);
  auto out = be.make_array<int>(needles.size());
  be.run([&](auto& ctx) {
    mergepath::batch_search(ctx, n.data(), count_of(needles), s.data(), count_of(sorted), out.data(),
                            mergepath::less<>{}, strategy);
  });
  return be.to_host(out);
}

#if MERGEPATH_HAS_CUDA
// A kernel of our own that searches an eytzinger_index through its view, passed by value.
__global__ void view_lower_bound_kernel(mergepath::eytzinger_view<int> view, const int* needles, index_t count,
                                        int* out) {
  for (index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<index_t>(gridDim.x) * blockDim.x)
    out[i] = static_cast<int>(view.lower_bound(needles[i]));
}
#endif

// The example's searches: binary_search (<=) [1,3,5,7,9,11] for 0, 9 and 2 gives 0, 4 and 1.
void futhark_examples(backend& be, const std::vector<int>& xs) {
  std::printf("Sorted array xs:\n");
  print_array(xs, "%4d", 10);
  const std::vector<int> needles{0, 9, 2}, futhark_results{0, 4, 1};
  std::vector<int> got = run_binary_search(be, needles, xs);
  std::printf("\nbinary_search (the Futhark example's searches):\n");
  for (std::size_t i = 0; i < needles.size(); ++i)
    std::printf(
        "  binary_search [1,3,5,7,9,11] %d -> %d%s\n", needles[i], got[i],
        got[i] < count_of(xs) && xs[static_cast<std::size_t>(got[i])] != needles[i]
            ? format("   (xs[%d] = %d: %d is not in xs)", got[i], xs[static_cast<std::size_t>(got[i])], needles[i])
                  .c_str()
            : "");
  require(got == futhark_results,
          "binary_search of 0, 9, 2 in [1,3,5,7,9,11] gave " + join(got) + ", the Futhark example says 0 4 1");
}

// The layout of sorted, printed, checked against the sequential walk (and the example's formula when
// the tree is perfect). Returns the tree.
std::vector<int> layout_demo(backend& be, const std::vector<int>& sorted, const char* name) {
  std::vector<int> tree = run_layout(be, sorted);
  std::printf("\nEytzinger layout of %s (%zu keys; node k's children at 2k and 2k+1, from 1):\n", name, sorted.size());
  print_array(tree, "%4d", 10);
  require(tree == sequential_eytzinger(sorted),
          std::string("eytzinger_layout of ") + name + " differs from the sequential in-order layout");
  std::size_t n = sorted.size();
  if (n > 0 && (n & (n + 1)) == 0) {  // 2^h - 1 keys: the example's closed formula applies
    bool same = true;
    for (std::size_t i = 0; i < n; ++i)
      same = same && tree[i] == sorted[static_cast<std::size_t>(futhark_eytzinger_index(static_cast<std::int64_t>(n),
                                                                                        static_cast<std::int64_t>(i)))];
    std::printf("Same as the Futhark example's closed formula xs[eytzinger_index n i]: %s\n", same ? "yes" : "NO");
    require(same, std::string("eytzinger_layout of ") + name + " differs from the Futhark example's closed formula");
  }
  return tree;
}

// eytzinger_search on tree against binary_search on sorted (and std), lower and upper bounds,
// for every needle from one below the smallest key to one above the largest.
void search_both_ways(backend& be, const std::vector<int>& sorted, const std::vector<int>& tree, const char* name) {
  std::vector<int> needles;
  for (int x = sorted.front() - 1; x <= sorted.back() + 1; ++x) needles.push_back(x);
  std::printf("\nLower bounds in %s, needles %d..%d:\n", name, needles.front(), needles.back());
  print_line("needle", needles);
  bool all_same = true;
  for (bounds which : {bounds::lower, bounds::upper}) {
    std::vector<int> by_binary = run_binary_search(be, needles, sorted, which);
    std::vector<int> by_eytzinger = run_eytzinger_search(be, needles, tree, which);
    std::vector<int> want = std_bounds(needles, sorted, which);
    if (which == bounds::lower) {
      print_line("binary_search", by_binary);
      print_line("eytzinger_search", by_eytzinger);
    }
    require(by_binary == want, std::string("binary_search (") + (which == bounds::lower ? "lower" : "upper") + ") in " +
                                   name + " differs from std");
    require(by_eytzinger == want, std::string("eytzinger_search (") + (which == bounds::lower ? "lower" : "upper") +
                                      ") in " + name + " differs from std");
    all_same = all_same && by_binary == by_eytzinger;
  }
  std::printf("eytzinger_search == binary_search == std::lower_bound (and upper_bound): %s\n", all_same ? "yes" : "NO");
}

// batch_search: a few unsorted needles, both strategies; then a batch large enough for automatic
// to sort the needles first.
void batch_demo(backend& be, const std::vector<int>& xs) {
  const std::vector<int> needles{9, 0, 12, 4, 7, 2, 11, 5, 9, 1};
  std::printf("\nbatch_search of unsorted needles in xs:\n");
  print_line("needle", needles);
  std::vector<int> want = std_bounds(needles, xs, bounds::lower);
  for (search_strategy s : {search_strategy::per_needle, search_strategy::sort_then_search}) {
    std::vector<int> got = run_batch_search(be, needles, xs, s);
    print_line(mergepath::to_string(s), got);
    require(got == want, std::string("batch_search (") + mergepath::to_string(s) + ") differs from std::lower_bound");
  }
  std::printf("  (automatic picks %s for %zu needles in %zu keys)\n",
              mergepath::to_string(mergepath::search_strategy_for(be.gpu(), count_of(needles), count_of(xs))),
              needles.size(), xs.size());

  const int haystack_count = 1 << 20, needle_count = 1 << 20;
  std::vector<int> haystack = sorted_random(haystack_count, 0, 1 << 24, 41);
  std::vector<int> many = random_values(needle_count, -1, (1 << 24) + 1, 42);
  std::vector<int> got = run_batch_search(be, many, haystack, search_strategy::automatic);
  bool same = got == std_bounds(many, haystack, bounds::lower);
  std::printf("%d random needles in %d sorted keys, automatic (%s): same as std::lower_bound: %s\n", needle_count,
              haystack_count,
              mergepath::to_string(mergepath::search_strategy_for(be.gpu(), count_of(many), count_of(haystack))),
              same ? "yes" : "NO");
  require(same, "batch_search (automatic) of 2^20 needles differs from std::lower_bound");
}

// An eytzinger_index built once from the sorted keys, searched through view().lower_bound: on the
// host directly, on the GPU inside a kernel of our own; and through index.search.
void index_demo(backend& be, const std::vector<int>& sorted) {
  const std::vector<int> needles{-1, 0, 7, 7, 15, 3, 14, 100, 8};
  std::vector<int> want = std_bounds(needles, sorted, bounds::lower);
  std::vector<int> by_view, by_search;
#if MERGEPATH_HAS_CUDA
  if (be.gpu()) {
    mergepath::cuda_context& ctx = be.cuda();
    auto keys = be.to_backend(sorted), n = be.to_backend(needles);
    auto out = be.make_array<int>(needles.size()), out2 = be.make_array<int>(needles.size());
    mergepath::eytzinger_index<int> index(ctx, keys.data(), count_of(sorted));
    view_lower_bound_kernel<<<1, 64, 0, ctx.stream()>>>(index.view(), n.data(), count_of(needles), out.data());
    MERGEPATH_CUDA_CHECK(cudaGetLastError());
    index.search(ctx, n.data(), count_of(needles), out2.data());
    ctx.synchronize();
    by_view = be.to_host(out);
    by_search = be.to_host(out2);
    std::printf("\neytzinger_index of %zu keys on the GPU; view().lower_bound in a kernel of our own:\n",
                sorted.size());
  }
#endif
  if (!be.gpu()) {
    mergepath::eytzinger_index<int> index(be.host(), sorted.data(), count_of(sorted));
    auto view = index.view();
    for (int x : needles) by_view.push_back(static_cast<int>(view.lower_bound(x)));
    by_search.resize(needles.size());
    index.search(be.host(), needles.data(), count_of(needles), by_search.data());
    std::printf("\neytzinger_index of %zu keys on the host; view().lower_bound:\n", sorted.size());
  }
  print_line("needle", needles);
  print_line("view.lower_bound", by_view);
  print_line("index.search", by_search);
  bool same = by_view == want && by_search == want;
  std::printf("Same as std::lower_bound: %s\n", same ? "yes" : "NO");
  require(by_view == want, "eytzinger_index view().lower_bound differs from std::lower_bound");
  require(by_search == want, "eytzinger_index::search differs from std::lower_bound");
}

}  // namespace

void demo_binary_search(backend& be) {
  std::printf("\n\nBINARY SEARCH DEMONSTRATION:\n\n");
  const std::vector<int> xs{1, 3, 5, 7, 9, 11};
  futhark_examples(be, xs);

  std::vector<int> xs_tree = layout_demo(be, xs, "xs");
  std::vector<int> perfect(15);
  for (int i = 0; i < 15; ++i) perfect[static_cast<std::size_t>(i)] = i;
  std::vector<int> perfect_tree = layout_demo(be, perfect, "0..14");

  search_both_ways(be, xs, xs_tree, "xs");
  search_both_ways(be, perfect, perfect_tree, "0..14");

  // Every count from 1 to 64, and one large odd one: the layouts of incomplete trees.
  bool layouts_ok = true;
  for (int n = 1; n <= 64 && layouts_ok; ++n) {
    std::vector<int> sorted = sorted_random(n, 0, 40, static_cast<std::uint64_t>(n));
    std::vector<int> tree = run_layout(be, sorted);
    std::vector<int> needles = random_values(64, -1, 41, static_cast<std::uint64_t>(100 + n));
    layouts_ok = tree == sequential_eytzinger(sorted) &&
                 run_eytzinger_search(be, needles, tree) == std_bounds(needles, sorted, bounds::lower) &&
                 run_eytzinger_search(be, needles, tree, bounds::upper) == std_bounds(needles, sorted, bounds::upper);
    require(layouts_ok, "eytzinger_layout or eytzinger_search wrong at " + std::to_string(n) + " keys (with repeats)");
  }
  const int large = 1000003;
  std::vector<int> big = sorted_random(large, 0, 1 << 22, 43);
  std::vector<int> big_needles = random_values(1 << 16, -1, (1 << 22) + 1, 44);
  std::vector<int> big_tree = run_layout(be, big);
  bool big_ok = big_tree == sequential_eytzinger(big) &&
                run_eytzinger_search(be, big_needles, big_tree) == std_bounds(big_needles, big, bounds::lower) &&
                run_binary_search(be, big_needles, big) == std_bounds(big_needles, big, bounds::lower);
  std::printf("\nLayouts and searches of 1..64 keys (with repeats) and of %d keys: same as std: %s\n", large,
              big_ok ? "yes" : "NO");
  require(big_ok, "eytzinger_layout or a search of " + std::to_string(large) + " keys differs from std");

  batch_demo(be, xs);
  index_demo(be, perfect);
}

}  // namespace demo
