// Shared by the segmented sort and locality sort tests (host and GPU, plain C++): segment shapes
// that produce head indices for a count, the head bitfield, malformed heads, the per-segment
// std::stable_sort oracle, and the keys of a locality sort.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "sort_util.hpp"
#include "test_util.hpp"

namespace mergepath_test {

// ---------------------------------------------------------------------------------------------
// Segment shapes: how a count of keys is cut into segments. Heads come out well formed (sorted,
// strictly increasing, in [0, count)); where the shape allows, a coin decides whether the head at
// 0 (which may be omitted) is listed.

enum class segment_shape {
  all_length_one,            // every key its own segment
  one_segment_no_heads,      // num_heads == 0: the whole array is one segment
  one_segment_head_at_zero,  // heads == {0}: the same, spelled out
  uniform_lengths,           // lengths uniform in [1, 2 mean - 1] (the last one clipped to count)
  power_law,                 // P(length >= x) ~ x^-1.1: mostly tiny, a few very long
  one_huge,                  // lengths 1 to 3, but one segment of count / 2 somewhere in the first half
  tile_edges,                // heads at, and one either side of, the multiples of given tile sizes
};

struct segment_spec {
  segment_shape shape;
  index_t mean = 0;            // uniform_lengths
  std::vector<index_t> tiles;  // tile_edges

