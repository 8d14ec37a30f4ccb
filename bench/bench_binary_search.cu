// The binary search suite (after the Futhark "Binary search" example, docs/references.md):
// mergepath::binary_search, eytzinger_layout, eytzinger_search and batch_search against
// thrust::lower_bound (GPU) and std::lower_bound (CPU).
// For each size 2^L (default L = 26), int32 keys, int32 bounds:
//   - Futhark's table: 2^(L-1) - 1 sorted keys in [0, 2^(L-1) - 1) (a perfect tree), the array as
//     its own needles: layout, binary search, Eytzinger search and a copy of the array; on the GPU,
//     then on the CPU (host_context with all its threads; std::lower_bound on one thread);
//   - 2^L random unsorted needles into 2^L sorted random keys (GPU): binary_search,
//     eytzinger_search (tree built untimed; the layout timed on its own row), batch_search sorting
//     the needles first and automatic, beside thrust::lower_bound on the same needles;
//   - the crossover of batch_search's automatic mode: per_needle against sort_then_search over
//     needle counts, haystacks 2^L and 2^(L-6) (GPU) and 2^(L-4) (CPU), with what automatic chose;
//   - CPU: eytzinger_search against binary_search, 2^(L-4) random needles into 2^(L-1) - 1 keys;
// figures and ratios only (the goals are in docs/design/). Every result is checked outside
// the timed region: on the GPU against thrust::lower_bound's bounds (themselves checked against
// the definition of a lower bound), on the CPU against std::lower_bound's; the layouts against an
// in-order rank computed from subtree sizes (and, for perfect trees, the Futhark example's
// closed formula).
#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>
#include <thrust/transform.h>

#include <mergepath/binary_search.hpp>

#include "bench_util.cuh"

