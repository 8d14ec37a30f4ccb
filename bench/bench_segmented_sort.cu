// The segmented sort suite: mergepath::segmented_sort / segmented_sort_pairs against
// cub::DeviceSegmentedSort::SortKeys / StableSortPairs and a device-to-device copy, on random
// int32 keys in segments of uniform random length with means 2, 20, 300, 10^4 and 10^6; then
// mergepath::locality_sort on near-sorted keys (keys[i] = i + random 0..25) against
// mergepath::mergesort, cub::DeviceMergeSort and cub::DeviceRadixSort. The sorts are in place
// (mergepath's, CUB's merge sort): every timed run sorts a work set restored from the unsorted
// input outside the timed region. Then the stats table of one segmented sort (mean 300, untimed:
// a sort with stats waits for the GPU) and the issue's targets, each met or missed.
#include <algorithm>
#include <climits>
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <cuda/std/functional>
#include <sstream>
#include <vector>

#include "bench_mergesort.cuh"
#include "bench_segmented_sort.cuh"

namespace bench {
namespace {

using key_type = std::int32_t;  // the suite runs int32 keys (and int32 values, heads, offsets)
using value_type = std::int32_t;

// Mean segment lengths; lengths are drawn uniformly from 1 .. 2 * mean - 1.
constexpr index_t segment_means[] = {2, 20, 300, 10000, 1000000};
// The mean whose stats table is printed (the seed's verbose example).
constexpr index_t stats_mean = 300;
// At or below this size the references (CUB's segmented sort, and radix sort for the locality
// rows) are also compared with std::sort (of each segment) on the host.
constexpr index_t host_oracle_max = index_t{1} << 22;
// Small inputs need many sets to cover 4x L2.
constexpr int max_sets = 1024;

// The issue's targets: at every mean, keys and pairs, at least max(CUB, moderngpu) of these H200
// figures (Gkeys/s), and at least 1.0x CUB measured in the same run; locality_sort at least 2x
// mergepath::mergesort and 0.8x CUB's radix sort.
struct reference_figures {
  index_t mean;
  double cub_keys, cub_pairs, moderngpu_keys, moderngpu_pairs;
};
constexpr reference_figures h200_references[] = {
    {2, 54.8, 32.3, 40.8, 31.6},     {20, 67.0, 41.3, 35.6, 25.9},    {300, 4.75, 3.88, 30.3, 24.7},
    {10000, 26.4, 19.3, 28.7, 19.2}, {1000000, 7.5, 5.4, 19.3, 11.9},
};
constexpr double target_vs_cub = 1.0;
constexpr double target_locality_vs_mergesort = 2.0;
constexpr double target_locality_vs_radix = 0.8;

// The tile shapes of a segmented or locality sort, as the rows record them (JSON "sort_tuning":
// the blocksort's and the merge passes'; the queue grid is left out).
template <class Policy>
mergepath::mergesort_tuning sort_tuning_of() {
  constexpr mergepath::segmented_sort_tuning t = Policy::tuning;
  return {t.blocksort, t.merge};
}
using keys_policy = mergepath::default_segmented_sort_policy<key_type>;
using pairs_policy = mergepath::default_segmented_sort_policy<key_type, value_type>;

std::string mean_label(index_t mean) {
  if (mean == 10000) return "1e4";
  if (mean == 1000000) return "1e6";
  return std::to_string(mean);
}

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Offsets [0, h_1, ..., h_k, n] of segments whose lengths are uniform in 1 .. 2 * mean - 1 (the
// last one cut at n), from a fixed seed: the same segments on every run and machine.
std::vector<std::int32_t> segment_offsets(index_t n, index_t mean, std::uint64_t seed) {
  std::vector<std::int32_t> offsets{0};
  offsets.reserve(static_cast<std::size_t>(n / mean + 2));
  auto span = static_cast<std::uint64_t>(2 * mean - 1);
  index_t at = 0;
  for (std::uint64_t i = 0;; ++i) {
    at += 1 + static_cast<index_t>(splitmix64(seed ^ splitmix64(i)) % span);
    if (at >= n) break;
    offsets.push_back(static_cast<std::int32_t>(at));
  }
  offsets.push_back(static_cast<std::int32_t>(n));
  return offsets;
}

template <class T>
std::vector<T> to_host(const T* d, index_t count, cudaStream_t stream) {
  std::vector<T> h(static_cast<std::size_t>(count));
  if (count > 0)
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(h.data(), d, h.size() * sizeof(T), cudaMemcpyDeviceToHost, stream));
  MERGEPATH_CUDA_CHECK(cudaStreamSynchronize(stream));
  return h;
}

// Positions i > 0 that are not a segment head and whose key orders before the one at i - 1.
template <class K>
__global__ void segments_unsorted_kernel(const K* keys, const std::uint32_t* head_flags, index_t count,
                                         unsigned long long* unsorted) {
  unsigned long long local = 0;
  for (index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x + 1; i < count;
       i += static_cast<index_t>(gridDim.x) * blockDim.x)
    if (!mergepath::is_head(head_flags, i) && keys[i] < keys[i - 1]) ++local;
  if (local) atomicAdd(unsorted, local);
}

template <class K>
unsigned long long segments_unsorted(const K* keys, const std::uint32_t* head_flags, index_t count,
                                     cudaStream_t stream) {
  device_buffer<unsigned long long> counter(1, "unsorted counter");
  MERGEPATH_CUDA_CHECK(cudaMemsetAsync(counter.data(), 0, counter.bytes(), stream));
  constexpr int threads = 256;
  int blocks = static_cast<int>(std::clamp<index_t>((count + threads - 1) / threads, 1, 8192));
  mergepath::detail::launch("segments_unsorted_kernel", segments_unsorted_kernel<K>, blocks, threads, 0, stream, keys,
                            head_flags, count, counter.data());
  return to_host(counter.data(), 1, stream)[0];  // waits before the counter is freed
}

// CUB's temporary storage for both segmented sorts of one case, sized once.
struct cub_segmented_temp {
  std::size_t keys = 0, pairs = 0;
  std::size_t max() const { return std::max({keys, pairs, std::size_t{1}}); }
};

cub_segmented_temp size_cub_segmented(index_t n, index_t num_segments, cudaStream_t stream) {
  cub_segmented_temp t;
  const std::int32_t* no_offsets = nullptr;
  MERGEPATH_CUDA_CHECK(cub::DeviceSegmentedSort::SortKeys(nullptr, t.keys, static_cast<const key_type*>(nullptr),
                                                          static_cast<key_type*>(nullptr), n, num_segments, no_offsets,
                                                          no_offsets, stream));
  MERGEPATH_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortPairs(
      nullptr, t.pairs, static_cast<const key_type*>(nullptr), static_cast<key_type*>(nullptr),
      static_cast<const value_type*>(nullptr), static_cast<value_type*>(nullptr), n, num_segments, no_offsets,
      no_offsets, stream));
  return t;
}

// The unsorted input with origin-id values, and the references: CUB's SortKeys of the keys, and
// CUB's StableSortPairs of keys and origin ids. Both checked: every segment sorted, the same
// multiset as the input, the pairs a stable permutation of the input with the reference's keys,
// and at small sizes the keys equal to std::sort of each segment on the host.
void prepare(segsort_case<key_type>& c, const std::vector<std::int32_t>& offsets, void* cub_temp,
             const cub_segmented_temp& temp, std::uint64_t seed) {
  cudaStream_t stream = c.b.stream();
  index_t n = c.n;
  generate_random_keys<key_type>(c.input_keys(), n, seed, stream);
  fill_origin_ids(c.input_values(), n, stream);
  std::size_t bytes = temp.keys;
  MERGEPATH_CUDA_CHECK(cub::DeviceSegmentedSort::SortKeys(cub_temp, bytes, c.input_keys(), c.ref_keys(), n,
                                                          c.num_segments, c.offsets(), c.offsets() + 1, stream));
  bytes = temp.pairs;
  MERGEPATH_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortPairs(cub_temp, bytes, c.input_keys(), c.out_keys(),
                                                                 c.input_values(), c.ref_values(), n, c.num_segments,
                                                                 c.offsets(), c.offsets() + 1, stream));

