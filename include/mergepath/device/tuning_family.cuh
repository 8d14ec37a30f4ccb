// Which tuning family (tuning/arch.hpp) a GPU front door takes: that of the architecture this
// translation unit's kernels run as on the current device (detail::running_code_arch: the SASS or PTX
// the driver chose from the fat binary), never the device's own compute capability. A tuning can
// only ever be one whose kernels were compiled here, so the code and its launch agree.
#pragma once

#include <type_traits>

#include "../detail/launch.cuh"
#include "../error.hpp"
#include "../tuning/arch.hpp"

namespace mergepath {
namespace detail {

// Whether code of `family` is compiled in this translation unit.
constexpr bool family_compiled(int family) {
  for (int arch : compiled_arch_list)
    if (tuning_family(arch / 10) == family) return true;
  return false;
}

// The family of the code that runs on the current device.
inline int running_tuning_family() { return tuning_family(running_code_arch()); }

template <int Family>
using family_constant = std::integral_constant<int, Family>;

// f(family_constant<F>{}) for the family F of the code that runs, f's result: f's tunings are
// instantiated only for the families compiled here.
template <class F>
decltype(auto) with_tuning_family(F&& f) {
  switch (running_tuning_family()) {
    case family_sm75:
      if constexpr (family_compiled(family_sm75)) return f(family_constant<family_sm75>{});
      break;
    case family_sm80:
      if constexpr (family_compiled(family_sm80)) return f(family_constant<family_sm80>{});
      break;
    case family_sm86:
      if constexpr (family_compiled(family_sm86)) return f(family_constant<family_sm86>{});
      break;
    case family_sm100:
      if constexpr (family_compiled(family_sm100)) return f(family_constant<family_sm100>{});
      break;
    default:
      break;
  }
  // sm_90, or (never: the code that runs was compiled here) a family missing above.
  if constexpr (family_compiled(family_sm90))
    return f(family_constant<family_sm90>{});
  else
    return f(family_constant<tuning_family(compiled_arch_list[0] / 10)>{});
}

}  // namespace detail
}  // namespace mergepath
