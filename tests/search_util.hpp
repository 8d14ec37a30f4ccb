// Shared by the sorted search tests (host and GPU, plain C++): inputs shaped for searches, the
// oracle (std::equal_range per element), the expected output of each search type, guarded
// outputs, and the two demonstrations of moderngpu's Vectorized Sorted Search page as golden
// data.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <limits>
#include <mergepath/functional.hpp>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "test_util.hpp"

namespace mergepath_test {

using mergepath::bounds;
using mergepath::search;

// ---------------------------------------------------------------------------------------------
// Inputs

// How the keys of a and b relate: uniform (some keys shared), all equal (one long run across
// both), disjoint (a even, b odd: no match anywhere), all shared (every key of a is in b and the
// reverse), few distinct (four values: long runs of duplicates), a below b (every a before every b).
enum class search_distribution { uniform, all_equal, disjoint, all_shared, few_distinct, a_below_b };

inline const char* to_string(search_distribution d) {
  static const char* const names[] = {"uniform", "all_equal", "disjoint", "all_shared", "few_distinct", "a_below_b"};
  return names[static_cast<int>(d)];
}

inline const std::vector<search_distribution>& all_search_distributions() {
  static const std::vector<search_distribution> all{search_distribution::uniform,      search_distribution::all_equal,
                                                    search_distribution::disjoint,     search_distribution::all_shared,
                                                    search_distribution::few_distinct, search_distribution::a_below_b};
  return all;
}

struct search_case {
  index_t a_count, b_count;
  search_distribution dist;
  std::uint64_t seed;

