// Binary search with mergepath: one search per needle in a sorted array, the same in an
// Eytzinger-ordered copy (faster for many random needles), batch_search (sorts the needles first
// when that pays), and an index built once for searches inside your own code. docs/binary_search.md
// quotes this file; the tests build and run it (mergepath-example-binary-search).
#include <cstdint>
#include <cstdio>
#include <mergepath/mergepath.hpp>
#include <vector>

// Returns true if got == expected, printing the outcome under `what`.
template <class T>
static bool report(const char* what, const std::vector<T>& got, const std::vector<T>& expected) {
  std::printf("%-20s", what);
  for (T x : got) std::printf(" %lld", static_cast<long long>(x));
  std::printf("%s\n", got == expected ? "" : "   <-- WRONG");
  return got == expected;
}

int main() {
  bool ok = true;
  mergepath::host_context cpu;  // or mergepath::cuda_context gpu, with device pointers
  const std::vector<int> keys{1, 3, 5, 7, 9, 11}, needles{0, 9, 2};
  std::vector<std::int64_t> out(needles.size());

  // out[i] = std::lower_bound(keys, needles[i]) - keys; the needles need not be sorted.
  mergepath::binary_search(cpu, needles.data(), needles.size(), keys.data(), keys.size(), out.data());
  ok &= report<std::int64_t>("binary_search", out, {0, 4, 1});

  // The same keys in Eytzinger (breadth-first tree) order, for any count; searching it still
  // returns indices into the sorted array.
  std::vector<int> tree(keys.size());
  mergepath::eytzinger_layout(cpu, keys.data(), keys.size(), tree.data());
  ok &= report<int>("eytzinger_layout", tree, {7, 3, 11, 1, 5, 9});
  mergepath::eytzinger_search(cpu, needles.data(), needles.size(), tree.data(), tree.size(), out.data());
  ok &= report<std::int64_t>("eytzinger_search", out, {0, 4, 1});

  // Many unsorted needles: sorts them and walks once (sorted_search) or searches one by one,
  // whichever is faster for these counts.
  mergepath::batch_search(cpu, needles.data(), needles.size(), keys.data(), keys.size(), out.data());
  ok &= report<std::int64_t>("batch_search", out, {0, 4, 1});

  // Built once, searched often; view() is trivially copyable and works inside your own kernels.
  mergepath::eytzinger_index<int> index(cpu, keys.data(), keys.size());
  ok &= report<std::int64_t>("index lower_bound(2)", {index.view().lower_bound(2)}, {1});
  return ok ? 0 : 1;
}
