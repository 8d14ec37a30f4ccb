// Segmented sort with mergepath: many independent sorts of the segments of one array, and
// locality sort for keys that start near their sorted places. docs/segmented_sort.md quotes this
// file; the tests build and run it (mergepath-example-segmented-sort).
#include <cstdint>
#include <cstdio>
#include <mergepath/mergepath.hpp>
#include <vector>

// Returns true if got == expected, printing the outcome under `what`.
static bool report(const char* what, const std::vector<int>& got, const std::vector<int>& expected) {
  std::printf("%-28s", what);
  for (int x : got) std::printf(" %d", x);
  std::printf("%s\n", got == expected ? "" : "   <-- WRONG");
  return got == expected;
}

int main() {
  bool ok = true;
  mergepath::host_context cpu;  // or mergepath::cuda_context gpu, with device pointers

  // Segments [0, 3), [3, 7), [7, 9): heads are the first index of every segment but the first,
  // sorted, each in [0, count). Keys never leave their segment.
  std::vector<int> keys{3, 1, 2, 9, 7, 8, 6, 5, 4};
  const std::vector<int> heads{3, 7};
  mergepath::segmented_sort(cpu, keys.data(), keys.size(), heads.data(), heads.size());
  ok &= report("segmented_sort", keys, {1, 2, 3, 6, 7, 8, 9, 4, 5});

  // With values, and stable: equal keys keep their order within a segment.
  std::vector<int> k{2, 1, 2, 1, 0}, v{0, 1, 2, 3, 4};
  const std::vector<int> pair_heads{4};
  mergepath::segmented_sort_pairs(cpu, k.data(), v.data(), k.size(), pair_heads.data(), pair_heads.size());
  ok &= report("segmented_sort_pairs keys", k, {1, 1, 2, 2, 0});
  ok &= report("segmented_sort_pairs values", v, {1, 3, 0, 2, 4});

  // Or the heads as a bitfield: bit i % 32 of flags[i / 32] marks element i as a head.
  keys = {3, 1, 2, 9, 7, 8, 6, 5, 4};
  const std::vector<std::uint32_t> flags{(1u << 3) | (1u << 7)};
  mergepath::segmented_sort_flags(cpu, keys.data(), keys.size(), flags.data());
  ok &= report("segmented_sort_flags", keys, {1, 2, 3, 6, 7, 8, 9, 4, 5});

  // A mergesort for keys that start near their sorted places (here i + a small offset).
  std::vector<int> near{1, 0, 3, 2, 4, 6, 5, 7};
  mergepath::locality_sort(cpu, near.data(), near.size());
  ok &= report("locality_sort", near, {0, 1, 2, 3, 4, 5, 6, 7});
  return ok ? 0 : 1;
}