#if defined(_OPENMP)
#include <omp.h>
#endif

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace bench {
namespace {

using key_type = std::int32_t;
using bound_type = std::int32_t;  // the outputs: bounds below 2^31
using mergepath::search_strategy;

// The Futhark example's figures for its table (2^25 - 1 keys), in microseconds.
struct futhark_figures {
  const char* machine;
  double layout_us, binary_us, eytzinger_us, copy_us;
};
constexpr futhark_figures futhark_gpu{"RTX 2080 Ti, OpenCL", 1698, 2670, 2107, 534};
constexpr futhark_figures futhark_cpu{"Xeon E5-2650, sequential C", 417177, 4293823, 2749538, 56820};

// The rows' `input`, which the summary looks rows up by.
const std::string input_futhark = "Futhark's table: the array as its own needles";
const std::string input_random = "random needles";
const std::string input_crossover = "crossover: random needles";

// Row names (the summary finds rows by them).
const std::string row_copy = "copy (same bytes: needles in, bounds out)";
const std::string row_thrust = "thrust::lower_bound";
const std::string row_binary = "mergepath::binary_search";
const std::string row_layout = "mergepath::eytzinger_layout";
const std::string row_eytzinger = "mergepath::eytzinger_search";
const std::string row_sort_then_search = "mergepath::batch_search (sort_then_search)";
const std::string row_per_needle = "mergepath::batch_search (per_needle)";
const std::string row_automatic = "mergepath::batch_search (automatic)";
const std::string row_std = "std::lower_bound per needle";
const std::string row_cpu_copy = "copy (memcpy of the array)";
const std::string row_cpu_layout = "mergepath::eytzinger_layout (host_context)";
const std::string row_cpu_binary = "mergepath::binary_search (host_context)";
const std::string row_cpu_eytzinger = "mergepath::eytzinger_search (host_context)";
const std::string row_cpu_per_needle = "mergepath::batch_search (per_needle, host)";
const std::string row_cpu_sort_then_search = "mergepath::batch_search (sort_then_search, host)";

std::string fixed(double v, int digits) {
  if (std::isnan(v)) return "-";
  char s[32];
  std::snprintf(s, sizeof s, "%.*f", digits, v);
  return s;
}

// ---- checks -----------------------------------------------------------------------------------

constexpr int check_threads = 256;

int grid_for(index_t count) {
  index_t blocks = (count + check_threads - 1) / check_threads;
  return static_cast<int>(std::clamp<index_t>(blocks, 1, 8192));
}

struct counters {
  unsigned long long bad, first_bad;
};

__host__ __device__ inline int floor_log2(index_t x) {
#if defined(__CUDA_ARCH__)
  return 63 - __clzll(static_cast<long long>(x));
#else
  return 63 - __builtin_clzll(static_cast<unsigned long long>(x));
#endif
}

// The nodes under node k (from 1), k included, of the complete binary tree of n nodes in heap order.
__host__ __device__ inline index_t subtree_size(index_t k, index_t n) {
  index_t size = 0;
  for (index_t lo = k, hi = k; lo <= n; lo = 2 * lo, hi = 2 * hi + 1) size += (hi < n ? hi : n) - lo + 1;
  return size;
}

// Node k's place in the in-order walk, that is the sorted index of its key: the nodes of its left
// subtree, and for every ancestor it lies right of, that ancestor and its left subtree. Shares
// nothing with the library's closed form.
__host__ __device__ inline index_t in_order_rank(index_t k, index_t n) {
  index_t rank = subtree_size(2 * k, n);
  for (index_t c = k; c > 1; c >>= 1)
    if (c & 1) rank += subtree_size(c - 1, n) + 1;
  return rank;
}

// The Futhark example's closed formula, for n = 2^h - 1: the sorted index of tree slot i (from 0).
__host__ __device__ inline index_t futhark_eytzinger_index(index_t n, index_t i) {
  int lvl = floor_log2(i + 1);
  index_t offset = index_t{1} << (floor_log2(n) - lvl);
  index_t k = (index_t{1} << lvl) - 1;
  return offset + (i - k) * offset * 2 - 1;
}

bool perfect_tree(index_t n) { return n > 0 && (n & (n + 1)) == 0; }

// tree[i] = sorted[in-order rank of node i + 1], and for a perfect tree also the Futhark example's formula.
__global__ void check_layout_kernel(const key_type* sorted, const key_type* tree, index_t n, bool perfect,
                                    counters* c) {
  for (index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<index_t>(gridDim.x) * blockDim.x) {
    bool ok = tree[i] == sorted[in_order_rank(i + 1, n)];
    if (perfect) ok = ok && tree[i] == sorted[futhark_eytzinger_index(n, i)];
    if (!ok) {
      atomicAdd(&c->bad, 1ull);
      atomicMin(&c->first_bad, static_cast<unsigned long long>(i));
    }
  }
}

// out[i] is the lower bound of needles[i] in haystack, by definition: everything before it orders
// before the needle and nothing from it on does.
__global__ void check_lower_bounds_kernel(const key_type* needles, index_t count, const key_type* haystack,
                                          index_t haystack_count, const bound_type* out, counters* c) {
  for (index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<index_t>(gridDim.x) * blockDim.x) {
    index_t bound = out[i];
    key_type key = needles[i];
    bool ok = bound >= 0 && bound <= haystack_count && (bound == 0 || haystack[bound - 1] < key) &&
              (bound == haystack_count || !(haystack[bound] < key));
    if (!ok) {
      atomicAdd(&c->bad, 1ull);
      atomicMin(&c->first_bad, static_cast<unsigned long long>(i));
    }
  }
}

// Runs launch(counters*) on the stream and waits for the counts.
template <class Launch>
counters count_bad(cudaStream_t stream, Launch&& launch) {
  device_buffer<counters> d(1, "check counters");
  MERGEPATH_CUDA_CHECK(cudaMemsetAsync(d.data(), 0, sizeof(counters), stream));
  MERGEPATH_CUDA_CHECK(cudaMemsetAsync(&d.data()->first_bad, 0xff, sizeof(unsigned long long), stream));
  launch(d.data());
  counters h{};
  MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(&h, d.data(), sizeof h, cudaMemcpyDeviceToHost, stream));
  MERGEPATH_CUDA_CHECK(cudaStreamSynchronize(stream));
  return h;
}

counters check_layout(const key_type* sorted, const key_type* tree, index_t n, cudaStream_t stream) {
  return count_bad(stream, [&](counters* c) {
    if (n > 0)
      mergepath::detail::launch("check_layout_kernel", check_layout_kernel, grid_for(n), check_threads, 0, stream,
                                sorted, tree, n, perfect_tree(n), c);
  });
}

counters check_lower_bounds(const key_type* needles, index_t count, const key_type* haystack, index_t haystack_count,
                            const bound_type* out, cudaStream_t stream) {
  return count_bad(stream, [&](counters* c) {
    if (count > 0)
      mergepath::detail::launch("check_lower_bounds_kernel", check_lower_bounds_kernel, grid_for(count), check_threads,
                                0, stream, needles, count, haystack, haystack_count, out, c);
  });
}

// ---- inputs -----------------------------------------------------------------------------------

// Keys in [0, range).
struct below {
  std::uint32_t range;
  __host__ __device__ key_type operator()(key_type k) const {
    return static_cast<key_type>(static_cast<std::uint32_t>(k) % range);
  }
};

// sorted[0, n) = n random keys, sorted: uniform over [0, range) when range > 0 (Futhark's
// `--i32-bounds=0:33554430` for 2^25 - 1 keys), else over all int32. scratch: n keys of room.
void sorted_random_keys(bench_context& b, key_type* sorted, key_type* scratch, index_t n, std::uint32_t range,
                        std::uint64_t seed) {
  cudaStream_t stream = b.stream();
  generate_random_keys<key_type>(scratch, n, seed, stream);
  if (range > 0)
    thrust::transform(thrust::cuda::par_nosync(b.allocator).on(stream), scratch, scratch + n, scratch, below{range});
  sort_keys<key_type>(scratch, sorted, n, stream);
}

// ---- one GPU case -----------------------------------------------------------------------------

enum class row_kind {
  baseline,   // copy: not checked, is the %copy reference
  reference,  // thrust::lower_bound: checked against the definition, is the "vs Thrust" reference
  ours,       // a mergepath search: checked against the reference's bounds, gets "vs Thrust"
  layout,     // eytzinger_layout: its tree checked; keys laid out per second
};

// The inputs and outputs of every row of one haystack and needle count. Each of `sets` input sets
// is one allocation [haystack | tree | needles] (no tree without with_tree; no needles when the
// haystack is its own needles), each output set one bound per needle; a run on set s touches only
// set s. ref holds the reference's bounds.
class search_case {
 public:
  search_case(bench_context& b, index_t haystack_count, index_t needle_count, bool self_needles, bool with_tree,
              int sets, std::string input)
      : b(b),
        haystack_count(haystack_count),
        needle_count(self_needles ? haystack_count : needle_count),
        self_needles(self_needles),
        with_tree(with_tree),
        sets(sets),
        input(std::move(input)) {
    for (int s = 0; s < sets; ++s) {
      in_.emplace_back(in_count(haystack_count, needle_count, self_needles, with_tree), "binary search inputs");
      out_.emplace_back(static_cast<std::size_t>(this->needle_count), "binary search outputs");
    }
    ref_ = device_buffer<bound_type>(static_cast<std::size_t>(this->needle_count), "binary search reference");
  }

  // Keys per input set, and bytes per set (inputs and outputs).
  static std::size_t in_count(index_t haystack_count, index_t needle_count, bool self_needles, bool with_tree) {
    return static_cast<std::size_t>(haystack_count * (with_tree ? 2 : 1) + (self_needles ? 0 : needle_count));
  }
  static std::size_t set_bytes(index_t haystack_count, index_t needle_count, bool self_needles, bool with_tree) {
    return in_count(haystack_count, needle_count, self_needles, with_tree) * sizeof(key_type) +
           static_cast<std::size_t>(self_needles ? haystack_count : needle_count) * sizeof(bound_type);
  }

  bench_context& b;
  const index_t haystack_count, needle_count;
  const bool self_needles, with_tree;
  const int sets;
  const std::string input;
  double copy_ms = not_measured, thrust_ms = not_measured;

  key_type* haystack(int s) const { return in_[static_cast<std::size_t>(s)].data(); }
  key_type* tree(int s) const { return haystack(s) + haystack_count; }  // with_tree only
  key_type* needles(int s) const {
    return self_needles ? haystack(s) : haystack(s) + haystack_count * (with_tree ? 2 : 1);
  }
  bound_type* out(int s) const { return out_[static_cast<std::size_t>(s)].data(); }
  const bound_type* ref() const { return ref_.data(); }

  std::string where() const {
    return "int32, " + log2_label(needle_count) + " needles into " + log2_label(haystack_count) + " keys (" + input +
           ")";
  }

  // Once set 0's haystack and needles are written: copies them to the other sets and builds every
  // set's tree. Untimed.
  void prepare_sets() {
    cudaStream_t stream = b.stream();
    for (int s = 1; s < sets; ++s)
      MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(haystack(s), haystack(0), in_[0].bytes(), cudaMemcpyDeviceToDevice, stream));
    if (with_tree)
      for (int s = 0; s < sets; ++s) mergepath::eytzinger_layout(b.ctx, haystack(s), haystack_count, tree(s));
    MERGEPATH_CUDA_CHECK(cudaStreamSynchronize(stream));
  }

  // Checks run(0) once (unless a baseline), times run(set) over the rotating sets and returns the
  // row (nothing when it failed with an error). Prints nothing.
  template <class Run>
  std::optional<result_row> measure(const std::string& algorithm, row_kind kind, Run&& run) {
    std::optional<result_row> result;
    b.guarded(algorithm + " (" + where() + ")", [&] {
      result_row r;
      r.algorithm = algorithm;
      r.key_type = "int32";
      r.input = input;
      r.n = haystack_count;
      r.a_count = needle_count;
      r.b_count = haystack_count;
      r.input_sets = sets;
      if (kind != row_kind::baseline) r.check = check_once(algorithm, kind, run);
      timing t = b.timer.measure(b.opts.warmup, b.reps_for(std::max(haystack_count, needle_count)), sets, run);
      // Needles read and bounds written (a layout: keys read and written); the haystack's probes
      // are not counted.
      index_t keys = kind == row_kind::layout ? haystack_count : needle_count;
      fill_rates(r, t, static_cast<double>(keys), 2.0 * static_cast<double>(keys) * sizeof(key_type));
      r.pct_copy = 100.0 * (kind == row_kind::baseline ? t.median_ms : copy_ms) / t.median_ms;
      if (kind == row_kind::ours) r.ratio_thrust = thrust_ms / t.median_ms;
      result = r;
    });
    return result;
  }

  // measure, then print the row under the current group. Returns the median ms (NaN on failure).
  template <class Run>
  double row(const std::string& algorithm, row_kind kind, Run&& run) {
    std::optional<result_row> r = measure(algorithm, kind, run);
    if (!r) return not_measured;
    b.add_row(*r);
    return r->ms_median;
  }

 private:
  template <class Run>
  std::string check_once(const std::string& algorithm, row_kind kind, Run& run) {
    cudaStream_t stream = b.stream();
    // Poison what the run writes: 0xA5A5A5A5 is no valid bound (negative).
    if (kind == row_kind::layout)
      MERGEPATH_CUDA_CHECK(
          cudaMemsetAsync(tree(0), 0xA5, static_cast<std::size_t>(haystack_count) * sizeof(key_type), stream));
    else
      MERGEPATH_CUDA_CHECK(cudaMemsetAsync(out(0), 0xA5, out_[0].bytes(), stream));
    run(0);
    MERGEPATH_CUDA_CHECK(cudaStreamSynchronize(stream));
    std::string problem;
    if (kind == row_kind::layout) {
      counters c = check_layout(haystack(0), tree(0), haystack_count, stream);
      if (c.bad)
        problem = std::to_string(c.bad) + " of " + std::to_string(haystack_count) +
                  " tree slots hold the wrong key (first at " + std::to_string(c.first_bad) + ")";
    } else if (kind == row_kind::reference) {
      counters c = check_lower_bounds(needles(0), needle_count, haystack(0), haystack_count, out(0), stream);
      if (c.bad)
        problem = std::to_string(c.bad) + " of " + std::to_string(needle_count) +
                  " bounds are not lower bounds (first at " + std::to_string(c.first_bad) + ")";
      MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(ref_.data(), out(0), ref_.bytes(), cudaMemcpyDeviceToDevice, stream));
      MERGEPATH_CUDA_CHECK(cudaStreamSynchronize(stream));
    } else {
      check_result c = check_keys<bound_type>(out(0), ref(), needle_count, stream);
      if (c.bad)
        problem = std::to_string(c.bad) + " of " + std::to_string(needle_count) +
                  " bounds differ from thrust::lower_bound's (first at " + std::to_string(c.first_bad) + ")";
    }
    if (problem.empty()) return "ok";
    b.fail("MISMATCH: " + algorithm + " (" + where() + "): " + problem);
    return "MISMATCH";
  }

  std::vector<device_buffer<key_type>> in_;
  std::vector<device_buffer<bound_type>> out_;
  device_buffer<bound_type> ref_;
};