  std::string name() const {
    static const char* const names[] = {"segments of length 1",      "one segment (no heads)",
                                        "one segment (heads {0})",   "segment lengths of mean ",
                                        "power-law segment lengths", "one huge segment among tiny ones",
                                        "heads around multiples of"};  // the enum's order
    std::ostringstream os;
    os << names[static_cast<int>(shape)];
    if (shape == segment_shape::uniform_lengths) os << mean;
    for (index_t t : tiles) os << ' ' << t;
    return os.str();
  }
};

inline segment_spec segments_of(segment_shape shape) { return {shape, 0, {}}; }
inline segment_spec uniform_segments(index_t mean) { return {segment_shape::uniform_lengths, mean, {}}; }
inline segment_spec tile_edge_segments(std::vector<index_t> tiles) {
  return {segment_shape::tile_edges, 0, std::move(tiles)};
}

// The mean segment lengths moderngpu's Segmented Sort and Locality Sort page measures.
inline const std::vector<index_t>& moderngpu_segment_means() {
  static const std::vector<index_t> means{2, 20, 300, 10000, 1000000};
  return means;
}

// Every shape: those means, and one tile_edges shape per tile size given (each its own, so a
// small tile's heads do not hide a large tile's long segments).
inline std::vector<segment_spec> segment_specs(const std::vector<index_t>& tile_sizes) {
  std::vector<segment_spec> specs{segments_of(segment_shape::all_length_one),
                                  segments_of(segment_shape::one_segment_no_heads),
                                  segments_of(segment_shape::one_segment_head_at_zero)};
  for (index_t mean : moderngpu_segment_means()) specs.push_back(uniform_segments(mean));
  specs.push_back(segments_of(segment_shape::power_law));
  specs.push_back(segments_of(segment_shape::one_huge));
  for (index_t tile : tile_sizes) specs.push_back(tile_edge_segments({tile}));
  return specs;
}

// Heads of the segments with these lengths, laid end to end from 0 (lengths past count are
// clipped); the head at 0 is listed when with_zero.
inline std::vector<index_t> heads_from_lengths(const std::vector<index_t>& lengths, index_t count, bool with_zero) {
  std::vector<index_t> heads;
  index_t at = 0;
  for (index_t length : lengths) {
    if (at >= count) break;
    if (at > 0 || with_zero) heads.push_back(at);
    at += length;
  }
  return heads;
}

// Well-formed heads of shape `spec` for count keys.
inline std::vector<index_t> make_heads(const segment_spec& spec, index_t count, std::mt19937_64& rng) {
  if (count == 0) return {};  // no index is in [0, 0): even {0} would be malformed
  const bool with_zero = rng() % 2 == 0;
  std::vector<index_t> lengths;
  switch (spec.shape) {
    case segment_shape::all_length_one:
      lengths.assign(static_cast<std::size_t>(count), 1);
      break;
    case segment_shape::one_segment_no_heads:
      return {};
    case segment_shape::one_segment_head_at_zero:
      return {0};
    case segment_shape::uniform_lengths: {
      std::uniform_int_distribution<index_t> length(1, 2 * spec.mean - 1);
      for (index_t sum = 0; sum < count; sum += lengths.back()) lengths.push_back(length(rng));
      break;
    }
    case segment_shape::power_law: {
      std::uniform_real_distribution<double> u(0.0, 1.0);
      for (index_t sum = 0; sum < count; sum += lengths.back()) {
        double x = std::floor(std::pow(1.0 - u(rng), -1.0 / 1.1));  // 1 - u is in (0, 1]: x >= 1
        lengths.push_back(x >= static_cast<double>(count) ? count : std::max<index_t>(1, static_cast<index_t>(x)));
      }
      break;
    }
    case segment_shape::one_huge: {
      std::uniform_int_distribution<index_t> tiny(1, 3);
      const index_t huge_at = std::uniform_int_distribution<index_t>(0, count / 2)(rng);
      bool huge_done = false;
      for (index_t sum = 0; sum < count; sum += lengths.back()) {
        if (!huge_done && sum >= huge_at) {
          lengths.push_back(std::max<index_t>(1, count / 2));
          huge_done = true;
        } else {
          lengths.push_back(tiny(rng));
        }
      }
      break;
    }
    case segment_shape::tile_edges: {
      // At each multiple m of a tile, one of: no head, m, m - 1, m + 1, m -+ 1, m - 1 .. m + 1.
      static const std::vector<std::vector<int>> patterns{{}, {0}, {-1}, {1}, {-1, 1}, {-1, 0, 1}};
      std::vector<index_t> heads;
      if (with_zero) heads.push_back(0);
      for (index_t tile : spec.tiles)
        for (index_t m = tile; m - 1 < count; m += tile)
          for (int offset : patterns[rng() % patterns.size()])
            if (m + offset > 0 && m + offset < count) heads.push_back(m + offset);
      std::sort(heads.begin(), heads.end());
      heads.erase(std::unique(heads.begin(), heads.end()), heads.end());
      return heads;
    }
  }
  return heads_from_lengths(lengths, count, with_zero);
}

// Heads as another integer type (the API takes any integer iterator).
template <class Int>
std::vector<Int> heads_as(const std::vector<index_t>& heads) {
  return std::vector<Int>(heads.begin(), heads.end());
}

// The bitfield form: bit i % 32 of word i / 32 marks a head; (count + 31) / 32 words. Indices out
// of [0, count) are dropped: the same segments the library makes of them.
inline std::vector<std::uint32_t> head_flags(const std::vector<index_t>& heads, index_t count) {
  std::vector<std::uint32_t> flags(static_cast<std::size_t>((count + 31) / 32), 0u);
  for (index_t h : heads)
    if (h >= 0 && h < count) flags[static_cast<std::size_t>(h / 32)] |= 1u << (h % 32);
  return flags;
}

// ---------------------------------------------------------------------------------------------
// Malformed heads. The library's semantics: the segments are those of the SET of in-range
// indices given (plus 0, which always starts a segment); checked mode throws, naming the first
// index that is out of range or not greater than the one before.

enum class malformation { negative, too_large, unordered, repeated, all_of_them };

inline const char* to_string(malformation m) {
  static const char* const names[] = {"negative heads", "heads >= count", "unordered heads", "repeated heads",
                                      "negative, too large, unordered and repeated heads"};  // the enum's order
  return names[static_cast<int>(m)];
}

inline const std::vector<malformation>& all_malformations() {
  static const std::vector<malformation> all{malformation::negative, malformation::too_large, malformation::unordered,
                                             malformation::repeated, malformation::all_of_them};
  return all;
}

// Well-formed heads made malformed; every value stays within int32, so heads_as<int> keeps them.
// Needs at least two heads for unordered.
inline std::vector<index_t> malform_heads(std::vector<index_t> heads, index_t count, malformation m,
                                          std::mt19937_64& rng) {
  auto insert_at_random = [&](index_t value) {
    std::size_t at = static_cast<std::size_t>(rng() % (heads.size() + 1));
    heads.insert(heads.begin() + static_cast<std::ptrdiff_t>(at), value);
  };
  const index_t int32_max = std::numeric_limits<std::int32_t>::max();
  if (m == malformation::negative || m == malformation::all_of_them) {
    insert_at_random(-1);
    insert_at_random(-count);
    heads.insert(heads.begin(), -7);  // the first index bad: nothing before it to compare with
  }
  if (m == malformation::too_large || m == malformation::all_of_them) {
    insert_at_random(count);
    insert_at_random(count + 5);
    heads.push_back(int32_max);
  }
  if (m == malformation::unordered || m == malformation::all_of_them) {
    std::shuffle(heads.begin(), heads.end(), rng);
    if (std::is_sorted(heads.begin(), heads.end()) && heads.size() >= 2) std::swap(heads.front(), heads.back());
  }
  if (m == malformation::repeated || m == malformation::all_of_them) {
    for (int k = 0; k < 3 && !heads.empty(); ++k) {  // next to itself, and far from itself
      std::size_t at = static_cast<std::size_t>(rng() % heads.size());
      const index_t again = heads[at];
      heads.insert(heads.begin() + static_cast<std::ptrdiff_t>(at), again);
      insert_at_random(heads[static_cast<std::size_t>(rng() % heads.size())]);
    }
  }
  return heads;
}

// The position of the first head out of [0, count) or not greater than its predecessor (what
// checked mode names), or -1 when the heads are well formed.
inline index_t first_bad_head(const std::vector<index_t>& heads, index_t count) {
  for (std::size_t i = 0; i < heads.size(); ++i)
    if (heads[i] < 0 || heads[i] >= count || (i > 0 && heads[i] <= heads[i - 1])) return static_cast<index_t>(i);
  return -1;
}

// ---------------------------------------------------------------------------------------------
// Oracles

// Where the segments start: 0 and the set of in-range heads, sorted (empty when count is 0).
inline std::vector<index_t> segment_starts(const std::vector<index_t>& heads, index_t count) {
  std::vector<index_t> starts;
  if (count == 0) return starts;
  starts.push_back(0);
  for (index_t h : heads)
    if (h > 0 && h < count) starts.push_back(h);
  std::sort(starts.begin(), starts.end());
  starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
  return starts;
}

// Each segment of v (as heads cut v) stably sorted by comp.
template <class T, class Comp>
void stable_sort_segments(std::vector<T>& v, const std::vector<index_t>& heads, Comp comp) {
  const index_t count = static_cast<index_t>(v.size());
  std::vector<index_t> starts = segment_starts(heads, count);
  starts.push_back(count);
  for (std::size_t s = 0; s + 1 < starts.size(); ++s)
    std::stable_sort(v.begin() + starts[s], v.begin() + starts[s + 1], comp);
}

// Per-segment std::stable_sort: the expected output of segmented_sort.
template <class Key, class Comp>
std::vector<Key> std_segmented_sort(std::vector<Key> keys, const std::vector<index_t>& heads, Comp comp) {
  stable_sort_segments(keys, heads, comp);
  return keys;
}

// The expected output of segmented_sort_pairs when value i = i: each key sorted with its origin.
template <class Key, class Value, class Comp>
std::pair<std::vector<Key>, std::vector<Value>> std_segmented_sort_pairs(const std::vector<Key>& keys,
                                                                         const std::vector<index_t>& heads, Comp comp) {
  std::vector<std::pair<Key, Value>> rows(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) rows[i] = {keys[i], static_cast<Value>(i)};
  stable_sort_segments(rows, heads, [&](const auto& l, const auto& r) { return comp(l.first, r.first); });
  std::pair<std::vector<Key>, std::vector<Value>> sorted;
  for (const auto& [key, origin] : rows) {
    sorted.first.push_back(key);
    sorted.second.push_back(origin);
  }
  return sorted;
}

// ---------------------------------------------------------------------------------------------
// Cases

// One segmented sort problem: how many keys, how they look, how they are cut into segments.
struct segsort_case {
  index_t count;
  distribution dist;
  segment_spec segments;
  std::uint64_t seed;