  std::string name() const {
    std::ostringstream os;
    os << "a_count " << a_count << ", b_count " << b_count << ", " << to_string(dist)
       << " (MERGEPATH_TEST_SEED=" << base_seed() << ")";
    return os.str();
  }
};

using shape = std::pair<index_t, index_t>;  // (a_count, b_count)

// Every shape times every distribution; shapes with a side over $MERGEPATH_TEST_MAX_SIZE are left out.
inline std::vector<search_case> search_cases(const std::vector<shape>& shapes) {
  ::testing::Test::RecordProperty("MERGEPATH_TEST_SEED", std::to_string(base_seed()));
  std::vector<search_case> cases;
  for (auto [a_count, b_count] : shapes) {
    if (a_count + b_count > max_test_size()) continue;
    for (search_distribution d : all_search_distributions())
      cases.push_back({a_count, b_count, d, case_seed({a_count, b_count, 100 + static_cast<int>(d)})});
  }
  return cases;
}

// For each total size n: n split evenly, very unbalanced both ways (1:16 and 16:1) and all in
// one input; sizes of 100000 and more only evenly and 1:16, to keep the suite fast.
inline std::vector<shape> search_shapes(const std::vector<index_t>& totals) {
  std::vector<shape> shapes;
  for (index_t n : sorted_unique_capped(totals)) {
    shapes.push_back({n / 2, n - n / 2});
    shapes.push_back({n / 17, n - n / 17});
    if (n < 100000) shapes.insert(shapes.end(), {{n - n / 17, n / 17}, {n, 0}, {0, n}});
  }
  std::sort(shapes.begin(), shapes.end());
  shapes.erase(std::unique(shapes.begin(), shapes.end()), shapes.end());
  return shapes;
}

// Values (non-negative, below 2^24 so float keys hold them exactly) for a and b as d says; then
// made keys and each sorted by comp.
template <class Key, class Comp>
merge_input<Key> make_search_input(const search_case& c, Comp comp) {
  std::mt19937_64 rng(c.seed);
  auto uniform = [&](std::int64_t below) { return std::uniform_int_distribution<std::int64_t>(0, below - 1)(rng); };
  const std::int64_t range = 2 * (c.a_count + c.b_count) + 2;  // about half the keys find a match
  std::vector<std::int64_t> a(static_cast<std::size_t>(c.a_count)), b(static_cast<std::size_t>(c.b_count));
  switch (c.dist) {
    case search_distribution::uniform:
      for (auto& x : a) x = uniform(range);
      for (auto& x : b) x = uniform(range);
      break;
    case search_distribution::all_equal:
      std::fill(a.begin(), a.end(), 42);
      std::fill(b.begin(), b.end(), 42);
      break;
    case search_distribution::disjoint:
      for (auto& x : a) x = 2 * uniform(range);
      for (auto& x : b) x = 2 * uniform(range) + 1;
      break;
    case search_distribution::all_shared: {
      // The first min(a_count, b_count) elements of each take every one of that many distinct
      // values; the rest repeat values of those.
      std::size_t distinct = std::min(a.size(), b.size());
      std::vector<std::int64_t> values(distinct);
      for (std::size_t i = 0; i < distinct; ++i) values[i] = 3 * static_cast<std::int64_t>(i) + uniform(3);
      for (auto* side : {&a, &b})
        for (std::size_t i = 0; i < side->size(); ++i)
          (*side)[i] = distinct == 0 ? uniform(range) : i < distinct ? values[i] : values[uniform(distinct)];
      break;
    }
    case search_distribution::few_distinct:
      for (auto& x : a) x = uniform(4);
      for (auto& x : b) x = uniform(4);
      break;
    case search_distribution::a_below_b:
      for (auto& x : a) x = uniform(c.a_count + 1);
      for (auto& x : b) x = c.a_count + 1 + uniform(c.b_count + 1);
      break;
  }
  merge_input<Key> in;
  for (std::int64_t x : a) in.a.push_back(key_from<Key>(x));
  for (std::int64_t x : b) in.b.push_back(key_from<Key>(x));
  std::sort(in.a.begin(), in.a.end(), comp);
  std::sort(in.b.begin(), in.b.end(), comp);
  return in;
}

// ---------------------------------------------------------------------------------------------
// The oracle

// For every element x[i]: its lower and upper bound in y and whether y holds an equivalent element.
struct side_oracle {
  std::vector<index_t> lower, upper;
  std::vector<bool> match;
  index_t matches = 0;
};

template <class Key, class Comp>
side_oracle bounds_in(const std::vector<Key>& x, const std::vector<Key>& y, Comp comp) {
  side_oracle s;
  for (const Key& key : x) {
    auto [first, last] = std::equal_range(y.begin(), y.end(), key, comp);
    s.lower.push_back(first - y.begin());
    s.upper.push_back(last - y.begin());
    s.match.push_back(first != last);
    s.matches += first != last;
  }
  return s;
}

// a: every element of a searched in b; b: every element of b searched in a.
struct search_oracle {
  side_oracle a, b;
};

template <class Key, class Comp>
search_oracle sorted_search_oracle(const merge_input<Key>& in, Comp comp) {
  return {bounds_in(in.a, in.b, comp), bounds_in(in.b, in.a, comp)};
}

// The bounds a search reports: bounds::lower is the lower bound of A into B and the upper bound
// of B into A; bounds::upper the other way round.
inline const std::vector<index_t>& a_bounds(bounds Bounds, const search_oracle& o) {
  return Bounds == bounds::lower ? o.a.lower : o.a.upper;
}
inline const std::vector<index_t>& b_bounds(bounds Bounds, const search_oracle& o) {
  return Bounds == bounds::lower ? o.b.upper : o.b.lower;
}

// The match bit of search::index_match: the most significant bit of Out.
template <class Out>
Out with_match_bit(index_t bound, bool match) {
  using Bits = std::make_unsigned_t<Out>;
  const Bits top = Bits{1} << (std::numeric_limits<Bits>::digits - 1);
  return static_cast<Out>(static_cast<Bits>(bound) | (match ? top : Bits{0}));
}

// What an output of search type Type holds for these bounds and match flags.
template <search Type, class Out>
std::vector<Out> expected_output(const std::vector<index_t>& bound, const std::vector<bool>& match) {
  static_assert(Type != search::none, "search::none has no output");
  std::vector<Out> out;
  for (std::size_t i = 0; i < bound.size(); ++i) {
    if constexpr (Type == search::index)
      out.push_back(static_cast<Out>(bound[i]));
    else if constexpr (Type == search::match)
      out.push_back(static_cast<Out>(match[i] ? 1 : 0));
    else
      out.push_back(with_match_bit<Out>(bound[i], match[i]));
  }
  return out;
}

// The match count a side of this type reports: its matches, or 0 where it reports none.
inline index_t expected_matches(search type, const side_oracle& s) {
  return type == search::match || type == search::index_match ? s.matches : 0;
}

inline const char* to_string(search type) {
  static const char* const names[] = {"none", "index", "match", "index_match"};
  return names[static_cast<int>(type)];
}
inline const char* to_string(bounds b) { return b == bounds::lower ? "lower" : "upper"; }

// Calls f(bounds_constant, type_a_constant, type_b_constant) for every Bounds x TypeA x TypeB:
// 2 x 4 x 4 instantiations, each a std::integral_constant (read its ::value).
template <class F>
void for_each_search_kind(F f) {
  auto for_each_type = [](auto g) {
    g(std::integral_constant<search, search::none>{});
    g(std::integral_constant<search, search::index>{});
    g(std::integral_constant<search, search::match>{});
    g(std::integral_constant<search, search::index_match>{});
  };
  auto for_bounds = [&](auto bounds_constant) {
    for_each_type([&](auto a) { for_each_type([&](auto b) { f(bounds_constant, a, b); }); });
  };
  for_bounds(std::integral_constant<bounds, bounds::lower>{});
  for_bounds(std::integral_constant<bounds, bounds::upper>{});
}

template <bounds Bounds, search TypeA, search TypeB>
std::string search_kind_name() {
  return std::string("bounds ") + to_string(Bounds) + ", a " + to_string(TypeA) + ", b " + to_string(TypeB);
}

// ---------------------------------------------------------------------------------------------
// Guarded outputs: guard_items poisoned elements before and after the count written, so a write
// out of bounds either way shows. The output itself starts at data() + guard_items (checked by
// guarded_equal, test_util.hpp).

template <class T>
std::vector<T> guarded_output(index_t count) {
  return std::vector<T>(static_cast<std::size_t>(count) + 2 * guard_items, poison<T>());
}

// Nothing in a guarded output, nor its guards, was written.
template <class T>
::testing::AssertionResult guarded_untouched(const std::vector<T>& got) {
  return untouched(got, 0, got.size());
}

// ---------------------------------------------------------------------------------------------
// Equality-count ops

// counts[i] = max(ub - lb, 1): the rows a left join gives a[i] (one, with no match, when b holds
// no equal key). The user op of moderngpu's Vectorized Sorted Search page.
struct left_join_rows {
  template <class Lower, class Upper>
  MERGEPATH_HD auto operator()(Lower lb, Upper ub) const {
    auto n = ub - lb;
    return n > 1 ? n : decltype(n){1};
  }
};

// The lower bounds come from an int32 search::index_match: the op strips the match bit before
// taking the difference (sign-extended to 64 bits, the bit pattern below bit 31 is unchanged).
struct count_from_index_match {
  template <class Lower, class Upper>
  MERGEPATH_HD auto operator()(Lower lb, Upper ub) const {
    return ub - (lb & 0x7fffffff);
  }
};

// ---------------------------------------------------------------------------------------------
// The demonstrations of moderngpu's Vectorized Sorted Search page, copied as printed: rows
// "offset: v v v ...", '*' before a value marking the match bit.

struct printed_value {
  int value;
  bool match;
};

inline std::vector<printed_value> parse_printed(const std::string& text) {
  std::vector<printed_value> values;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    bool star = false;
    for (std::size_t i = colon + 1; i < line.size();) {
      if (line[i] == '*') {
        star = true;
        ++i;
      } else if (std::isdigit(static_cast<unsigned char>(line[i]))) {
        std::size_t end = i;
        while (end < line.size() && std::isdigit(static_cast<unsigned char>(line[end]))) ++end;
        values.push_back({std::stoi(line.substr(i, end - i)), star});
        star = false;
        i = end;
      } else {
        ++i;
      }
    }
  }
  return values;
}