// How many rotating sets fit (at least one), or 0 when not even one does: `extra` is memory the
// rows take besides the sets (reference, scratch of the algorithms).
int fitting_sets(bench_context& b, std::size_t set_bytes, std::size_t extra, const std::string& what) {
  auto needed = [&](int sets) { return static_cast<std::size_t>(sets) * set_bytes + extra + (std::size_t{768} << 20); };
  return b.fit_sets(b.rotation_sets(set_bytes), needed, what);
}

// batch_search's scratch on the sorting path, generously: needles, positions, bounds, and the
// radix sort's double buffers and temporaries.
std::size_t batch_scratch_bytes(index_t needle_count) {
  return static_cast<std::size_t>(needle_count) * (3 * sizeof(key_type) + 4 * sizeof(index_t));
}

std::string sets_label(int sets) { return std::to_string(sets) + " rotating input set" + (sets > 1 ? "s" : ""); }

// ---- Futhark's table on the GPU ---------------------------------------------------------------

void run_futhark_gpu(bench_context& b, int log2) {
  const index_t n = (index_t{1} << (log2 - 1)) - 1;
  std::size_t set_bytes = search_case::set_bytes(n, n, true, true);
  int sets = fitting_sets(b, set_bytes, static_cast<std::size_t>(n) * sizeof(bound_type),
                          "Futhark's table at " + log2_label(n) + " keys");
  if (sets == 0) return;
  search_case c(b, n, n, true, true, sets, input_futhark);
  sorted_random_keys(b, c.haystack(0), c.tree(0), n, static_cast<std::uint32_t>(n), 0x5eed004ull ^ std::uint64_t(log2));
  c.prepare_sets();

  cudaStream_t stream = b.stream();
  mergepath::cuda_context& ctx = b.ctx;
  auto policy = [&] { return thrust::cuda::par_nosync(b.allocator).on(stream); };
  b.begin_gpu_group("Futhark's table: int32, n = " + log2_label(n) + " sorted keys in [0, " + std::to_string(n) +
                        "), the array as its own needles, " + sets_label(sets) + ", " + std::to_string(b.reps_for(n)) +
                        " reps",
                    bench_context::versus::thrust);
  c.copy_ms = c.row(row_copy, row_kind::baseline, [&](int s) {
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(c.out(s), c.needles(s), static_cast<std::size_t>(n) * sizeof(key_type),
                                         cudaMemcpyDeviceToDevice, stream));
  });
  c.thrust_ms = c.row(row_thrust, row_kind::reference, [&](int s) {
    thrust::lower_bound(policy(), c.haystack(s), c.haystack(s) + n, c.needles(s), c.needles(s) + n, c.out(s));
  });
  double binary_ms = c.row(row_binary, row_kind::ours,
                           [&](int s) { mergepath::binary_search(ctx, c.needles(s), n, c.haystack(s), n, c.out(s)); });
  double layout_ms = c.row(row_layout, row_kind::layout,
                           [&](int s) { mergepath::eytzinger_layout(ctx, c.haystack(s), n, c.tree(s)); });
  double eytzinger_ms = c.row(row_eytzinger, row_kind::ours, [&](int s) {
    mergepath::eytzinger_search(ctx, c.needles(s), n, c.tree(s), n, c.out(s));
  });

  std::printf(
      "Futhark's table on this GPU: layout / copy = %s (%.1f / %.1f us), eytzinger / binary = %s (%.1f / %.1f us: "
      "eytzinger_search %sx binary_search)\n",
      fixed(layout_ms / c.copy_ms, 2).c_str(), 1e3 * layout_ms, 1e3 * c.copy_ms,
      fixed(eytzinger_ms / binary_ms, 2).c_str(), 1e3 * eytzinger_ms, 1e3 * binary_ms,
      fixed(binary_ms / eytzinger_ms, 2).c_str());
  std::printf(
      "Futhark's table, %s (2^25-1 keys): layout / copy = %.2f (%.0f / %.0f us), eytzinger / binary = %.2f "
      "(%.0f / %.0f us)\n",
      futhark_gpu.machine, futhark_gpu.layout_us / futhark_gpu.copy_us, futhark_gpu.layout_us, futhark_gpu.copy_us,
      futhark_gpu.eytzinger_us / futhark_gpu.binary_us, futhark_gpu.eytzinger_us, futhark_gpu.binary_us);
  std::fflush(stdout);
}

