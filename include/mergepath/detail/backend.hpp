// How an algorithm's front door reaches its backends. The top-level header (merge.hpp, sort.hpp,
// ...) checks a call's arguments once and calls backend::<algorithm>(ctx, ...). host/ defines that
// call for a host_context and device/ for a cuda_context, each in its own namespace, and each
// names it in namespace backend with a using-declaration: overload resolution on the context then
// picks the backend, and a build without nvcc simply has no cuda_context overload.
#pragma once

#include <type_traits>

namespace mergepath {

// The GPU tuning a call takes when its caller names none. A caller may name a policy type instead,
// as a front door's first template argument (merge<my_policy>(ctx, ...): a type with
// `static constexpr merge_tuning tuning`, tuning/<algorithm>.hpp). It shapes GPU launches only:
// the host backend's calls take the same first template argument and ignore it.
struct default_tuning {};

namespace detail {

// Policy, or Default where the caller named none.
template <class Policy, class Default>
using tuning_or = std::conditional_t<std::is_same_v<Policy, default_tuning>, Default, Policy>;

}  // namespace detail
}  // namespace mergepath