  unsigned long long unsorted = segments_unsorted(c.ref_keys(), c.head_flags(), n, stream);
  unsigned long long ref_hash = check_keys<key_type>(c.ref_keys(), nullptr, n, stream).hash;
  unsigned long long input_hash = multiset_hash<key_type>(c.input_keys(), n, stream);
  if (unsorted || ref_hash != input_hash)
    c.b.fail("MISMATCH: the reference (cub::DeviceSegmentedSort::SortKeys, " + c.where() + ") is wrong: " +
             std::to_string(unsorted) + " positions out of order within their segment, multiset hash " +
             (ref_hash == input_hash ? "equal" : "different"));
  check_result pairs =
      check_permuted_pairs<key_type>(c.out_keys(), c.ref_values(), c.ref_keys(), c.input_keys(), n, stream);
  if (pairs.bad || pairs.unstable)
    c.b.fail("MISMATCH: the reference (cub::DeviceSegmentedSort::StableSortPairs, " + c.where() + ") is wrong: " +
             std::to_string(pairs.bad) + " pairs differ from SortKeys' keys or are not a permutation of the input, " +
             std::to_string(pairs.unstable) + " equal keys out of input order");
  if (n <= host_oracle_max) {
    std::vector<key_type> want = to_host(c.input_keys(), n, stream);
    for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
      std::sort(want.begin() + offsets[s], want.begin() + offsets[s + 1]);
    if (to_host(c.ref_keys(), n, stream) != want)
      c.b.fail("MISMATCH: the reference (CUB's segmented sort, " + c.where() + ") differs from std::sort per segment");
  }
}

