// The segmented sort suite's shared state: one size and mean segment length, its pristine input,
// its segments (as CUB's offsets and mergepath's heads, which share one array), the work sets that
// each timed sort restores, its reference (CUB's segmented sorts) and its baselines (copy and CUB
// times). Used by bench_segmented_sort.cu; a file of tuning rows would use it too.
#pragma once

#include <mergepath/segmented_sort.hpp>

#include "bench_util.cuh"

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

}  // namespace bench
