// The merge suite: mergepath::merge / merge_pairs against cub::DeviceMerge, thrust::merge /
// merge_by_key, a device-to-device copy of the same bytes (the floor: a merge reads A and B and
// writes C once) and the textbook ladder; CPU rows against std::merge.
#include <thrust/execution_policy.h>
#include <thrust/merge.h>

#include <cub/device/device_merge.cuh>
#include <cuda/std/functional>
#include <mergepath/textbook.hpp>

#include "bench_merge.cuh"
#include "cpu_peers.hpp"

#include <algorithm>
#include <vector>

namespace bench {
namespace {

// Random sorted A and B in set 0 (sorted on the device; below distinct where it is positive),
// origin-id values, copies in the other sets, and the reference merge (CUB), itself checked:
// sorted, and the same multiset as A + B.
template <class K>
void prepare(merge_case<K>& c, std::uint64_t seed, std::uint64_t distinct) {
  cudaStream_t stream = c.b.stream();
  index_t n = c.n;
  K* scratch = c.out_keys(0);  // 2n keys of room until the first row runs
  generate_random_keys<K>(scratch, 2 * n, seed, stream, distinct);
  sort_keys<K>(scratch, c.keys_in(0), n, stream);
  sort_keys<K>(scratch + n, c.keys_in(0) + n, n, stream);
  fill_origin_ids(c.values_in(0), 2 * n, stream);
  for (int s = 1; s < c.sets; ++s)
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(c.in_base(s), c.in_base(0), c.set_bytes(), cudaMemcpyDeviceToDevice, stream));

  std::size_t temp_bytes = 0;
  MERGEPATH_CUDA_CHECK(cub::DeviceMerge::MergeKeys(nullptr, temp_bytes, c.a_keys(0), n, c.b_keys(0), n, c.ref(),
                                                   ::cuda::std::less<>{}, stream));
  device_buffer<unsigned char> temp(std::max<std::size_t>(temp_bytes, 1), "reference merge temp storage");
  MERGEPATH_CUDA_CHECK(cub::DeviceMerge::MergeKeys(temp.data(), temp_bytes, c.a_keys(0), n, c.b_keys(0), n, c.ref(),
                                                   ::cuda::std::less<>{}, stream));
  MERGEPATH_CUDA_CHECK(cudaStreamSynchronize(stream));