  std::string name() const {
    std::ostringstream os;
    os << "count " << count << ", " << to_string(dist) << ", " << segments.name()
       << " (MERGEPATH_TEST_SEED=" << base_seed() << ")";
    return os.str();
  }
  std::vector<index_t> heads() const {
    std::mt19937_64 rng(seed ^ 0x5e65e65e65e65e6ull);
    return make_heads(segments, count, rng);
  }
  template <class Key>
  std::vector<Key> keys() const {
    return make_sort_keys<Key>(sort_case{count, dist, seed});
  }
};

// Every size times every segment shape times every distribution given.
inline std::vector<segsort_case> segsort_cases(const std::vector<index_t>& sizes,
                                               const std::vector<segment_spec>& specs,
                                               const std::vector<distribution>& dists = all_distributions()) {
  ::testing::Test::RecordProperty("MERGEPATH_TEST_SEED", std::to_string(base_seed()));
  std::vector<segsort_case> cases;
  for (index_t n : sizes)
    for (std::size_t s = 0; s < specs.size(); ++s)
      for (distribution d : dists)
        cases.push_back({n, d, specs[s], case_seed({n, static_cast<int>(s), static_cast<int>(d), 30})});
  return cases;
}

// Every size with every segment shape, the key distributions taken in turn (over the sizes,
// each shape meets each distribution): a sixth of the full product, for the larger sizes.
inline std::vector<segsort_case> segsort_cases_in_turn(const std::vector<index_t>& sizes,
                                                       const std::vector<segment_spec>& specs) {
  ::testing::Test::RecordProperty("MERGEPATH_TEST_SEED", std::to_string(base_seed()));
  const std::vector<distribution>& dists = all_distributions();
  std::vector<segsort_case> cases;
  for (std::size_t i = 0; i < sizes.size(); ++i)
    for (std::size_t s = 0; s < specs.size(); ++s) {
      distribution d = dists[(i + s) % dists.size()];
      cases.push_back({sizes[i], d, specs[s], case_seed({sizes[i], static_cast<int>(s), static_cast<int>(d), 30})});
    }
  return cases;
}

// ---------------------------------------------------------------------------------------------
// Locality sort: keys near their sorted places.

// How keys start before a locality sort: a sort_util distribution, or key i = i + a random
// 0 .. noise (the locality sort demonstration of moderngpu's Segmented Sort and Locality Sort page
// uses noise 25).
struct locality_case {
  index_t count;
  distribution dist;  // used when noise == 0
  index_t noise;
  std::uint64_t seed;