// ---- random needles on the GPU --------------------------------------------------------------------

void run_random_gpu(bench_context& b, int log2) {
  const index_t n = index_t{1} << log2;
  std::size_t set_bytes = search_case::set_bytes(n, n, false, true);
  int sets = fitting_sets(b, set_bytes, static_cast<std::size_t>(n) * sizeof(bound_type) + batch_scratch_bytes(n),
                          "random needles at " + log2_label(n));
  if (sets == 0) return;
  search_case c(b, n, n, false, true, sets, input_random);
  sorted_random_keys(b, c.haystack(0), c.tree(0), n, 0, 0x7261ull ^ std::uint64_t(log2));
  generate_random_keys<key_type>(c.needles(0), n, 0x6e65ull ^ std::uint64_t(log2), b.stream());
  c.prepare_sets();

  cudaStream_t stream = b.stream();
  mergepath::cuda_context& ctx = b.ctx;
  auto policy = [&] { return thrust::cuda::par_nosync(b.allocator).on(stream); };
  search_strategy chosen = mergepath::search_strategy_for(true, n, n);
  b.begin_gpu_group("random needles: int32, " + log2_label(n) + " unsorted needles uniform over int32 into " +
                        log2_label(n) + " sorted random keys, " + sets_label(sets) + ", " +
                        std::to_string(b.reps_for(n)) + " reps",
                    bench_context::versus::thrust);
  c.copy_ms = c.row(row_copy, row_kind::baseline, [&](int s) {
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(c.out(s), c.needles(s), static_cast<std::size_t>(n) * sizeof(key_type),
                                         cudaMemcpyDeviceToDevice, stream));
  });
  c.thrust_ms = c.row(row_thrust, row_kind::reference, [&](int s) {
    thrust::lower_bound(policy(), c.haystack(s), c.haystack(s) + n, c.needles(s), c.needles(s) + n, c.out(s));
  });
  c.row(row_binary, row_kind::ours,
        [&](int s) { mergepath::binary_search(ctx, c.needles(s), n, c.haystack(s), n, c.out(s)); });
  c.row(row_layout, row_kind::layout, [&](int s) { mergepath::eytzinger_layout(ctx, c.haystack(s), n, c.tree(s)); });
  c.row(row_eytzinger, row_kind::ours,
        [&](int s) { mergepath::eytzinger_search(ctx, c.needles(s), n, c.tree(s), n, c.out(s)); });
  c.row(row_sort_then_search, row_kind::ours, [&](int s) {
    mergepath::batch_search(ctx, c.needles(s), n, c.haystack(s), n, c.out(s), mergepath::less<>{},
                            search_strategy::sort_then_search);
  });
  c.row(row_automatic, row_kind::ours,
        [&](int s) { mergepath::batch_search(ctx, c.needles(s), n, c.haystack(s), n, c.out(s)); });
  std::printf(
      "(automatic chose %s: search_strategy_for(true, %s, %s); eytzinger_search's tree built untimed, "
      "its layout timed on the layout row)\n",
      mergepath::to_string(chosen), log2_label(n).c_str(), log2_label(n).c_str());
  std::fflush(stdout);
}

