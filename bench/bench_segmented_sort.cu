// The segmented sort suite: mergepath::segmented_sort / segmented_sort_pairs against
// cub::DeviceSegmentedSort::SortKeys / StableSortPairs and a device-to-device copy, on random
// int32 keys in segments of uniform random length with means 2, 20, 300, 10^4 and 10^6; then
// mergepath::locality_sort on near-sorted keys (keys[i] = i + random 0..25) against
// mergepath::mergesort, cub::DeviceMergeSort and cub::DeviceRadixSort. The sorts are in place
// (mergepath's, CUB's merge sort): every timed run sorts a work set restored from the unsorted
// input outside the timed region. Then the stats table of one segmented sort (mean 300, untimed:
// a sort with stats waits for the GPU). Figures and ratios only: the goals are in docs/design/.
#include <algorithm>
#include <climits>
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <cuda/std/functional>
#include <sstream>
#include <vector>

#include <mergepath/segmented_sort.hpp>

#include "bench_mergesort.cuh"

namespace bench {

// Inputs and outputs of every row at one size n and one segmentation. The pristine input is one
// allocation [keys | values] (values: origin ids 1 .. n), and so is each of `sets` work sets: a
// row restores a work set from the pristine input before each run, untimed
// (event_timer::measure_with_setup), and mergepath's sorts sort it in place. The out set
// [keys | values] takes CUB's out-of-place results and the copies; it is shared by the sets.
//
// The segments are offsets [0, h_1, ..., h_k, n]: CUB's begin offsets are offsets[0, k], its end
// offsets offsets[1, k + 1]; mergepath's heads are offsets[1, k] (the head at 0 omitted), so both
// libraries read the same array.
template <class K>
class segsort_case {
 public:
  using value_type = std::int32_t;

  // What a row is, for its figures and its check.
  enum class row_kind {
    baseline,   // copy: not checked, is the %copy reference
    reference,  // CUB's segmented sort: checked, is the "vs CUB" reference
    ours,       // mergepath: checked, gets "vs CUB"
  };
  // Where a row's result lands: in place in the work set, or in the out set.
  enum class lands { in_place, out_of_place };

  // offsets: [0, heads..., n] as above.
  segsort_case(bench_context& b, index_t n, index_t mean, const std::vector<std::int32_t>& offsets, int sets)
      : b(b), n(n), mean(mean), num_segments(static_cast<index_t>(offsets.size()) - 1), sets(sets) {
    pristine_ = device_buffer<unsigned char>(set_bytes(), "segmented sort input");
    for (int s = 0; s < sets; ++s) work_.emplace_back(set_bytes(), "segmented sort work set");
    out_ = device_buffer<unsigned char>(set_bytes(), "segmented sort outputs");
    ref_keys_ = device_buffer<K>(static_cast<std::size_t>(n), "segmented sort reference keys");
    ref_values_ = device_buffer<value_type>(static_cast<std::size_t>(n), "segmented sort reference values");
    offsets_ = device_buffer<std::int32_t>(offsets.size(), "segment offsets");
    MERGEPATH_CUDA_CHECK(
        cudaMemcpyAsync(offsets_.data(), offsets.data(), offsets_.bytes(), cudaMemcpyHostToDevice, b.stream()));
    // The heads as a bitfield, for the checks (is_head): every offset but 0 and n.
    std::vector<std::uint32_t> flags(static_cast<std::size_t>(mergepath::head_flag_words(n)), 0u);
    for (std::size_t i = 1; i + 1 < offsets.size(); ++i)
      flags[static_cast<std::size_t>(offsets[i]) / 32] |= 1u << (offsets[i] % 32);
    head_flags_ = device_buffer<std::uint32_t>(flags.size(), "segment head flags");
    MERGEPATH_CUDA_CHECK(
        cudaMemcpyAsync(head_flags_.data(), flags.data(), head_flags_.bytes(), cudaMemcpyHostToDevice, b.stream()));
    MERGEPATH_CUDA_CHECK(cudaStreamSynchronize(b.stream()));  // before the host vectors go
  }

  bench_context& b;
  const index_t n;
  const index_t mean;          // of the segment lengths, drawn uniformly from 1 .. 2 * mean - 1
  const index_t num_segments;  // CUB's count; mergepath gets num_segments - 1 heads
  const int sets;
  double copy_keys_ms = not_measured;
  double copy_pairs_ms = not_measured;
  double cub_keys_ms = not_measured;
  double cub_pairs_ms = not_measured;

  std::size_t keys_bytes() const { return static_cast<std::size_t>(n) * sizeof(K); }
  std::size_t values_bytes() const { return static_cast<std::size_t>(n) * sizeof(value_type); }
  std::size_t set_bytes() const { return keys_bytes() + values_bytes(); }

