// The sorted search suite: mergepath::sorted_search, the lower bound of A into B and the complete
// search (both directions, with match flags), against thrust::lower_bound on the same sorted
// needles and on the needles shuffled, and a device-to-device copy of the same bytes (the floor:
// a search reads A and B and writes its outputs once). int32 keys and outputs; |A|:|B| = 1:1, 1:16,
// 1:32, 1:256 and 16:1, the larger side n. CPU rows against std::lower_bound per needle.
#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>
#include <thrust/random.h>
#include <thrust/shuffle.h>
#include <thrust/transform.h>

#include <algorithm>
#include <cmath>
#include <mergepath/sorted_search.hpp>
#include <tuple>
#include <type_traits>
#include <vector>

#include "bench_util.cuh"

namespace bench {
namespace {

using key_type = std::int32_t;
using bound_type = std::int32_t;  // the outputs; search::index_match flags a match in the top bit
constexpr std::uint32_t match_bit = 0x80000000u;
using mergepath::bounds;
using mergepath::search;

// At or below this size the outputs are also compared with std::lower_bound / upper_bound on the
// host: an oracle that shares nothing with the device check.
constexpr index_t host_oracle_max = index_t{1} << 20;

// |A| = n >> a_shift, |B| = n >> b_shift; A's keys take needle_keys values spread over the range
// where it is positive (few distinct needles pile into few places of B), or bunch toward its low
// end where skewed (the range times u^4: a tenth of B's range holds half the needles).
struct shape {
  const char* label;  // A:B
  int a_shift, b_shift;
  int needle_keys = 0;
  bool skewed = false;
};
constexpr shape shapes[] = {{"1:1", 0, 0},
                            {"1:16", 4, 0},
                            {"1:16, 16 distinct needle keys", 4, 0, 16},
                            {"1:16, skewed needle keys", 4, 0, 0, true},
                            {"1:32", 5, 0},
                            {"1:32, skewed needle keys", 5, 0, 0, true},
                            {"1:64, 16 distinct needle keys", 6, 0, 16},
                            {"1:256", 8, 0},
                            {"1:256, 16 distinct needle keys", 8, 0, 16},
                            {"16:1", 0, 4}};

// What a row writes, which decides its bytes, its baselines and its check.
enum class outputs {
  a_lower,           // the lower bound of A into B
  a_lower_shuffled,  // the same for the shuffled needles (in shuffled order)
  both,              // and the upper bound of B into A
  both_flagged,      // both, each with the match bit
};
bool writes_both(outputs o) { return o == outputs::both || o == outputs::both_flagged; }

enum class row_kind {
  baseline,     // copy: not checked, is the %copy reference
  reference,    // thrust with sorted needles: checked, is the "vs Thrust" reference
  ours,         // mergepath: checked, gets "vs Thrust"
  third_party,  // thrust with shuffled needles: checked
};

// ---- checks -----------------------------------------------------------------------------------

constexpr int check_threads = 256;

int grid_for(index_t count) {
  index_t blocks = (count + check_threads - 1) / check_threads;
  return static_cast<int>(std::clamp<index_t>(blocks, 1, 8192));
}

struct bound_counters {
  unsigned long long bad, first_bad, flagged;
};

// Whether `out` is the right output for `key`: its bound part is the lower (upper) bound of key
// in haystack, that is everything before it orders before key (not after it, for upper) and
// everything from it on the other way round, which one index satisfies; and with match_flags its
// top bit says whether haystack holds an equal key (else the top bit is clear).
template <bounds Bounds>
__host__ __device__ bool right_output(key_type key, const key_type* haystack, index_t haystack_count, bound_type out,
                                      bool match_flags) {
  constexpr bool lower = Bounds == bounds::lower;
  auto bits = static_cast<std::uint32_t>(out);
  index_t bound = match_flags ? (bits & ~match_bit) : bits;
  if (bound > haystack_count) return false;
  bool before = bound == 0 || (lower ? haystack[bound - 1] < key : !(key < haystack[bound - 1]));
  bool after = bound == haystack_count || (lower ? !(haystack[bound] < key) : key < haystack[bound]);
  // The one key that can be equal: the bound's own (lower) or the one before it (upper).
  bool match = lower ? bound < haystack_count && haystack[bound] == key : bound > 0 && haystack[bound - 1] == key;
  bool flag = bits & match_bit;
  return before && after && (!match_flags || flag == match);
}

// Checks out[i] for every needle (right_output) and counts the match bits set.
template <bounds Bounds>
__global__ void check_bounds_kernel(const key_type* needles, index_t count, const key_type* haystack,
                                    index_t haystack_count, const bound_type* out, bool match_flags,
                                    bound_counters* c) {
  unsigned long long flagged = 0;
  for (index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<index_t>(gridDim.x) * blockDim.x) {
    if (!right_output<Bounds>(needles[i], haystack, haystack_count, out[i], match_flags)) {
      atomicAdd(&c->bad, 1ull);
      atomicMin(&c->first_bad, static_cast<unsigned long long>(i));
    }
    flagged += match_flags && (static_cast<std::uint32_t>(out[i]) & match_bit);
  }
  if (flagged) atomicAdd(&c->flagged, flagged);
}

// Runs check_bounds_kernel and waits for its counts.
template <bounds Bounds>
bound_counters check_bounds(const key_type* needles, index_t count, const key_type* haystack, index_t haystack_count,
                            const bound_type* out, bool match_flags, cudaStream_t stream) {
  device_buffer<bound_counters> d(1, "bound check counters");
  MERGEPATH_CUDA_CHECK(cudaMemsetAsync(d.data(), 0, sizeof(bound_counters), stream));
  MERGEPATH_CUDA_CHECK(cudaMemsetAsync(&d.data()->first_bad, 0xff, sizeof(unsigned long long), stream));
  if (count > 0)
    mergepath::detail::launch("check_bounds_kernel", check_bounds_kernel<Bounds>, grid_for(count), check_threads, 0,
                              stream, needles, count, haystack, haystack_count, out, match_flags, d.data());
  bound_counters h{};
  MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(&h, d.data(), sizeof h, cudaMemcpyDeviceToHost, stream));
  MERGEPATH_CUDA_CHECK(cudaStreamSynchronize(stream));
  return h;
}

// The host oracle: std::lower_bound (upper_bound) of each needle, with the match bit if asked.
std::vector<bound_type> host_bounds(const std::vector<key_type>& needles, const std::vector<key_type>& haystack,
                                    bounds which, bool match_flags) {
  std::vector<bound_type> out;
  out.reserve(needles.size());
  for (key_type key : needles) {
    bool lower = which == bounds::lower;
    auto at = lower ? std::lower_bound(haystack.begin(), haystack.end(), key)
                    : std::upper_bound(haystack.begin(), haystack.end(), key);
    bool match = lower ? at != haystack.end() && *at == key : at != haystack.begin() && *(at - 1) == key;
    auto bound = static_cast<std::uint32_t>(at - haystack.begin());
    out.push_back(static_cast<bound_type>(match_flags && match ? bound | match_bit : bound));
  }
  return out;
}

// ---- one size and shape -------------------------------------------------------------------------

// The inputs and outputs of every row at one size and shape. Each of `sets` input sets is one
// allocation [A | B | A shuffled], each output set [A's outputs | B's outputs]; a run on set s
// touches only set s.
class search_case {
 public:
  search_case(bench_context& bench, const shape& sh, index_t n, int sets)
      : bench(bench), sh(sh), n(n), a_count(n >> sh.a_shift), b_count(n >> sh.b_shift), sets(sets) {
    for (int s = 0; s < sets; ++s) {
      in_.emplace_back(static_cast<std::size_t>(2 * a_count + b_count), "sorted search inputs");
      out_.emplace_back(static_cast<std::size_t>(a_count + b_count), "sorted search outputs");
    }
  }

