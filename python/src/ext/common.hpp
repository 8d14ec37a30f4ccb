// Shared by the operation definitions: type dispatch, the comparators and reductions the package
// exposes (float keys ordered as numpy sorts them: NaNs last), and the host backend's context.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <mergepath/mergepath.hpp>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "ops.hpp"

namespace mergepath_py {

// numpy's order: NaN after every number, NaNs equivalent to each other; a strict weak order
// (mergepath::less<> is not one once NaNs appear, so sorts and searches would misbehave).
template <class T>
struct key_less {
  MERGEPATH_HD bool operator()(const T& a, const T& b) const {
    if constexpr (std::is_floating_point_v<T>)
      return a < b || (b != b && a == a);
    else
      return a < b;
  }
};
// Descending: the reverse of key_less (NaNs first), so a stable descending sort keeps equal keys
// in their input order.
template <class T>
struct key_greater {
  MERGEPATH_HD bool operator()(const T& a, const T& b) const { return key_less<T>{}(b, a); }
};

// The orders numpy sorts K in. Integer keys take mergepath's own less<> / greater<>: the GPU
// kernels recognise those as strict weak orders and take their fastest paths (a comparator they
// cannot recognise is checked as it runs), and sort may take CUB's radix sort where tuning/sort.hpp
// says it wins. Floats keep the NaN-aware orders.
template <class K>
using ascending_order = std::conditional_t<std::is_integral_v<K>, mergepath::less<>, key_less<K>>;
template <class K>
using descending_order = std::conditional_t<std::is_integral_v<K>, mergepath::greater<>, key_greater<K>>;

// Reductions: integer sums and products wrap around as numpy's do (mergepath::plus and
// multiplies: no signed overflow); NaN propagates through min and max as in numpy (so they stay
// associative).
template <class T>
struct op_sum {
  MERGEPATH_HD T operator()(const T& a, const T& b) const { return mergepath::plus<T>{}(a, b); }
};
template <class T>
struct op_prod {
  MERGEPATH_HD T operator()(const T& a, const T& b) const { return mergepath::multiplies<T>{}(a, b); }
};
// The type integer sums and products accumulate in: 64 bits, signed or not as T (np.sum's rule).
template <class T>
using sum_type_t =
    std::conditional_t<std::is_integral_v<T>, std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>, T>;
// numpy's minimum and maximum: a NaN on either side wins, else the smaller (the larger).
template <class T, bool Largest>
struct op_extreme {
  MERGEPATH_HD T operator()(const T& a, const T& b) const {
    if constexpr (std::is_floating_point_v<T>) {
      if (a != a) return a;
      if (b != b) return b;
    }
    if constexpr (Largest)
      return a < b ? b : a;
    else
      return b < a ? b : a;
  }
};
template <class T>
using op_min = op_extreme<T, false>;
template <class T>
using op_max = op_extreme<T, true>;

template <class T>
T identity_of(reduce_op op) {
  switch (op) {
    case reduce_op::sum:
      return T(0);
    case reduce_op::prod:
      return T(1);
    case reduce_op::min:
      if constexpr (std::is_floating_point_v<T>) return std::numeric_limits<T>::infinity();
      return std::numeric_limits<T>::max();
    case reduce_op::max:
      if constexpr (std::is_floating_point_v<T>) return -std::numeric_limits<T>::infinity();
      return std::numeric_limits<T>::lowest();
  }
  throw std::invalid_argument("mergepath: unknown reduction");
}

template <class T>
struct type_tag {
  using type = T;
};

// f(type_tag<K>{}) for the key type named by t.
template <class F>
void with_key_type(dtype t, F&& f) {
  switch (t) {
    case dtype::int32:
      return f(type_tag<std::int32_t>{});
    case dtype::int64:
      return f(type_tag<std::int64_t>{});
    case dtype::uint32:
      return f(type_tag<std::uint32_t>{});
    case dtype::uint64:
      return f(type_tag<std::uint64_t>{});
    case dtype::float32:
      return f(type_tag<float>{});
    case dtype::float64:
      return f(type_tag<double>{});
  }
  throw std::invalid_argument("mergepath: unsupported dtype code " + std::to_string(static_cast<int>(t)));
}

// Values only travel with their keys: one instantiation per width, not per type.
template <class F>
void with_payload_type(dtype t, F&& f) {
  switch (t) {
    case dtype::int32:
    case dtype::uint32:
    case dtype::float32:
      return f(type_tag<std::uint32_t>{});
    case dtype::int64:
    case dtype::uint64:
    case dtype::float64:
      return f(type_tag<std::uint64_t>{});
  }
  throw std::invalid_argument("mergepath: unsupported dtype code " + std::to_string(static_cast<int>(t)));
}

// f(comp) with the ascending or the descending order of K.
template <class K, class F>
void with_order(bool descending, F&& f) {
  if (descending)
    f(descending_order<K>{});
  else
    f(ascending_order<K>{});
}

// f(std::integral_constant<bounds, ...>): numpy's side="right" is the upper bound, "left" the lower.
template <class F>
void with_side(bool right, F&& f) {
  if (right)
    f(std::integral_constant<mergepath::bounds, mergepath::bounds::upper>{});
  else
    f(std::integral_constant<mergepath::bounds, mergepath::bounds::lower>{});
}

// The host backend: a fresh context per call (it holds no resources), all cores.
template <class F>
void run_on(host_tag, const call& c, F&& f) {
  mergepath::host_context ctx;
  ctx.set_checked(c.checked);
  f(ctx);
}

// Checked mode for calls whose C++ form has no check of its own: the searches' haystacks
// (backend::check_sorted), segmented_sort's starts read as segment starts (backend::check_segments).
template <class Ctx, class It, class Comp>
void require_sorted(Ctx& ctx, const char* algorithm, const char* name, It x, std::int64_t n, Comp comp) {
  mergepath::backend::check_sorted(ctx, algorithm, name, x, n, comp);
}
template <class Ctx, class StartsIt>
void check_starts(Ctx& ctx, const char* algorithm, std::int64_t count, StartsIt starts, std::int64_t num_segments) {
  mergepath::backend::check_segments(ctx, algorithm, count, starts, num_segments);
}

}  // namespace mergepath_py