  unsigned char* work_base(int s) const { return work_[static_cast<std::size_t>(s)].data(); }
  K* keys(int s) const { return reinterpret_cast<K*>(work_base(s)); }
  value_type* values(int s) const { return reinterpret_cast<value_type*>(work_base(s) + keys_bytes()); }
  unsigned char* out_base() const { return out_.data(); }
  K* out_keys() const { return reinterpret_cast<K*>(out_base()); }
  value_type* out_values() const { return reinterpret_cast<value_type*>(out_base() + keys_bytes()); }
  unsigned char* pristine_base() const { return pristine_.data(); }
  K* input_keys() const { return reinterpret_cast<K*>(pristine_base()); }
  value_type* input_values() const { return reinterpret_cast<value_type*>(pristine_base() + keys_bytes()); }
  K* ref_keys() const { return ref_keys_.data(); }
  value_type* ref_values() const { return ref_values_.data(); }

  const std::int32_t* offsets() const { return offsets_.data(); }  // CUB: begin offsets; + 1: end offsets
  const std::int32_t* heads() const { return offsets_.data() + 1; }
  index_t num_heads() const { return num_segments - 1; }
  const std::uint32_t* head_flags() const { return head_flags_.data(); }

  // "segments mean 300": the row's `input` (JSON) and the summary's key.
  std::string input_name() const { return "segments mean " + std::to_string(mean); }
  std::string where() const {
    return std::string(key_type_name<K>()) + ", n = " + log2_label(n) + ", segments of mean " + std::to_string(mean);
  }

  // Work set s back to the unsorted input: its keys, and its values for a pairs row.
  void restore(int s, bool pairs) const {
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(work_base(s), pristine_base(), pairs ? set_bytes() : keys_bytes(),
                                         cudaMemcpyDeviceToDevice, b.stream()));
  }

  // Checks run(0) once on a freshly restored set, times run(set) over the rotating sets, each
  // restored before its run outside the timed region, and prints the row. Returns the median ms
  // (NaN when the row failed).
  template <class Run>
  double keys_row(const std::string& algorithm, row_kind kind, lands where, Run&& run,
                  std::optional<mergepath::mergesort_tuning> tuning = std::nullopt) {
    return row(algorithm, false, kind, where, run, tuning);
  }
  template <class Run>
  double pairs_row(const std::string& algorithm, row_kind kind, lands where, Run&& run,
                   std::optional<mergepath::mergesort_tuning> tuning = std::nullopt) {
    return row(algorithm, true, kind, where, run, tuning);
  }

  // Compares a result with the reference (CUB's): the keys, and for pairs the values too (CUB's
  // StableSortPairs, checked stable, leaves one right answer). Waits for the stream. Returns "ok",
  // or "MISMATCH" after a loud failure naming `label`.
  std::string verify(const std::string& label, bool pairs, const K* got_keys, const value_type* got_values) {
    cudaStream_t stream = b.stream();
    check_result k = check_keys<K>(got_keys, ref_keys(), n, stream);
    check_result v;
    if (pairs) v = check_keys<value_type>(got_values, ref_values(), n, stream);
    if (k.bad || v.bad) {
      std::string what = "MISMATCH: " + label + ": ";
      if (k.bad)
        what += std::to_string(k.bad) + " of " + std::to_string(n) + " keys differ from CUB's (first at " +
                std::to_string(k.first_bad) + ")";
      if (v.bad)
        what += std::string(k.bad ? "; " : "") + std::to_string(v.bad) + " of " + std::to_string(n) +
                " values differ from CUB's stable sort (first at " + std::to_string(v.first_bad) + ")";
      b.fail(what);
      return "MISMATCH";
    }
    return "ok";
  }

 private:
  template <class Run>
  double row(const std::string& algorithm, bool pairs, row_kind kind, lands where, Run& run,
             std::optional<mergepath::mergesort_tuning> tuning) {
    result_row r;
    r.algorithm = algorithm;
    r.key_type = key_type_name<K>();
    r.value_type = pairs ? "int32" : "";
    r.input = input_name();
    r.n = n;
    r.sort_tuning = tuning;
    r.input_sets = sets;
    double ms = not_measured;
    b.guarded(algorithm + " (" + where_pairs(pairs) + ")", [&] {
      if (kind != row_kind::baseline) r.check = check_once(algorithm, pairs, where, run);
      timing t = b.timer.measure_with_setup(
          b.opts.warmup, b.reps_for(n), sets, [&](int s) { restore(s, pairs); }, run);
      // Read + write once: the bytes of one copy (a sort moves them once per pass).
      double bytes = 2.0 * static_cast<double>(pairs ? set_bytes() : keys_bytes());
      fill_rates(r, t, static_cast<double>(n), bytes);
      double copy_ms = kind == row_kind::baseline ? t.median_ms : (pairs ? copy_pairs_ms : copy_keys_ms);
      r.pct_copy = 100.0 * copy_ms / t.median_ms;
      if (kind == row_kind::ours) r.ratio_cub = (pairs ? cub_pairs_ms : cub_keys_ms) / t.median_ms;
      b.add_row(r);
      ms = t.median_ms;
    });
    return ms;
  }