  bench_context& bench;
  const shape sh;
  const index_t n, a_count, b_count;
  const int sets;
  double copy_ms = not_measured, copy_both_ms = not_measured;      // the %copy references
  double thrust_ms = not_measured, thrust_both_ms = not_measured;  // the "vs Thrust" references
  mergepath::match_counts reported;  // what the last complete search with match flags returned

  key_type* a(int s) const { return in_[static_cast<std::size_t>(s)].data(); }
  key_type* b(int s) const { return a(s) + a_count; }
  key_type* a_shuffled(int s) const { return b(s) + b_count; }
  bound_type* a_out(int s) const { return out_[static_cast<std::size_t>(s)].data(); }
  bound_type* b_out(int s) const { return a_out(s) + a_count; }
  std::size_t in_bytes() const { return in_[0].bytes(); }
  std::size_t out_bytes() const { return out_[0].bytes(); }

  // Bytes a row reads and writes: A and B, and one output per needle searched.
  double bytes(outputs o) const {
    index_t needles = writes_both(o) ? a_count + b_count : a_count;
    return static_cast<double>((a_count + b_count + needles) * static_cast<index_t>(sizeof(key_type)));
  }

  std::string where() const {
    return "int32, |A| = " + log2_label(a_count) + ", |B| = " + log2_label(b_count) + " (A:B = " + sh.label + ")";
  }

