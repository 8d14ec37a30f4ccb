// The mergesort suite: mergepath::mergesort / mergesort_pairs against cub::DeviceMergeSort's stable
// sorts, cub::DeviceRadixSort and a device-to-device copy of the keys (and values), on random and
// near-sorted int32 and int64 keys. The sorts are in place (CUB's merge sort and mergepath's):
// every timed run sorts a work set restored from the unsorted input outside the timed region.
// CPU rows against std::stable_sort.
#include <climits>
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <mergepath/sort.hpp>
#include <cuda/std/functional>

#include "bench_mergesort.cuh"
#include "cpu_peers.hpp"

#include <algorithm>
#include <initializer_list>
#include <vector>

namespace bench {
namespace {

// At or below this size the reference (CUB's radix sort) is also compared with std::sort.
constexpr index_t host_oracle_max = index_t{1} << 22;
// CPU rows run at this size with int32 keys unless --cpu / --no-cpu.
constexpr index_t cpu_headline_n = index_t{1} << 24;
// Small inputs need many sets to cover 4x L2 (2^16 int32 keys: 256 KiB each).
constexpr int max_sets = 1024;

std::string describe(sort_input input, const char* type) {
  if (input == sort_input::random) return std::string("keys uniform over ") + type;
  return "keys[i] = i + random 0.." + std::to_string(near_sorted_spread - 1);
}

// The unsorted input with origin-id values, and the reference (CUB's radix sort of the keys),
// itself checked: sorted, the same multiset as the input, and at small sizes equal to std::sort.
template <class K>
void prepare(sort_case<K>& c, std::uint64_t seed) {
  cudaStream_t stream = c.b.stream();
  index_t n = c.n;
  if (c.input == sort_input::random)
    generate_random_keys<K>(c.input_keys(), n, seed, stream);
  else
    generate_near_sorted_keys<K>(c.input_keys(), n, near_sorted_spread, seed, stream);
  fill_origin_ids(c.input_values(), n, stream);
  sort_keys<K>(c.input_keys(), c.ref(), n, stream);

  check_result ref = check_keys<K>(c.ref(), nullptr, n, stream);
  unsigned long long input_hash = multiset_hash<K>(c.input_keys(), n, stream);
  if (ref.unsorted || ref.hash != input_hash)
    c.b.fail("MISMATCH: the reference sort (cub::DeviceRadixSort::SortKeys, " + c.where() +
             ") is wrong: " + std::to_string(ref.unsorted) + " positions out of order, multiset hash " +
             (ref.hash == input_hash ? "equal" : "different"));
  if (n <= host_oracle_max) {
    std::vector<K> want = to_host(c.input_keys(), n, stream);
    std::sort(want.begin(), want.end());
    if (to_host(c.ref(), n, stream) != want)
      c.b.fail("MISMATCH: the reference sort (CUB radix sort, " + c.where() + ") differs from std::sort");
  }
}

// std::stable_sort (one thread) against mergepath::mergesort on host_context(t), t = 2 and all
// OpenMP threads, and __gnu_parallel::stable_sort on as many, each run on a fresh copy of the
// input (copied untimed).
template <class K>
void run_cpu_rows(bench_context& b, const std::vector<K>& input, sort_input dist) {
  auto n = static_cast<index_t>(input.size());
  const char* type = key_type_name<K>();
  std::string where = std::string(type) + ", n = " + log2_label(n) + ", " + sort_input_name(dist);
  b.begin_cpu_group("CPU sort, " + where + " (" + describe(dist, type) + ")");
  double bytes = 2.0 * static_cast<double>(input.size() * sizeof(K));
  std::vector<K> want(input.size()), got(input.size());

  result_row base;
  base.backend = "cpu";
  base.key_type = type;
  base.input = sort_input_name(dist);
  base.n = n;
  base.check = "ok";

  // A sort of 2^24 keys takes a second or so on one thread: no warm-up, fewer runs.
  timing std_t = measure_host(
      0, b.opts.quick ? 1 : 3, [&] { std::copy(input.begin(), input.end(), want.begin()); },
      [&] { std::stable_sort(want.begin(), want.end()); });
  result_row r = base;
  r.algorithm = "std::stable_sort";
  r.threads = 1;
  fill_rates(r, std_t, static_cast<double>(n), bytes);
  r.ratio_std = 1.0;
  b.add_row(r);

  // One row: `sort` run on a fresh copy of the input, checked, then timed.
  auto sort_row = [&](const std::string& algorithm, int threads, auto sort) {
    auto restore = [&] { std::copy(input.begin(), input.end(), got.begin()); };
    restore();
    sort();
    r = base;
    r.algorithm = algorithm;
    r.threads = threads;
    if (got != want) {
      r.check = "MISMATCH";
      b.fail("MISMATCH: " + algorithm + " on " + std::to_string(threads) + " threads (" + where +
             ") differs from std::stable_sort");
    }
    timing tm = measure_host(1, b.opts.quick ? 3 : 5, restore, sort);
    fill_rates(r, tm, static_cast<double>(n), bytes);
    r.ratio_std = std_t.median_ms / tm.median_ms;
    b.add_row(r);
  };
  std::vector<int> thread_counts = cpu_thread_counts({2});
  for (int t : thread_counts) {
    mergepath::host_context ctx(t);
    sort_row("mergepath::mergesort (host_context)", t, [&] { mergepath::mergesort(ctx, got.data(), n); });
  }
  // The parallel peer, on the same thread counts.
  if (bench::have_gnu_parallel())
    for (int t : thread_counts)
      sort_row("__gnu_parallel::stable_sort", t,
               [&] { bench::gnu_parallel_stable_sort(got.data(), got.data() + n, t); });
}

template <class K>
void run_case(bench_context& b, int log2, sort_input input) {
  index_t n = index_t{1} << log2;
  const char* type = key_type_name<K>();
  std::string where = std::string(type) + ", n = " + log2_label(n) + ", " + sort_input_name(input);
  if (n > INT_MAX) {
    b.note("skipping mergesort at " + where + ": the CUB rows take int counts");
    return;
  }
  const int count = static_cast<int>(n);
  constexpr int bits = static_cast<int>(sizeof(K) * 8);
  using value_type = typename sort_case<K>::value_type;
  cudaStream_t stream = b.stream();
  auto less = ::cuda::std::less<>{};

  // CUB's temporary storage, sized now (no pointers needed) and allocated once, outside the
  // timed region; the radix sort is out of place and its temporaries hold the alternate buffers.
  std::size_t merge_keys_temp = 0, merge_pairs_temp = 0, radix_keys_temp = 0, radix_pairs_temp = 0;
  MERGEPATH_CUDA_CHECK(
      cub::DeviceMergeSort::StableSortKeys(nullptr, merge_keys_temp, static_cast<K*>(nullptr), count, less, stream));
  MERGEPATH_CUDA_CHECK(cub::DeviceMergeSort::StableSortPairs(nullptr, merge_pairs_temp, static_cast<K*>(nullptr),
                                                             static_cast<value_type*>(nullptr), count, less, stream));
  MERGEPATH_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, radix_keys_temp, static_cast<const K*>(nullptr),
                                                      static_cast<K*>(nullptr), count, 0, bits, stream));
  MERGEPATH_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
      nullptr, radix_pairs_temp, static_cast<const K*>(nullptr), static_cast<K*>(nullptr),
      static_cast<const value_type*>(nullptr), static_cast<value_type*>(nullptr), count, 0, bits, stream));
  std::size_t cub_temp_bytes =
      std::max({merge_keys_temp, merge_pairs_temp, radix_keys_temp, radix_pairs_temp, std::size_t{1}});

  // Memory: the work sets, the input and the out set, the reference, CUB's temporaries,
  // mergepath's scratch (a copy of the keys and values, from its pool), the reference sort's
  // temporaries, the check bitmap, and slack.
  std::size_t keys_bytes = static_cast<std::size_t>(n) * sizeof(K);
  std::size_t set_bytes = keys_bytes + static_cast<std::size_t>(n) * sizeof(value_type);
  auto needed = [&](int sets) {
    return static_cast<std::size_t>(sets + 3) * set_bytes + 2 * keys_bytes + cub_temp_bytes +
           static_cast<std::size_t>(n) / 8 + (std::size_t{768} << 20);
  };
  // Sets that cover 4x L2 with the keys a keys row restores, and at least two, so a run's
  // restored input is never the last thing written before it.
  int wanted = std::max(2, b.rotation_sets(keys_bytes, max_sets));
  int sets = b.fit_sets(wanted, needed, "mergesort at " + where, true);
  if (sets == 0) return;

  sort_case<K> c(b, input, n, sets);
  prepare(c, 0x736f7274ull ^ (static_cast<std::uint64_t>(log2) << 8) ^ sizeof(K) ^
                 (static_cast<std::uint64_t>(input) << 16));
  device_buffer<unsigned char> cub_temp(cub_temp_bytes, "CUB temp storage");

  mergepath::cuda_context& ctx = b.ctx;
  using kind = typename sort_case<K>::row_kind;
  using lands = typename sort_case<K>::lands;

  b.begin_gpu_group(where + " keys (" + describe(input, type) + "), " + std::to_string(sets) + " rotating input set" +
                    (sets > 1 ? "s" : "") + " restored untimed, " + std::to_string(b.reps_for(n)) + " reps");

  // Keys only.
  c.copy_keys_ms = c.keys_row("copy (keys)", kind::baseline, lands::out_of_place, [&](int s) {
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(c.out_keys(), c.keys(s), keys_bytes, cudaMemcpyDeviceToDevice, stream));
  });
  c.cub_keys_ms = c.keys_row("cub::DeviceMergeSort::StableSortKeys", kind::reference, lands::in_place, [&](int s) {
    std::size_t bytes = merge_keys_temp;
    MERGEPATH_CUDA_CHECK(cub::DeviceMergeSort::StableSortKeys(cub_temp.data(), bytes, c.keys(s), count, less, stream));
  });
  c.keys_row(
      "mergepath::mergesort", kind::ours, lands::in_place, [&](int s) { mergepath::mergesort(ctx, c.keys(s), n); },
      mergepath::default_mergesort_policy<K>::tuning);
  if constexpr (std::is_same_v<K, std::int32_t>)
    if (b.opts.tunings) mergesort_tuning_rows(c);
  c.keys_row("mergepath::mergesort (user comparator)", kind::ours, lands::in_place,
             [&](int s) { mergepath::mergesort(ctx, c.keys(s), n, user_less{}); });
  c.keys_row("cub::DeviceRadixSort::SortKeys", kind::third_party, lands::out_of_place, [&](int s) {
    std::size_t bytes = radix_keys_temp;
    MERGEPATH_CUDA_CHECK(
        cub::DeviceRadixSort::SortKeys(cub_temp.data(), bytes, c.keys(s), c.out_keys(), count, 0, bits, stream));
  });
  c.keys_row("mergepath::sort (radix or merge)", kind::ours, lands::in_place,
             [&](int s) { mergepath::sort(ctx, c.keys(s), n); });
  c.keys_row("mergepath::sort_copy (radix or merge)", kind::ours, lands::out_of_place,
             [&](int s) { mergepath::sort_copy(ctx, c.keys(s), n, c.out_keys()); });

  // Pairs: int32 values (origin ids).
  c.copy_pairs_ms = c.pairs_row("copy (keys+values)", kind::baseline, lands::out_of_place, [&](int s) {
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(c.out_base(), c.work_base(s), set_bytes, cudaMemcpyDeviceToDevice, stream));
  });
  c.cub_pairs_ms = c.pairs_row("cub::DeviceMergeSort::StableSortPairs", kind::reference, lands::in_place, [&](int s) {
    std::size_t bytes = merge_pairs_temp;
    MERGEPATH_CUDA_CHECK(
        cub::DeviceMergeSort::StableSortPairs(cub_temp.data(), bytes, c.keys(s), c.values(s), count, less, stream));
  });
  c.pairs_row(
      "mergepath::mergesort_pairs", kind::ours, lands::in_place,
      [&](int s) { mergepath::mergesort_pairs(ctx, c.keys(s), c.values(s), n); },
      mergepath::default_mergesort_policy<K, value_type>::tuning);
  if constexpr (std::is_same_v<K, std::int32_t>)
    if (b.opts.tunings) mergesort_pairs_tuning_rows(c);
  c.pairs_row("mergepath::mergesort_pairs (user comparator)", kind::ours, lands::in_place,
              [&](int s) { mergepath::mergesort_pairs(ctx, c.keys(s), c.values(s), n, user_less{}); });
  c.pairs_row("cub::DeviceRadixSort::SortPairs", kind::third_party, lands::out_of_place, [&](int s) {
    std::size_t bytes = radix_pairs_temp;
    MERGEPATH_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(cub_temp.data(), bytes, c.keys(s), c.out_keys(), c.values(s),
                                                         c.out_values(), count, 0, bits, stream));
  });
  c.pairs_row("mergepath::sort_pairs (radix or merge)", kind::ours, lands::in_place,
              [&](int s) { mergepath::sort_pairs(ctx, c.keys(s), c.values(s), n); });
  c.pairs_row("mergepath::sort_pairs_copy (radix or merge)", kind::ours, lands::out_of_place, [&](int s) {
    mergepath::sort_pairs_copy(ctx, c.keys(s), c.values(s), n, c.out_keys(), c.out_values());
  });

  if (b.wants_cpu_rows(type, n, cpu_headline_n)) run_cpu_rows<K>(b, to_host(c.input_keys(), n, stream), input);
}

}  // namespace