  std::string where_pairs(bool pairs) const { return where() + (pairs ? ", int32 values" : ""); }

  template <class Run>
  std::string check_once(const std::string& algorithm, bool pairs, lands where, Run& run) {
    cudaStream_t stream = b.stream();
    restore(0, pairs);
    // Poison the out set so an out-of-place run that writes nothing cannot pass on an earlier
    // row's result (an in-place run that does nothing leaves the unsorted input, which fails).
    if (where == lands::out_of_place) MERGEPATH_CUDA_CHECK(cudaMemsetAsync(out_base(), 0xA5, set_bytes(), stream));
    run(0);
    MERGEPATH_CUDA_CHECK(cudaStreamSynchronize(stream));
    const K* got_keys = where == lands::in_place ? keys(0) : out_keys();
    const value_type* got_values = where == lands::in_place ? values(0) : out_values();
    return verify(algorithm + " (" + where_pairs(pairs) + ")", pairs, got_keys, got_values);
  }

  device_buffer<unsigned char> pristine_;
  std::vector<device_buffer<unsigned char>> work_;
  device_buffer<unsigned char> out_;
  device_buffer<K> ref_keys_;
  device_buffer<value_type> ref_values_;
  device_buffer<std::int32_t> offsets_;
  device_buffer<std::uint32_t> head_flags_;
};

namespace {

using key_type = std::int32_t;  // the suite runs int32 keys (and int32 values, heads, offsets)
using value_type = std::int32_t;

// Mean segment lengths; lengths are drawn uniformly from 1 .. 2 * mean - 1.
constexpr index_t segment_means[] = {2, 20, 300, 10000, 1000000};
// The mean whose stats table is printed (the verbose example of moderngpu's Segmented Sort page).
constexpr index_t stats_mean = 300;
// At or below this size the references (CUB's segmented sort, and radix sort for the locality
// rows) are also compared with std::sort (of each segment) on the host.
constexpr index_t host_oracle_max = index_t{1} << 22;
// Small inputs need many sets to cover 4x L2.
constexpr int max_sets = 1024;

// The tile shapes of a segmented or locality sort, as the rows record them (JSON "sort_tuning":
// the blocksort's and the merge passes'; the queue grid is left out).
template <class Policy>
mergepath::mergesort_tuning sort_tuning_of() {
  constexpr mergepath::segmented_sort_tuning t = Policy::tuning;
  return {t.blocksort, t.merge};
}
using keys_policy = mergepath::default_segmented_sort_policy<key_type>;
using pairs_policy = mergepath::default_segmented_sort_policy<key_type, value_type>;

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
  int sets = b.fit_sets(wanted, needed, "segmented sort at " + where, true);
  if (sets == 0) return;

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
  int sets = b.fit_sets(wanted, needed, "locality sort at " + where, true);
  if (sets == 0) return;

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

// ---- the headline ---------------------------------------------------------------------------

// The latest row of that name: the mergesort suite, which runs before this one, has rows of the
// same names on near-sorted keys too; the headline speaks of this suite's.
const result_row* find_row(const bench_context& b, const std::string& algorithm, const std::string& input, index_t n) {
  for (auto r = b.rows.rbegin(); r != b.rows.rend(); ++r)
    if (r->algorithm == algorithm && r->key_type == "int32" && r->input == input && r->n == n && r->backend == "gpu")
      return &*r;
  return nullptr;
}

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
    std::fflush(stdout);
  }
}

// The headline at 2^26 (or the largest size run): mergepath's segmented sorts against CUB's at
// every mean, locality_sort against mergesort and radix sort.
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
    for (index_t mean : segment_means) {
      const result_row* r = find_row(b, algorithm, "segments mean " + std::to_string(mean), n);
      text += (text.empty() ? "" : "/") + (r ? bench_context::ratio(r->ratio_cub) : std::string("-"));
    }
    return text;
  };
  std::string text = "segmented sort vs CUB at mean 2/20/300/1e4/1e6: keys " + ratios("mergepath::segmented_sort") +
                     ", pairs " + ratios("mergepath::segmented_sort_pairs");
  locality_figures f = locality_ratios(b, n);
  text += "; locality sort: " + bench_context::ratio(f.vs_mergesort) + " mergesort, " +
          bench_context::ratio(f.vs_radix) + " radix sort (near-sorted keys)";
  return text;
}

// The suite as bench_main.cu lists it.
const suite segmented_sort_suite = {
    "segmented_sort",
    "segmented_sort / _pairs vs cub::DeviceSegmentedSort (mean segment 2 .. 1e6); locality_sort vs mergesort, radix sort; stats",
    run_segmented_sort_bench, segmented_sort_summary, &options::segmented_sort_log2_sizes};

}  // namespace bench