inline std::vector<int> printed_values(const std::string& text) {
  std::vector<int> v;
  for (printed_value p : parse_printed(text)) v.push_back(p.value);
  return v;
}

// The index_match outputs as printed, as int32 with the match bit set where '*' shows.
inline std::vector<std::int32_t> printed_index_match(const std::string& text) {
  std::vector<std::int32_t> v;
  for (printed_value p : parse_printed(text)) v.push_back(with_match_bit<std::int32_t>(p.value, p.match));
  return v;
}

inline index_t printed_matches(const std::string& text) {
  index_t n = 0;
  for (printed_value p : parse_printed(text)) n += p.match;
  return n;
}

namespace demo1 {  // DemoSortedSearch: lower bounds of 100 needles in a haystack of 200

inline const char* const haystack = R"(
    0:     0    5    5    7    7    7    7    8    9    9
   10:    10   11   12   14   15   15   16   17   19   19
   20:    20   24   25   28   28   29   31   33   36   36
   30:    37   38   40   42   42   43   45   46   49   50
   40:    51   51   51   52   53   55   56   57   60   60
   50:    61   61   62   62   64   66   68   69   73   74
   60:    79   81   82   84   85   88   90   90   95   97
   70:    99  101  105  108  108  111  115  118  118  119
   80:   119  119  119  122  122  123  125  126  126  130
   90:   133  133  135  135  139  140  143  145  145  146
  100:   147  149  149  149  154  158  160  161  165  166
  110:   168  169  170  172  172  174  174  174  175  175
  120:   175  177  179  182  183  184  186  187  188  190
  130:   192  193  194  196  198  199  199  205  205  208
  140:   209  215  217  218  218  218  220  220  221  221
  150:   223  224  225  230  234  234  235  240  240  243
  160:   244  249  250  251  252  253  253  254  255  255
  170:   255  257  258  258  259  262  263  265  267  270
  180:   270  274  278  278  278  279  280  281  284  284
  190:   284  285  285  292  294  295  296  296  296  298
)";

