// MERGESORT DEMONSTRATION: sort random keys, show that mergesort_pairs is stable, and sort an
// array large enough to take the GPU's every pass (blocksort, then merge passes).
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "demo.hpp"

namespace demo {
namespace {

void require(bool ok, const std::string& what) {
  if (!ok) throw std::runtime_error("mergesort demonstration: " + what);
}

}  // namespace

void demo_mergesort(backend& be) {
  std::printf("\n\nMERGESORT DEMONSTRATION:\n\n");

  std::vector<int> input = random_values(100, 0, 99, 5);
  std::printf("Input array:\n");
  print_array(input, "%4d", 10);

  auto keys = be.to_backend(input);
  be.run([&](auto& ctx) { mergepath::mergesort(ctx, keys.data(), static_cast<std::int64_t>(input.size())); });
  std::vector<int> sorted = be.to_host(keys);
  std::printf("\nSorted array:\n");
  print_array(sorted, "%4d", 10);
  std::vector<int> want = input;
  std::stable_sort(want.begin(), want.end());
  std::printf("\nSame as std::stable_sort: %s\n", sorted == want ? "yes" : "NO");
  require(sorted == want, "mergesort differs from std::stable_sort");

  // Stability: every key carries its input position; equal keys must keep them in order.
  std::printf("\nStable mergesort_pairs: each key carries its input position.\n");
  std::vector<int> positions(input.size());
  std::iota(positions.begin(), positions.end(), 0);
  auto pair_keys = be.to_backend(input);
  auto pair_vals = be.to_backend(positions);
  be.run([&](auto& ctx) {
    mergepath::mergesort_pairs(ctx, pair_keys.data(), pair_vals.data(), static_cast<std::int64_t>(input.size()));
  });
  std::vector<int> k = be.to_host(pair_keys), v = be.to_host(pair_vals);
  bool stable = k == want;
  for (std::size_t i = 0; i < k.size(); ++i) stable = stable && input.at(static_cast<std::size_t>(v[i])) == k[i];
  for (std::size_t i = 1; i < k.size(); ++i) stable = stable && (k[i] != k[i - 1] || v[i] > v[i - 1]);
  std::printf("Keys that occur three times or more, with their input positions in sorted order:\n");
  int shown = 0;
  for (std::size_t i = 0; i < k.size() && shown < 5;) {
    std::size_t j = i;
    while (j < k.size() && k[j] == k[i]) ++j;
    if (j - i >= 3) {
      std::string line = format("  key %3d:", k[i]);
      for (std::size_t x = i; x < j; ++x) line += format(" [%d]", v[x]);
      std::printf("%s\n", line.c_str());
      ++shown;
    }
    i = j;
  }
  std::printf("Stable (equal keys keep their input order): %s\n", stable ? "yes" : "NO");
  require(stable, "mergesort_pairs is not stable");

  // Large enough for many blocksort tiles and merge passes on the GPU, and every CPU thread.
  constexpr int large = 3000017;
  std::vector<int> big = random_values(large, 0, 1 << 20, 6);
  auto big_keys = be.to_backend(big);
  be.run([&](auto& ctx) { mergepath::mergesort(ctx, big_keys.data(), static_cast<std::int64_t>(large)); });
  std::stable_sort(big.begin(), big.end());
  bool agree = be.to_host(big_keys) == big;
  std::printf("\n%d random keys: same as std::stable_sort: %s\n", large, agree ? "yes" : "NO");
  require(agree, "mergesort differs from std::stable_sort on the large array");
}

}  // namespace demo