// ---- the crossover of the automatic mode on the GPU ---------------------------------------------

void print_crossover_header(const std::string& title, bool with_thrust) {
  std::printf("\n--- %s\n", title.c_str());
  std::printf("%-8s %12s %15s %20s  %-28s %-40s %s\n", "needles", with_thrust ? "thrust ms" : "", "per_needle ms",
              "sort_then_search ms", "faster", "automatic chose", "check");
}

// One line of a crossover table; returns whether automatic chose the faster strategy.
bool print_crossover_line(index_t needles, double thrust_ms, double per_ms, double sort_ms, search_strategy chosen,
                          const std::string& check) {
  bool per_faster = per_ms <= sort_ms;
  std::string faster = per_faster ? "per_needle" : "sort_then_search";
  faster += " (" + fixed(per_faster ? sort_ms / per_ms : per_ms / sort_ms, 2) + "x)";
  if (std::isnan(per_ms) || std::isnan(sort_ms)) faster = "-";
  double chosen_ms = chosen == search_strategy::per_needle ? per_ms : sort_ms;
  double best_ms = std::min(per_ms, sort_ms);
  bool right = chosen_ms <= best_ms;
  std::string automatic = mergepath::to_string(chosen);
  automatic += right ? " (the faster)" : " (" + fixed(chosen_ms / best_ms, 2) + "x the faster's time)";
  std::printf("%-8s %12s %15s %20s  %-28s %-40s %s\n", log2_label(needles).c_str(),
              std::isnan(thrust_ms) ? "" : fixed(thrust_ms, 4).c_str(), fixed(per_ms, 4).c_str(),
              fixed(sort_ms, 4).c_str(), faster.c_str(), automatic.c_str(), check.c_str());
  std::fflush(stdout);
  return right;
}

void run_crossover_gpu(bench_context& b, int hay_log2, int lo_log2, int hi_log2) {
  const index_t hay = index_t{1} << hay_log2;
  mergepath::cuda_context& ctx = b.ctx;
  cudaStream_t stream = b.stream();
  auto policy = [&] { return thrust::cuda::par_nosync(b.allocator).on(stream); };
  print_crossover_header("crossover (GPU): batch_search per_needle vs sort_then_search, int32, haystack " +
                             log2_label(hay) + " sorted random keys, random unsorted needles (times: medians of " +
                             std::to_string(b.reps_for(hay)) + " reps; thrust::lower_bound beside them)",
                         true);
  int right = 0, points = 0;
  for (int l = lo_log2; l <= hi_log2; l += 2) {
    const index_t m = index_t{1} << l;
    b.guarded("crossover (" + log2_label(m) + " needles into " + log2_label(hay) + ")", [&] {
      std::size_t set_bytes = search_case::set_bytes(hay, m, false, false);
      int sets = fitting_sets(b, set_bytes, static_cast<std::size_t>(m) * sizeof(bound_type) + batch_scratch_bytes(m),
                              "crossover at " + log2_label(m) + " needles into " + log2_label(hay));
      if (sets == 0) return;
      search_case c(b, hay, m, false, false, sets, input_crossover);
      {
        device_buffer<key_type> scratch(static_cast<std::size_t>(hay), "haystack scratch");
        sorted_random_keys(b, c.haystack(0), scratch.data(), hay, 0, 0x6372ull ^ std::uint64_t(hay_log2));
      }
      generate_random_keys<key_type>(c.needles(0), m, 0x6e64ull ^ std::uint64_t(l), stream);
      c.prepare_sets();
      auto keep = [&](std::optional<result_row> r) {
        if (!r) return not_measured;
        b.rows.push_back(*r);
        return r->ms_median;
      };
      c.thrust_ms = keep(c.measure(row_thrust, row_kind::reference, [&](int s) {
        thrust::lower_bound(policy(), c.haystack(s), c.haystack(s) + hay, c.needles(s), c.needles(s) + m, c.out(s));
      }));
      std::size_t failures = b.failures.size();
      double per_ms = keep(c.measure(row_per_needle, row_kind::ours, [&](int s) {
        mergepath::batch_search(ctx, c.needles(s), m, c.haystack(s), hay, c.out(s), mergepath::less<>{},
                                search_strategy::per_needle);
      }));
      double sort_ms = keep(c.measure(row_sort_then_search, row_kind::ours, [&](int s) {
        mergepath::batch_search(ctx, c.needles(s), m, c.haystack(s), hay, c.out(s), mergepath::less<>{},
                                search_strategy::sort_then_search);
      }));
      std::string check = b.failures.size() == failures ? "ok" : "MISMATCH";
      ++points;
      right +=
          print_crossover_line(m, c.thrust_ms, per_ms, sort_ms, mergepath::search_strategy_for(true, m, hay), check);
    });
  }
  std::printf("automatic chose the faster strategy at %d of %d needle counts (haystack %s)\n", right, points,
              log2_label(hay).c_str());
}

// ---- CPU --------------------------------------------------------------------------------------------

int cpu_reps(const bench_context& b) { return b.opts.quick ? 1 : 3; }

void parallel_copy(const key_type* in, index_t n, key_type* out, int threads) {
#if defined(_OPENMP)
#pragma omp parallel for num_threads(threads) schedule(static)
#endif
  for (int t = 0; t < threads; ++t) {
    index_t begin = n * t / threads, end = n * (t + 1) / threads;
    std::memcpy(out + begin, in + begin, static_cast<std::size_t>(end - begin) * sizeof(key_type));
  }
}

// std::lower_bound of each needle, on the context's threads (an untimed reference).
std::vector<bound_type> std_lower_bounds(const std::vector<key_type>& needles, const std::vector<key_type>& haystack,
                                         int threads) {
  std::vector<bound_type> out(needles.size());
  auto count = static_cast<std::int64_t>(needles.size());
#if defined(_OPENMP)
#pragma omp parallel for num_threads(threads) schedule(static)
#endif
  for (std::int64_t i = 0; i < count; ++i)
    out[static_cast<std::size_t>(i)] = static_cast<bound_type>(
        std::lower_bound(haystack.begin(), haystack.end(), needles[static_cast<std::size_t>(i)]) - haystack.begin());
  (void)threads;
  return out;
}

