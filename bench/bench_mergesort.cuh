// The mergesort suite's shared state: one key type, size and input distribution, its pristine
// input, the work sets that each timed sort restores and sorts in place, its reference and its
// baselines (copy and CUB merge sort times), used by bench_mergesort.cu and
// bench_mergesort_tunings.cu.
#pragma once

#include <mergepath/mergesort.hpp>

#include "bench_util.cuh"

namespace bench {

// The unsorted inputs the suite sorts.
enum class sort_input {
  random,       // uniform over the whole range of the key type
  near_sorted,  // keys[i] = i + a uniform random offset in [0, 25]
};
constexpr int near_sorted_spread = 26;  // offsets 0 .. 25
inline const char* sort_input_name(sort_input d) { return d == sort_input::random ? "random" : "near-sorted"; }

// Inputs and outputs of every sort row at one key type, size n (keys) and distribution. The
// pristine input is one allocation [keys | values] (values: origin ids 1 .. n), and so is each of
// `sets` work sets: a row restores a work set from the pristine input before each run, untimed,
// and the run sorts it in place (event_timer::measure_with_setup). The out set [keys | values]
// takes out-of-place results (radix sort) and the copies; it is shared by the sets, like a
// library's temporary storage.
template <class K>
class sort_case {
 public:
  using value_type = std::int32_t;

  // What a row is, for its figures and its check.
  enum class row_kind {
    baseline,     // copy: not checked, is the %copy reference
    reference,    // CUB merge sort: checked, is the "vs CUB" reference
    ours,         // mergepath: checked, gets "vs CUB"
    third_party,  // CUB radix sort: checked, gets "vs CUB" too (how it compares with the merge sort)
  };
  // Where a row's result lands: in place in the work set, or in the out set.
  enum class lands { in_place, out_of_place };

  sort_case(bench_context& b, sort_input input, index_t n, int sets) : b(b), input(input), n(n), sets(sets) {
    pristine_ = device_buffer<unsigned char>(set_bytes(), "sort input");
    for (int s = 0; s < sets; ++s) work_.emplace_back(set_bytes(), "sort work set");
    out_ = device_buffer<unsigned char>(set_bytes(), "sort outputs");
    ref_ = device_buffer<K>(static_cast<std::size_t>(n), "sort reference");
  }

  bench_context& b;
  const sort_input input;
  const index_t n;
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
  K* ref() const { return ref_.data(); }

  std::string where() const {
    return std::string(key_type_name<K>()) + ", n = " + log2_label(n) + ", " + sort_input_name(input);
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

 private:
  template <class Run>
  double row(const std::string& algorithm, bool pairs, row_kind kind, lands where, Run& run,
             std::optional<mergepath::mergesort_tuning> tuning) {
    result_row r;
    r.algorithm = algorithm;
    r.key_type = key_type_name<K>();
    r.value_type = pairs ? "int32" : "";
    r.input = sort_input_name(input);
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
      if (kind == row_kind::ours || kind == row_kind::third_party)
        r.ratio_cub = (pairs ? cub_pairs_ms : cub_keys_ms) / t.median_ms;
      b.add_row(r);
      ms = t.median_ms;
    });
    return ms;
  }

  std::string where_pairs(bool pairs) const { return where() + (pairs ? ", int32 values" : ""); }

  // Every sort here promises stability (mergepath's, cub::DeviceMergeSort::StableSort*, and
  // cub::DeviceRadixSort, documented stable), so equal keys out of input order are a MISMATCH.
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
    check_result c = pairs ? check_permuted_pairs<K>(got_keys, got_values, ref(), input_keys(), n, stream)
                           : check_keys<K>(got_keys, ref(), n, stream);
    std::string label = algorithm + " (" + where_pairs(pairs) + ")";
    if (c.bad || c.unsorted) {
      b.fail("MISMATCH: " + label + ": " + std::to_string(c.bad) + " of " + std::to_string(n) +
             " outputs wrong (first at " + std::to_string(c.first_bad) + "), " + std::to_string(c.unsorted) +
             " out of order");
      return "MISMATCH";
    }
    if (pairs && c.unstable) {
      b.fail("MISMATCH: " + label + ": not stable, " + std::to_string(c.unstable) + " equal keys out of input order");
      return "MISMATCH";
    }
    return "ok";
  }

  device_buffer<unsigned char> pristine_;
  std::vector<device_buffer<unsigned char>> work_;
  device_buffer<unsigned char> out_;
  device_buffer<K> ref_;
};

// Tuning variants (bench_mergesort_tunings.cu, a translation unit of its own so it compiles in
// parallel): mergesort_tuned at other blocksort tiles, int32 keys only.
void mergesort_tuning_rows(sort_case<std::int32_t>& c);
void mergesort_pairs_tuning_rows(sort_case<std::int32_t>& c);

}  // namespace bench
