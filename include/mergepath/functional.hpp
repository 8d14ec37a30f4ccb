// Comparators, the reductions' operators and the enums shared by the searches.
#pragma once

#include <cstdint>
#include <type_traits>

#include "detail/config.hpp"

namespace mergepath {

namespace detail {
// a + b and a * b with signed integers wrapping around: computed in the unsigned type of the
// promoted operands (the same machine code), where signed overflow would be undefined behaviour.
template <class A, class B>
MERGEPATH_HD constexpr auto wrapping_add(const A& a, const B& b) {
  using C = decltype(a + b);
  if constexpr (std::is_integral_v<C> && std::is_signed_v<C>) {
    using U = std::make_unsigned_t<C>;
    return static_cast<C>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}
template <class A, class B>
MERGEPATH_HD constexpr auto wrapping_multiply(const A& a, const B& b) {
  using C = decltype(a * b);
  if constexpr (std::is_integral_v<C> && std::is_signed_v<C>) {
    using U = std::make_unsigned_t<C>;
    return static_cast<C>(static_cast<U>(a) * static_cast<U>(b));
  } else {
    return a * b;
  }
}
}  // namespace detail

// Strict weak orders usable on host and device. `less<>` is the default everywhere.
template <class T = void>
struct less {
  MERGEPATH_HD constexpr bool operator()(const T& a, const T& b) const { return a < b; }
};
template <>
struct less<void> {
  template <class A, class B>
  MERGEPATH_HD constexpr bool operator()(const A& a, const B& b) const {
    return a < b;
  }
};

template <class T = void>
struct greater {
  MERGEPATH_HD constexpr bool operator()(const T& a, const T& b) const { return b < a; }
};
template <>
struct greater<void> {
  template <class A, class B>
  MERGEPATH_HD constexpr bool operator()(const A& a, const B& b) const {
    return b < a;
  }
};

// Associative operators for the reductions (segmented_reduce), usable on host and device.
// plus<> adds and multiplies<> multiplies, signed integers wrapping around on overflow (as
// unsigned ones do) rather than overflowing; minimum<> and maximum<> keep the smaller and the
// larger (the first of equals).
template <class T = void>
struct plus {
  MERGEPATH_HD constexpr T operator()(const T& a, const T& b) const { return detail::wrapping_add(a, b); }
};
template <>
struct plus<void> {
  template <class A, class B>
  MERGEPATH_HD constexpr auto operator()(const A& a, const B& b) const {
    return detail::wrapping_add(a, b);
  }
};

template <class T = void>
struct multiplies {
  MERGEPATH_HD constexpr T operator()(const T& a, const T& b) const { return detail::wrapping_multiply(a, b); }
};
template <>
struct multiplies<void> {
  template <class A, class B>
  MERGEPATH_HD constexpr auto operator()(const A& a, const B& b) const {
    return detail::wrapping_multiply(a, b);
  }
};

template <class T = void>
struct minimum {
  MERGEPATH_HD constexpr T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};
template <>
struct minimum<void> {
  template <class A>
  MERGEPATH_HD constexpr A operator()(const A& a, const A& b) const {
    return b < a ? b : a;
  }
};

template <class T = void>
struct maximum {
  MERGEPATH_HD constexpr T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};
template <>
struct maximum<void> {
  template <class A>
  MERGEPATH_HD constexpr A operator()(const A& a, const A& b) const {
    return a < b ? b : a;
  }
};

// Which bound a search returns, and on ties which input a merge path takes first:
// lower takes A before equal B (a stable merge), upper takes B before equal A.
enum class bounds { lower, upper };

// What sorted_search writes for each element of one input (sorted_search.hpp): nothing, its
// bound in the other input, 1 or 0 for whether the other input holds an equal element, or the
// bound with the output type's most significant bit set on a match.
enum class search { none, index, match, index_match };

// How many elements of A (and of B) have an equal element in the other input.
struct match_counts {
  std::int64_t a = 0, b = 0;
};

// sorted_equality_count's default op: how many elements of b equal a[i], from its bounds.
struct equality_count_op {
  template <class Lower, class Upper>
  MERGEPATH_HD constexpr auto operator()(Lower lower_bound, Upper upper_bound) const {
    return upper_bound - lower_bound;
  }
};

}  // namespace mergepath
