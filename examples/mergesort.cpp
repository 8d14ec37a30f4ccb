// Sorting with mergepath: a stable mergesort in place, of keys or of keys with values.
// docs/mergesort.md quotes this file; the tests build and run it (mergepath-example-mergesort).
#include <cstdio>
#include <mergepath/mergepath.hpp>
#include <vector>

// Returns true if got == expected, printing the outcome under `what`.
static bool report(const char* what, const std::vector<int>& got, const std::vector<int>& expected) {
  std::printf("%-22s", what);
  for (int x : got) std::printf(" %d", x);
  std::printf("%s\n", got == expected ? "" : "   <-- WRONG");
  return got == expected;
}

int main() {
  bool ok = true;
  mergepath::host_context cpu;  // or mergepath::cuda_context gpu, with device pointers

  std::vector<int> keys{5, 1, 4, 1, 3};
  mergepath::mergesort(cpu, keys.data(), keys.size());
  ok &= report("mergesort", keys, {1, 1, 3, 4, 5});
  mergepath::mergesort(cpu, keys.data(), keys.size(), mergepath::greater<>{});
  ok &= report("mergesort, greater", keys, {5, 4, 3, 1, 1});

  // Values move with their keys. Stable: of equal keys, the one that came first stays first.
  std::vector<int> k{2, 1, 2, 1}, v{0, 1, 2, 3};
  mergepath::mergesort_pairs(cpu, k.data(), v.data(), k.size());
  ok &= report("mergesort_pairs keys", k, {1, 1, 2, 2});
  ok &= report("mergesort_pairs values", v, {1, 3, 0, 2});

  // sort / sort_pairs: the same result by the fastest method (on a GPU, CUB's radix sort for
  // arithmetic keys under less<> / greater<>; the merge sort otherwise).
  std::vector<int> s{3, 1, 2};
  mergepath::sort(cpu, s.data(), s.size());
  ok &= report("sort", s, {1, 2, 3});
  return ok ? 0 : 1;
}
