// Shared pieces of mergepath-bench: options, the bench context that collects result rows,
// CUDA-event timing, device buffers, input generation and output verification.
//
// Each algorithm file (bench_merge.cu, bench_sorted_search.cu, bench_mergesort.cu, ...) defines
// one suite function `void run_<name>_bench(bench_context&)`, declared at the bottom of this file
// and listed in bench_main.cu's suite table.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <mergepath/context.hpp>
#include <mergepath/error.hpp>
#include <mergepath/tuning/merge.hpp>
#include <mergepath/tuning/mergesort.hpp>
#include <optional>
#include <stdexcept>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace bench {

using mergepath::index_t;

constexpr double not_measured = std::numeric_limits<double>::quiet_NaN();

// ---------------------------------------------------------------------------------------------
// Options and device description.

enum class cpu_rows { headline, all, none };

// An order the library cannot tell from any user's comparator, so it checks its splits
// (include/mergepath/block/slice_check.cuh): the "(user comparator)" rows show what that costs.
struct user_less {
  template <class T>
  __host__ __device__ bool operator()(const T& x, const T& y) const {
    return x < y;
  }
};

struct options {
  std::vector<int> log2_sizes{20, 22, 24, 26, 28};
  // The mergesort suite's sizes (log2 of the key count): its own list, or --sizes (--quick) when given.
  std::vector<int> mergesort_log2_sizes{16, 18, 20, 22, 24, 26, 28};
  // The segmented sort suite's: 2^26 keys, or --sizes (--quick).
  std::vector<int> segmented_sort_log2_sizes{26};
  // The binary search suite's: 2^26 random needles into 2^26 keys, the seed's table at 2^25 - 1
  // keys, or --sizes (--quick).
  std::vector<int> binary_search_log2_sizes{26};
  // The load-balancing suite's: 2^26 items (the issue's rows), or --sizes (--quick).
  std::vector<int> load_balance_log2_sizes{26};
  std::vector<int> join_log2_sizes{25};
  std::vector<std::string> key_types{"int32", "int64"};
  int reps = 20;
  bool reps_given = false;  // without --reps the largest sizes use fewer
  int warmup = 2;
  bool tunings = false;
  cpu_rows cpu = cpu_rows::headline;
  bool quick = false;
  std::string json_path;
  std::string commit;
  std::vector<std::string> only;  // suite names; empty = all
  int device = 0;
  std::string command_line;
};

struct device_info {
  int device = 0;
  std::string name;
  int arch = 0;           // the device's, e.g. 90
  int compiled_arch = 0;  // what the bench's kernels run as there (a fat binary's or PTX's choice)
  int sm_count = 0;
  long long l2_bytes = 0;
  long long global_mem_bytes = 0;
  double peak_gb_per_s = 0;  // from memory clock and bus width; 0 when unknown
  int driver_version = 0;
  int runtime_version = 0;
  int host_threads = 1;
};