void run_mergesort_bench(bench_context& b) {
  for (int log2 : b.opts.mergesort_log2_sizes) {
    for (sort_input input : {sort_input::random, sort_input::near_sorted}) {
      std::string what = std::string(", n = 2^") + std::to_string(log2) + ", " + sort_input_name(input) + ")";
      if (b.wants_key_type("int32"))
        b.guarded("mergesort (int32" + what, [&] { run_case<std::int32_t>(b, log2, input); });
      if (b.wants_key_type("int64"))
        b.guarded("mergesort (int64" + what, [&] { run_case<std::int64_t>(b, log2, input); });
    }
  }
}

// The headline at 2^26 random keys (or the largest size run): mergesort and mergesort_pairs on
// int32 keys, mergesort on int64 keys and CUB's radix sort on int32 keys against CUB's merge
// sort; the CPU mergesort on 2 threads against std::stable_sort (at 2^24, or the largest run).
std::string mergesort_summary(const bench_context& b, index_t* size_out) {
  auto find = [&](const std::string& algorithm, const std::string& key_type, index_t n, const std::string& backend,
                  int threads) -> const result_row* {
    for (const result_row& r : b.rows)
      if (r.algorithm == algorithm && r.key_type == key_type && r.n == n && r.input == "random" &&
          r.backend == backend && (backend != "cpu" || r.threads == threads))
        return &r;
    return nullptr;
  };
  auto largest = [&](const std::string& algorithm, const std::string& backend, index_t preferred) {
    bool found = false;
    index_t n = 0;
    for (const result_row& r : b.rows)
      if (r.algorithm == algorithm && r.key_type == "int32" && r.input == "random" && r.backend == backend) {
        found = found || r.n == preferred;
        n = std::max(n, r.n);
      }
    return found ? preferred : n;
  };
  index_t n = largest("mergepath::mergesort", "gpu", index_t{1} << 26);
  *size_out = n;
  if (n == 0) return "";
  auto part = [&](const std::string& label, const std::string& algorithm, const std::string& key_type) {
    const result_row* r = find(algorithm, key_type, n, "gpu", 0);
    if (!r) return label + ": not measured";
    char gkeys[32];
    std::snprintf(gkeys, sizeof gkeys, "%.2f", r->gkeys_per_s);
    return label + ": " + bench_context::ratio(r->ratio_cub) + " CUB merge sort (" + gkeys + " Gkeys/s)";
  };
  std::string text = part("mergesort keys", "mergepath::mergesort", "int32") + "; " +
                     part("pairs", "mergepath::mergesort_pairs", "int32");
  if (b.wants_key_type("int64")) text += "; " + part("int64 keys", "mergepath::mergesort", "int64");
  text += "; " + part("radix sort keys", "cub::DeviceRadixSort::SortKeys", "int32");
  index_t cpu_n = largest("mergepath::mergesort (host_context)", "cpu", cpu_headline_n);
  if (const result_row* r = cpu_n ? find("mergepath::mergesort (host_context)", "int32", cpu_n, "cpu", 2) : nullptr)
    text +=
        "; CPU 2 threads (n = " + log2_label(cpu_n) + "): " + bench_context::ratio(r->ratio_std) + " std::stable_sort";
  return text;
}

// The suite as bench_main.cu lists it.
const suite mergesort_suite = {
    "mergesort",
    "mergesort / mergesort_pairs vs CUB merge sort, radix sort and copy; tunings; CPU rows",
    run_mergesort_bench, mergesort_summary, &options::mergesort_log2_sizes};

}  // namespace bench
