// The relational joins' per-row work, shared by both backends: how many output rows each row of
// a makes, where each output row goes, and what it holds (join.hpp says what the joins return).
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "../detail/config.hpp"
#include "../error.hpp"
#include "binary_search.hpp"

namespace mergepath {

enum class join_kind { inner, left, right, full_outer, left_semi, left_anti };

namespace detail {

MERGEPATH_HD constexpr bool has_b_index(join_kind kind) {
  return kind != join_kind::left_semi && kind != join_kind::left_anti;
}
// Kinds whose a rows without a partner make a row (i, -1).
MERGEPATH_HD constexpr bool keeps_lone_a(join_kind kind) {
  return kind == join_kind::left || kind == join_kind::full_outer;
}
// Kinds whose b rows without a partner make a row (-1, j).
MERGEPATH_HD constexpr bool keeps_lone_b(join_kind kind) {
  return kind == join_kind::right || kind == join_kind::full_outer;
}

// The result's arrays where Ctx computes: host_buffer on the CPU, temp_buffer on a GPU.
template <class Ctx, class T>
struct owned_array;

// An array on the host, left uninitialized (every element is written by the join).
template <class T>
class host_buffer {
 public:
  host_buffer() = default;
  explicit host_buffer(std::int64_t count) : data_(count > 0 ? new T[static_cast<std::size_t>(count)] : nullptr) {}
  T* data() const { return data_.get(); }