  // Checks run(0) once into poisoned outputs (unless a baseline), times run(set) over the rotating
  // sets and prints the row. Returns the median ms (NaN when the row failed).
  template <class Run>
  double row(const std::string& algorithm, row_kind kind, outputs o, Run&& run) {
    result_row r;
    r.algorithm = algorithm;
    r.key_type = "int32";
    r.n = n;
    r.a_count = a_count;
    r.b_count = b_count;
    r.input_sets = sets;
    double ms = not_measured;
    bench.guarded(algorithm + " (" + where() + ")", [&] {
      if (kind != row_kind::baseline) r.check = check_once(algorithm, o, run);
      timing t = bench.timer.measure(bench.opts.warmup, bench.reps_for(n), sets, run);
      bool both = writes_both(o);
      fill_rates(r, t, static_cast<double>(both ? a_count + b_count : a_count), bytes(o));
      double copy = kind == row_kind::baseline ? t.median_ms : (both ? copy_both_ms : copy_ms);
      r.pct_copy = 100.0 * copy / t.median_ms;
      if (kind == row_kind::ours) r.ratio_thrust = (both ? thrust_both_ms : thrust_ms) / t.median_ms;
      bench.add_row(r);
      ms = t.median_ms;
    });
    return ms;
  }

 private:
  template <class Run>
  std::string check_once(const std::string& algorithm, outputs o, Run& run) {
    cudaStream_t stream = bench.stream();
    // Poison the outputs: 0xA5A5A5A5 is no valid bound, flagged or not.
    MERGEPATH_CUDA_CHECK(cudaMemsetAsync(a_out(0), 0xA5, out_bytes(), stream));
    run(0);
    MERGEPATH_CUDA_CHECK(cudaStreamSynchronize(stream));

    const key_type* needles = o == outputs::a_lower_shuffled ? a_shuffled(0) : a(0);
    bool flags = o == outputs::both_flagged;
    std::string problems;
    auto report = [&](const std::string& text) { problems += (problems.empty() ? "" : "; ") + text; };
    auto count_bad = [&](const char* side, const bound_counters& c, index_t total) {
      if (c.bad)
        report(std::string(side) + ": " + std::to_string(c.bad) + " of " + std::to_string(total) +
               " outputs wrong (first at " + std::to_string(c.first_bad) + ")");
    };
    bound_counters in_b = check_bounds<bounds::lower>(needles, a_count, b(0), b_count, a_out(0), flags, stream);
    count_bad("A into B", in_b, a_count);
    bound_counters in_a{};
    if (writes_both(o)) {
      in_a = check_bounds<bounds::upper>(b(0), b_count, a(0), a_count, b_out(0), flags, stream);
      count_bad("B into A", in_a, b_count);
    }
    if (flags && (reported.a != static_cast<std::int64_t>(in_b.flagged) ||
                  reported.b != static_cast<std::int64_t>(in_a.flagged)))
      report("returned match counts (" + std::to_string(reported.a) + ", " + std::to_string(reported.b) +
             ") differ from the flags set (" + std::to_string(in_b.flagged) + ", " + std::to_string(in_a.flagged) +
             ")");
    if (std::max(a_count, b_count) <= host_oracle_max) {
      std::vector<key_type> h_a = to_host(a(0), a_count, stream), h_b = to_host(b(0), b_count, stream);
      std::vector<key_type> h_needles = to_host(needles, a_count, stream);
      if (to_host(a_out(0), a_count, stream) != host_bounds(h_needles, h_b, bounds::lower, flags))
        report("A into B differs from std::lower_bound");
      if (writes_both(o) && to_host(b_out(0), b_count, stream) != host_bounds(h_b, h_a, bounds::upper, flags))
        report("B into A differs from std::upper_bound");
    }
    if (problems.empty()) return "ok";
    bench.fail("MISMATCH: " + algorithm + " (" + where() + "): " + problems);
    return "MISMATCH";
  }