// "13.0" from 13000.
inline std::string cuda_version_string(int v) {
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

// ---------------------------------------------------------------------------------------------
// One row of results: a GPU row (backend "gpu") or a CPU row (backend "cpu").

struct result_row {
  std::string algorithm;
  std::string key_type;
  std::string value_type;  // empty: keys only
  index_t n = 0;           // elements per input (sorted search: of the larger input; mergesort: keys sorted)
  std::string input;       // the input's distribution where a suite has several (mergesort); empty elsewhere
  // Sorted search: |A| and |B|, which may differ; 0 elsewhere.
  index_t a_count = 0, b_count = 0;
  std::string backend = "gpu";
  int threads = 0;  // CPU rows
  double ms_median = not_measured, ms_min = not_measured, ms_max = not_measured;
  double gkeys_per_s = not_measured;  // output keys per second / 1e9
  double gb_per_s = not_measured;     // (bytes read + bytes written) / s / 1e9
  double pct_copy = not_measured;     // copy of the same bytes, time ratio, in percent
  double ratio_cub = not_measured;    // CUB time / this time
  double ratio_std = not_measured;    // CPU rows: the std algorithm's time (std::merge, ...) / this time
  // Thrust time / this time, in suites whose reference is Thrust (sorted search).
  double ratio_thrust = not_measured;
  std::optional<mergepath::merge_tuning> tuning;
  std::optional<mergepath::mergesort_tuning> sort_tuning;  // mergesort rows
  int reps = 0;
  int input_sets = 1;
  std::string check = "-";  // "ok", "MISMATCH", "unstable" (allowed for third-party code), "-"
};

inline std::string tuning_label(const mergepath::merge_tuning& t) {
  std::string schedule = t.streamed                         ? "streamed"
                         : t.chunked_max_tiles >= (1 << 30) ? "chunked"
                                                            : std::to_string(t.stages);
  std::string pass = t.streamed || t.chunked_max_tiles >= (1 << 30)
                         ? ""
                         : ",p" + std::to_string(t.partition_probes) + ",c" + std::to_string(t.chunked_max_tiles) +
                               ",s" + std::to_string(t.partition_sample_bytes / 1024) + "k";
  return "{" + std::to_string(t.block_threads) + "," + std::to_string(t.items_per_thread) + "," + schedule + "," +
         std::to_string(t.min_resident_threads) + pass + "}";
}

// The blocksort's tile of a mergesort tuning, {threads,items,min resident threads} (the merge
// passes' tuning is left out of the label: the tuning rows keep the default one).
inline std::string sort_tuning_label(const mergepath::mergesort_tuning& t) {
  std::string label = "{" + std::to_string(t.blocksort.block_threads) + "," +
                      std::to_string(t.blocksort.items_per_thread) + "," +
                      std::to_string(t.blocksort.min_resident_threads) + "}";
  if (t.four_way.enabled())
    label += " four-way {" + std::to_string(t.four_way.block_threads) + "," +
             std::to_string(t.four_way.items_per_thread) + "," + std::to_string(t.four_way.min_resident_threads) + "}";
  return label;
}

template <class K>
const char* key_type_name() {
  static_assert(std::is_same_v<K, std::int32_t> || std::is_same_v<K, std::int64_t>, "int32 or int64 keys");
  return std::is_same_v<K, std::int32_t> ? "int32" : "int64";
}

// "2^26" for a power of two, "2^25-1" for one less (the binary search suite's perfect trees), else
// the number.
inline std::string log2_label(index_t n) {
  int l = 0;
  while ((index_t{1} << l) < n) ++l;
  if ((index_t{1} << l) == n) return "2^" + std::to_string(l);
  if (l >= 4 && (index_t{1} << l) == n + 1) return "2^" + std::to_string(l) + "-1";
  return std::to_string(n);
}

// ---------------------------------------------------------------------------------------------
// Device memory owned by one object: cudaMalloc / cudaFree, never inside a timed region.

template <class T>
class device_buffer {
 public:
  device_buffer() = default;
  explicit device_buffer(std::size_t count, const char* what = "buffer") : count_(count) {
    if (count == 0) return;
    cudaError_t e = cudaMalloc(reinterpret_cast<void**>(&data_), count * sizeof(T));
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      data_ = nullptr;
      throw std::runtime_error(std::string("cudaMalloc of ") + std::to_string(count * sizeof(T)) + " bytes for " +
                               what + " failed: " + cudaGetErrorString(e));
    }
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  device_buffer(device_buffer&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), count_(std::exchange(o.count_, 0)) {}
  device_buffer& operator=(device_buffer&& o) noexcept {
    if (this != &o) {
      reset();
      data_ = std::exchange(o.data_, nullptr);
      count_ = std::exchange(o.count_, 0);
    }
    return *this;
  }
  ~device_buffer() { reset(); }
  void reset() noexcept {
    if (data_) (void)cudaFree(data_);
    data_ = nullptr;
    count_ = 0;
  }
  T* data() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

// Thrust's temporary memory, stream-ordered from the device's default pool (which the bench sets
// to keep freed blocks): the same kind of cached allocation mergepath's context makes.
struct stream_allocator {
  using value_type = char;
  cudaStream_t stream = nullptr;
  char* allocate(std::ptrdiff_t bytes) {
    void* p = nullptr;
    MERGEPATH_CUDA_CHECK(cudaMallocAsync(&p, static_cast<std::size_t>(bytes), stream));
    return static_cast<char*>(p);
  }
  void deallocate(char* p, std::size_t) noexcept { (void)cudaFreeAsync(p, stream); }
};

// A hash of x (splitmix64's finalizer): the benches' reproducible pseudo-random inputs.
__host__ __device__ inline std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// The thread counts of a suite's CPU rows: `counts` and all OpenMP threads, ascending, each once.
inline std::vector<int> cpu_thread_counts(std::vector<int> counts) {
  int max_threads = 1;
#if defined(_OPENMP)
  max_threads = std::max(1, omp_get_max_threads());
#endif
  counts.push_back(max_threads);
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  return counts;
}

// count elements of device memory copied to the host, after the stream's work so far.
template <class T>
std::vector<T> to_host(const T* d, index_t count, cudaStream_t stream) {
  std::vector<T> h(static_cast<std::size_t>(count));
  if (count > 0)
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(h.data(), d, h.size() * sizeof(T), cudaMemcpyDeviceToHost, stream));
  MERGEPATH_CUDA_CHECK(cudaStreamSynchronize(stream));
  return h;
}

// ---------------------------------------------------------------------------------------------
// Timing.

struct timing {
  double median_ms = not_measured, min_ms = not_measured, max_ms = not_measured;
  int reps = 0;
};

inline timing summarize(std::vector<double> ms) {
  timing t;
  if (ms.empty()) return t;
  std::sort(ms.begin(), ms.end());
  std::size_t m = ms.size();
  t.median_ms = m % 2 ? ms[m / 2] : 0.5 * (ms[m / 2 - 1] + ms[m / 2]);
  t.min_ms = ms.front();
  t.max_ms = ms.back();
  t.reps = static_cast<int>(m);
  return t;
}

// CUDA events around each run on one stream. run(set) enqueues one run on input/output set `set`;
// consecutive runs walk the sets round-robin so no run finds its data in L2.
//
// measure_with_setup is for runs that consume their input (an in-place sort): setup(set) enqueues
// the restoring of set `set`, outside the timed region. Each round of `sets` consecutive runs
// (warm-up runs included) starts by restoring every set, in order, so no set is run twice on one
// restore, and with two sets or more a run's freshly written input lies at least one other set's
// restore (or run) back: out of L2 once the sets cover several times its size.
class event_timer {
 public:
  explicit event_timer(cudaStream_t stream) : stream_(stream) {}
  event_timer(const event_timer&) = delete;
  event_timer& operator=(const event_timer&) = delete;
  ~event_timer() {
    for (auto e : events_) (void)cudaEventDestroy(e);
  }

  template <class Run>
  timing measure(int warmup, int reps, int sets, Run&& run) {
    return measure_with_setup(
        warmup, reps, sets, [](int) {}, run);
  }

  template <class Setup, class Run>
  timing measure_with_setup(int warmup, int reps, int sets, Setup&& setup, Run&& run) {
    sets = std::max(sets, 1);
    reps = std::max(reps, 1);
    ensure_events(2 * static_cast<std::size_t>(reps));
    int next = 0;
    auto next_set = [&] {
      int set = next++ % sets;
      if (set == 0)
        for (int s = 0; s < sets; ++s) setup(s);
      return set;
    };
    for (int i = 0; i < warmup; ++i) run(next_set());
    for (int r = 0; r < reps; ++r) {
      int set = next_set();
      MERGEPATH_CUDA_CHECK(cudaEventRecord(events_[2 * r], stream_));
      run(set);
      MERGEPATH_CUDA_CHECK(cudaEventRecord(events_[2 * r + 1], stream_));
    }
    MERGEPATH_CUDA_CHECK(cudaStreamSynchronize(stream_));
    std::vector<double> ms(static_cast<std::size_t>(reps));
    for (int r = 0; r < reps; ++r) {
      float f = 0;
      MERGEPATH_CUDA_CHECK(cudaEventElapsedTime(&f, events_[2 * r], events_[2 * r + 1]));
      ms[static_cast<std::size_t>(r)] = f;
    }
    return summarize(std::move(ms));
  }

 private:
  void ensure_events(std::size_t count) {
    while (events_.size() < count) {
      cudaEvent_t e = nullptr;
      MERGEPATH_CUDA_CHECK(cudaEventCreate(&e));
      events_.push_back(e);
    }
  }
  cudaStream_t stream_;
  std::vector<cudaEvent_t> events_;
};

// The probes' timing (bench/probe/), kept as the design notes' measurements were taken.
// per_call_us: the median over 7 reps of `calls` back-to-back calls of f on stream s, in
// microseconds per call; with PROBE_TIMING=each in the environment, the median of `calls` calls
// each between two events, as the bench times them (a call's start is then not overlapped with the
// call before: programmatic dependent launch hides less). median_ms: the median over `reps` runs
// of run() on the default stream, each after an untimed setup() (a warm-up run first, not
// counted), in milliseconds.
template <class F>
double per_call_us(cudaStream_t s, int calls, F f) {
  const char* timing = std::getenv("PROBE_TIMING");
  const bool each = timing && std::string(timing) == "each";
  const int reps = each ? calls : 7, batch = each ? 1 : calls;
  std::vector<cudaEvent_t> events(2 * static_cast<std::size_t>(reps));
  for (auto& e : events) cudaEventCreate(&e);
  if (each) f();  // a warm-up call
  for (int rep = 0; rep < reps; ++rep) {
    cudaEventRecord(events[2 * rep], s);
    for (int c = 0; c < batch; ++c) f();
    cudaEventRecord(events[2 * rep + 1], s);
    if (!each) cudaEventSynchronize(events[2 * rep + 1]);
  }
  cudaStreamSynchronize(s);
  std::vector<float> ms;
  for (int rep = 0; rep < reps; ++rep) {
    float m = 0;
    cudaEventElapsedTime(&m, events[2 * rep], events[2 * rep + 1]);
    ms.push_back(m);
  }
  for (auto& e : events) cudaEventDestroy(e);
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2] * 1000.0 / batch;
}