// The first position where got and want differ, or -1.
index_t first_difference(const std::vector<bound_type>& got, const std::vector<bound_type>& want) {
  if (got.size() != want.size()) return 0;
  auto at = std::mismatch(got.begin(), got.end(), want.begin());
  return at.first == got.end() ? -1 : static_cast<index_t>(at.first - got.begin());
}

struct cpu_group {
  bench_context& b;
  std::string input;
  index_t haystack_count, needle_count;
  int threads;

  result_row base() const {
    result_row r;
    r.backend = "cpu";
    r.key_type = "int32";
    r.input = input;
    r.n = haystack_count;
    r.a_count = needle_count;
    r.b_count = haystack_count;
    r.threads = threads;
    r.check = "ok";
    return r;
  }
  // Prints a row: keys per run, timing, the std reference's ms (NaN: no "vs std").
  double add(const std::string& algorithm, index_t keys, const timing& t, double std_ms, const std::string& check,
             int row_threads) {
    result_row r = base();
    r.algorithm = algorithm;
    r.threads = row_threads;
    r.check = check;
    fill_rates(r, t, static_cast<double>(keys), 2.0 * static_cast<double>(keys) * sizeof(key_type));
    r.ratio_std = std_ms / t.median_ms;
    b.add_row(r);
    return t.median_ms;
  }
  // "ok", or "MISMATCH" after a loud failure.
  std::string verify(const std::string& algorithm, const std::vector<bound_type>& got,
                     const std::vector<bound_type>& want) {
    index_t at = first_difference(got, want);
    if (at < 0) return "ok";
    b.fail("MISMATCH: " + algorithm + " on host_context(" + std::to_string(threads) + ") (int32, " +
           log2_label(needle_count) + " needles into " + log2_label(haystack_count) + " keys, " + input +
           "): differs from std::lower_bound (first at " + std::to_string(at) + ")");
    return "MISMATCH";
  }
};

// Futhark's table on the CPU: std::lower_bound per needle on one thread, then mergepath on
// host_context with all its threads.
void run_futhark_cpu(bench_context& b, const std::vector<key_type>& sorted) {
  mergepath::host_context ctx;
  const int threads = ctx.num_threads();
  const auto n = static_cast<index_t>(sorted.size());
  const int reps = cpu_reps(b);
  cpu_group g{b, input_futhark, n, n, threads};
  b.begin_cpu_group("CPU, Futhark's table: int32, n = " + log2_label(n) + " sorted keys in [0, " + std::to_string(n) +
                    "), the array as its own needles; host_context with " + std::to_string(threads) +
                    " threads; median of " + std::to_string(reps) + ", no warm-up");
  std::vector<bound_type> want(sorted.size()), got(sorted.size());
  timing std_t = measure_host(0, reps, [&] {
    for (std::size_t i = 0; i < sorted.size(); ++i)
      want[i] = static_cast<bound_type>(std::lower_bound(sorted.begin(), sorted.end(), sorted[i]) - sorted.begin());
  });
  g.add(row_std, n, std_t, std_t.median_ms, "ok", 1);

  std::vector<key_type> copy(sorted.size()), tree(sorted.size());
  timing copy_t = measure_host(1, reps, [&] { parallel_copy(sorted.data(), n, copy.data(), threads); });
  g.add(row_cpu_copy, n, copy_t, not_measured, "-", threads);

  // The layout, checked against the Futhark example's closed formula (the tree is perfect) or the in-order rank.
  std::fill(tree.begin(), tree.end(), key_type{-1});
  mergepath::eytzinger_layout(ctx, sorted.data(), n, tree.data());
  index_t bad = -1;
  for (index_t i = 0; i < n && bad < 0; ++i) {
    index_t rank = perfect_tree(n) ? futhark_eytzinger_index(n, i) : in_order_rank(i + 1, n);
    if (tree[static_cast<std::size_t>(i)] != sorted[static_cast<std::size_t>(rank)]) bad = i;
  }
  std::string layout_check = "ok";
  if (bad >= 0) {
    layout_check = "MISMATCH";
    b.fail("MISMATCH: mergepath::eytzinger_layout on host_context(" + std::to_string(threads) + ") (int32, " +
           log2_label(n) + " keys): the tree differs from the in-order layout (first at slot " + std::to_string(bad) +
           ")");
  }
  timing layout_t = measure_host(0, reps, [&] { mergepath::eytzinger_layout(ctx, sorted.data(), n, tree.data()); });
  double layout_ms = g.add(row_cpu_layout, n, layout_t, not_measured, layout_check, threads);

  std::fill(got.begin(), got.end(), bound_type{-1});
  mergepath::binary_search(ctx, sorted.data(), n, sorted.data(), n, got.data());
  std::string check = g.verify(row_cpu_binary, got, want);
  timing binary_t =
      measure_host(0, reps, [&] { mergepath::binary_search(ctx, sorted.data(), n, sorted.data(), n, got.data()); });
  double binary_ms = g.add(row_cpu_binary, n, binary_t, std_t.median_ms, check, threads);

  std::fill(got.begin(), got.end(), bound_type{-1});
  mergepath::eytzinger_search(ctx, sorted.data(), n, tree.data(), n, got.data());
  check = g.verify(row_cpu_eytzinger, got, want);
  timing eytzinger_t =
      measure_host(0, reps, [&] { mergepath::eytzinger_search(ctx, sorted.data(), n, tree.data(), n, got.data()); });
  double eytzinger_ms = g.add(row_cpu_eytzinger, n, eytzinger_t, std_t.median_ms, check, threads);

  std::printf(
      "Futhark's table on this CPU (%d threads): layout / copy = %s (%.1f / %.1f ms), eytzinger / binary = %s "
      "(%.1f / %.1f ms: eytzinger_search %sx binary_search)\n",
      threads, fixed(layout_ms / copy_t.median_ms, 2).c_str(), layout_ms, copy_t.median_ms,
      fixed(eytzinger_ms / binary_ms, 2).c_str(), eytzinger_ms, binary_ms, fixed(binary_ms / eytzinger_ms, 2).c_str());
  std::printf(
      "Futhark's table, %s (2^25-1 keys): layout / copy = %.2f (%.1f / %.1f ms), eytzinger / binary = %.2f "
      "(%.1f / %.1f ms)\n",
      futhark_cpu.machine, futhark_cpu.layout_us / futhark_cpu.copy_us, futhark_cpu.layout_us / 1e3,
      futhark_cpu.copy_us / 1e3, futhark_cpu.eytzinger_us / futhark_cpu.binary_us, futhark_cpu.eytzinger_us / 1e3,
      futhark_cpu.binary_us / 1e3);
  std::fflush(stdout);
}