  std::vector<device_buffer<key_type>> in_;
  std::vector<device_buffer<bound_type>> out_;
};

// Keys in [0, range): A and B share values, so the match flags have matches to find (at 1:1
// about one needle in five) and keys repeat within each input.
struct below {
  std::uint32_t range;
  __host__ __device__ key_type operator()(key_type k) const {
    return static_cast<key_type>(static_cast<std::uint32_t>(k) % range);
  }
};
// Keys k to `distinct` values spread evenly over [0, range).
struct spread_over {
  std::uint32_t distinct, range;
  __host__ __device__ key_type operator()(key_type k) const {
    const std::uint32_t step = range / distinct;
    return static_cast<key_type>(static_cast<std::uint32_t>(k) % distinct * step + step / 2);
  }
};
// Keys k in [0, range) to range (k / range)^4.
struct skew_low {
  std::uint32_t range;
  __host__ __device__ key_type operator()(key_type k) const {
    const double u = static_cast<double>(k) / range;
    return static_cast<key_type>(u * u * u * u * range);
  }
};
std::uint32_t key_range(index_t a_count, index_t b_count) {
  return static_cast<std::uint32_t>(std::min<index_t>(2 * (a_count + b_count), index_t{1} << 31));
}

// Sorted random A and B in set 0 (generated and sorted on the device), A shuffled once for the
// shuffled-needles row, and copies in the other sets. Untimed.
void prepare(search_case& c, std::uint64_t seed) {
  cudaStream_t stream = c.bench.stream();
  auto policy = thrust::cuda::par_nosync(c.bench.allocator).on(stream);
  index_t total = c.a_count + c.b_count;
  key_type* scratch = c.a_out(0);  // a_count + b_count of room until the first row runs
  generate_random_keys<key_type>(scratch, total, seed, stream);
  thrust::transform(policy, scratch, scratch + total, scratch, below{key_range(c.a_count, c.b_count)});
  if (c.sh.needle_keys > 0)
    thrust::transform(policy, scratch, scratch + c.a_count, scratch,
                      spread_over{static_cast<std::uint32_t>(c.sh.needle_keys), key_range(c.a_count, c.b_count)});
  if (c.sh.skewed)
    thrust::transform(policy, scratch, scratch + c.a_count, scratch, skew_low{key_range(c.a_count, c.b_count)});
  sort_keys<key_type>(scratch, c.a(0), c.a_count, stream);
  sort_keys<key_type>(scratch + c.a_count, c.b(0), c.b_count, stream);
  thrust::shuffle_copy(policy, c.a(0), c.a(0) + c.a_count, c.a_shuffled(0),
                       thrust::default_random_engine(static_cast<std::uint32_t>(seed)));
  for (int s = 1; s < c.sets; ++s)
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(c.a(s), c.a(0), c.in_bytes(), cudaMemcpyDeviceToDevice, stream));
  MERGEPATH_CUDA_CHECK(cudaStreamSynchronize(stream));
}