// One mean segment length at size n: the keys rows, then the pairs rows. At stats_mean, also one
// untimed segmented_sort with stats, checked, whose table goes to *stats_table.
void run_segmented_case(bench_context& b, int log2, index_t mean, std::string* stats_table) {
  index_t n = index_t{1} << log2;
  const char* type = key_type_name<key_type>();
  std::string where = std::string(type) + ", n = " + log2_label(n) + ", segments of mean " + std::to_string(mean);
  cudaStream_t stream = b.stream();

  std::vector<std::int32_t> offsets = segment_offsets(n, mean, 0x736567ull ^ static_cast<std::uint64_t>(mean));
  auto num_segments = static_cast<index_t>(offsets.size()) - 1;
  cub_segmented_temp temp = size_cub_segmented(n, num_segments, stream);

  // Memory: the work sets, the input and the out set, the references, the offsets and head flags,
  // CUB's temporaries, mergepath's scratch (about twice the keys and values, from its pool), the
  // check bitmap, and slack.
  std::size_t keys_bytes = static_cast<std::size_t>(n) * sizeof(key_type);
  std::size_t set_bytes = keys_bytes + static_cast<std::size_t>(n) * sizeof(value_type);
  std::size_t segment_bytes = offsets.size() * sizeof(std::int32_t) + static_cast<std::size_t>(n) / 8;
  auto needed = [&](int sets) {
    return static_cast<std::size_t>(sets + 5) * set_bytes + segment_bytes + temp.max() +
           static_cast<std::size_t>(n) / 8 + (std::size_t{768} << 20);
  };
  int wanted = std::max(2, b.rotation_sets(keys_bytes, max_sets));
  int sets = wanted;
  std::size_t free = b.free_bytes();
  while (sets > 1 && needed(sets) > free) --sets;
  if (needed(sets) > free) {
    b.note("skipping segmented sort at " + where + ": needs " + std::to_string(needed(1) >> 20) + " MiB, " +
           std::to_string(free >> 20) + " MiB free");
    return;
  }
  if (sets < wanted)
    b.note("segmented sort at " + where + ": only " + std::to_string(sets) + " of " + std::to_string(wanted) +
           " input sets fit in memory; " +
           (sets == 1 ? "each run follows its own restore, whose tail may still be in L2"
                      : "small sizes may partly time the L2"));

  segsort_case<key_type> c(b, n, mean, offsets, sets);
  device_buffer<unsigned char> cub_temp(temp.max(), "CUB temp storage");
  prepare(c, offsets, cub_temp.data(), temp, 0x5e65ull ^ (static_cast<std::uint64_t>(log2) << 8));

  mergepath::cuda_context& ctx = b.ctx;
  using kind = segsort_case<key_type>::row_kind;
  using lands = segsort_case<key_type>::lands;
  const index_t segments = c.num_segments;

  b.begin_gpu_group(where + " (lengths uniform in 1.." + std::to_string(2 * mean - 1) + ", " +
                    std::to_string(segments) + " segments; keys uniform over " + type + "), " + std::to_string(sets) +
                    " rotating input set" + (sets > 1 ? "s" : "") + " restored untimed, " +
                    std::to_string(b.reps_for(n)) + " reps");

  // Keys only.
  c.copy_keys_ms = c.keys_row("copy (keys)", kind::baseline, lands::out_of_place, [&](int s) {
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(c.out_keys(), c.keys(s), keys_bytes, cudaMemcpyDeviceToDevice, stream));
  });
  c.cub_keys_ms = c.keys_row("cub::DeviceSegmentedSort::SortKeys", kind::reference, lands::out_of_place, [&](int s) {
    std::size_t bytes = temp.keys;
    MERGEPATH_CUDA_CHECK(cub::DeviceSegmentedSort::SortKeys(cub_temp.data(), bytes, c.keys(s), c.out_keys(), n,
                                                            segments, c.offsets(), c.offsets() + 1, stream));
  });
  c.keys_row(
      "mergepath::segmented_sort", kind::ours, lands::in_place,
      [&](int s) { mergepath::segmented_sort(ctx, c.keys(s), n, c.heads(), c.num_heads()); },
      sort_tuning_of<keys_policy>());

  // Pairs: int32 values (origin ids).
  c.copy_pairs_ms = c.pairs_row("copy (keys+values)", kind::baseline, lands::out_of_place, [&](int s) {
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(c.out_base(), c.work_base(s), set_bytes, cudaMemcpyDeviceToDevice, stream));
  });
  c.cub_pairs_ms =
      c.pairs_row("cub::DeviceSegmentedSort::StableSortPairs", kind::reference, lands::out_of_place, [&](int s) {
        std::size_t bytes = temp.pairs;
        MERGEPATH_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortPairs(cub_temp.data(), bytes, c.keys(s), c.out_keys(),
                                                                       c.values(s), c.out_values(), n, segments,
                                                                       c.offsets(), c.offsets() + 1, stream));
      });
  c.pairs_row(
      "mergepath::segmented_sort_pairs", kind::ours, lands::in_place,
      [&](int s) { mergepath::segmented_sort_pairs(ctx, c.keys(s), c.values(s), n, c.heads(), c.num_heads()); },
      sort_tuning_of<pairs_policy>());

  if (mean == stats_mean) {
    b.guarded("mergepath::segmented_sort with stats (" + where + ")", [&] {
      c.restore(0, false);
      mergepath::segsort_stats stats;
      mergepath::segmented_sort(ctx, c.keys(0), n, c.heads(), c.num_heads(), mergepath::less<>{}, &stats);
      MERGEPATH_CUDA_CHECK(cudaStreamSynchronize(stream));
      std::string check = c.verify("mergepath::segmented_sort with stats (" + where + ")", false, c.keys(0), nullptr);
      std::ostringstream table;
      table << "Mean segment length = " << mean << "\n" << stats;
      if (check != "ok") table << "(the sort with stats: " << check << ")\n";
      *stats_table = table.str();
    });
  }
}