template <class Setup, class Run>
float median_ms(int reps, Setup setup, Run run) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  std::vector<float> times;
  for (int r = 0; r <= reps; ++r) {
    setup();
    cudaEventRecord(a);
    run();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    if (r > 0) times.push_back(ms);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

// Host timing with std::chrono: `warmup` untimed runs, then the median of `reps`; setup() runs
// untimed before each run (an in-place sort restores its input).
template <class Setup, class Run>
timing measure_host(int warmup, int reps, Setup&& setup, Run&& run) {
  for (int i = 0; i < warmup; ++i) {
    setup();
    run();
  }
  std::vector<double> ms;
  for (int r = 0; r < std::max(reps, 1); ++r) {
    setup();
    auto t0 = std::chrono::steady_clock::now();
    run();
    auto t1 = std::chrono::steady_clock::now();
    ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  return summarize(std::move(ms));
}
template <class Run>
timing measure_host(int warmup, int reps, Run&& run) {
  return measure_host(
      warmup, reps, [] {}, run);
}

// ---------------------------------------------------------------------------------------------
// Inputs and verification (bench_util.cu; instantiated for std::int32_t and std::int64_t keys).

// keys[0, count) = uniform random keys over the whole range of K, or over [0, distinct) where
// distinct > 0, from `seed` (no sorting).
template <class K>
void generate_random_keys(K* keys, index_t count, std::uint64_t seed, cudaStream_t stream, std::uint64_t distinct = 0);

// out[0, count) = in[0, count) sorted ascending (cub::DeviceRadixSort; waits for the stream).
template <class K>
void sort_keys(const K* in, K* out, index_t count, cudaStream_t stream);

// keys[i] = i + a random offset in [0, spread), from `seed`: sorted up to short local disorder,
// with repeated keys (a value is taken by one key on average, by none or several often: at spread
// 26 about 60% of the keys share theirs with another).
template <class K>
void generate_near_sorted_keys(K* keys, index_t count, int spread, std::uint64_t seed, cudaStream_t stream);

// values[i] = i + 1 for i in [0, count): non-zero origin ids, so a pair merge can be checked.
void fill_origin_ids(std::int32_t* values, index_t count, cudaStream_t stream);

struct check_result {
  unsigned long long bad = 0;  // positions that differ from the reference (or are not a permutation)
  unsigned long long first_bad = ~0ull;
  unsigned long long unsorted = 0;  // positions ordered before their predecessor
  unsigned long long unstable = 0;  // pairs: equal keys whose origins are out of input order
  unsigned long long hash = 0;      // order-independent hash of the keys (check_keys without ref)
};

// Order-independent hash of the multiset x[0, count) (waits for the stream).
template <class K>
unsigned long long multiset_hash(const K* x, index_t count, cudaStream_t stream);

// Compares out[0, count) with ref (when ref is not null), counts unsorted positions, hashes out.
// Waits for the stream.
template <class K>
check_result check_keys(const K* out, const K* ref, index_t count, cudaStream_t stream);

// A pair merge of inputs in_keys = [A | B] (n each) with values = origin ids 1 .. 2n: keys equal
// ref, every value names a distinct input element with the same key (a permutation), and
// `unstable` counts equal neighbours whose ids decrease (a stable merge keeps them increasing).
// Waits for the stream.
template <class K>
check_result check_pairs(const K* out_keys, const std::int32_t* out_values, const K* ref, const K* in_keys, index_t n,
                         cudaStream_t stream);

// The same for any count of pairs (a sort): in_keys[0, count) with values = origin ids 1 .. count.
template <class K>
check_result check_permuted_pairs(const K* out_keys, const std::int32_t* out_values, const K* ref, const K* in_keys,
                                  index_t count, cudaStream_t stream);

// ---------------------------------------------------------------------------------------------
// The context every suite gets.

// Ends the whole run (the GPU is in an unusable state); other errors end only their row.
struct fatal_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class bench_context {
 public:
  bench_context(const options& opts, mergepath::cuda_context& ctx, device_info info)
      : opts(opts), ctx(ctx), info(std::move(info)), timer(ctx.stream()), allocator{ctx.stream()} {}

  const options& opts;
  mergepath::cuda_context& ctx;
  device_info info;
  event_timer timer;
  stream_allocator allocator;  // thrust::cuda::par_nosync(allocator).on(stream())
  std::vector<result_row> rows;
  std::vector<std::string> notes;
  std::vector<std::string> failures;

  cudaStream_t stream() const { return ctx.stream(); }

  // --reps, or at most 10 at 2^28 and beyond when --reps was not given (each run is long there).
  int reps_for(index_t n) const {
    if (!opts.reps_given && n >= (index_t{1} << 28)) return std::min(opts.reps, 10);
    return opts.reps;
  }
  bool wants_key_type(const std::string& t) const {
    return std::find(opts.key_types.begin(), opts.key_types.end(), t) != opts.key_types.end();
  }
  // CPU rows run for every size with --cpu, by default only at the suite's headline size (2^26,
  // mergesort 2^24) with int32 keys.
  bool wants_cpu_rows(const std::string& key_type, index_t n, index_t headline_n = index_t{1} << 26) const {
    if (opts.cpu == cpu_rows::all) return true;
    if (opts.cpu == cpu_rows::none) return false;
    return key_type == "int32" && n == headline_n;
  }
  // Rotating sets of inputs and outputs so that a set's footprint times the count of sets covers
  // 4x the L2: each timed run then reads its inputs from DRAM, as at the large sizes.
  // At most max_sets (small inputs may then partly stay in L2).
  int rotation_sets(std::size_t bytes_per_set, int max_sets = 64) const {
    std::size_t l2 = static_cast<std::size_t>(std::max<long long>(info.l2_bytes, 64ll << 20));
    std::size_t want = (4 * l2 + bytes_per_set - 1) / std::max<std::size_t>(bytes_per_set, 1);
    return static_cast<int>(std::clamp<std::size_t>(want, 1, static_cast<std::size_t>(std::max(max_sets, 1))));
  }
  std::size_t free_bytes() const {
    std::size_t free = 0, total = 0;
    MERGEPATH_CUDA_CHECK(cudaMemGetInfo(&free, &total));
    return free;
  }
  // How many of `wanted` rotating sets fit in free memory, needed(sets) being the bytes a case
  // takes with that many (sets, references, scratch, slack): at least 1, or 0 when not even one
  // fits. Notes a skip, or fewer sets than wanted, naming the case `what`. restored: the runs
  // restore their input before each run (an in-place sort), so with one set a run follows its own
  // restore.
  template <class Needed>
  int fit_sets(int wanted, Needed&& needed, const std::string& what, bool restored = false) {
    int sets = wanted;
    std::size_t free = free_bytes();
    while (sets > 1 && needed(sets) > free) --sets;
    if (needed(sets) > free) {
      note("skipping " + what + ": needs " + std::to_string(needed(1) >> 20) + " MiB, " + std::to_string(free >> 20) +
           " MiB free");
      return 0;
    }
    if (sets < wanted)
      note(what + ": only " + std::to_string(sets) + " of " + std::to_string(wanted) + " input sets fit in memory; " +
           (restored && sets == 1 ? "each run follows its own restore, whose tail may still be in L2"
                                  : "small sizes may partly time the L2"));
    return sets;
  }

  void note(const std::string& text) {
    std::printf("note: %s\n", text.c_str());
    std::fflush(stdout);
    notes.push_back(text);
  }
  void fail(const std::string& text) {
    std::printf("\n!!!!!!!! %s\n\n", text.c_str());
    std::fflush(stdout);
    std::fprintf(stderr, "mergepath-bench: %s\n", text.c_str());
    failures.push_back(text);
  }

  // Calls f; on an exception prints a loud ERROR and goes on, unless the GPU is unusable now
  // (a sticky error such as an illegal address): then it throws to stop the run.
  template <class F>
  void guarded(const std::string& what, F&& f) {
    try {
      f();
    } catch (const fatal_error&) {
      throw;
    } catch (const std::exception& e) {
      fail("ERROR in " + what + ": " + e.what());
      (void)cudaGetLastError();
      cudaError_t sticky = cudaStreamSynchronize(stream());
      if (sticky == cudaSuccess) sticky = cudaDeviceSynchronize();
      if (sticky != cudaSuccess)
        throw fatal_error(std::string("the GPU is unusable after that error (") + cudaGetErrorString(sticky) +
                          "); stopping");
    }
  }

  // Which library a group's GPU rows are compared with, in the last ratio column.
  enum class versus { cub, thrust };

  // A group of GPU rows (one key type and size): title, then the column titles.
  void begin_gpu_group(const std::string& title, versus reference = versus::cub) {
    versus_ = reference;
    std::printf("\n--- %s\n", title.c_str());
    std::printf("%-42s %-6s %-6s %10s %9s %8s %7s %*s  %s\n", "algorithm", "key", "n", "ms(med)", "Gkeys/s", "GB/s",
                "%copy", versus_width(), versus_ == versus::cub ? "vs CUB" : "vs Thrust", "check");
    std::fflush(stdout);
  }
  void begin_cpu_group(const std::string& title) {
    std::printf("\n--- %s\n", title.c_str());
    std::printf("%-42s %-6s %-6s %7s %10s %9s %8s %10s  %s\n", "algorithm", "key", "n", "threads", "ms(med)", "Gkeys/s",
                "GB/s", "vs std", "check");
    std::fflush(stdout);
  }

  // Prints the row under the current group and keeps it for the JSON file.
  void add_row(const result_row& r) {
    std::string n = log2_label(r.n);
    if (r.backend == "cpu") {
      std::printf("%-42s %-6s %-6s %7d %10.3f %9.3f %8.1f %10s  %s\n", r.algorithm.c_str(), r.key_type.c_str(),
                  n.c_str(), r.threads, r.ms_median, r.gkeys_per_s, r.gb_per_s, ratio(r.ratio_std).c_str(),
                  r.check.c_str());
    } else {
      double versus_ratio = versus_ == versus::cub ? r.ratio_cub : r.ratio_thrust;
      std::printf("%-42s %-6s %-6s %10.4f %9.2f %8.1f %7s %*s  %s\n", r.algorithm.c_str(), r.key_type.c_str(),
                  n.c_str(), r.ms_median, r.gkeys_per_s, r.gb_per_s, percent(r.pct_copy).c_str(), versus_width(),
                  ratio(versus_ratio).c_str(), r.check.c_str());
    }
    std::fflush(stdout);
    rows.push_back(r);
  }

  static std::string percent(double v) {
    if (std::isnan(v)) return "-";
    char s[32];
    std::snprintf(s, sizeof s, "%.0f%%", v);
    return s;
  }
  static std::string ratio(double v) {
    if (std::isnan(v)) return "-";
    char s[32];
    std::snprintf(s, sizeof s, "%.2fx", v);
    return s;
  }

 private:
  int versus_width() const { return versus_ == versus::cub ? 7 : 9; }  // the column fits its title
  versus versus_ = versus::cub;
};

// Figures of a row from its timing: `out_keys` keys written per run, `bytes` read + written.
inline void fill_rates(result_row& r, const timing& t, double out_keys, double bytes) {
  r.ms_median = t.median_ms;
  r.ms_min = t.min_ms;
  r.ms_max = t.max_ms;
  r.reps = t.reps;
  if (t.median_ms > 0) {
    r.gkeys_per_s = out_keys / (t.median_ms * 1e-3) / 1e9;
    r.gb_per_s = bytes / (t.median_ms * 1e-3) / 1e9;
  }
}

// ---------------------------------------------------------------------------------------------
// Suites: one per algorithm file, bench_<name>.cu, which defines its `<name>_suite` at the bottom;
// bench_main.cu lists them in the order they run.

using log2_sizes_member = std::vector<int> options::*;  // one of the options' lists of log2 sizes
struct suite {
  const char* name;  // for --only
  const char* what;  // one line for --list and the table's heading
  void (*run)(bench_context&);
  std::string (*summary)(const bench_context&, index_t* size_out);  // its headline; "" without its rows
  log2_sizes_member sizes;  // the log2 sizes it runs
};

extern const suite merge_suite;           // bench_merge.cu
extern const suite sorted_search_suite;   // bench_sorted_search.cu
extern const suite mergesort_suite;       // bench_mergesort.cu
extern const suite segmented_sort_suite;  // bench_segmented_sort.cu
extern const suite binary_search_suite;   // bench_binary_search.cu
extern const suite load_balance_suite;    // bench_load_balance.cu
extern const suite join_suite;            // bench_join.cu

}  // namespace bench
