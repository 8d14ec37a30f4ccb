// The CPU peers the bench times beside mergepath's host backend: libstdc++'s parallel mode
// (__gnu_parallel, OpenMP threads), compiled by the host compiler in cpu_peers.cpp, away from
// nvcc. Each call runs on `threads` OpenMP threads and leaves the caller's thread count as it was.
#pragma once

#include <cstdint>

namespace bench {

// Whether the build has libstdc++'s parallel mode (GCC's library with OpenMP).
bool have_gnu_parallel();

void gnu_parallel_stable_sort(std::int32_t* first, std::int32_t* last, int threads);
void gnu_parallel_stable_sort(std::int64_t* first, std::int64_t* last, int threads);

void gnu_parallel_merge(const std::int32_t* a, std::int64_t a_count, const std::int32_t* b, std::int64_t b_count,
                        std::int32_t* out, int threads);
void gnu_parallel_merge(const std::int64_t* a, std::int64_t a_count, const std::int64_t* b, std::int64_t b_count,
                        std::int64_t* out, int threads);

}  // namespace bench