// locality_sort on near-sorted keys beside mergepath::mergesort, CUB's merge sort (the "vs CUB"
// reference, as in the mergesort suite) and CUB's radix sort; all checked against the radix sort.
void run_locality_case(bench_context& b, int log2) {
  index_t n = index_t{1} << log2;
  const char* type = key_type_name<key_type>();
  std::string where = std::string(type) + ", n = " + log2_label(n) + ", " + sort_input_name(sort_input::near_sorted);
  const int count = static_cast<int>(n);
  constexpr int bits = static_cast<int>(sizeof(key_type) * 8);
  cudaStream_t stream = b.stream();
  auto less = ::cuda::std::less<>{};

  std::size_t merge_temp = 0, radix_temp = 0;
  MERGEPATH_CUDA_CHECK(
      cub::DeviceMergeSort::StableSortKeys(nullptr, merge_temp, static_cast<key_type*>(nullptr), count, less, stream));
  MERGEPATH_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, radix_temp, static_cast<const key_type*>(nullptr),
                                                      static_cast<key_type*>(nullptr), count, 0, bits, stream));
  std::size_t cub_temp_bytes = std::max({merge_temp, radix_temp, std::size_t{1}});

  // Memory: as the mergesort suite's keys rows, with mergepath's scratch twice the keys.
  std::size_t keys_bytes = static_cast<std::size_t>(n) * sizeof(key_type);
  std::size_t set_bytes = keys_bytes + static_cast<std::size_t>(n) * sizeof(value_type);
  auto needed = [&](int sets) {
    return static_cast<std::size_t>(sets + 3) * set_bytes + 2 * keys_bytes + cub_temp_bytes +
           static_cast<std::size_t>(n) / 8 + (std::size_t{768} << 20);
  };
  int wanted = std::max(2, b.rotation_sets(keys_bytes, max_sets));
  int sets = wanted;
  std::size_t free = b.free_bytes();
  while (sets > 1 && needed(sets) > free) --sets;
  if (needed(sets) > free) {
    b.note("skipping locality sort at " + where + ": needs " + std::to_string(needed(1) >> 20) + " MiB, " +
           std::to_string(free >> 20) + " MiB free");
    return;
  }
  if (sets < wanted)
    b.note("locality sort at " + where + ": only " + std::to_string(sets) + " of " + std::to_string(wanted) +
           " input sets fit in memory");

  sort_case<key_type> c(b, sort_input::near_sorted, n, sets);
  // The input and the reference (CUB's radix sort), itself checked: sorted, the same multiset as
  // the input, and at small sizes equal to std::sort.
  generate_near_sorted_keys<key_type>(c.input_keys(), n, near_sorted_spread,
                                      0x6c6f63ull ^ (static_cast<std::uint64_t>(log2) << 8), stream);
  fill_origin_ids(c.input_values(), n, stream);
  sort_keys<key_type>(c.input_keys(), c.ref(), n, stream);
  check_result ref = check_keys<key_type>(c.ref(), nullptr, n, stream);
  unsigned long long input_hash = multiset_hash<key_type>(c.input_keys(), n, stream);
  if (ref.unsorted || ref.hash != input_hash)
    b.fail("MISMATCH: the reference sort (cub::DeviceRadixSort::SortKeys, " + c.where() +
           ") is wrong: " + std::to_string(ref.unsorted) + " positions out of order, multiset hash " +
           (ref.hash == input_hash ? "equal" : "different"));
  if (n <= host_oracle_max) {
    std::vector<key_type> want = to_host(c.input_keys(), n, stream);
    std::sort(want.begin(), want.end());
    if (to_host(c.ref(), n, stream) != want)
      b.fail("MISMATCH: the reference sort (CUB radix sort, " + c.where() + ") differs from std::sort");
  }
  device_buffer<unsigned char> cub_temp(cub_temp_bytes, "CUB temp storage");

  mergepath::cuda_context& ctx = b.ctx;
  using kind = sort_case<key_type>::row_kind;
  using lands = sort_case<key_type>::lands;

  b.begin_gpu_group(where + " keys (keys[i] = i + random 0.." + std::to_string(near_sorted_spread - 1) +
                    "; vs CUB = cub::DeviceMergeSort's), " + std::to_string(sets) + " rotating input set" +
                    (sets > 1 ? "s" : "") + " restored untimed, " + std::to_string(b.reps_for(n)) + " reps");
  c.copy_keys_ms = c.keys_row("copy (keys)", kind::baseline, lands::out_of_place, [&](int s) {
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(c.out_keys(), c.keys(s), keys_bytes, cudaMemcpyDeviceToDevice, stream));
  });
  c.cub_keys_ms = c.keys_row("cub::DeviceMergeSort::StableSortKeys", kind::reference, lands::in_place, [&](int s) {
    std::size_t bytes = merge_temp;
    MERGEPATH_CUDA_CHECK(cub::DeviceMergeSort::StableSortKeys(cub_temp.data(), bytes, c.keys(s), count, less, stream));
  });
  c.keys_row(
      "mergepath::mergesort", kind::ours, lands::in_place, [&](int s) { mergepath::mergesort(ctx, c.keys(s), n); },
      mergepath::default_mergesort_policy<key_type>::tuning);
  c.keys_row(
      "mergepath::locality_sort", kind::ours, lands::in_place,
      [&](int s) { mergepath::locality_sort(ctx, c.keys(s), n); }, sort_tuning_of<keys_policy>());
  c.keys_row("cub::DeviceRadixSort::SortKeys", kind::third_party, lands::out_of_place, [&](int s) {
    std::size_t bytes = radix_temp;
    MERGEPATH_CUDA_CHECK(
        cub::DeviceRadixSort::SortKeys(cub_temp.data(), bytes, c.keys(s), c.out_keys(), count, 0, bits, stream));
  });
}