// std::lower_bound per needle (one thread) against mergepath::sorted_search on host_context(t),
// for t = 1, 2 and all threads.
void run_cpu_rows(bench_context& b, const std::vector<key_type>& a, const std::vector<key_type>& haystack) {
  auto a_count = static_cast<index_t>(a.size()), b_count = static_cast<index_t>(haystack.size());
  b.begin_cpu_group("CPU sorted search (lower bound of A into B), int32, |A| = " + log2_label(a_count) +
                    ", |B| = " + log2_label(b_count));
  double bytes = static_cast<double>((2 * a_count + b_count) * static_cast<index_t>(sizeof(key_type)));
  std::vector<bound_type> want(a.size()), got(a.size());

  result_row base;
  base.backend = "cpu";
  base.key_type = "int32";
  base.n = std::max(a_count, b_count);
  base.a_count = a_count;
  base.b_count = b_count;
  base.check = "ok";

  // One binary search per needle takes seconds at 2^26: no warm-up, fewer runs.
  timing std_t = measure_host(0, b.opts.quick ? 1 : 3, [&] {
    for (std::size_t i = 0; i < a.size(); ++i)
      want[i] = static_cast<bound_type>(std::lower_bound(haystack.begin(), haystack.end(), a[i]) - haystack.begin());
  });
  result_row r = base;
  r.algorithm = "std::lower_bound per needle";
  r.threads = 1;
  fill_rates(r, std_t, static_cast<double>(a_count), bytes);
  r.ratio_std = 1.0;
  b.add_row(r);

  std::vector<int> thread_counts = cpu_thread_counts({1, 2});
  for (int t : thread_counts) {
    mergepath::host_context ctx(t);
    auto run_search = [&] { mergepath::sorted_search(ctx, a.data(), a_count, haystack.data(), b_count, got.data()); };
    std::fill(got.begin(), got.end(), bound_type{-1});
    run_search();
    r = base;
    r.algorithm = "mergepath::sorted_search (host_context)";
    r.threads = t;
    if (got != want) {
      r.check = "MISMATCH";
      b.fail("MISMATCH: mergepath::sorted_search on host_context(" + std::to_string(t) + ") (int32, |A| = " +
             log2_label(a_count) + ", |B| = " + log2_label(b_count) + ") differs from std::lower_bound");
    }
    timing tm = measure_host(1, b.opts.quick ? 3 : 5, run_search);
    fill_rates(r, tm, static_cast<double>(a_count), bytes);
    r.ratio_std = std_t.median_ms / tm.median_ms;
    b.add_row(r);
  }
}

// --tunings: the lower bound at other tile shapes (sorted_search_tuned), the default among them.
// NeedleRatio: the per-needle search from |B| >= NeedleRatio |A| (0: never; 1: whenever |B| >= |A|);
// BTileRatio: fixed tiles of B below that, from |B| >= BTileRatio |A| (0: never); SampleMaxRatio:
// the per-needle search goes through samples of B below |B| = SampleMaxRatio |A|.
template <int BlockThreads, int ItemsPerThread, int ResidentThreads, int NeedleRatio = 32, int BTileRatio = 12,
          int SampleMaxRatio = 256>
struct search_policy {
  static constexpr mergepath::sorted_search_tuning tuning = [] {
    mergepath::sorted_search_tuning t{BlockThreads, ItemsPerThread, ResidentThreads};
    t.needle_search_ratio = NeedleRatio;
    t.b_tile_ratio = BTileRatio;
    t.needle_sample_max_ratio = SampleMaxRatio;
    return t;
  }();
};
template <class... Policies>
void lower_bound_rows_for(search_case& c, mergepath::cuda_context& ctx, std::tuple<Policies...>*) {
  index_t na = c.a_count, nb = c.b_count;
  auto one = [&](auto* policy) {
    using Policy = std::remove_pointer_t<decltype(policy)>;
    constexpr mergepath::sorted_search_tuning t = Policy::tuning;
    std::string label =
        "mergepath::sorted_search_tuned {" + std::to_string(t.block_threads) + "," +
        std::to_string(t.items_per_thread) + "," + std::to_string(t.min_resident_threads) + "}" +
        (t.needle_search_ratio == 32 ? "" : " needles " + std::to_string(t.needle_search_ratio)) +
        (t.b_tile_ratio == 12 ? "" : " b tiles " + std::to_string(t.b_tile_ratio)) +
        (t.needle_sample_max_ratio == 256 ? "" : " samples " + std::to_string(t.needle_sample_max_ratio));
    c.row(label, row_kind::ours, outputs::a_lower, [&](int s) {
      mergepath::sorted_search<bounds::lower, search::index, search::none, Policy>(ctx, c.a(s), na, c.b(s), nb,
                                                                                   c.a_out(s), nullptr);
    });
  };
  (one(static_cast<Policies*>(nullptr)), ...);
}
void lower_bound_tuning_rows(search_case& c, mergepath::cuda_context& ctx) {
  lower_bound_rows_for(
      c, ctx,
      static_cast<
          std::tuple<search_policy<256, 19, 2048, 0, 0>, search_policy<256, 23, 2048, 0, 0>,
                     search_policy<256, 31, 2048, 0, 0>, search_policy<256, 19, 2048, 32, 0>,
                     search_policy<256, 19, 2048, 32, 8>, search_policy<256, 19, 2048, 32, 24>,
                     search_policy<256, 19, 2048, 1>, search_policy<256, 19, 2048, 8>, search_policy<256, 19, 2048, 64>,
                     search_policy<256, 19, 2048, 32, 12, 4096>, search_policy<256, 19, 2048, 32, 12, 0>>*>(nullptr));
}

