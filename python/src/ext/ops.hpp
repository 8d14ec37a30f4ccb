// The extension's backend-neutral interface: raw arrays in, results written to arrays the Python
// layer allocated with the caller's library. One definition per operation (ops_*.hpp), compiled
// once for the host backend (host_tag, by the C++ compiler) and once for the GPU (cuda_tag, by
// nvcc); without nvcc the cuda_tag instantiations throw (cuda_stub.cpp). Nothing here includes
// Python or nanobind, so nvcc never sees them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

namespace mergepath_py {

// The element types the package instantiates (the Python layer maps library dtypes to these).
enum class dtype : int { int32 = 0, int64 = 1, uint32 = 2, uint64 = 3, float32 = 4, float64 = 5 };

// A contiguous 1-d array: an address in host memory (host backend) or on the call's device.
struct array {
  std::uintptr_t data = 0;
  std::int64_t size = 0;
  dtype type = dtype::int64;
  bool present = false;  // false: the optional argument was not given
  template <class T>
  T* as() const {
    return reinterpret_cast<T*>(data);
  }
};

// Where a call runs: device -1 is the host backend; otherwise a CUDA device and a stream on it
// (the caller's library's current stream; 0 is the legacy default stream).
struct call {
  int device = -1;
  std::uintptr_t stream = 0;
  bool checked = false;
};

struct host_tag {};
struct cuda_tag {};

enum class reduce_op : int { sum = 0, min = 1, max = 2, prod = 3 };

// Built once from sorted keys, searched many times (eytzinger_index).
class sorted_index {
 public:
  virtual ~sorted_index() = default;
  virtual void search(const call& c, array needles, array out, bool right) const = 0;
  virtual std::int64_t size() const = 0;
  virtual dtype type() const = 0;
  virtual int device() const = 0;  // -1: host
};

// ---- operations (each in ops_<group>.hpp); outputs are preallocated by the caller -------------
// out (and out_values) hold a.size + b.size elements; values are payloads of 4 or 8 bytes.
template <class Tag>
void merge_op(Tag, const call& c, array a, array b, array a_values, array b_values, array out, array out_values,
              bool descending);
// Into keys (and values): mergepath::sort, or locality_sort when `locality`, in place; or, when
// keys_in is given (not with `locality`), sort_copy / sort_pairs_copy from keys_in (and values_in).
template <class Tag>
void sort_op(Tag, const call& c, array keys, array values, array keys_in, array values_in, bool descending,
             bool locality);
// In place; starts are int64 segment starts (CSR offsets without the last entry; may be empty).
template <class Tag>
void segmented_sort_op(Tag, const call& c, array keys, array values, array starts, bool descending);
// out: int64 bounds of needles (any order) in the sorted haystack.
template <class Tag>
void searchsorted_op(Tag, const call& c, array haystack, array needles, array out, bool right);
// out: int64 bounds of sorted a in sorted b.
template <class Tag>
void sorted_search_op(Tag, const call& c, array a, array b, array out, bool right);
// a_out, b_out: int64 bounds with the sign bit set on a match; returns the match counts.
template <class Tag>
std::pair<std::int64_t, std::int64_t> sorted_search_matches_op(Tag, const call& c, array a, array b, array a_out,
                                                               array b_out, bool right);
template <class Tag>
void load_balancing_search_op(Tag, const call& c, std::int64_t count, array starts, array out);
template <class Tag>
void interval_expand_op(Tag, const call& c, array values, std::int64_t count, array starts, array out);
// out: one element per segment, of the values' type for min and max; for integer sums and
// products 8 bytes, int64 or uint64 as the values are signed or not (floats: their own type).
template <class Tag>
void segmented_reduce_op(Tag, const call& c, array values, array starts, array out, reduce_op op);
template <class Tag>
std::unique_ptr<sorted_index> eytzinger_op(Tag, const call& c, array sorted);
// Joins (join.hpp): the int64 rows stay in the context's memory, and the Python layer hands them
// to the caller's library without a copy (arrays that keep this handle alive); when the last of
// them dies, the handle frees the rows (stream-ordered on a GPU).
enum class join_how : int { inner = 0, left = 1, right = 2, outer = 3, semi = 4, anti = 5 };
class join_rows {
 public:
  virtual ~join_rows() = default;
  virtual std::int64_t size() const = 0;
  virtual bool has_b() const = 0;  // false for semi and anti: a rows only
  // The addresses of the a and (has_b()) b rows: size() int64 each, on the join's device.
  virtual std::uintptr_t a_data() const = 0;
  virtual std::uintptr_t b_data() const = 0;
};
// sort_merge_join, or merge_join with assume_sorted (checked: verifies that a and b are sorted).
template <class Tag>
std::unique_ptr<join_rows> join_op(Tag, const call& c, array a, array b, join_how how, bool assume_sorted);
// Set operations (set_operations.hpp) on sorted a and b: out holds a.size + b.size (union,
// symmetric difference) or a.size (intersection, difference) elements; returns how many were written.
enum class set_kind : int { union_ = 0, intersection = 1, difference = 2, symmetric_difference = 3 };
template <class Tag>
std::int64_t set_operation_op(Tag, const call& c, set_kind kind, array a, array b, array out);

// What the GPU backend can do here: built with nvcc at all, and a usable device now.
bool cuda_built();
bool cuda_device_available();
std::string cuda_unavailable_reason();  // empty when a device is usable

}  // namespace mergepath_py