// ---- targets ----------------------------------------------------------------------------------

// The latest row of that name: the mergesort suite, which runs before this one, has rows of the
// same names on near-sorted keys too; the targets speak of this suite's.
const result_row* find_row(const bench_context& b, const std::string& algorithm, const std::string& input, index_t n) {
  for (auto r = b.rows.rbegin(); r != b.rows.rend(); ++r)
    if (r->algorithm == algorithm && r->key_type == "int32" && r->input == input && r->n == n && r->backend == "gpu")
      return &*r;
  return nullptr;
}

struct target_line {
  std::string text;
  int met = 0, criteria = 0;
};

std::string fixed(double v, int digits) {
  char s[32];
  std::snprintf(s, sizeof s, "%.*f", digits, v);
  return s;
}
const char* verdict(bool met) { return met ? "met" : "missed"; }

// locality_sort against mergepath::mergesort and CUB's radix sort on the same near-sorted keys:
// their time / its time.
struct locality_figures {
  bool measured = false;
  double gkeys_per_s = not_measured, mergesort_gkeys_per_s = not_measured, radix_gkeys_per_s = not_measured;
  double vs_mergesort = not_measured, vs_radix = not_measured;
};

locality_figures locality_ratios(const bench_context& b, index_t n) {
  std::string near = sort_input_name(sort_input::near_sorted);
  const result_row* locality = find_row(b, "mergepath::locality_sort", near, n);
  const result_row* mergesort = find_row(b, "mergepath::mergesort", near, n);
  const result_row* radix = find_row(b, "cub::DeviceRadixSort::SortKeys", near, n);
  locality_figures f;
  if (!locality || !mergesort || !radix) return f;
  f.measured = true;
  f.gkeys_per_s = locality->gkeys_per_s;
  f.mergesort_gkeys_per_s = mergesort->gkeys_per_s;
  f.radix_gkeys_per_s = radix->gkeys_per_s;
  f.vs_mergesort = mergesort->ms_median / locality->ms_median;
  f.vs_radix = radix->ms_median / locality->ms_median;
  return f;
}