void run_shape(bench_context& b, int log2, const shape& sh) {
  index_t n = index_t{1} << log2;
  std::size_t key_bytes = sizeof(key_type);
  std::size_t in_bytes = static_cast<std::size_t>(2 * (n >> sh.a_shift) + (n >> sh.b_shift)) * key_bytes;
  std::size_t out_bytes = static_cast<std::size_t>((n >> sh.a_shift) + (n >> sh.b_shift)) * key_bytes;
  std::string where = std::string("int32, n = ") + log2_label(n) + ", A:B = " + sh.label;

  // Memory: the sets, the input sort's scratch and slack for the algorithms' temporaries.
  auto needed = [&](int sets) {
    return static_cast<std::size_t>(sets) * (in_bytes + out_bytes) + in_bytes + (std::size_t{768} << 20);
  };
  // The complete search touches A, B and both outputs. A few needles into a long B touch far less
  // of B: about one 64-byte L2 fetch a needle for each level below those the needles share. Sets
  // counted by all of B would replay one set's needles into an L2 that still holds their lines
  // (docs/design/search.md).
  const index_t needles = n >> sh.a_shift, keys = n >> sh.b_shift;
  std::size_t touched = 2 * out_bytes;
  if (keys > needles) {
    const double ratio = static_cast<double>(keys) / static_cast<double>(needles);
    const auto levels = static_cast<std::size_t>(std::log2(ratio)) + 1;
    touched = std::min(touched, static_cast<std::size_t>(needles) * (2 * key_bytes + 64 * levels));
  }
  int wanted = b.rotation_sets(touched);
  int sets = b.fit_sets(wanted, needed, "sorted search at " + where);
  if (sets == 0) return;

  search_case c(b, sh, n, sets);
  prepare(c, 0x7365617263680000ull ^ (static_cast<std::uint64_t>(log2) << 8) ^
                 static_cast<std::uint64_t>(16 * sh.a_shift + sh.b_shift + 256 * sh.needle_keys + 65536 * sh.skewed));

  cudaStream_t stream = b.stream();
  mergepath::cuda_context& ctx = b.ctx;
  auto policy = [&] { return thrust::cuda::par_nosync(b.allocator).on(stream); };
  index_t na = c.a_count, nb = c.b_count;

  b.begin_gpu_group(c.where() + ", keys in [0, " + std::to_string(key_range(na, nb)) + "), " + std::to_string(sets) +
                        " rotating input set" + (sets > 1 ? "s" : "") + ", " + std::to_string(b.reps_for(n)) + " reps",
                    bench_context::versus::thrust);

  // The lower bound of A into B. The copy moves the same bytes (A and B read, |A| bounds written)
  // as one device-to-device copy of half of them, which reads that half and writes it once.
  c.copy_ms = c.row("copy (same bytes: A+B in, |A| out)", row_kind::baseline, outputs::a_lower, [&](int s) {
    auto half = static_cast<std::size_t>(c.bytes(outputs::a_lower) / 2);
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(c.a_out(s), c.a(s), half, cudaMemcpyDeviceToDevice, stream));
  });
  c.thrust_ms = c.row("thrust::lower_bound (sorted needles)", row_kind::reference, outputs::a_lower, [&](int s) {
    thrust::lower_bound(policy(), c.b(s), c.b(s) + nb, c.a(s), c.a(s) + na, c.a_out(s));
  });
  c.row("mergepath::sorted_search", row_kind::ours, outputs::a_lower,
        [&](int s) { mergepath::sorted_search(ctx, c.a(s), na, c.b(s), nb, c.a_out(s)); });
  if (b.opts.tunings) lower_bound_tuning_rows(c, ctx);
  c.row("thrust::lower_bound (shuffled needles)", row_kind::third_party, outputs::a_lower_shuffled, [&](int s) {
    thrust::lower_bound(policy(), c.b(s), c.b(s) + nb, c.a_shuffled(s), c.a_shuffled(s) + na, c.a_out(s));
  });

  // The complete search: the lower bound of A into B and the upper bound of B into A. Its copy is
  // exactly A and B into the two outputs.
  c.copy_both_ms = c.row("copy (same bytes: A+B in, |A|+|B| out)", row_kind::baseline, outputs::both, [&](int s) {
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(c.a_out(s), c.a(s), c.out_bytes(), cudaMemcpyDeviceToDevice, stream));
  });
  c.thrust_both_ms = c.row("thrust::lower_bound + upper_bound", row_kind::reference, outputs::both, [&](int s) {
    thrust::lower_bound(policy(), c.b(s), c.b(s) + nb, c.a(s), c.a(s) + na, c.a_out(s));
    thrust::upper_bound(policy(), c.a(s), c.a(s) + na, c.b(s), c.b(s) + nb, c.b_out(s));
  });
  c.row("mergepath::sorted_search (both, index)", row_kind::ours, outputs::both, [&](int s) {
    mergepath::sorted_search<bounds::lower, search::index, search::index>(ctx, c.a(s), na, c.b(s), nb, c.a_out(s),
                                                                          c.b_out(s));
  });
  // Returning the match counts waits for the search: the time includes that wait, as a caller's does.
  c.row("mergepath::sorted_search (both, index_match)", row_kind::ours, outputs::both_flagged, [&](int s) {
    c.reported = mergepath::sorted_search<bounds::lower, search::index_match, search::index_match>(
        ctx, c.a(s), na, c.b(s), nb, c.a_out(s), c.b_out(s));
  });

  if (sh.a_shift == 0 && sh.b_shift == 0 && b.wants_cpu_rows("int32", n))
    run_cpu_rows(b, to_host(c.a(0), na, stream), to_host(c.b(0), nb, stream));
}

}  // namespace