 private:
  std::unique_ptr<T[]> data_;
};

// Index holds every row number and each row's partner count (else std::invalid_argument).
template <class Index>
void require_join_index(const char* algorithm, std::int64_t a_count, std::int64_t b_count) {
  static_assert(std::is_integral_v<Index> && std::is_signed_v<Index>, "the join's Index is a signed integer type");
  constexpr auto max = static_cast<std::int64_t>(std::numeric_limits<Index>::max());
  if (a_count > max || b_count > max)
    throw std::invalid_argument(std::string("mergepath::") + algorithm + ": Index (" +
                                std::to_string(8 * sizeof(Index)) + " bits) cannot hold the row counts " +
                                std::to_string(a_count) + " and " + std::to_string(b_count));
}

// sorted_equality_count's op for a join: the output rows a row of a makes from the lower and upper
// bounds of its key in b (ub < lb only on unsorted input: no partners then).
template <join_kind Kind, class Index>
struct join_row_count {
  MERGEPATH_HD Index operator()(index_t lower, index_t upper) const {
    const index_t partners = upper > lower ? upper - lower : 0;
    if constexpr (Kind == join_kind::left_semi) return partners > 0;
    if constexpr (Kind == join_kind::left_anti) return partners == 0;
    if constexpr (keeps_lone_a(Kind)) return static_cast<Index>(partners > 0 ? partners : 1);
    return static_cast<Index>(partners);
  }
};

// The end of key's run in b from its lower bound lb: the first three reads issued together
// (clamped into b; most keys have fewer partners), a gallop past them. Stays in [lb, b_count].
template <class BIt, class Key, class Comp>
MERGEPATH_HD index_t partners_end(BIt b, index_t lb, index_t b_count, const Key& key, Comp comp) {
  constexpr int ahead = 3;
  if (lb >= b_count) return lb;
  const index_t last = b_count - 1;
  bool in_run = true;
  index_t end = lb;
  MERGEPATH_UNROLL
  for (int k = 0; k < ahead; ++k) {
    in_run = in_run & (lb + k <= last) & !comp(key, b[min_of(lb + k, last)]);
    end += in_run;
  }
  return in_run ? run_end_after(b, lb + ahead, b_count, key, comp) : end;
}

// A bound clamped into [0, count]: on unsorted input a GPU search may leave some unwritten (its
// tiles need not meet), and what reads them must stay in bounds.
template <class Index>
MERGEPATH_HD index_t clamped_bound(Index bound, index_t count) {
  return min_of(max_of(static_cast<index_t>(bound), index_t{0}), count);
}

// Row i's output rows from its key's lower bound in b: the upper bound from partners_end, so one
// lower-bound search serves (kernel/join.cuh). On any data (a bound the search left unwritten
// too) the bounds stay in [0, b_count], so the rows stay inside b.
template <join_kind Kind, class Index, class AIt, class BIt, class Comp>
struct join_row_counter {
  AIt a;
  BIt b;
  index_t b_count;
  Comp comp;
  MERGEPATH_HD index_t operator()(index_t i, index_t lower) const {
    lower = clamped_bound(lower, b_count);
    return static_cast<index_t>(join_row_count<Kind, Index>{}(lower, partners_end(b, lower, b_count, a[i], comp)));
  }
};

// Row numbers of the caller's inputs: the identity for merge_join, the sorted copies' row numbers
// for sort_merge_join.
struct identity_rows {
  MERGEPATH_HD index_t operator[](index_t i) const { return i; }
};

// The row numbers of sort_merge_join's sorted copies: 32-bit where a side has fewer than 2^31 rows
// (half the bytes to sort, whatever Index the output has), else Index.
template <class Index>
struct sorted_row_numbers {
  const std::int32_t* narrow;  // null: the rows are in wide
  const Index* wide;
  MERGEPATH_HD Index operator[](index_t i) const {
    return narrow != nullptr ? static_cast<Index>(narrow[i]) : wide[i];
  }
};

MERGEPATH_HD constexpr bool rows_fit_int32(index_t count) { return count <= index_t{INT32_MAX}; }

// The transform_lbs functor that writes the rows a makes: output k of row i's segment (rank r
// among them) goes to k plus the lone b rows ordered before a[i], and pairs a[i] with b[lb + r].
// Every index it writes and reads stays in range for any data (ranks stay below the row's count,
// which never passes b's end).
template <join_kind Kind, class Index, class AIt, class BIt, class ARows, class BRows, class Comp>
struct join_row_writer {
  AIt a;
  BIt b;
  index_t b_count;
  const Index* lower;            // lower bound of a[i] in b
  const index_t* lone_b_before;  // lone b rows before b[j], j <= b_count (keeps_lone_b kinds)
  ARows a_rows;
  BRows b_rows;
  Index* a_out;
  Index* b_out;
  Comp comp;
  MERGEPATH_HD void operator()(index_t k, index_t i, index_t rank) const {
    const index_t lb = clamped_bound(lower[i], b_count);
    if constexpr (keeps_lone_b(Kind)) k += lone_b_before[lb];
    a_out[k] = static_cast<Index>(a_rows[i]);
    if constexpr (has_b_index(Kind)) {
      bool partner = lb + rank < b_count;  // always, for sorted input; the starts may disagree otherwise
      if constexpr (keeps_lone_a(Kind)) partner = partner && !comp(a[i], b[lb]);
      b_out[k] = partner ? static_cast<Index>(b_rows[lb + rank]) : Index(-1);
    }
  }
};

// Is b[j] without a partner in a, given its upper bound ub in a?
template <class AIt, class BIt, class Comp>
MERGEPATH_HD bool is_lone_b(AIt a, BIt b, index_t j, index_t ub, Comp comp) {
  return ub == 0 || comp(a[ub - 1], b[j]);
}

// Writes the row (-1, j) of each lone b row j where the merge of the rows' keys puts it: after
// the rows of the a rows before it and the lone b rows before it. Which rows are lone it reads
// from the scan that counted them (lone_b_before[j + 1] - lone_b_before[j]), so that the rows it
// writes are the rows counted, whatever comp answers (a random one answers differently each time).
template <class Index, class AIt, class BIt, class BRows, class Comp, class AStarts = const index_t*>
struct lone_b_writer {
  AIt a;  // a, b and comp are no longer read; device/join.cuh still fills them
  index_t a_count;
  BIt b;
  const Index* upper;            // upper bound of b[j] in a
  AStarts a_starts;              // output rows of the a rows before a[i], i <= a_count
  const index_t* lone_b_before;  // j <= b_count
  index_t total;                 // the output's rows
  BRows b_rows;
  Index* a_out;
  Index* b_out;
  Comp comp;
  MERGEPATH_HD void operator()(index_t j) const {
    if (lone_b_before[j + 1] == lone_b_before[j]) return;
    const index_t k = static_cast<index_t>(a_starts[clamped_bound(upper[j], a_count)]) + lone_b_before[j];
    if (k < 0 || k >= total) return;  // unsorted input only
    a_out[k] = Index(-1);
    b_out[k] = static_cast<Index>(b_rows[j]);
  }
};

// Moves lo to key's lower bound in b and hi to its upper bound, both only forward (walking sorted
// keys keeps them monotonic); for any data they stay inside [0, b_count].
template <class Key, class BIt, class Comp>
MERGEPATH_HD void advance_partner_bounds(const Key& key, BIt b, index_t b_count, index_t& lo, index_t& hi, Comp comp) {
  while (lo < b_count && comp(b[lo], key)) ++lo;
  hi = max_of(hi, lo);
  while (hi < b_count && !comp(key, b[hi])) ++hi;
}

}  // namespace detail

// The result of a join (join.hpp): its rows' a and b row numbers, owned, in the memory where the
// context computes. Movable, not copyable.
template <class Ctx, class Index = std::int64_t>
class join_result {
 public:
  using array = typename detail::owned_array<Ctx, Index>::type;
  join_result() = default;
  join_result(std::int64_t size, array a_index, array b_index, bool has_b)
      : size_(size), a_(std::move(a_index)), b_(std::move(b_index)), has_b_(has_b) {}
  join_result(join_result&&) noexcept = default;
  join_result& operator=(join_result&&) noexcept = default;
  join_result(const join_result&) = delete;
  join_result& operator=(const join_result&) = delete;

  std::int64_t size() const { return size_; }
  const Index* a_index() const { return a_.data(); }
  // nullptr for left_semi and left_anti
  const Index* b_index() const { return has_b_ ? b_.data() : nullptr; }

 private:
  std::int64_t size_ = 0;
  array a_, b_;
  bool has_b_ = false;
};

}  // namespace mergepath
