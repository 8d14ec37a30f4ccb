// MERGE DEMONSTRATION: merge two sorted arrays, show that merge_pairs is stable, and (GPU only)
// that the textbook ladder of kernels gives the same result.
#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "demo.hpp"

namespace demo {
namespace {

void require(bool ok, const std::string& what) {
  if (!ok) throw std::runtime_error("merge demonstration: " + what);
}

// Values that record where each key came from: a[i] -> i, b[j] -> origin_b + j.
constexpr int origin_b = 1000;
std::string origin_name(int v) { return v < origin_b ? format("a[%d]", v) : format("b[%d]", v - origin_b); }

void show_stable_pairs(backend& be, const std::vector<int>& a, const std::vector<int>& b) {
  std::printf("\nStable merge_pairs: each key carries where it came from (a[i] or b[j]).\n");
  std::printf("Keys found in both A and B, with their origins in merged order:\n");
  std::vector<int> a_vals(a.size()), b_vals(b.size());
  for (std::size_t i = 0; i < a.size(); ++i) a_vals[i] = static_cast<int>(i);
  for (std::size_t j = 0; j < b.size(); ++j) b_vals[j] = origin_b + static_cast<int>(j);

  auto dak = be.to_backend(a), dav = be.to_backend(a_vals);
  auto dbk = be.to_backend(b), dbv = be.to_backend(b_vals);
  std::size_t total = a.size() + b.size();
  auto keys = be.make_array<int>(total);
  auto vals = be.make_array<int>(total);
  be.run([&](auto& ctx) {
    mergepath::merge_pairs(ctx, dak.data(), dav.data(), static_cast<std::int64_t>(a.size()), dbk.data(), dbv.data(),
                           static_cast<std::int64_t>(b.size()), keys.data(), vals.data());
  });
  std::vector<int> k = be.to_host(keys), v = be.to_host(vals);

  // Stable: equal keys keep A before B and each input's own order, so their origins increase.
  bool stable = true;
  for (std::size_t i = 1; i < total; ++i)
    if (k[i] == k[i - 1] && v[i] <= v[i - 1]) stable = false;
  bool keys_right = std::is_sorted(k.begin(), k.end());
  for (std::size_t i = 0; i < total; ++i) {
    int origin = v[i];
    int key =
        origin < origin_b ? a.at(static_cast<std::size_t>(origin)) : b.at(static_cast<std::size_t>(origin - origin_b));
    keys_right = keys_right && key == k[i];
  }

  int shown = 0;
  for (std::size_t i = 0; i < total && shown < 6;) {
    std::size_t j = i;
    bool from_a = false, from_b = false;
    for (; j < total && k[j] == k[i]; ++j) (v[j] < origin_b ? from_a : from_b) = true;
    if (from_a && from_b) {
      std::string line = format("  key %3d:", k[i]);
      for (std::size_t x = i; x < j; ++x) line += " " + origin_name(v[x]);
      std::printf("%s\n", line.c_str());
      ++shown;
    }
    i = j;
  }
  std::printf("Stable (of equal keys, A's first, each input in its own order): %s\n", stable ? "yes" : "NO");
  require(keys_right, "merge_pairs moved a value away from its key");
  require(stable, "merge_pairs is not stable");
}

#if MERGEPATH_HAS_CUDA
// The three textbook kernels against mergepath::merge, on the demo's arrays and on arrays large
// enough to span many tiles and sections.
void show_textbook_ladder(backend& be, const std::vector<int>& a, const std::vector<int>& b) {
  std::vector<std::pair<std::vector<int>, std::vector<int>>> inputs{
      {a, b}, {sorted_random(1000003, 0, 299999, 3), sorted_random(777777, 0, 299999, 4)}};
  bool agree = true;
  for (const auto& [x, y] : inputs) {
    auto dx = be.to_backend(x), dy = be.to_backend(y);
    auto out = be.make_array<int>(x.size() + y.size());
    auto nx = static_cast<std::int64_t>(x.size()), ny = static_cast<std::int64_t>(y.size());
    mergepath::cuda_context& ctx = be.cuda();
    mergepath::merge(ctx, dx.data(), nx, dy.data(), ny, out.data());
    std::vector<int> want = be.to_host(out);
    for (int step = 0; step < 3; ++step) {
      MERGEPATH_CUDA_CHECK(cudaMemsetAsync(out.data(), 0xff, out.size() * sizeof(int), ctx.stream()));
      if (step == 0) mergepath::textbook::merge_basic(ctx, dx.data(), nx, dy.data(), ny, out.data());
      if (step == 1) mergepath::textbook::merge_tiled(ctx, dx.data(), nx, dy.data(), ny, out.data());
      if (step == 2) mergepath::textbook::merge_circular(ctx, dx.data(), nx, dy.data(), ny, out.data());
      agree = agree && be.to_host(out) == want;
    }
  }
  std::printf("\nTextbook ladder (merge_basic, merge_tiled, merge_circular vs merge; 200 and 1777780 keys)\n");
  std::printf("textbook ladder agrees: %s\n", agree ? "yes" : "NO");
  require(agree, "the textbook ladder disagrees with merge");
}
#endif

}  // namespace

void demo_merge(backend& be) {
  std::printf("\n\nMERGE DEMONSTRATION:\n\n");

  // Two sorted arrays of 100 random keys in 0..299, from fixed seeds: the same on every run.
  std::vector<int> a = sorted_random(100, 0, 299, 1);
  std::vector<int> b = sorted_random(100, 0, 299, 2);
  std::printf("A array:\n");
  print_array(a, "%4d", 10);
  std::printf("\nB array:\n");
  print_array(b, "%4d", 10);

  auto da = be.to_backend(a), db = be.to_backend(b);
  auto merged = be.make_array<int>(a.size() + b.size());
  be.run([&](auto& ctx) {
    mergepath::merge(ctx, da.data(), static_cast<std::int64_t>(a.size()), db.data(),
                     static_cast<std::int64_t>(b.size()), merged.data());
  });
  std::vector<int> c = be.to_host(merged);
  std::printf("\nMerged array:\n");
  print_array(c, "%4d", 10);

  std::vector<int> want(a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), want.begin());
  std::printf("\nSame as std::merge: %s\n", c == want ? "yes" : "NO");
  require(c == want, "merge differs from std::merge");

  show_stable_pairs(be, a, b);

#if MERGEPATH_HAS_CUDA
  if (be.gpu()) show_textbook_ladder(be, a, b);
#endif
}

}  // namespace demo