  std::string name() const {
    std::ostringstream os;
    os << "count " << count << ", ";
    if (noise > 0)
      os << "i + rand(0.." << noise << ")";
    else
      os << to_string(dist);
    os << " (MERGEPATH_TEST_SEED=" << base_seed() << ")";
    return os.str();
  }
  template <class Key>
  std::vector<Key> keys() const {
    if (noise == 0) return make_sort_keys<Key>(sort_case{count, dist, seed});
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<index_t> jitter(0, noise);
    std::vector<Key> k(static_cast<std::size_t>(count));
    for (index_t i = 0; i < count; ++i) k[static_cast<std::size_t>(i)] = key_from<Key>(i + jitter(rng));
    return k;
  }
};

// Every size times: noise 25 (moderngpu's), 60 and 150 (the blocksort's odd-even rounds sort some
// tiles and give up on others, block::sort_near_sorted_tile_in_shared), noise 2000 (across many
// tiles), every distribution.
inline std::vector<locality_case> locality_cases(const std::vector<index_t>& sizes) {
  ::testing::Test::RecordProperty("MERGEPATH_TEST_SEED", std::to_string(base_seed()));
  std::vector<locality_case> cases;
  for (index_t n : sizes) {
    for (index_t noise : {25, 60, 150, 2000})
      cases.push_back({n, distribution::uniform, noise, case_seed({n, noise, 31})});
    for (distribution d : all_distributions()) cases.push_back({n, d, 0, case_seed({n, static_cast<int>(d), 32})});
  }
  return cases;
}

}  // namespace mergepath_test
