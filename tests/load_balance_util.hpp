// Shared by the load-balancing tests (host and GPU): named segment shapes, malformed starts, the
// sequential references, and a non-commutative associative op (composition of affine maps). The
// checks that run on either backend are in suites/load_balance.hpp.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "test_util.hpp"

namespace mergepath_test {

// How the items fall into segments.
enum class starts_shape {
  mean_1,            // lengths uniform in [0, 2]
  mean_4,            // [0, 8]
  mean_300,          // [0, 600]
  mean_10000,        // [0, 20000]
  all_length_1,      // count segments of one item
  giant_among_tiny,  // lengths 0..3, one segment holding half the items
  empty_runs,        // runs of empty segments at both ends and inside
  single,            // one segment holding everything
  first_holds_all,   // the first segment holds everything, a thousand empty ones follow
};

// The values 0, 1, ... of an enumeration, one for each of its names.
template <class Enum, std::size_t N>
std::vector<Enum> every_value(const char* const (&)[N]) {
  std::vector<Enum> all;
  for (std::size_t i = 0; i < N; ++i) all.push_back(static_cast<Enum>(i));
  return all;
}

// In the enumeration's order.
inline const char* const starts_shape_names[] = {"mean_1",     "mean_4",       "mean_300",
                                                  "mean_10000", "all_length_1", "giant_among_tiny",
                                                  "empty_runs", "single",       "first_holds_all"};
inline const char* to_string(starts_shape s) { return starts_shape_names[static_cast<int>(s)]; }
inline std::ostream& operator<<(std::ostream& os, starts_shape s) { return os << to_string(s); }
inline std::vector<starts_shape> all_starts_shapes() { return every_value<starts_shape>(starts_shape_names); }

// Segment starts (the exclusive scan of the sizes) for `count` items of the given shape; at least
// one segment.
template <class Start>
std::vector<Start> make_segment_starts(starts_shape shape, index_t count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<index_t> sizes;
  auto random_lengths = [&](index_t max_length) {
    std::uniform_int_distribution<index_t> length(0, max_length);
    for (index_t total = 0; total < count;) {
      index_t n = std::min(length(rng), count - total);
      sizes.push_back(n);
      total += n;
    }
  };
  switch (shape) {
    case starts_shape::mean_1: random_lengths(2); break;
    case starts_shape::mean_4: random_lengths(8); break;
    case starts_shape::mean_300: random_lengths(600); break;
    case starts_shape::mean_10000: random_lengths(20000); break;
    case starts_shape::all_length_1: sizes.assign(static_cast<std::size_t>(count), 1); break;
    case starts_shape::giant_among_tiny: {
      index_t half = count / 2, before = (count - half) / 2;
      std::uniform_int_distribution<index_t> length(0, 3);
      for (index_t total = 0; total < before;) sizes.push_back(std::min(length(rng), before - total)), total += sizes.back();
      sizes.push_back(half);
      for (index_t total = before + half; total < count;)
        sizes.push_back(std::min(length(rng), count - total)), total += sizes.back();
      break;
    }
    case starts_shape::empty_runs: {
      std::uniform_int_distribution<int> run(1, 40);
      std::uniform_int_distribution<index_t> length(1, 50);
      for (int e = run(rng); e > 0; --e) sizes.push_back(0);
      for (index_t total = 0; total < count;) {
        if (rng() % 3 == 0)
          for (int e = run(rng); e > 0; --e) sizes.push_back(0);
        sizes.push_back(std::min(length(rng), count - total));
        total += sizes.back();
      }
      for (int e = run(rng); e > 0; --e) sizes.push_back(0);
      break;
    }
    case starts_shape::single: sizes.push_back(count); break;
    case starts_shape::first_holds_all:
      sizes.push_back(count);
      sizes.resize(1001, 0);
      break;
  }
  if (sizes.empty()) sizes.push_back(0);
  std::vector<Start> starts(sizes.size());
  index_t start = 0;
  for (std::size_t s = 0; s < sizes.size(); ++s) starts[s] = static_cast<Start>(start), start += sizes[s];
  return starts;
}

// Malformed starts, as unchecked mode takes them.
enum class bad_starts {
  unordered,         // anywhere in [0, count]
  out_of_range,      // anywhere in [-count, 2 count]
  alternating,       // 0, count, 0, count, ...
  descending,        // count down to 0
  extremes,          // the type's min and max, -1, 0, count, count + 1, mixed
  all_min,           // every start the type's min
  all_max,           // every start the type's max
  first_above_zero,  // non-decreasing, but from count / 2 on
};

// In the enumeration's order.
inline const char* const bad_starts_names[] = {"unordered", "out_of_range", "alternating", "descending",
                                               "extremes",  "all_min",      "all_max",     "first_above_zero"};
inline const char* to_string(bad_starts b) { return bad_starts_names[static_cast<int>(b)]; }
inline std::ostream& operator<<(std::ostream& os, bad_starts b) { return os << to_string(b); }
inline std::vector<bad_starts> all_bad_starts() { return every_value<bad_starts>(bad_starts_names); }

// num_segments malformed starts for count items.
template <class Start>
std::vector<Start> make_bad_starts(bad_starts kind, index_t count, index_t num_segments, std::uint64_t seed) {
  using limits = std::numeric_limits<Start>;
  std::mt19937_64 rng(seed);
  auto in = [&](index_t lo, index_t hi) { return std::uniform_int_distribution<index_t>(lo, hi)(rng); };
  std::vector<Start> starts(static_cast<std::size_t>(num_segments));
  for (index_t s = 0; s < num_segments; ++s) {
    index_t v = 0;
    switch (kind) {
      case bad_starts::unordered: v = in(0, count); break;
      case bad_starts::out_of_range: v = in(-count, 2 * count); break;
      case bad_starts::alternating: v = s % 2 == 0 ? 0 : count; break;
      case bad_starts::descending: v = count - count * s / num_segments; break;
      case bad_starts::extremes: {
        const index_t pick[] = {static_cast<index_t>(limits::min()), static_cast<index_t>(limits::max()), -1, 0, count,
                                count + 1, in(0, count)};
        v = pick[in(0, 6)];
        break;
      }
      case bad_starts::all_min: v = static_cast<index_t>(limits::min()); break;
      case bad_starts::all_max: v = static_cast<index_t>(limits::max()); break;
      case bad_starts::first_above_zero: v = count / 2 + (count - count / 2) * s / num_segments; break;
    }
    starts[static_cast<std::size_t>(s)] = static_cast<Start>(v);
  }
  return starts;
}

// The sequential references.
template <class Start>
std::vector<index_t> reference_segments(index_t count, const std::vector<Start>& starts) {
  std::vector<index_t> segment(static_cast<std::size_t>(count));
  std::size_t s = 0;
  for (index_t i = 0; i < count; ++i) {
    while (s + 1 < starts.size() && static_cast<index_t>(starts[s + 1]) <= i) ++s;
    segment[static_cast<std::size_t>(i)] = static_cast<index_t>(s);
  }
  return segment;
}

template <class T, class Start, class ValueAt, class Op>
std::vector<T> reference_segmented_reduce(index_t count, const std::vector<Start>& starts, ValueAt value_at, T init,
                                          Op op) {
  std::vector<T> out(starts.size());
  for (std::size_t s = 0; s < starts.size(); ++s) {
    index_t end = s + 1 < starts.size() ? static_cast<index_t>(starts[s + 1]) : count;
    T acc = init;
    for (index_t i = static_cast<index_t>(starts[s]); i < end; ++i) acc = op(acc, static_cast<T>(value_at(i)));
    out[s] = acc;
  }
  return out;
}

// x -> a x + b over 32-bit unsigned arithmetic (exact): composing maps is associative, not
// commutative, so a reduction that combines items out of order shows.
struct affine_map {
  std::uint32_t a, b;
};
inline bool operator==(const affine_map& l, const affine_map& r) { return l.a == r.a && l.b == r.b; }
inline std::ostream& operator<<(std::ostream& os, const affine_map& m) { return os << '(' << m.a << "x+" << m.b << ')'; }

// first, then second.
struct compose_affine {
  MERGEPATH_HD affine_map operator()(const affine_map& first, const affine_map& second) const {
    return {first.a * second.a, second.a * first.b + second.b};
  }
};

inline std::vector<affine_map> random_affine_maps(index_t count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<affine_map> maps(static_cast<std::size_t>(count));
  for (auto& m : maps) m = {static_cast<std::uint32_t>(rng() | 1), static_cast<std::uint32_t>(rng())};
  return maps;
}

}  // namespace mergepath_test
