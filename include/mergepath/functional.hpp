// Comparators and the enums shared by the searches.
#pragma once

#include "detail/config.hpp"

namespace mergepath {

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

// Which bound a search returns, and on ties which input a merge path takes first:
// lower takes A before equal B (a stable merge), upper takes B before equal A.
enum class bounds { lower, upper };

}  // namespace mergepath
