// segsort_stats: how much merging a segmented or locality sort did, pass by pass (the verbose table
// of moderngpu's Segmented Sort and Locality Sort). Filled by the sorts in segmented_sort.hpp when
// a pointer is passed.
#pragma once

#include <cstdint>
#include <cstdio>
#include <ostream>
#include <vector>

namespace mergepath {

struct segsort_stats {
  // One global merge pass: tiles that merged, and tiles that only copied their data to the other
  // buffer. The rest were already in place in both buffers and did nothing.
  struct pass {
    std::int64_t merge_tiles = 0, copy_tiles = 0;
  };
  std::int64_t tiles = 0;  // tiles per pass (percentages are of this)
  std::vector<pass> passes;

  std::int64_t total_merge_tiles() const {
    std::int64_t total = 0;
    for (const pass& p : passes) total += p.merge_tiles;
    return total;
  }
  std::int64_t total_copy_tiles() const {
    std::int64_t total = 0;
    for (const pass& p : passes) total += p.copy_tiles;
    return total;
  }
};

// Prints moderngpu's table: a row per pass, then the average and the total, each as tile counts
// and percentages of stats.tiles.
inline std::ostream& operator<<(std::ostream& os, const segsort_stats& stats) {
  auto percent = [&](double tiles) { return stats.tiles > 0 ? 100.0 * tiles / static_cast<double>(stats.tiles) : 0.0; };
  auto row = [&](const char* label, double merge, double copy) {
    char line[128];
    std::snprintf(line, sizeof line, "%s %9lld (%6.2f%%) %11lld (%6.2f%%)\n", label, static_cast<long long>(merge),
                  percent(merge), static_cast<long long>(copy), percent(copy));
    os << line;
  };
  os << "                Merge tiles            Copy tiles \n";
  for (std::size_t p = 0; p < stats.passes.size(); ++p) {
    char label[32];
    std::snprintf(label, sizeof label, "pass %2zu:", p);
    row(label, static_cast<double>(stats.passes[p].merge_tiles), static_cast<double>(stats.passes[p].copy_tiles));
  }
  double passes = stats.passes.empty() ? 1.0 : static_cast<double>(stats.passes.size());
  double merge = static_cast<double>(stats.total_merge_tiles()), copy = static_cast<double>(stats.total_copy_tiles());
  row("average:", merge / passes, copy / passes);
  row("total  :", merge, copy);
  return os;
}

}  // namespace mergepath