  check_result ref = check_keys<K>(c.ref(), nullptr, 2 * n, stream);
  unsigned long long inputs_hash = multiset_hash<K>(c.keys_in(0), 2 * n, stream);
  if (ref.unsorted || ref.hash != inputs_hash)
    c.b.fail("MISMATCH: the reference merge (cub::DeviceMerge::MergeKeys, " + c.where() +
             ") is wrong: " + std::to_string(ref.unsorted) + " positions out of order, multiset hash " +
             (ref.hash == inputs_hash ? "equal" : "different"));
  // At small sizes, also against std::merge on the host.
  if (n <= (index_t{1} << 22)) {
    std::vector<K> in = to_host(c.keys_in(0), 2 * n, stream);
    std::vector<K> got = to_host(c.ref(), 2 * n, stream);
    std::vector<K> want(in.size());
    std::merge(in.begin(), in.begin() + n, in.begin() + n, in.end(), want.begin());
    if (got != want) c.b.fail("MISMATCH: the reference merge (CUB, " + c.where() + ") differs from std::merge");
  }
}

// std::merge against mergepath::merge on host_context(t), for t = 1, 2 and all threads, and
// __gnu_parallel::merge on as many.
template <class K>
void run_cpu_rows(bench_context& b, const std::vector<K>& in, index_t n) {
  const char* type = key_type_name<K>();
  b.begin_cpu_group(std::string("CPU merge, ") + type + " keys, n = " + log2_label(n) + " per input");
  int reps = b.opts.quick ? 3 : 5;
  std::vector<K> want(in.size()), got(in.size());
  auto a = in.begin(), mid = in.begin() + n, end = in.end();
  double bytes = 2.0 * static_cast<double>(in.size() * sizeof(K));

  result_row base;
  base.backend = "cpu";
  base.key_type = type;
  base.n = n;
  base.check = "ok";

  timing std_t = measure_host(1, reps, [&] { std::merge(a, mid, mid, end, want.begin()); });
  result_row r = base;
  r.algorithm = "std::merge";
  r.threads = 1;
  fill_rates(r, std_t, 2.0 * static_cast<double>(n), bytes);
  r.ratio_std = 1.0;
  b.add_row(r);

  std::vector<int> thread_counts = cpu_thread_counts({1, 2});
  for (int t : thread_counts) {
    mergepath::host_context ctx(t);
    const K* pa = in.data();
    const K* pb = in.data() + n;
    std::fill(got.begin(), got.end(), K{});
    mergepath::merge(ctx, pa, n, pb, n, got.data());
    r = base;
    r.algorithm = "mergepath::merge (host_context)";
    r.threads = t;
    if (got != want) {
      r.check = "MISMATCH";
      b.fail("MISMATCH: mergepath::merge on host_context(" + std::to_string(t) + ") (" + type +
             ", n = " + log2_label(n) + ") differs from std::merge");
    }
    timing tm = measure_host(1, reps, [&] { mergepath::merge(ctx, pa, n, pb, n, got.data()); });
    fill_rates(r, tm, 2.0 * static_cast<double>(n), bytes);
    r.ratio_std = std_t.median_ms / tm.median_ms;
    b.add_row(r);
  }

  // The parallel peer, on the same thread counts.
  if (!bench::have_gnu_parallel()) return;
  for (int t : thread_counts) {
    const K* pa = in.data();
    const K* pb = in.data() + n;
    std::fill(got.begin(), got.end(), K{});
    bench::gnu_parallel_merge(pa, n, pb, n, got.data(), t);
    r = base;
    r.algorithm = "__gnu_parallel::merge";
    r.threads = t;
    if (got != want) {
      r.check = "MISMATCH";
      b.fail("MISMATCH: __gnu_parallel::merge (" + std::string(type) + ", n = " + log2_label(n) +
             ") differs from std::merge");
    }
    timing tm = measure_host(1, reps, [&] { bench::gnu_parallel_merge(pa, n, pb, n, got.data(), t); });
    fill_rates(r, tm, 2.0 * static_cast<double>(n), bytes);
    r.ratio_std = std_t.median_ms / tm.median_ms;
    b.add_row(r);
  }
}

// The suite at n = 2^log2 keys per input, uniform over K; with distinct > 0 keys below distinct
// instead, keys only and against CUB, copy and Thrust alone.
template <class K>
void run_size(bench_context& b, int log2, std::uint64_t distinct = 0) {
  index_t n = index_t{1} << log2;
  const char* type = key_type_name<K>();
  const std::string input = distinct > 0 ? "keys in [0, " + std::to_string(distinct) + ")" : "";
  std::string where = std::string(type) + ", n = " + log2_label(n) + (distinct > 0 ? ", " + input : "");
  std::size_t keys_bytes = static_cast<std::size_t>(2 * n) * sizeof(K);
  std::size_t set_bytes = keys_bytes + static_cast<std::size_t>(2 * n) * sizeof(std::int32_t);

  // Memory: the sets, the reference, the input sort's scratch, the check bitmap, and slack for
  // the algorithms' temporaries.
  auto needed = [&](int sets) {
    return static_cast<std::size_t>(sets) * 2 * set_bytes + keys_bytes + keys_bytes / 2 + keys_bytes / 16 +
           (std::size_t{768} << 20);
  };
  int wanted = b.rotation_sets(2 * keys_bytes);  // a keys run touches its inputs and outputs
  int sets = b.fit_sets(wanted, needed, "merge at " + where);
  if (sets == 0) return;

  merge_case<K> c(b, n, sets);
  c.input = input;
  prepare(c, 0x6d65726765ull ^ (static_cast<std::uint64_t>(log2) << 8) ^ sizeof(K), distinct);

  cudaStream_t stream = b.stream();
  mergepath::cuda_context& ctx = b.ctx;
  using kind = typename merge_case<K>::row_kind;

  // CUB's temporary storage: sized and allocated once per size, outside the timed region.
  std::size_t cub_keys_temp = 0, cub_pairs_temp = 0;
  MERGEPATH_CUDA_CHECK(cub::DeviceMerge::MergeKeys(nullptr, cub_keys_temp, c.a_keys(0), n, c.b_keys(0), n,
                                                   c.out_keys(0), ::cuda::std::less<>{}, stream));
  MERGEPATH_CUDA_CHECK(cub::DeviceMerge::MergePairs(nullptr, cub_pairs_temp, c.a_keys(0), c.a_values(0), n, c.b_keys(0),
                                                    c.b_values(0), n, c.out_keys(0), c.out_values(0),
                                                    ::cuda::std::less<>{}, stream));
  device_buffer<unsigned char> cub_temp(std::max<std::size_t>({cub_keys_temp, cub_pairs_temp, 1}), "CUB temp storage");

  b.begin_gpu_group(where + " per input (output " + std::to_string(2 * n) + " keys), " + std::to_string(sets) +
                    " rotating input set" + (sets > 1 ? "s" : "") + ", " + std::to_string(b.reps_for(n)) + " reps");

  // Keys only.
  c.copy_keys_ms = c.keys_row("copy", kind::baseline, [&](int s) {
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(c.out_keys(s), c.keys_in(s), keys_bytes, cudaMemcpyDeviceToDevice, stream));
  });
  c.cub_keys_ms = c.keys_row("cub::DeviceMerge::MergeKeys", kind::reference, [&](int s) {
    std::size_t bytes = cub_keys_temp;
    MERGEPATH_CUDA_CHECK(cub::DeviceMerge::MergeKeys(cub_temp.data(), bytes, c.a_keys(s), n, c.b_keys(s), n,
                                                     c.out_keys(s), ::cuda::std::less<>{}, stream));
  });
  c.keys_row(
      "mergepath::merge", kind::ours,
      [&](int s) { mergepath::merge(ctx, c.a_keys(s), n, c.b_keys(s), n, c.out_keys(s)); },
      mergepath::default_merge_policy<K>::tuning);
  c.keys_row("mergepath::merge (user comparator)", kind::ours,
             [&](int s) { mergepath::merge(ctx, c.a_keys(s), n, c.b_keys(s), n, c.out_keys(s), user_less{}); });
  c.keys_row("thrust::merge", kind::third_party, [&](int s) {
    thrust::merge(thrust::cuda::par_nosync(b.allocator).on(stream), c.a_keys(s), c.a_keys(s) + n, c.b_keys(s),
                  c.b_keys(s) + n, c.out_keys(s));
  });
  if (distinct > 0) return;
  c.keys_row("mergepath::textbook::merge_basic", kind::ours,
             [&](int s) { mergepath::textbook::merge_basic(ctx, c.a_keys(s), n, c.b_keys(s), n, c.out_keys(s)); });
  c.keys_row("mergepath::textbook::merge_tiled", kind::ours,
             [&](int s) { mergepath::textbook::merge_tiled(ctx, c.a_keys(s), n, c.b_keys(s), n, c.out_keys(s)); });
  c.keys_row("mergepath::textbook::merge_circular", kind::ours,
             [&](int s) { mergepath::textbook::merge_circular(ctx, c.a_keys(s), n, c.b_keys(s), n, c.out_keys(s)); });
  if (b.opts.tunings) merge_tuning_rows(c);

