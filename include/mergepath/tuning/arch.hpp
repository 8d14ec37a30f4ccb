// The GPU architecture families that each get a tuning, and what their SMs hold. A tuning
// function (merge_tuning_for, ...) takes a family; the GPU front doors pick it from the
// architecture their kernels were compiled for (device/tuning_family.cuh), never from the device.
#pragma once

#include <cstddef>

#include "../detail/config.hpp"

namespace mergepath {

// Only sm_90's tunings were measured (docs/design/merge-and-mergesort.md#tuning-and-why). The
// others are reasoned: every default tile fits 64 KB of shared memory except the mergesort
// blocksort's (tuning/mergesort.hpp gives it smaller shapes per family), and __launch_bounds__
// asks for at most the threads an SM of the architecture being compiled holds
// (detail::launch_min_blocks). L2 size and SM count are read from the device at run time.
//
// sm_75 Turing (T4, RTX 20xx): 64 KB of shared memory a block, 1024 threads an SM.
// sm_80 Ampere (A100, and sm_87 Orin): 163 KB a block, 2048 threads, a 40 MB L2 on the A100.
// sm_86, sm_89 and sm_120 (A10, L4, RTX 30xx/40xx/50xx): 99 KB a block, 1536 threads, small L2.
// sm_90 Hopper (H100, H200): 227 KB a block, 2048 threads; the only one measured here.
// sm_100 Blackwell (B200): 227 KB a block, 2048 threads.
enum tuning_family_id : int {
  family_sm75 = 75,
  family_sm80 = 80,
  family_sm86 = 86,
  family_sm90 = 90,
  family_sm100 = 100,
};

// The family of architecture `arch` (75, 80, 86, ..., as cuda_context::arch() numbers them).
MERGEPATH_HD constexpr int tuning_family(int arch) {
  if (arch < 80) return family_sm75;
  if (arch == 86 || arch == 89 || arch >= 120) return family_sm86;
  if (arch < 90) return family_sm80;
  if (arch < 100) return family_sm90;
  return family_sm100;
}

// The most dynamic shared memory a block of the family may ask for (the opt-in limit).
MERGEPATH_HD constexpr std::size_t family_max_shared_bytes(int family) {
  switch (family) {
    case family_sm75:
      return 64 * 1024;
    case family_sm86:
      return 99 * 1024;
    case family_sm80:
      return 163 * 1024;
    default:
      return 227 * 1024;
  }
}

// The most threads an SM of the family holds at once.
MERGEPATH_HD constexpr int family_max_threads_per_sm(int family) {
  return family == family_sm75 ? 1024 : family == family_sm86 ? 1536 : 2048;
}

namespace detail {
// __launch_bounds__' blocks per SM for a tuning that asks registers for min_resident_threads,
// capped by what the architecture being compiled for holds (the host pass launches nothing).
MERGEPATH_HD constexpr int launch_min_blocks(int block_threads, int min_resident_threads) {
  const int most = code_arch == 0 ? 2048 : family_max_threads_per_sm(tuning_family(code_arch));
  const int resident = min_resident_threads < most ? min_resident_threads : most;
  return resident <= block_threads ? 1 : resident / block_threads;
}

// sizeof(Value), and 0 for void: a policy's value bytes, where keys-only calls have Value = void.
template <class Value>
constexpr std::size_t size_or_zero = sizeof(Value);
template <>
constexpr std::size_t size_or_zero<void> = 0;
}  // namespace detail

}  // namespace mergepath