void run_sorted_search_bench(bench_context& b) {
  if (!b.wants_key_type("int32")) {
    b.note("sorted_search runs with int32 keys only, and --types has no int32: skipped");
    return;
  }
  for (int log2 : b.opts.log2_sizes) {
    // int32 outputs hold bounds below 2^31, the top bit being index_match's flag.
    if (log2 > 30) {
      b.note("skipping sorted search at n = 2^" + std::to_string(log2) + ": int32 outputs hold bounds below 2^31");
      continue;
    }
    for (const shape& sh : shapes)
      b.guarded("sorted search (int32, n = 2^" + std::to_string(log2) + ", A:B = " + sh.label + ")",
                [&] { run_shape(b, log2, sh); });
  }
}

// The headline at |A| = |B| = 2^26 (or the largest size run): the lower bound against Thrust with
// sorted needles and against the copy; the complete search (with match flags) against the copy.
std::string sorted_search_summary(const bench_context& b, index_t* size_out) {
  auto find = [&](const std::string& algorithm, index_t n) -> const result_row* {
    for (const result_row& r : b.rows)
      if (r.algorithm == algorithm && r.backend == "gpu" && r.n == n && r.a_count == n && r.b_count == n) return &r;
    return nullptr;
  };
  index_t n = index_t{1} << 26;
  if (!find("mergepath::sorted_search", n)) {
    n = 0;
    for (const result_row& r : b.rows)
      if (r.algorithm == "mergepath::sorted_search" && r.a_count == r.n && r.b_count == r.n) n = std::max(n, r.n);
  }
  *size_out = n;
  if (n == 0) return "";
  std::string text = "sorted search (A:B = 1:1) lower bound: ";
  if (const result_row* r = find("mergepath::sorted_search", n))
    text += bench_context::ratio(r->ratio_thrust) + " Thrust (sorted needles), " + bench_context::percent(r->pct_copy) +
            " of copy";
  text += "; complete search (index_match): ";
  if (const result_row* r = find("mergepath::sorted_search (both, index_match)", n))
    text += bench_context::percent(r->pct_copy) + " of copy";
  else
    text += "not measured";
  return text;
}

// The suite as bench_main.cu lists it.
const suite sorted_search_suite = {
    "sorted_search",
    "sorted_search (A into B; complete, both ways) vs thrust::lower_bound and copy; CPU rows",
    run_sorted_search_bench, sorted_search_summary, &options::log2_sizes};

}  // namespace bench