// eytzinger_search against binary_search on the CPU: random needles in [0, n) into the keys of Futhark's table.
void run_random_cpu(bench_context& b, const std::vector<key_type>& sorted, index_t needle_count) {
  mergepath::host_context ctx;
  const int threads = ctx.num_threads();
  const auto n = static_cast<index_t>(sorted.size());
  const int reps = cpu_reps(b);
  std::vector<key_type> needles(static_cast<std::size_t>(needle_count));
  for (std::size_t i = 0; i < needles.size(); ++i)
    needles[i] = static_cast<key_type>(splitmix64(0x63707572ull ^ splitmix64(i)) % static_cast<std::uint64_t>(n));
  std::vector<key_type> tree(sorted.size());
  mergepath::eytzinger_layout(ctx, sorted.data(), n, tree.data());

  cpu_group g{b, input_random, n, needle_count, threads};
  b.begin_cpu_group("CPU, random needles: int32, " + log2_label(needle_count) + " needles uniform over [0, " +
                    std::to_string(n) + ") into the " + log2_label(n) + " keys of Futhark's table; host_context with " +
                    std::to_string(threads) + " threads; tree built untimed; median of " + std::to_string(reps));
  std::vector<bound_type> want(needles.size()), got(needles.size());
  timing std_t = measure_host(0, reps, [&] {
    for (std::size_t i = 0; i < needles.size(); ++i)
      want[i] = static_cast<bound_type>(std::lower_bound(sorted.begin(), sorted.end(), needles[i]) - sorted.begin());
  });
  g.add(row_std, needle_count, std_t, std_t.median_ms, "ok", 1);

  std::fill(got.begin(), got.end(), bound_type{-1});
  mergepath::binary_search(ctx, needles.data(), needle_count, sorted.data(), n, got.data());
  std::string check = g.verify(row_cpu_binary, got, want);
  timing binary_t = measure_host(
      0, reps, [&] { mergepath::binary_search(ctx, needles.data(), needle_count, sorted.data(), n, got.data()); });
  double binary_ms = g.add(row_cpu_binary, needle_count, binary_t, std_t.median_ms, check, threads);

  std::fill(got.begin(), got.end(), bound_type{-1});
  mergepath::eytzinger_search(ctx, needles.data(), needle_count, tree.data(), n, got.data());
  check = g.verify(row_cpu_eytzinger, got, want);
  timing eytzinger_t = measure_host(
      0, reps, [&] { mergepath::eytzinger_search(ctx, needles.data(), needle_count, tree.data(), n, got.data()); });
  double eytzinger_ms = g.add(row_cpu_eytzinger, needle_count, eytzinger_t, std_t.median_ms, check, threads);
  std::printf("eytzinger_search %sx binary_search on %d threads (random needles)\n",
              fixed(binary_ms / eytzinger_ms, 2).c_str(), threads);
  std::fflush(stdout);
}

// The crossover on the CPU: batch_search per_needle against sort_then_search, all threads.
void run_crossover_cpu(bench_context& b, int hay_log2, int lo_log2, int hi_log2) {
  mergepath::host_context ctx;
  const int threads = ctx.num_threads();
  const index_t hay = index_t{1} << hay_log2;
  const int reps = cpu_reps(b);
  std::vector<key_type> haystack(static_cast<std::size_t>(hay));
  for (std::size_t i = 0; i < haystack.size(); ++i)
    haystack[i] = static_cast<key_type>(static_cast<std::uint32_t>(splitmix64(0x68617973ull ^ splitmix64(i))));
  std::sort(haystack.begin(), haystack.end());
  print_crossover_header("crossover (CPU, host_context with " + std::to_string(threads) +
                             " threads): batch_search per_needle vs sort_then_search, int32, haystack " +
                             log2_label(hay) + " sorted random keys, random unsorted needles (median of " +
                             std::to_string(reps) + ", after the checked run)",
                         false);
  int right = 0, points = 0;
  for (int l = lo_log2; l <= hi_log2; l += 2) {
    const index_t m = index_t{1} << l;
    std::vector<key_type> needles(static_cast<std::size_t>(m));
    for (std::size_t i = 0; i < needles.size(); ++i)
      needles[i] = static_cast<key_type>(
          static_cast<std::uint32_t>(splitmix64((0x6e6565ull + std::uint64_t(l)) ^ splitmix64(i))));
    std::vector<bound_type> want = std_lower_bounds(needles, haystack, threads), got(needles.size());
    cpu_group g{b, input_crossover, hay, m, threads};
    std::string check = "ok";
    auto one = [&](const std::string& algorithm, search_strategy s) {
      auto run = [&] {
        mergepath::batch_search(ctx, needles.data(), m, haystack.data(), hay, got.data(), mergepath::less<>{}, s);
      };
      std::fill(got.begin(), got.end(), bound_type{-1});
      run();
      std::string c = g.verify(algorithm, got, want);
      if (c != "ok") check = c;
      timing t = measure_host(0, reps, run);
      result_row r = g.base();
      r.algorithm = algorithm;
      r.check = c;
      fill_rates(r, t, static_cast<double>(m), 2.0 * static_cast<double>(m) * sizeof(key_type));
      b.rows.push_back(r);
      return t.median_ms;
    };
    double per_ms = one(row_cpu_per_needle, search_strategy::per_needle);
    double sort_ms = one(row_cpu_sort_then_search, search_strategy::sort_then_search);
    ++points;
    right +=
        print_crossover_line(m, not_measured, per_ms, sort_ms, mergepath::search_strategy_for(false, m, hay), check);
  }
  std::printf("automatic chose the faster strategy at %d of %d needle counts (haystack %s, CPU)\n", right, points,
              log2_label(hay).c_str());
}