  // Pairs: int32 values.
  c.copy_pairs_ms = c.pairs_row("copy (keys+values)", kind::baseline, [&](int s) {
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(c.out_base(s), c.in_base(s), set_bytes, cudaMemcpyDeviceToDevice, stream));
  });
  c.cub_pairs_ms = c.pairs_row("cub::DeviceMerge::MergePairs", kind::reference, [&](int s) {
    std::size_t bytes = cub_pairs_temp;
    MERGEPATH_CUDA_CHECK(cub::DeviceMerge::MergePairs(cub_temp.data(), bytes, c.a_keys(s), c.a_values(s), n,
                                                      c.b_keys(s), c.b_values(s), n, c.out_keys(s), c.out_values(s),
                                                      ::cuda::std::less<>{}, stream));
  });
  c.pairs_row(
      "mergepath::merge_pairs", kind::ours,
      [&](int s) {
        mergepath::merge_pairs(ctx, c.a_keys(s), c.a_values(s), n, c.b_keys(s), c.b_values(s), n, c.out_keys(s),
                               c.out_values(s));
      },
      mergepath::default_merge_policy<K, std::int32_t>::tuning);
  c.pairs_row("mergepath::merge_pairs (user comparator)", kind::ours, [&](int s) {
    mergepath::merge_pairs(ctx, c.a_keys(s), c.a_values(s), n, c.b_keys(s), c.b_values(s), n, c.out_keys(s),
                           c.out_values(s), user_less{});
  });
  c.pairs_row("thrust::merge_by_key", kind::third_party, [&](int s) {
    thrust::merge_by_key(thrust::cuda::par_nosync(b.allocator).on(stream), c.a_keys(s), c.a_keys(s) + n, c.b_keys(s),
                         c.b_keys(s) + n, c.a_values(s), c.b_values(s), c.out_keys(s), c.out_values(s));
  });
  if (b.opts.tunings) merge_pairs_tuning_rows(c);

  if (b.wants_cpu_rows(type, n)) {
    std::vector<K> in = to_host(c.keys_in(0), 2 * n, stream);
    run_cpu_rows<K>(b, in, n);
  }
}

}  // namespace

