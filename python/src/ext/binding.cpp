// The Python module mergepath._core: thin entry points over ops.hpp. The Python layer
// (mergepath/__init__.py) checks and converts the caller's arrays, allocates the outputs with
// the caller's library, and passes addresses here; this file only picks the backend.
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <utility>

#include <nanobind/nanobind.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/unique_ptr.h>

#include "ops.hpp"

namespace nb = nanobind;
using namespace mergepath_py;

namespace {

// Host calls release the GIL (they may run for a while on every core); GPU calls only queue work
// on a stream and keep it (their cached contexts are shared).
template <class F>
auto dispatch(const call& c, F&& f) {
  if (c.device < 0) {
    nb::gil_scoped_release release;
    return f(host_tag{});
  }
  return f(cuda_tag{});
}

}  // namespace

NB_MODULE(_core, m) {
  m.doc() = "mergepath's compiled core; use the functions of the mergepath package instead.";

  nb::enum_<dtype>(m, "DType")
      .value("int32", dtype::int32)
      .value("int64", dtype::int64)
      .value("uint32", dtype::uint32)
      .value("uint64", dtype::uint64)
      .value("float32", dtype::float32)
      .value("float64", dtype::float64);

  nb::class_<array>(m, "Array")
      .def(nb::init<>())
      .def("__init__",
           [](array* self, std::uintptr_t data, std::int64_t size, dtype type) {
             new (self) array{data, size, type, true};
           })
      .def_ro("data", &array::data)
      .def_ro("size", &array::size)
      .def_ro("present", &array::present);

  nb::class_<call>(m, "Call").def("__init__", [](call* self, int device, std::uintptr_t stream, bool checked) {
    new (self) call{device, stream, checked};
  });

  nb::class_<sorted_index>(m, "SortedIndex")
      .def("search",
           [](const sorted_index& index, const call& c, array needles, array out, bool right) {
             dispatch(c, [&](auto) { index.search(c, needles, out, right); });
           })
      .def_prop_ro("size", &sorted_index::size)
      .def_prop_ro("device", &sorted_index::device);

  m.def("merge", [](const call& c, array a, array b, array av, array bv, array out, array out_v, bool descending) {
    dispatch(c, [&](auto tag) { merge_op(tag, c, a, b, av, bv, out, out_v, descending); });
  });
  m.def("sort", [](const call& c, array keys, array values, array keys_in, array values_in, bool descending,
                   bool locality) {
    dispatch(c, [&](auto tag) { sort_op(tag, c, keys, values, keys_in, values_in, descending, locality); });
  });
  m.def("segmented_sort", [](const call& c, array keys, array values, array starts, bool descending) {
    dispatch(c, [&](auto tag) { segmented_sort_op(tag, c, keys, values, starts, descending); });
  });
  m.def("searchsorted", [](const call& c, array haystack, array needles, array out, bool right) {
    dispatch(c, [&](auto tag) { searchsorted_op(tag, c, haystack, needles, out, right); });
  });
  m.def("sorted_search", [](const call& c, array a, array b, array out, bool right) {
    dispatch(c, [&](auto tag) { sorted_search_op(tag, c, a, b, out, right); });
  });
  m.def("sorted_search_matches", [](const call& c, array a, array b, array a_out, array b_out, bool right) {
    return dispatch(c, [&](auto tag) { return sorted_search_matches_op(tag, c, a, b, a_out, b_out, right); });
  });
  m.def("load_balancing_search", [](const call& c, std::int64_t count, array starts, array out) {
    dispatch(c, [&](auto tag) { load_balancing_search_op(tag, c, count, starts, out); });
  });
  m.def("interval_expand", [](const call& c, array values, std::int64_t count, array starts, array out) {
    dispatch(c, [&](auto tag) { interval_expand_op(tag, c, values, count, starts, out); });
  });
  m.def("segmented_reduce", [](const call& c, array values, array starts, array out, int op) {
    dispatch(c, [&](auto tag) { segmented_reduce_op(tag, c, values, starts, out, static_cast<reduce_op>(op)); });
  });
  m.def("eytzinger_index", [](const call& c, array sorted) {
    return dispatch(c, [&](auto tag) { return eytzinger_op(tag, c, sorted); });
  });
  nb::class_<join_rows>(m, "JoinRows")
      .def_prop_ro("size", &join_rows::size)
      .def_prop_ro("has_b", &join_rows::has_b)
      .def_prop_ro("a_data", &join_rows::a_data)
      .def_prop_ro("b_data", &join_rows::b_data);
  m.def("join", [](const call& c, array a, array b, int how, bool assume_sorted) {
    return dispatch(c, [&](auto tag) { return join_op(tag, c, a, b, static_cast<join_how>(how), assume_sorted); });
  });
  m.def("set_operation", [](const call& c, int kind, array a, array b, array out) {
    return dispatch(c, [&](auto tag) { return set_operation_op(tag, c, static_cast<set_kind>(kind), a, b, out); });
  });

  m.def("cuda_built", &cuda_built);
  m.def("cuda_available", &cuda_device_available);
  m.def("cuda_unavailable_reason", &cuda_unavailable_reason);
}
