// The element type of an iterator (value_of), and no_values, which stands in for the value
// iterators of a keys-only call: every kernel and launch that takes keys with or without values.
#pragma once

#include <iterator>

namespace mergepath {
namespace kernel {

// Stands in for the value iterators of a keys-only merge.
struct no_values {};

template <class It>
struct value_of_impl {
  using type = typename std::iterator_traits<It>::value_type;
};
template <>
struct value_of_impl<no_values> {
  using type = void;
};
// The element type of an iterator; void for no_values.
template <class It>
using value_of = typename value_of_impl<It>::type;

}  // namespace kernel
}  // namespace mergepath