void run_merge_bench(bench_context& b) {
  for (int log2 : b.opts.log2_sizes) {
    std::string size = ", n = 2^" + std::to_string(log2) + ")";
    if (b.wants_key_type("int32")) b.guarded("merge (int32" + size, [&] { run_size<std::int32_t>(b, log2); });
    if (b.wants_key_type("int64")) b.guarded("merge (int64" + size, [&] { run_size<std::int64_t>(b, log2); });
    // Few distinct keys (long runs of equal keys in both inputs), at 2^26 only.
    if (log2 == 26 && b.wants_key_type("int32"))
      b.guarded("merge (int32, n = 2^26, keys in [0, 16))", [&] { run_size<std::int32_t>(b, log2, 16); });
  }
}

// The headline: mergepath::merge and merge_pairs at 2^26 int32 keys (or the largest int32 size run).
std::string merge_summary(const bench_context& b, index_t* size_out) {
  auto find = [&](const std::string& algorithm, index_t n) -> const result_row* {
    for (const result_row& r : b.rows)
      if (r.algorithm == algorithm && r.key_type == "int32" && r.n == n && r.backend == "gpu" && r.input.empty())
        return &r;
    return nullptr;
  };
  index_t n = index_t{1} << 26;
  if (!find("mergepath::merge", n)) {
    n = 0;
    for (const result_row& r : b.rows)
      if (r.algorithm == "mergepath::merge" && r.key_type == "int32" && r.input.empty()) n = std::max(n, r.n);
  }
  *size_out = n;
  if (n == 0) return "";
  auto part = [&](const char* label, const char* algorithm) {
    const result_row* r = find(algorithm, n);
    if (!r) return std::string(label) + ": not measured";
    return std::string(label) + ": " + bench_context::ratio(r->ratio_cub) + " CUB, " +
           bench_context::percent(r->pct_copy) + " of copy";
  };
  return part("merge keys", "mergepath::merge") + "; " + part("merge pairs", "mergepath::merge_pairs");
}

// The suite as bench_main.cu lists it.
const suite merge_suite = {
    "merge",
    "merge / merge_pairs vs CUB, Thrust and copy; textbook ladder; tunings; CPU rows",
    run_merge_bench, merge_summary, &options::log2_sizes};

}  // namespace bench
