// SORTED SEARCH DEMONSTRATIONS: the two of moderngpu's Vectorized Sorted Search page ("the page"
// below; docs/references.md), on the page's own arrays, printed the way the page prints them, so
// the output can be compared with the page's text line for line (the
// tests demo-sorted_search-cpu and -gpu in demo/CMakeLists.txt do, against
// demo/expected/sorted_search.txt).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "demo.hpp"

namespace demo {
namespace {

// The page's inputs, as it prints them: SortRandom draws of sorted keys in 0..299. Hardcoded
// because the page's generator is not ours; the outputs must then be the page's, exactly.
// clang-format off
const std::vector<int> moderngpu_haystack{
      0,   5,   5,   7,   7,   7,   7,   8,   9,   9,
     10,  11,  12,  14,  15,  15,  16,  17,  19,  19,
     20,  24,  25,  28,  28,  29,  31,  33,  36,  36,
     37,  38,  40,  42,  42,  43,  45,  46,  49,  50,
     51,  51,  51,  52,  53,  55,  56,  57,  60,  60,
     61,  61,  62,  62,  64,  66,  68,  69,  73,  74,
     79,  81,  82,  84,  85,  88,  90,  90,  95,  97,
     99, 101, 105, 108, 108, 111, 115, 118, 118, 119,
    119, 119, 119, 122, 122, 123, 125, 126, 126, 130,
    133, 133, 135, 135, 139, 140, 143, 145, 145, 146,
    147, 149, 149, 149, 154, 158, 160, 161, 165, 166,
    168, 169, 170, 172, 172, 174, 174, 174, 175, 175,
    175, 177, 179, 182, 183, 184, 186, 187, 188, 190,
    192, 193, 194, 196, 198, 199, 199, 205, 205, 208,
    209, 215, 217, 218, 218, 218, 220, 220, 221, 221,
    223, 224, 225, 230, 234, 234, 235, 240, 240, 243,
    244, 249, 250, 251, 252, 253, 253, 254, 255, 255,
    255, 257, 258, 258, 259, 262, 263, 265, 267, 270,
    270, 274, 278, 278, 278, 279, 280, 281, 284, 284,
    284, 285, 285, 292, 294, 295, 296, 296, 296, 298,
};
const std::vector<int> moderngpu_needles{
      3,   3,  12,  16,  16,  17,  17,  19,  20,  21,
     24,  27,  27,  28,  30,  31,  35,  39,  40,  42,
     52,  52,  53,  53,  54,  55,  57,  58,  62,  63,
     72,  75,  83,  86,  86,  89,  92,  95,  98,  98,
     99,  99,  99, 100, 104, 105, 107, 109, 110, 111,
    112, 117, 118, 121, 124, 126, 129, 132, 133, 139,
    140, 148, 156, 160, 161, 167, 168, 173, 179, 186,
    191, 198, 202, 202, 212, 212, 214, 220, 223, 229,
    233, 239, 245, 254, 256, 256, 260, 268, 269, 269,
    271, 271, 272, 273, 277, 285, 296, 296, 299, 299,
};
const std::vector<int> moderngpu_a{
      0,   3,   5,  13,  14,  15,  16,  18,  18,  21,
     24,  26,  26,  30,  31,  32,  38,  38,  38,  40,
     60,  72,  72,  74,  81,  83,  86,  88,  88,  89,
     89,  99,  99, 101, 101, 102, 114, 115, 118, 118,
    119, 128, 136, 139, 145, 148, 149, 150, 151, 151,
    157, 160, 164, 165, 167, 177, 181, 181, 182, 182,
    189, 190, 191, 192, 196, 197, 199, 200, 207, 212,
    213, 213, 216, 218, 220, 222, 223, 228, 231, 233,
    233, 234, 234, 234, 239, 239, 240, 247, 249, 264,
    265, 267, 271, 271, 275, 277, 282, 284, 293, 298,
};
const std::vector<int> moderngpu_b{
      1,   2,  15,  23,  24,  25,  25,  25,  25,  27,
     27,  29,  30,  31,  33,  33,  35,  39,  45,  49,
     58,  59,  61,  61,  62,  63,  64,  67,  67,  68,
     70,  71,  82,  85,  87,  87,  88,  91,  98,  98,
    109, 110, 110, 116, 116, 118, 121, 121, 126, 129,
    129, 134, 145, 155, 159, 165, 174, 174, 179, 181,
    183, 186, 192, 192, 196, 196, 201, 202, 204, 205,
    205, 208, 209, 212, 216, 218, 220, 222, 224, 227,
    231, 233, 233, 234, 235, 236, 250, 251, 251, 253,
    260, 263, 272, 275, 276, 285, 289, 291, 291, 293,
};
// clang-format on

void require(bool ok, const std::string& what) {
  if (!ok) throw std::runtime_error("sorted search demonstration: " + what);
}

std::int64_t count_of(const std::vector<int>& v) { return static_cast<std::int64_t>(v.size()); }

// search::index_match with int outputs: the most significant bit flags a match.
constexpr unsigned match_bit = 0x80000000u;

// The page's FormatOpMaskBit("%c%3d"): '*' for a match, then the bound.
std::string bound_with_match_mark(int v) {
  auto bits = static_cast<unsigned>(v);
  return format("%c%3d", (bits & match_bit) ? '*' : ' ', static_cast<int>(bits & ~match_bit));
}

// The oracle: for each key, std::lower_bound (or upper_bound) in `sorted`, and, with
// `flag_matches`, the match bit where `sorted` holds an equal key.
std::vector<int> expected_bounds(const std::vector<int>& keys, const std::vector<int>& sorted, mergepath::bounds which,
                                 bool flag_matches) {
  std::vector<int> out;
  for (int key : keys) {
    bool lower = which == mergepath::bounds::lower;
    auto at = lower ? std::lower_bound(sorted.begin(), sorted.end(), key)
                    : std::upper_bound(sorted.begin(), sorted.end(), key);
    // The one element that can equal key: the bound's own (lower) or the one before it (upper).
    bool match = lower ? at != sorted.end() && *at == key : at != sorted.begin() && *(at - 1) == key;
    auto bound = static_cast<unsigned>(at - sorted.begin());
    out.push_back(static_cast<int>(flag_matches && match ? bound | match_bit : bound));
  }
  return out;
}

std::int64_t matches_in(const std::vector<int>& outputs) {
  return std::count_if(outputs.begin(), outputs.end(), [](int v) { return static_cast<unsigned>(v) & match_bit; });
}

// The page's first demonstration: the lower bound of each needle in the haystack.
void lower_bounds_demo(backend& be) {
  std::printf("\n\nSORTED SEARCH DEMONSTRATION:\n\n");
  std::printf("Haystack array:\n");
  print_array(moderngpu_haystack, "%4d", 10);
  std::printf("\nNeedles array:\n");
  print_array(moderngpu_needles, "%4d", 10);

  auto haystack = be.to_backend(moderngpu_haystack), needles = be.to_backend(moderngpu_needles);
  auto lower = be.make_array<int>(moderngpu_needles.size());
  be.run([&](auto& ctx) {
    mergepath::sorted_search<mergepath::bounds::lower>(ctx, needles.data(), count_of(moderngpu_needles),
                                                       haystack.data(), count_of(moderngpu_haystack), lower.data());
  });
  std::vector<int> got = be.to_host(lower);
  std::printf("\nLower bound array:\n");
  print_array(got, "%4d", 10);
  require(got == expected_bounds(moderngpu_needles, moderngpu_haystack, mergepath::bounds::lower, false),
          "lower bounds differ from std::lower_bound");
}

// The page's second demonstration: the complete search, both directions at once with match flags.
void complete_search_demo(backend& be) {
  std::printf("\n\nSORTED SEARCH DEMONSTRATION (2):\n\n");
  std::printf("A array:\n");
  print_array(moderngpu_a, "%4d", 10);
  std::printf("\nB array:\n");
  print_array(moderngpu_b, "%4d", 10);

  auto a = be.to_backend(moderngpu_a), b = be.to_backend(moderngpu_b);
  auto a_out = be.make_array<int>(moderngpu_a.size()), b_out = be.make_array<int>(moderngpu_b.size());
  mergepath::match_counts matches;
  be.run([&](auto& ctx) {
    using mergepath::search;
    matches = mergepath::sorted_search<mergepath::bounds::lower, search::index_match, search::index_match>(
        ctx, a.data(), count_of(moderngpu_a), b.data(), count_of(moderngpu_b), a_out.data(), b_out.data());
  });
  std::vector<int> a_got = be.to_host(a_out), b_got = be.to_host(b_out);
  auto cell = [](const std::vector<int>& v) { return [&v](std::size_t i) { return bound_with_match_mark(v[i]); }; };
  std::printf("\nLower bound of A into B (* for match):\n");
  print_array_op(a_got.size(), cell(a_got), 10);
  std::printf("\nUpper bound of B into A (* for match):\n");
  print_array_op(b_got.size(), cell(b_got), 10);

  std::vector<int> a_want = expected_bounds(moderngpu_a, moderngpu_b, mergepath::bounds::lower, true);
  std::vector<int> b_want = expected_bounds(moderngpu_b, moderngpu_a, mergepath::bounds::upper, true);
  require(a_got == a_want, "lower bounds of A into B differ from std::lower_bound (or a match flag is wrong)");
  require(b_got == b_want, "upper bounds of B into A differ from std::upper_bound (or a match flag is wrong)");
  require(matches.a == matches_in(a_want) && matches.b == matches_in(b_want),
          "the match counts returned differ from the flags' counts");
}

}  // namespace

void demo_sorted_search(backend& be) {
  lower_bounds_demo(be);
  complete_search_demo(be);
}

}  // namespace demo
