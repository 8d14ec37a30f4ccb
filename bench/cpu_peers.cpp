// libstdc++'s parallel mode for the bench's CPU rows (cpu_peers.hpp). Its stable_sort is a
// multiway merge sort (each thread sorts a chunk, then one parallel multiway merge); its merge
// splits the output over the threads.
#include "cpu_peers.hpp"

#include <algorithm>
#include <stdexcept>

#if defined(__GLIBCXX__) && defined(_OPENMP)
#include <omp.h>
#include <parallel/algorithm>
#define BENCH_GNU_PARALLEL 1
#else
#define BENCH_GNU_PARALLEL 0
#endif

namespace bench {
namespace {

// Runs f on `threads` OpenMP threads (parallel mode sizes its teams by omp_get_max_threads).
template <class F>
void on_threads(int threads, F f) {
#if BENCH_GNU_PARALLEL
  const int before = omp_get_max_threads();
  omp_set_num_threads(threads);
  f();
  omp_set_num_threads(before);
#else
  (void)threads;
  (void)f;
  throw std::logic_error("gnu_parallel: this build has no libstdc++ parallel mode");
#endif
}

template <class K>
void stable_sort_impl(K* first, K* last, int threads) {
#if BENCH_GNU_PARALLEL
  on_threads(threads, [&] { __gnu_parallel::stable_sort(first, last); });
#else
  on_threads(threads, [] {});
  (void)first, (void)last;
#endif
}

template <class K>
void merge_impl(const K* a, std::int64_t a_count, const K* b, std::int64_t b_count, K* out, int threads) {
#if BENCH_GNU_PARALLEL
  // Mutable pointers: libstdc++ 12's multiway merge does not compile for const ones (it only reads).
  K* first_a = const_cast<K*>(a);
  K* first_b = const_cast<K*>(b);
  on_threads(threads, [&] { __gnu_parallel::merge(first_a, first_a + a_count, first_b, first_b + b_count, out); });
#else
  on_threads(threads, [] {});
  (void)a, (void)a_count, (void)b, (void)b_count, (void)out;
#endif
}

}  // namespace

bool have_gnu_parallel() { return BENCH_GNU_PARALLEL != 0; }

void gnu_parallel_stable_sort(std::int32_t* first, std::int32_t* last, int threads) {
  stable_sort_impl(first, last, threads);
}
void gnu_parallel_stable_sort(std::int64_t* first, std::int64_t* last, int threads) {
  stable_sort_impl(first, last, threads);
}
void gnu_parallel_merge(const std::int32_t* a, std::int64_t a_count, const std::int32_t* b, std::int64_t b_count,
                        std::int32_t* out, int threads) {
  merge_impl(a, a_count, b, b_count, out, threads);
}
void gnu_parallel_merge(const std::int64_t* a, std::int64_t a_count, const std::int64_t* b, std::int64_t b_count,
                        std::int64_t* out, int threads) {
  merge_impl(a, a_count, b, b_count, out, threads);
}

}  // namespace bench
