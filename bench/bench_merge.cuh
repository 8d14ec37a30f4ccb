// The merge suite's shared state: one key type and size, its input/output sets, its reference
// and its baselines (copy and CUB times), used by bench_merge.cu and bench_merge_tunings.cu.
#pragma once

#include <cstring>
#include <functional>
#include <mergepath/merge.hpp>
#include <type_traits>

#include "bench_util.cuh"

namespace bench {

// Inputs and outputs of every merge row at one key type and size n (per input). Each of `sets`
// input sets is one allocation [A keys | B keys | A values | B values] (2n keys, 2n int32
// values), each output set [keys | values] likewise; a run on set s reads and writes only set s.
// Values are origin ids 1 .. 2n (A[i] -> i + 1, B[j] -> n + j + 1), which makes a pair merge's
// stability checkable.
template <class K>
class merge_case {
 public:
  using value_type = std::int32_t;

  // What a row is, for its figures and its check.
  enum class row_kind {
    baseline,     // copy: not checked, is the %copy reference
    reference,    // CUB: checked, is the "vs CUB" reference, may be unstable (it documents so)
    ours,         // mergepath: checked, must be stable, gets "vs CUB"
    third_party,  // thrust: checked, may be unstable
  };

  merge_case(bench_context& b, index_t n, int sets) : b(b), n(n), sets(sets) {
    for (int s = 0; s < sets; ++s) {
      in_.emplace_back(set_bytes(), "merge inputs");
      out_.emplace_back(set_bytes(), "merge outputs");
    }
    ref_ = device_buffer<K>(static_cast<std::size_t>(2 * n), "merge reference");
  }

  bench_context& b;
  const index_t n;
  const int sets;
  std::string input;  // the keys' distribution where not uniform over K (result_row::input)
  double copy_keys_ms = not_measured;
  double copy_pairs_ms = not_measured;
  double cub_keys_ms = not_measured;
  double cub_pairs_ms = not_measured;

  std::size_t keys_bytes() const { return static_cast<std::size_t>(2 * n) * sizeof(K); }
  std::size_t values_bytes() const { return static_cast<std::size_t>(2 * n) * sizeof(value_type); }
  std::size_t set_bytes() const { return keys_bytes() + values_bytes(); }

  unsigned char* in_base(int s) const { return in_[static_cast<std::size_t>(s)].data(); }
  unsigned char* out_base(int s) const { return out_[static_cast<std::size_t>(s)].data(); }
  K* keys_in(int s) const { return reinterpret_cast<K*>(in_base(s)); }  // [A | B]
  value_type* values_in(int s) const { return reinterpret_cast<value_type*>(in_base(s) + keys_bytes()); }
  const K* a_keys(int s) const { return keys_in(s); }
  const K* b_keys(int s) const { return keys_in(s) + n; }
  const value_type* a_values(int s) const { return values_in(s); }
  const value_type* b_values(int s) const { return values_in(s) + n; }
  K* out_keys(int s) const { return reinterpret_cast<K*>(out_base(s)); }
  value_type* out_values(int s) const { return reinterpret_cast<value_type*>(out_base(s) + keys_bytes()); }
  K* ref() const { return ref_.data(); }

  std::string where() const {
    return std::string(key_type_name<K>()) + ", n = " + log2_label(n) + (input.empty() ? "" : ", " + input);
  }

  // Runs run(0) once into poisoned outputs and checks it, times run(set) over the rotating sets
  // and prints the row. Returns the median ms (NaN when the row failed).
  template <class Run>
  double keys_row(const std::string& algorithm, row_kind kind, Run&& run,
                  std::optional<mergepath::merge_tuning> tuning = std::nullopt) {
    return row(algorithm, false, kind, run, tuning);
  }
  template <class Run>
  double pairs_row(const std::string& algorithm, row_kind kind, Run&& run,
                   std::optional<mergepath::merge_tuning> tuning = std::nullopt) {
    return row(algorithm, true, kind, run, tuning);
  }

  template <class F>
  void guarded(const std::string& what, F&& f) {
    b.guarded(what + " (" + where() + ")", f);
  }

 private:
  template <class Run>
  double row(const std::string& algorithm, bool pairs, row_kind kind, Run& run,
             std::optional<mergepath::merge_tuning> tuning) {
    result_row r;
    r.algorithm = algorithm;
    r.key_type = key_type_name<K>();
    r.value_type = pairs ? "int32" : "";
    r.n = n;
    r.input = input;
    r.tuning = tuning;
    r.input_sets = sets;
    double ms = not_measured;
    guarded(algorithm, [&] {
      if (kind != row_kind::baseline) r.check = check_once(algorithm, pairs, kind, run);
      timing t = b.timer.measure(b.opts.warmup, b.reps_for(n), sets, run);
      double bytes = 2.0 * static_cast<double>(pairs ? set_bytes() : keys_bytes());  // read + write
      fill_rates(r, t, 2.0 * static_cast<double>(n), bytes);
      double copy_ms = kind == row_kind::baseline ? t.median_ms : (pairs ? copy_pairs_ms : copy_keys_ms);
      r.pct_copy = 100.0 * copy_ms / t.median_ms;
      if (kind == row_kind::ours) r.ratio_cub = (pairs ? cub_pairs_ms : cub_keys_ms) / t.median_ms;
      b.add_row(r);
      ms = t.median_ms;
    });
    return ms;
  }

  template <class Run>
  std::string check_once(const std::string& algorithm, bool pairs, row_kind kind, Run& run) {
    cudaStream_t stream = b.stream();
    // Poison the outputs so a run that writes nothing cannot pass on an earlier row's result.
    MERGEPATH_CUDA_CHECK(cudaMemsetAsync(out_base(0), 0xA5, set_bytes(), stream));
    run(0);
    MERGEPATH_CUDA_CHECK(cudaStreamSynchronize(stream));
    index_t total = 2 * n;
    check_result c = pairs ? check_pairs<K>(out_keys(0), out_values(0), ref(), keys_in(0), n, stream)
                           : check_keys<K>(out_keys(0), ref(), total, stream);
    std::string label = algorithm + " (" + where() + (pairs ? ", int32 values" : "") + ")";
    if (c.bad || c.unsorted) {
      b.fail("MISMATCH: " + label + ": " + std::to_string(c.bad) + " of " + std::to_string(total) +
             " outputs wrong (first at " + std::to_string(c.first_bad) + "), " + std::to_string(c.unsorted) +
             " out of order");
      return "MISMATCH";
    }
    if (pairs && c.unstable) {
      if (kind == row_kind::ours) {
        b.fail("MISMATCH: " + label + ": not stable, " + std::to_string(c.unstable) + " equal keys out of input order");
        return "MISMATCH";
      }
      return "unstable";  // allowed: CUB documents its merge as unstable
    }
    return "ok";
  }

  std::vector<device_buffer<unsigned char>> in_, out_;
  device_buffer<K> ref_;
};

// Tuning variants (bench_merge_tunings.cu, a translation unit of its own so it compiles in
// parallel). Rows for keys of K, and for pairs of K keys with int32 values.
template <class K>
void merge_tuning_rows(merge_case<K>& c);
template <class K>
void merge_pairs_tuning_rows(merge_case<K>& c);

}  // namespace bench