// The issue's targets at size n, one line per mean and keys / pairs, and one for locality_sort.
std::vector<target_line> evaluate_targets(const bench_context& b, index_t n) {
  std::vector<target_line> lines;
  for (const reference_figures& ref : h200_references) {
    for (bool pairs : {false, true}) {
      std::string input = "segments mean " + std::to_string(ref.mean);
      const result_row* ours =
          find_row(b, pairs ? "mergepath::segmented_sort_pairs" : "mergepath::segmented_sort", input, n);
      target_line t;
      t.text = std::string("segmented_sort") + (pairs ? "_pairs" : "") + ", mean " + mean_label(ref.mean) + ": ";
      t.criteria = 2;
      if (!ours || std::isnan(ours->gkeys_per_s)) {
        t.text += "not measured";
        lines.push_back(t);
        continue;
      }
      double cub = pairs ? ref.cub_pairs : ref.cub_keys, mgpu = pairs ? ref.moderngpu_pairs : ref.moderngpu_keys;
      double want = std::max(cub, mgpu);
      bool fast = ours->gkeys_per_s >= want, vs_cub = ours->ratio_cub >= target_vs_cub;
      t.met = int(fast) + int(vs_cub);
      t.text += fixed(ours->gkeys_per_s, 2) + " Gkeys/s, target max(CUB " + fixed(cub, 2) + ", moderngpu " +
                fixed(mgpu, 2) + ") = " + fixed(want, 2) + " (H200): " + verdict(fast) + " (" +
                fixed(ours->gkeys_per_s / want, 2) + "x); " + bench_context::ratio(ours->ratio_cub) +
                " CUB in this run, target " + fixed(target_vs_cub, 2) + "x: " + verdict(vs_cub);
      lines.push_back(t);
    }
  }
  locality_figures f = locality_ratios(b, n);
  target_line t;
  t.text = "locality_sort (keys[i] = i + random 0.." + std::to_string(near_sorted_spread - 1) + "): ";
  t.criteria = 2;
  if (!f.measured) {
    t.text += "not measured";
  } else {
    bool a = f.vs_mergesort >= target_locality_vs_mergesort, c = f.vs_radix >= target_locality_vs_radix;
    t.met = int(a) + int(c);
    t.text += fixed(f.gkeys_per_s, 2) + " Gkeys/s; " + bench_context::ratio(f.vs_mergesort) +
              " mergepath::mergesort (" + fixed(f.mergesort_gkeys_per_s, 2) + " Gkeys/s), target " +
              fixed(target_locality_vs_mergesort, 2) + "x: " + verdict(a) + "; " + bench_context::ratio(f.vs_radix) +
              " cub::DeviceRadixSort::SortKeys (" + fixed(f.radix_gkeys_per_s, 2) + " Gkeys/s), target " +
              fixed(target_locality_vs_radix, 2) + "x: " + verdict(c);
  }
  lines.push_back(t);
  return lines;
}

}  // namespace