// The keys of Futhark's table, generated on the GPU as for the GPU table, copied to the host.
std::vector<key_type> futhark_keys_on_host(bench_context& b, int log2) {
  const index_t n = (index_t{1} << (log2 - 1)) - 1;
  device_buffer<key_type> keys(static_cast<std::size_t>(2 * n), "keys of Futhark's table");
  sorted_random_keys(b, keys.data(), keys.data() + n, n, static_cast<std::uint32_t>(n),
                     0x5eed004ull ^ std::uint64_t(log2));
  return to_host(keys.data(), n, b.stream());
}

// ---- the headline ---------------------------------------------------------------------------------

const result_row* find_row(const bench_context& b, const std::string& algorithm, const std::string& input, index_t n,
                           const std::string& backend = "gpu") {
  for (auto r = b.rows.rbegin(); r != b.rows.rend(); ++r)
    if (r->algorithm == algorithm && r->input == input && r->n == n && r->backend == backend) return &*r;
  return nullptr;
}

// time of `slow` / time of `fast` (both rows found), else NaN.
double speedup(const result_row* fast, const result_row* slow) {
  return fast && slow ? slow->ms_median / fast->ms_median : not_measured;
}

// The suite's size: log2 of the random needle count (and haystack); Futhark's table is 2^(log2-1) - 1.
bool supported(bench_context& b, int log2) {
  if (log2 < 8 || log2 > 30) {
    b.note("skipping binary search at n = 2^" + std::to_string(log2) +
           ": the suite runs from 2^8 (its sweeps) to 2^30 (int32 bounds)");
    return false;
  }
  return true;
}

}  // namespace

void run_binary_search_bench(bench_context& b) {
  if (!b.wants_key_type("int32")) {
    b.note("binary_search runs with int32 keys only, and --types has no int32: skipped");
    return;
  }
  for (int log2 : b.opts.binary_search_log2_sizes) {
    if (!supported(b, log2)) continue;
    const index_t n = index_t{1} << log2;
    b.guarded("Futhark's table (GPU, 2^" + std::to_string(log2 - 1) + "-1 keys)", [&] { run_futhark_gpu(b, log2); });
    b.guarded("random needles (GPU, 2^" + std::to_string(log2) + ")", [&] { run_random_gpu(b, log2); });
    // The crossover: haystack n with needles from 2^(log2-12) to n, and a haystack 64x smaller.
    const int lo = std::max(log2 - 12, 4);
    b.guarded("crossover (GPU, haystack 2^" + std::to_string(log2) + ")",
              [&] { run_crossover_gpu(b, log2, lo, log2); });
    b.guarded("crossover (GPU, haystack 2^" + std::to_string(log2 - 6) + ")",
              [&] { run_crossover_gpu(b, log2 - 6, lo, log2 - 2); });

    if (b.wants_cpu_rows("int32", n)) {
      b.guarded("Futhark's table (CPU)", [&] {
        std::vector<key_type> sorted = futhark_keys_on_host(b, log2);
        run_futhark_cpu(b, sorted);
        run_random_cpu(b, sorted, index_t{1} << (log2 - 4));
      });
      b.guarded("crossover (CPU)", [&] { run_crossover_cpu(b, log2 - 4, std::max(log2 - 14, 2), log2 - 4); });
    }

    std::fflush(stdout);
  }
}

// The headline at 2^26 (or the largest size run): against Thrust and between the searches on
// random needles, Futhark's table's two ratios and the CPU's.
std::string binary_search_summary(const bench_context& b, index_t* size_out) {
  int log2 = 0;
  bool preferred = false;
  for (const result_row& r : b.rows)
    if (r.algorithm == row_binary && r.input == input_random && r.backend == "gpu") {
      int l = 0;
      while ((index_t{1} << l) < r.n) ++l;
      preferred = preferred || l == 26;
      log2 = std::max(log2, l);
    }
  if (preferred) log2 = 26;
  if (log2 == 0) return "";
  const index_t n = index_t{1} << log2, futhark_n = (index_t{1} << (log2 - 1)) - 1;
  *size_out = n;
  auto ratio = [](double v) { return bench_context::ratio(v); };
  const result_row* binary = find_row(b, row_binary, input_random, n);
  const result_row* eytzinger = find_row(b, row_eytzinger, input_random, n);
  const result_row* automatic = find_row(b, row_automatic, input_random, n);
  const result_row* layout = find_row(b, row_layout, input_futhark, futhark_n);
  const result_row* copy = find_row(b, row_copy, input_futhark, futhark_n);
  const result_row* futhark_binary = find_row(b, row_binary, input_futhark, futhark_n);
  const result_row* futhark_eytzinger = find_row(b, row_eytzinger, input_futhark, futhark_n);
  const result_row* cpu_binary = find_row(b, row_cpu_binary, input_random, futhark_n, "cpu");
  const result_row* cpu_eytzinger = find_row(b, row_cpu_eytzinger, input_random, futhark_n, "cpu");
  std::string text =
      "binary search, random needles: binary_search " + ratio(binary ? binary->ratio_thrust : not_measured) +
      " Thrust, eytzinger_search " + ratio(speedup(eytzinger, binary)) + " binary_search, batch_search automatic " +
      ratio(automatic ? automatic->ratio_thrust : not_measured) + " Thrust; Futhark's table (" + log2_label(futhark_n) +
      "): layout " + ratio(layout && copy ? layout->ms_median / copy->ms_median : not_measured) +
      " copy's time, eytzinger_search " + ratio(speedup(futhark_eytzinger, futhark_binary)) +
      " binary_search; CPU eytzinger_search " + ratio(speedup(cpu_eytzinger, cpu_binary)) +
      " binary_search (random needles)";
  return text;
}

// The suite as bench_main.cu lists it.
const suite binary_search_suite = {
    "binary_search",
    "binary_search, eytzinger_layout / _search, batch_search vs thrust::lower_bound; Futhark's table; crossover; CPU rows",
    run_binary_search_bench, binary_search_summary, &options::binary_search_log2_sizes};

}  // namespace bench
