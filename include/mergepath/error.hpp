// Errors: bad arguments throw std::invalid_argument; failed CUDA calls throw cuda_error.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "detail/config.hpp"

#if MERGEPATH_HAS_CUDA
#include <cuda_runtime_api.h>
#endif

namespace mergepath {

#if MERGEPATH_HAS_CUDA
// A CUDA call failed. what() names the call, the CUDA error and file:line.
struct cuda_error : std::runtime_error {
  cudaError_t code;
  cuda_error(cudaError_t code, const char* call, const char* file, int line)
      : std::runtime_error(std::string(call) + " failed: " + cudaGetErrorName(code) + " (" + cudaGetErrorString(code) +
                           ") at " + file + ":" + std::to_string(line)),
        code(code) {}
};

namespace detail {
inline void throw_on_cuda_error(cudaError_t code, const char* call, const char* file, int line) {
  if (code != cudaSuccess) {
    (void)cudaGetLastError();  // reported here: it must not resurface at the next launch check
    throw cuda_error(code, call, file, line);
  }
}

}  // namespace detail
#endif

namespace detail {

// Validation that every algorithm does before any work starts.
inline void require(bool ok, const char* algorithm, const char* what) {
  if (!ok) throw std::invalid_argument(std::string("mergepath::") + algorithm + ": " + what);
}

template <class It>
inline void require_range(const char* algorithm, const char* name, const It& first, index_t count) {
  if (count < 0)
    throw std::invalid_argument(std::string("mergepath::") + algorithm + ": " + name + " count is negative (" +
                                std::to_string(count) + ")");
  if constexpr (std::is_pointer_v<It>) {
    if (count > 0 && first == nullptr)
      throw std::invalid_argument(std::string("mergepath::") + algorithm + ": " + name +
                                  " is a null pointer with count " + std::to_string(count));
  }
}

[[noreturn]] inline void throw_unsorted(const char* algorithm, const char* name, index_t position) {
  throw std::invalid_argument(std::string("mergepath::") + algorithm + ": input " + name + " is not sorted: " + name +
                              "[" + std::to_string(position) + "] is ordered before " + name + "[" +
                              std::to_string(position - 1) + "]");
}

// Checked mode's verdict on segment head indices: heads[position] (= value, after previous) is
// out of [0, count) or not greater than its predecessor.
[[noreturn]] inline void throw_bad_head(const char* algorithm, index_t position, long long value, long long previous,
                                        index_t count) {
  std::string at = std::string("mergepath::") + algorithm + ": heads[" + std::to_string(position) +
                   "] = " + std::to_string(value);
  if (value < 0 || value >= count)
    throw std::invalid_argument(at + " is out of range [0, " + std::to_string(count) + ")");
  throw std::invalid_argument(at + " is not greater than heads[" + std::to_string(position - 1) +
                              "] = " + std::to_string(previous) + " (heads must be strictly increasing)");
}

// The load-balancing calls' shared checks: counts non-negative, a segment for any item.
inline void require_segments(const char* algorithm, index_t count, index_t num_segments) {
  if (count < 0)
    throw std::invalid_argument(std::string("mergepath::") + algorithm + ": count is negative (" +
                                std::to_string(count) + ")");
  if (num_segments < 0)
    throw std::invalid_argument(std::string("mergepath::") + algorithm + ": num_segments is negative (" +
                                std::to_string(num_segments) + ")");
  if (num_segments == 0 && count > 0)
    throw std::invalid_argument(std::string("mergepath::") + algorithm + ": " + std::to_string(count) +
                                " items but no segment to hold them (num_segments == 0)");
}

// Checked mode's verdict on segment starts: segment_starts[position] (= value, after previous)
// is not 0 (position 0), below its predecessor, or past count.
[[noreturn]] inline void throw_bad_start(const char* algorithm, index_t position, long long value, long long previous,
                                         index_t count) {
  std::string at = std::string("mergepath::") + algorithm + ": segment_starts[" + std::to_string(position) +
                   "] = " + std::to_string(value);
  if (position == 0) throw std::invalid_argument(at + " (the first segment must start at 0)");
  if (value < previous)
    throw std::invalid_argument(at + " is less than segment_starts[" + std::to_string(position - 1) +
                                "] = " + std::to_string(previous) + " (starts must be non-decreasing)");
  throw std::invalid_argument(at + " is past count = " + std::to_string(count));
}

}  // namespace detail
}  // namespace mergepath

#if MERGEPATH_HAS_CUDA
// Wraps a CUDA runtime call; throws mergepath::cuda_error naming the call on failure.
#define MERGEPATH_CUDA_CHECK(call) ::mergepath::detail::throw_on_cuda_error((call), #call, __FILE__, __LINE__)
#endif
