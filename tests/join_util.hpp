// Shared by the join and set-operation tests (host and GPU): named input shapes for two sorted
// inputs, a tagged key that shows which copy of equivalent keys an algorithm takes, the
// sequential references (a nested-loop join over key groups, std::set_*), and calls of every
// join kind and set operation.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <mergepath/join.hpp>
#include <mergepath/set_operations.hpp>
#include <numeric>
#include <ostream>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

#include "backends.hpp"
#include "test_util.hpp"

namespace mergepath {
// Printed in test traces (found by argument-dependent lookup).
inline std::ostream& operator<<(std::ostream& os, join_kind k) {
  const char* names[] = {"inner", "left", "right", "full_outer", "left_semi", "left_anti"};
  return os << names[static_cast<int>(k)];
}
}  // namespace mergepath

namespace mergepath {
// Printed in test traces (found by argument-dependent lookup).
inline std::ostream& operator<<(std::ostream& os, set_op op) {
  const char* names[] = {"set_union", "set_intersection", "set_difference", "set_symmetric_difference"};
  return os << names[static_cast<int>(op)];
}
}  // namespace mergepath

namespace mergepath_test {

using mergepath::join_kind;
using mergepath::set_op;

// A key ordered by `key` alone; `tag` records where the element came from.
struct tagged {
  int key;
  int tag;
};
inline bool operator==(const tagged& l, const tagged& r) { return l.key == r.key && l.tag == r.tag; }
inline std::ostream& operator<<(std::ostream& os, const tagged& t) { return os << t.key << '#' << t.tag; }
struct tagged_less {
  MERGEPATH_HD bool operator()(const tagged& l, const tagged& r) const { return l.key < r.key; }
};
template <>
inline tagged key_from<tagged>(std::int64_t v) {
  return {static_cast<int>(v), 0};
}

// Two inputs' shapes: keys drawn uniformly (about one partner a row), from 3 values (every row
// meets a third of the other side), in runs of ~100 equal keys, from disjoint ranges, or the
// same keys on both sides.
enum class pair_shape { uniform, few_distinct, runs, disjoint, identical };
inline const std::vector<pair_shape>& all_pair_shapes() {
  static const std::vector<pair_shape> shapes = {pair_shape::uniform, pair_shape::few_distinct, pair_shape::runs,
                                                 pair_shape::disjoint, pair_shape::identical};
  return shapes;
}
inline std::ostream& operator<<(std::ostream& os, pair_shape s) {
  const char* names[] = {"uniform", "few_distinct", "runs", "disjoint", "identical"};
  return os << names[static_cast<int>(s)];
}

template <class Key>
struct key_pair {
  std::vector<Key> a, b;
};

using size_pairs = std::vector<std::pair<index_t, index_t>>;
// Those of sizes whose total is at most max_test_size().
inline size_pairs capped_sizes(const size_pairs& sizes) {
  size_pairs kept;
  for (auto s : sizes)
    if (s.first + s.second <= max_test_size()) kept.push_back(s);
  return kept;
}

// Calls f(std::integral_constant<T, v>) for each of Values, until a fatal failure.
template <class T, T... Values, class F>
void for_each_constant(F f) {
  (void)((f(std::integral_constant<T, Values>{}), !::testing::Test::HasFatalFailure()) && ...);
}

// Sizes follow the host's thread shares or the GPU's tiles.
template <class Backend>
constexpr bool is_host_backend = std::is_same_v<typename Backend::context, mergepath::host_context>;

// Sorted by comp (ascending values for less, descending for greater), tags = origin (a: i, b:
// -1 - j) where Key is tagged. identical makes b a copy of a's keys (b_count ignored).
template <class Key, class Comp>
key_pair<Key> make_key_pair(pair_shape shape, index_t a_count, index_t b_count, std::uint64_t seed, Comp comp) {
  std::mt19937_64 rng(seed);
  auto draw = [&](index_t count, std::int64_t lo, std::int64_t hi) {
    std::vector<std::int64_t> v(static_cast<std::size_t>(count));
    std::uniform_int_distribution<std::int64_t> d(lo, hi);
    for (auto& x : v) x = d(rng);
    return v;
  };
  const std::int64_t n = std::max<std::int64_t>(1, a_count + b_count);
  std::vector<std::int64_t> va, vb;
  switch (shape) {
    case pair_shape::uniform:
      va = draw(a_count, 0, n), vb = draw(b_count, 0, n);
      break;
    case pair_shape::few_distinct:
      va = draw(a_count, 0, 2), vb = draw(b_count, 0, 2);
      break;
    case pair_shape::runs:
      va = draw(a_count, 0, n / 100), vb = draw(b_count, 0, n / 100);
      break;
    case pair_shape::disjoint:
      va = draw(a_count, 0, n), vb = draw(b_count, n + 1, 2 * n + 1);
      break;
    case pair_shape::identical:
      va = draw(a_count, 0, n / 4), vb = va;
      break;
  }
  key_pair<Key> out;
  for (auto* side : {&va, &vb}) {
    std::vector<Key>& keys = side == &va ? out.a : out.b;
    for (std::int64_t v : *side) keys.push_back(key_from<Key>(v));
    std::stable_sort(keys.begin(), keys.end(), comp);
  }
  if constexpr (std::is_same_v<Key, tagged>) {
    for (std::size_t i = 0; i < out.a.size(); ++i) out.a[i].tag = static_cast<int>(i);
    for (std::size_t j = 0; j < out.b.size(); ++j) out.b[j].tag = -1 - static_cast<int>(j);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Joins

// f(std::integral_constant<join_kind, k>) for every kind k.
template <class F>
void for_each_join_kind(F f) {
  for_each_constant<join_kind, join_kind::inner, join_kind::left, join_kind::right, join_kind::full_outer,
                    join_kind::left_semi, join_kind::left_anti>(f);
}

// A join's rows as two columns (b empty for semi and anti joins).
struct join_rows {
  std::vector<std::int64_t> a, b;
};

// The reference: sorted a and b walked by groups of equivalent keys, every pair of two groups
// written by nested loops.
template <class Key, class Comp>
join_rows reference_join(join_kind kind, const std::vector<Key>& a, const std::vector<Key>& b, Comp comp) {
  join_rows r;
  const bool has_b = kind != join_kind::left_semi && kind != join_kind::left_anti;
  auto row = [&](std::int64_t i, std::int64_t j) {
    r.a.push_back(i);
    if (has_b) r.b.push_back(j);
  };
  const std::size_t na = a.size(), nb = b.size();
  std::size_t i = 0, j = 0;
  while (i < na || j < nb) {
    if (j == nb || (i < na && comp(a[i], b[j]))) {  // a group without partners
      std::size_t e = i;
      while (e < na && !comp(a[i], a[e])) ++e;
      if (kind == join_kind::left || kind == join_kind::full_outer || kind == join_kind::left_anti)
        for (; i < e; ++i) row(static_cast<std::int64_t>(i), -1);
      i = e;
    } else if (i == na || comp(b[j], a[i])) {
      std::size_t e = j;
      while (e < nb && !comp(b[j], b[e])) ++e;
      if (kind == join_kind::right || kind == join_kind::full_outer)
        for (; j < e; ++j) row(-1, static_cast<std::int64_t>(j));
      j = e;
    } else {
      std::size_t ea = i, eb = j;
      while (ea < na && !comp(a[i], a[ea])) ++ea;
      while (eb < nb && !comp(b[j], b[eb])) ++eb;
      for (std::size_t x = i; x < ea; ++x) {
        if (kind == join_kind::left_semi) row(static_cast<std::int64_t>(x), 0);
        if (kind == join_kind::left_anti || kind == join_kind::left_semi) continue;
        for (std::size_t y = j; y < eb; ++y) row(static_cast<std::int64_t>(x), static_cast<std::int64_t>(y));
      }
      i = ea, j = eb;
    }
  }
  return r;
}

// The rows of every key in any order: the join of stably sorted copies, mapped back to rows.
template <class Key, class Comp>
join_rows reference_sort_join(join_kind kind, const std::vector<Key>& a, const std::vector<Key>& b, Comp comp) {
  auto sorted_rows = [&](const std::vector<Key>& x) {
    std::vector<std::int64_t> rows(x.size());
    std::iota(rows.begin(), rows.end(), 0);
    std::stable_sort(rows.begin(), rows.end(), [&](std::int64_t l, std::int64_t r) { return comp(x[l], x[r]); });
    return rows;
  };
  auto ra = sorted_rows(a), rb = sorted_rows(b);
  std::vector<Key> sa, sb;
  for (auto i : ra) sa.push_back(a[static_cast<std::size_t>(i)]);
  for (auto j : rb) sb.push_back(b[static_cast<std::size_t>(j)]);
  join_rows r = reference_join(kind, sa, sb, comp);
  for (auto& i : r.a)
    if (i >= 0) i = ra[static_cast<std::size_t>(i)];
  for (auto& j : r.b)
    if (j >= 0) j = rb[static_cast<std::size_t>(j)];
  return r;
}

// Compares a join's columns (as Index) with the reference's, reporting the first difference.
template <class Index>
::testing::AssertionResult join_matches(const join_rows& expected, std::int64_t size, const std::vector<Index>& a,
                                        const std::vector<Index>& b, bool has_b) {
  if (size != static_cast<std::int64_t>(expected.a.size()))
    return ::testing::AssertionFailure() << "size " << size << ", expected " << expected.a.size();
  for (std::size_t k = 0; k < expected.a.size(); ++k)
    if (a[k] != expected.a[k] || (has_b && b[k] != expected.b[k]))
      return ::testing::AssertionFailure()
             << "row " << k << ": (" << a[k] << ", " << (has_b ? b[k] : 0) << "), expected (" << expected.a[k] << ", "
             << (has_b ? expected.b[k] : 0) << ")";
  return ::testing::AssertionSuccess();
}

// A join result's column of row indices, copied to host memory from the memory where ctx computes.
template <class Index>
std::vector<Index> to_host(const mergepath::host_context&, const Index* column, std::int64_t rows) {
  return std::vector<Index>(column, column + rows);
}
#if MERGEPATH_HAS_CUDA
template <class Index>
std::vector<Index> to_host(mergepath::cuda_context& ctx, const Index* column, std::int64_t rows) {
  std::vector<Index> host(static_cast<std::size_t>(rows));
  ctx.synchronize();
  if (rows > 0)
    MERGEPATH_CUDA_CHECK(cudaMemcpy(host.data(), column, host.size() * sizeof(Index), cudaMemcpyDeviceToHost));
  return host;
}
#endif

// ---------------------------------------------------------------------------------------------
// Set operations

// f(std::integral_constant<set_op, op>) for every operation op.
template <class F>
void for_each_set_op(F f) {
  for_each_constant<set_op, set_op::union_, set_op::intersection, set_op::difference, set_op::symmetric_difference>(f);
}
inline const std::vector<set_op>& all_set_ops() {
  static const std::vector<set_op> ops = {set_op::union_, set_op::intersection, set_op::difference,
                                          set_op::symmetric_difference};
  return ops;
}

// std::set_<op>(a, b) into a vector.
template <class Key, class Comp>
std::vector<Key> reference_set_op(set_op op, const std::vector<Key>& a, const std::vector<Key>& b, Comp comp) {
  std::vector<Key> out;
  out.reserve(a.size() + b.size());
  const auto to = std::back_inserter(out);
  if (op == set_op::union_) std::set_union(a.begin(), a.end(), b.begin(), b.end(), to, comp);
  if (op == set_op::intersection) std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), to, comp);
  if (op == set_op::difference) std::set_difference(a.begin(), a.end(), b.begin(), b.end(), to, comp);
  if (op == set_op::symmetric_difference)
    std::set_symmetric_difference(a.begin(), a.end(), b.begin(), b.end(), to, comp);
  return out;
}

// Calls the library's set operation op (keys only), as a generic lambda would.
template <class Ctx, class AIt, class BIt, class OutIt, class Comp>
std::int64_t run_set_op(set_op op, Ctx& ctx, AIt a, index_t a_count, BIt b, index_t b_count, OutIt out, Comp comp) {
  switch (op) {
    case set_op::union_:
      return mergepath::set_union(ctx, a, a_count, b, b_count, out, comp);
    case set_op::intersection:
      return mergepath::set_intersection(ctx, a, a_count, b, b_count, out, comp);
    case set_op::difference:
      return mergepath::set_difference(ctx, a, a_count, b, b_count, out, comp);
    case set_op::symmetric_difference:
      return mergepath::set_symmetric_difference(ctx, a, a_count, b, b_count, out, comp);
  }
  return -1;
}
template <class Ctx, class AK, class AV, class BK, class BV, class OK, class OV, class Comp>
std::int64_t run_set_op_by_key(set_op op, Ctx& ctx, AK ak, AV av, index_t a_count, BK bk, BV bv, index_t b_count, OK ok,
                               OV ov, Comp comp) {
  switch (op) {
    case set_op::union_:
      return mergepath::set_union_by_key(ctx, ak, av, a_count, bk, bv, b_count, ok, ov, comp);
    case set_op::intersection:
      return mergepath::set_intersection_by_key(ctx, ak, av, a_count, bk, bv, b_count, ok, ov, comp);
    case set_op::difference:
      return mergepath::set_difference_by_key(ctx, ak, av, a_count, bk, bv, b_count, ok, ov, comp);
    case set_op::symmetric_difference:
      return mergepath::set_symmetric_difference_by_key(ctx, ak, av, a_count, bk, bv, b_count, ok, ov, comp);
  }
  return -1;
}

}  // namespace mergepath_test
