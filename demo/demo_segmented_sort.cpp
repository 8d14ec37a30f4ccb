// SEGMENTED SORT and LOCALITY SORT DEMONSTRATIONS.
//
// demo_segmented_sort: the four of moderngpu's Segmented Sort and Locality Sort page ("the page"
// below; docs/references.md), on the page's own arrays, printed the way the page prints them, so
// the output can be compared with the page's text line for line (the tests
// demo-segmented_sort-cpu and -gpu in demo/CMakeLists.txt do, against
// demo/expected/segmented_sort.txt).
//
// demo_segsort_stats: the page's verbose run (10M keys, segments of mean length 300) and its
// table of merge and copy tiles per pass. Not golden: on the CPU the table is empty, and on the
// GPU it depends on the tile shapes.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "demo.hpp"

namespace demo {
namespace {

// The page's inputs, as it prints them: GenRandom draws of keys in 0..99, and keys i + Rand(0, 25)
// for the locality sorts. Hardcoded because the page's generator is not ours; the outputs must
// then be the page's, exactly.
// clang-format off
const std::vector<int> moderngpu_segsort_keys{
     42,  39,   9,  77,  59,  97,  47,  74,  69,  63,
     69,   7,  63,  63,   3,  52,   6,  29,  31,  32,
     53,  63,  65,  99,  40,  51,  81,  72,  71,  24,
     96,  33,  53,  74,  32,  68,  10,  68,  61,   7,
     77,  45,  42,  69,   9,   6,  26,   6,  15,  52,
     28,  26,  44,  48,  52,  13,  45,   9,  87,  12,
     51,  96,  94,  75,  63,  26,  95,  72,  24,  41,
     67,  47,  28,   5,  67,  61,  69,  49,   6,  90,
     25,  93,  22,  91,  66,  30,  84,  79,  34,  22,
     78,  44,  67,  51,   0,  23,  60,  71,  38,  98,
};
const std::vector<int> moderngpu_segsort_pairs_keys{
     91,  65,   0,  27,  46,  46,  42,   0,  46,  44,
     77,  97,  32,  30,  78,  21,  47,  24,   3,  80,
     17,  48,  72,  40,  47,  21,  15,  54,  34,  72,
     60,  28,  19,  54,  73,  75,  24,  33,  91,  80,
     26,  85,  76,   1,  18,  88,  28,  59,   9,   8,
     57,  92,  68,  91,  54,  98,  42,  90,  64,  94,
     64,  93,  67,   0,  63,  77,  94,   2,  20,  58,
     70,  64,  23,  32,  11,  11,  60,  12,  45,  97,
     45,  53,  66,  66,  77,  70,  35,   6,  66,  20,
     41,  43,  84,   1,  83,   6,  25,  34,  61,  31,
};
const std::vector<int> moderngpu_locality_keys{
     15,  26,  16,   9,  26,  27,  12,  16,  16,  28,
     13,  32,  36,  18,  30,  40,  28,  35,  34,  44,
     34,  40,  38,  28,  38,  34,  44,  32,  41,  50,
     55,  55,  37,  52,  36,  57,  38,  48,  39,  47,
     50,  62,  53,  57,  53,  48,  65,  52,  64,  61,
     70,  61,  76,  72,  79,  64,  60,  77,  61,  84,
     78,  83,  64,  84,  77,  74,  79,  68,  90,  94,
     82,  92,  82,  95,  91,  76,  95,  77,  91,  94,
     89, 100,  85,  99,  99, 102,  92, 111,  89,  95,
    109, 114,  98,  96, 105, 103, 113, 119, 107, 105,
};
const std::vector<int> moderngpu_locality_pairs_keys{
     19,  22,  12,  17,  21,  29,  24,  20,  19,  26,
     10,  14,  20,  38,  25,  31,  23,  21,  23,  20,
     41,  33,  33,  43,  47,  37,  36,  49,  47,  45,
     40,  54,  53,  33,  53,  53,  45,  52,  43,  41,
     60,  66,  66,  48,  52,  53,  63,  64,  59,  73,
     71,  56,  71,  77,  58,  77,  78,  68,  83,  71,
     73,  75,  84,  84,  79,  68,  70,  83,  73,  94,
     80,  87,  91,  84,  95,  75,  96,  79,  86,  92,
     93, 101,  84, 102,  86,  89,  89,  93, 105, 100,
    102, 102,  96, 110, 106,  99,  99, 101,  99, 101,
};
// clang-format on

// 10 heads, 11 segments: the first segment starts at 0 without a head.
const std::vector<int> moderngpu_heads{4, 19, 22, 56, 61, 78, 81, 84, 94, 97};

void require(bool ok, const std::string& what) {
  if (!ok) throw std::runtime_error("segmented sort demonstration: " + what);
}

std::int64_t count_of(const std::vector<int>& v) { return static_cast<std::int64_t>(v.size()); }

std::vector<int> iota_values(std::size_t count) {
  std::vector<int> v(count);
  std::iota(v.begin(), v.end(), 0);
  return v;
}

// The page's FormatOpMarkArray(" %c%2d"): '*' before the first element of each segment that has
// a head, then the value.
void print_marked(const std::vector<int>& values, const std::vector<int>& heads) {
  print_array_op(values.size(), [&](std::size_t i) {
    bool head = std::binary_search(heads.begin(), heads.end(), static_cast<int>(i));
    return format(" %c%2d", head ? '*' : ' ', values[i]);
  });
}

// The oracle: the permutation that std::stable_sort applies within each segment [heads[j],
// heads[j + 1]) (a first segment from 0, a last one up to the end), as input positions.
std::vector<int> stable_order(const std::vector<int>& keys, const std::vector<int>& heads) {
  std::vector<int> order = iota_values(keys.size());
  std::vector<std::size_t> bounds{0};
  for (int h : heads) bounds.push_back(static_cast<std::size_t>(h));
  bounds.push_back(keys.size());
  for (std::size_t s = 0; s + 1 < bounds.size(); ++s)
    std::stable_sort(order.begin() + static_cast<std::ptrdiff_t>(bounds[s]),
                     order.begin() + static_cast<std::ptrdiff_t>(bounds[s + 1]), [&](int a, int b) {
                       return keys[static_cast<std::size_t>(a)] < keys[static_cast<std::size_t>(b)];
                     });
  return order;
}

std::vector<int> gather(const std::vector<int>& keys, const std::vector<int>& order) {
  std::vector<int> out;
  out.reserve(order.size());
  for (int i : order) out.push_back(keys[static_cast<std::size_t>(i)]);
  return out;
}

void segsort_keys_demo(backend& be) {
  std::printf("\n\nSEG-SORT KEYS DEMONSTRATION:\n\n");
  std::printf("Input keys:\n");
  print_array(moderngpu_segsort_keys, "%4d", 10);
  std::printf("\nSegment heads:\n");
  print_array(moderngpu_heads, "%4d", 10);

  auto keys = be.to_backend(moderngpu_segsort_keys);
  auto heads = be.to_backend(moderngpu_heads);
  be.run([&](auto& ctx) {
    mergepath::segmented_sort(ctx, keys.data(), count_of(moderngpu_segsort_keys), heads.data(),
                              count_of(moderngpu_heads));
  });
  std::vector<int> got = be.to_host(keys);
  std::printf("\nSorted data (segment heads are marked by *):\n");
  print_marked(got, moderngpu_heads);
  require(got == gather(moderngpu_segsort_keys, stable_order(moderngpu_segsort_keys, moderngpu_heads)),
          "segmented_sort differs from std::stable_sort per segment");
}

void segsort_pairs_demo(backend& be) {
  std::printf("\n\nSEG-SORT PAIRS DEMONSTRATION:\n\n");
  std::printf("Input keys:\n");
  print_array(moderngpu_segsort_pairs_keys, "%4d", 10);
  std::printf("\nSegment heads:\n");
  print_array(moderngpu_heads, "%4d", 10);

  auto keys = be.to_backend(moderngpu_segsort_pairs_keys);
  auto values = be.to_backend(iota_values(moderngpu_segsort_pairs_keys.size()));
  auto heads = be.to_backend(moderngpu_heads);
  be.run([&](auto& ctx) {
    mergepath::segmented_sort_pairs(ctx, keys.data(), values.data(), count_of(moderngpu_segsort_pairs_keys),
                                    heads.data(), count_of(moderngpu_heads));
  });
  std::vector<int> got_keys = be.to_host(keys), got_values = be.to_host(values);
  std::printf("\nSorted data (segment heads are marked by *):\n");
  print_marked(got_keys, moderngpu_heads);
  std::printf("\nSorted indices (segment heads are marked by *):\n");
  print_marked(got_values, moderngpu_heads);
  std::vector<int> order = stable_order(moderngpu_segsort_pairs_keys, moderngpu_heads);
  require(got_keys == gather(moderngpu_segsort_pairs_keys, order) && got_values == order,
          "segmented_sort_pairs differs from std::stable_sort per segment (keys or indices)");
}

void locality_keys_demo(backend& be) {
  std::printf("\n\nLOCALITY SORT KEYS DEMONSTRATION:\n\n");
  std::printf("Input keys:\n");
  print_array(moderngpu_locality_keys, "%4d", 10);

  auto keys = be.to_backend(moderngpu_locality_keys);
  be.run([&](auto& ctx) { mergepath::locality_sort(ctx, keys.data(), count_of(moderngpu_locality_keys)); });
  std::vector<int> got = be.to_host(keys);
  std::printf("\nSorted data:\n");
  print_array(got, "%4d", 10);
  require(got == gather(moderngpu_locality_keys, stable_order(moderngpu_locality_keys, {})),
          "locality_sort differs from std::stable_sort");
}

void locality_pairs_demo(backend& be) {
  std::printf("\n\nLOCALITY SORT PAIRS DEMONSTRATION:\n\n");
  std::printf("Input keys:\n");
  print_array(moderngpu_locality_pairs_keys, "%4d", 10);

  auto keys = be.to_backend(moderngpu_locality_pairs_keys);
  auto values = be.to_backend(iota_values(moderngpu_locality_pairs_keys.size()));
  be.run([&](auto& ctx) {
    mergepath::locality_sort_pairs(ctx, keys.data(), values.data(), count_of(moderngpu_locality_pairs_keys));
  });
  std::vector<int> got_keys = be.to_host(keys), got_values = be.to_host(values);
  std::printf("\nSorted data:\n");
  print_array(got_keys, "%4d", 10);
  std::printf("\nSorted indices:\n");
  print_array(got_values, "%4d", 10);
  std::vector<int> order = stable_order(moderngpu_locality_pairs_keys, {});
  require(got_keys == gather(moderngpu_locality_pairs_keys, order) && got_values == order,
          "locality_sort_pairs differs from std::stable_sort (keys or indices)");
}

// The page's verbose run: this many keys in segments of uniform random length 1 .. 2 * mean - 1.
constexpr int stats_keys = 10000000;
constexpr int stats_mean_segment = 300;

// Segment heads (the start of every segment but the first) for `count` keys in segments whose
// lengths are drawn uniformly from 1 .. 2 * mean - 1.
std::vector<int> random_segment_heads(int count, int mean, std::uint64_t seed) {
  // Twice the expected number of segments: the lengths drawn reach count with near certainty,
  // and the loop below draws more in the unlikely case they do not.
  std::vector<int> heads;
  int at = 0;
  for (std::uint64_t round = 0; at < count; ++round) {
    for (int length : random_values(2 * (count / mean) + 16, 1, 2 * mean - 1, seed + round)) {
      at += length;
      if (at >= count) break;
      heads.push_back(at);
    }
  }
  return heads;
}

}  // namespace

void demo_segmented_sort(backend& be) {
  segsort_keys_demo(be);
  segsort_pairs_demo(be);
  locality_keys_demo(be);
  locality_pairs_demo(be);
}

void demo_segsort_stats(backend& be) {
  std::printf("\n\nSEG-SORT STATS DEMONSTRATION:\n\n");
  std::vector<int> input = random_values(stats_keys, 0, (1 << 30) - 1, 31);
  std::vector<int> head_list = random_segment_heads(stats_keys, stats_mean_segment, 32);
  std::printf("%d random int32 keys in %zu segments of uniform random length 1..%d\n", stats_keys, head_list.size() + 1,
              2 * stats_mean_segment - 1);

  auto keys = be.to_backend(input);
  auto heads = be.to_backend(head_list);
  mergepath::segsort_stats stats;
  be.run([&](auto& ctx) {
    mergepath::segmented_sort(ctx, keys.data(), count_of(input), heads.data(), count_of(head_list), mergepath::less<>{},
                              &stats);
  });
  std::vector<int> got = be.to_host(keys);

  // The oracle: std::stable_sort of each segment.
  std::vector<int> want = input;
  std::size_t begin = 0;
  for (std::size_t s = 0; s <= head_list.size(); ++s) {
    std::size_t end = s < head_list.size() ? static_cast<std::size_t>(head_list[s]) : want.size();
    std::stable_sort(want.begin() + static_cast<std::ptrdiff_t>(begin),
                     want.begin() + static_cast<std::ptrdiff_t>(end));
    begin = end;
  }
  bool agree = got == want;
  std::printf("Same as std::stable_sort per segment: %s\n", agree ? "yes" : "NO");
  require(agree, "segmented_sort differs from std::stable_sort per segment on the large array");

  std::printf("\nMean segment length = %d\n", stats_mean_segment);
  if (stats.passes.empty()) {
    require(!be.gpu(), "the GPU sort returned no merge passes in its stats");
    std::printf("(no table: the CPU sorts segment by segment, with no merge passes, so its stats are empty)\n");
    return;
  }
  std::ostringstream table;
  table << stats;
  std::fputs(table.str().c_str(), stdout);
  for (const auto& p : stats.passes)
    require(p.merge_tiles >= 0 && p.copy_tiles >= 0 && p.merge_tiles + p.copy_tiles <= stats.tiles,
            "a pass of the stats counts more tiles than there are");
}

}  // namespace demo