void run_segmented_sort_bench(bench_context& b) {
  if (!b.wants_key_type("int32")) {
    b.note("segmented_sort runs with int32 keys only, and --types has no int32: skipped");
    return;
  }
  for (int log2 : b.opts.segmented_sort_log2_sizes) {
    index_t n = index_t{1} << log2;
    if (n > INT_MAX) {
      b.note("skipping segmented sort at n = " + log2_label(n) + ": the heads and CUB's offsets are int32");
      continue;
    }
    std::string stats_table;
    for (index_t mean : segment_means)
      b.guarded("segmented sort (int32, n = 2^" + std::to_string(log2) + ", mean " + std::to_string(mean) + ")",
                [&] { run_segmented_case(b, log2, mean, &stats_table); });
    b.guarded("locality sort (int32, n = 2^" + std::to_string(log2) + ")", [&] { run_locality_case(b, log2); });

    if (!stats_table.empty()) {
      // Untimed: a sort with stats waits for the GPU to read the counts back.
      std::printf("\n--- mergepath::segmented_sort stats, int32, n = %s, one untimed sort\n", log2_label(n).c_str());
      std::fputs(stats_table.c_str(), stdout);
    }
    std::printf("\n--- targets, int32, n = %s (the issue's: Gkeys/s against H200 figures, ratios in this run)\n",
                log2_label(n).c_str());
    if (b.info.name.find("H200") == std::string::npos)
      std::printf("(this GPU is not an H200: the Gkeys/s targets are H200 figures)\n");
    for (const target_line& t : evaluate_targets(b, n)) {
      std::string line = "target (n = " + log2_label(n) + "): " + t.text;
      std::printf("%s\n", line.c_str());
      b.targets.push_back(line);
    }
    std::fflush(stdout);
  }
}

// The headline at 2^26 (or the largest size run): mergepath's segmented sorts against CUB's at
// every mean, locality_sort against mergesort and radix sort, and how many targets were met.
std::string segmented_sort_summary(const bench_context& b, index_t* size_out) {
  index_t n = 0;
  bool preferred = false;
  for (const result_row& r : b.rows)
    if (r.algorithm == "mergepath::segmented_sort" && r.backend == "gpu") {
      preferred = preferred || r.n == (index_t{1} << 26);
      n = std::max(n, r.n);
    }
  if (preferred) n = index_t{1} << 26;
  *size_out = n;
  if (n == 0) return "";
  auto ratios = [&](const std::string& algorithm) {
    std::string text;
    for (const reference_figures& ref : h200_references) {
      const result_row* r = find_row(b, algorithm, "segments mean " + std::to_string(ref.mean), n);
      text += (text.empty() ? "" : "/") + (r ? bench_context::ratio(r->ratio_cub) : std::string("-"));
    }
    return text;
  };
  std::string text = "segmented sort vs CUB at mean 2/20/300/1e4/1e6: keys " + ratios("mergepath::segmented_sort") +
                     ", pairs " + ratios("mergepath::segmented_sort_pairs");
  int met = 0, criteria = 0;
  std::vector<target_line> lines = evaluate_targets(b, n);
  for (const target_line& t : lines) {
    met += t.met;
    criteria += t.criteria;
  }
  locality_figures f = locality_ratios(b, n);
  text += "; locality sort: " + bench_context::ratio(f.vs_mergesort) + " mergesort, " +
          bench_context::ratio(f.vs_radix) + " radix sort (near-sorted keys); targets met: " + std::to_string(met) +
          " of " + std::to_string(criteria);
  return text;
}

}  // namespace bench