inline const char* const needles = R"(
    0:     3    3   12   16   16   17   17   19   20   21
   10:    24   27   27   28   30   31   35   39   40   42
   20:    52   52   53   53   54   55   57   58   62   63
   30:    72   75   83   86   86   89   92   95   98   98
   40:    99   99   99  100  104  105  107  109  110  111
   50:   112  117  118  121  124  126  129  132  133  139
   60:   140  148  156  160  161  167  168  173  179  186
   70:   191  198  202  202  212  212  214  220  223  229
   80:   233  239  245  254  256  256  260  268  269  269
   90:   271  271  272  273  277  285  296  296  299  299
)";

inline const char* const lower_bounds = R"(
    0:     1    1   12   16   16   17   17   18   20   21
   10:    21   23   23   23   26   26   28   32   32   33
   20:    43   43   44   44   45   45   47   48   52   54
   30:    58   60   63   65   65   66   68   68   70   70
   40:    70   70   70   71   72   72   73   75   75   75
   50:    76   77   77   83   86   87   89   90   90   94
   60:    95  101  105  106  107  110  110  115  122  126
   70:   130  134  137  137  141  141  141  146  150  153
   80:   154  157  161  167  171  171  175  179  179  179
   90:   181  181  181  181  182  191  196  196  200  200
)";

}  // namespace demo1

namespace demo2 {  // DemoSortedSearch2: bounds::lower, index_match on both sides

inline const char* const a = R"(
    0:     0    3    5   13   14   15   16   18   18   21
   10:    24   26   26   30   31   32   38   38   38   40
   20:    60   72   72   74   81   83   86   88   88   89
   30:    89   99   99  101  101  102  114  115  118  118
   40:   119  128  136  139  145  148  149  150  151  151
   50:   157  160  164  165  167  177  181  181  182  182
   60:   189  190  191  192  196  197  199  200  207  212
   70:   213  213  216  218  220  222  223  228  231  233
   80:   233  234  234  234  239  239  240  247  249  264
   90:   265  267  271  271  275  277  282  284  293  298
)";

inline const char* const b = R"(
    0:     1    2   15   23   24   25   25   25   25   27
   10:    27   29   30   31   33   33   35   39   45   49
   20:    58   59   61   61   62   63   64   67   67   68
   30:    70   71   82   85   87   87   88   91   98   98
   40:   109  110  110  116  116  118  121  121  126  129
   50:   129  134  145  155  159  165  174  174  179  181
   60:   183  186  192  192  196  196  201  202  204  205
   70:   205  208  209  212  216  218  220  222  224  227
   80:   231  233  233  234  235  236  250  251  251  253
   90:   260  263  272  275  276  285  289  291  291  293
)";

// Lower bound of A into B (* for match)
inline const char* const a_indices = R"(
    0:     0    2    2    2    2 *  2    3    3    3    3
   10:  *  4    9    9 * 12 * 13   14   17   17   17   18
   20:    22   32   32   32   32   33   34 * 36 * 36   37
   30:    37   40   40   40   40   40   43   43 * 45 * 45
   40:    46   49   52   52 * 52   53   53   53   53   53
   50:    54   55   55 * 55   56   58 * 59 * 59   60   60
   60:    62   62   62 * 62 * 64   66   66   66   71 * 73
   70:    74   74 * 74 * 75 * 76 * 77   78   80 * 80 * 81
   80:  * 81 * 83 * 83 * 83   86   86   86   86   86   92
   90:    92   92   92   92 * 93   95   95   95 * 99  100
)";

// Upper bound of B into A (* for match)
inline const char* const b_indices = R"(
    0:     1    1 *  6   10 * 11   11   11   11   11   13
   10:    13   13 * 14 * 15   16   16   16   19   20   20
   20:    20   20   21   21   21   21   21   21   21   21
   30:    21   21   25   26   27   27 * 29   31   31   31
   40:    36   36   36   38   38 * 40   41   41   41   42
   50:    42   42 * 45   50   51 * 54   55   55   56 * 58
   60:    60   60 * 64 * 64 * 65 * 65   68   68   68   68
   70:    68   69   69 * 70 * 73 * 74 * 75 * 76   77   77
   80:  * 79 * 81 * 81 * 84   84   84   89   89   89   89
   90:    89   89   94 * 95   95   98   98   98   98 * 99
)";

}  // namespace demo2

}  // namespace mergepath_test
