// The join suite (issue 21's rows): |A| = |B| = 2^25 int32 keys uniform in [0, 2^25) (about one
// partner a row), int32 Index. Rows: merge_join inner on sorted keys and sort_merge_join inner on
// the same keys unsorted, each against a device copy of its bytes (keys in, two int32 indices a
// pair out); set_union, set_intersection, set_difference and set_symmetric_difference against
// their thrust:: counterparts and a copy of their bytes (keys in, output out). CPU rows at 2^22:
// merge_join against a sequential merge join, the set operations against std::set_*.
#include <thrust/execution_policy.h>
#include <thrust/set_operations.h>

#include <algorithm>
#include <mergepath/join.hpp>
#include <mergepath/set_operations.hpp>
#include <random>
#include <sstream>
#include <vector>

#include "bench_util.cuh"

namespace bench {
namespace {

using key_type = std::int32_t;
constexpr index_t cpu_keys = index_t{1} << 22;
const char* const set_op_names[] = {"set_union", "set_intersection", "set_difference", "set_symmetric_difference"};

// count keys uniform in [0, range), from a fixed seed; sorted when asked.
std::vector<key_type> uniform_keys(index_t count, index_t range, std::uint64_t seed, bool sorted) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int64_t> d(0, range - 1);
  std::vector<key_type> keys(static_cast<std::size_t>(count));
  for (auto& k : keys) k = static_cast<key_type>(d(rng));
  if (sorted) std::sort(keys.begin(), keys.end());
  return keys;
}

// The inner join's size from the keys' counts (sorted a and b).
index_t inner_join_size(const std::vector<key_type>& a, const std::vector<key_type>& b) {
  index_t size = 0;
  for (std::size_t i = 0, j = 0; i < a.size() && j < b.size();) {
    if (a[i] < b[j]) {
      ++i;
    } else if (b[j] < a[i]) {
      ++j;
    } else {
      std::size_t ie = i, je = j;
      while (ie < a.size() && a[ie] == a[i]) ++ie;
      while (je < b.size() && b[je] == b[j]) ++je;
      size += static_cast<index_t>((ie - i) * (je - j));
      i = ie, j = je;
    }
  }
  return size;
}

template <class T>
std::vector<T> download(const T* d, index_t count, cudaStream_t stream) {
  std::vector<T> h(static_cast<std::size_t>(count));
  if (count > 0)
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(h.data(), d, h.size() * sizeof(T), cudaMemcpyDeviceToHost, stream));
  MERGEPATH_CUDA_CHECK(cudaStreamSynchronize(stream));
  return h;
}

// A device copy of bytes / 2 (read once, written once): the floor a row's bytes are held to.
double time_copy(bench_context& b, const std::string& label, double bytes, index_t n) {
  const auto half = static_cast<std::size_t>(bytes / 2);
  device_buffer<unsigned char> from(half, "copy source"), to(half, "copy target");
  timing t = b.timer.measure(b.opts.warmup, b.reps_for(n), 1, [&](int) {
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(to.data(), from.data(), half, cudaMemcpyDeviceToDevice, b.stream()));
  });
  result_row r;
  r.algorithm = label;
  r.key_type = "int32";
  r.n = n;
  fill_rates(r, t, static_cast<double>(n), bytes);
  r.pct_copy = 100;
  b.add_row(r);
  return t.median_ms;
}

void join_rows(bench_context& b, index_t n) {
  const auto a = uniform_keys(n, n, 0x21a, true), bk = uniform_keys(n, n, 0x21b, true);
  const index_t pairs = inner_join_size(a, bk);
  device_buffer<key_type> da(a.size(), "a"), db(bk.size(), "b");
  MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(da.data(), a.data(), da.bytes(), cudaMemcpyHostToDevice, b.stream()));
  MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(db.data(), bk.data(), db.bytes(), cudaMemcpyHostToDevice, b.stream()));
  const int reps = b.reps_for(n);
  b.begin_gpu_group("merge_join inner, " + log2_label(n) + " + " + log2_label(n) + " int32 keys in [0, " +
                    log2_label(n) + "), " + std::to_string(pairs) + " pairs, int32 Index");
  const double bytes = 4.0 * static_cast<double>(2 * n) + 8.0 * static_cast<double>(pairs);
  const double copy_ms = time_copy(b, "copy (keys in, two int32 a pair out)", bytes, n);
  auto add = [&](const std::string& algorithm, const timing& t, index_t size) {
    result_row r;
    r.algorithm = algorithm;
    r.key_type = "int32";
    r.n = n;
    fill_rates(r, t, static_cast<double>(pairs), bytes);
    r.pct_copy = copy_ms / t.median_ms * 100;
    r.check = size == pairs ? "ok" : "MISMATCH";
    if (size != pairs) b.fail(algorithm + ": " + std::to_string(size) + " pairs, expected " + std::to_string(pairs));
    b.add_row(r);
  };
  b.guarded("merge_join", [&] {
    index_t size = 0;
    timing t = b.timer.measure(b.opts.warmup, reps, 1, [&](int) {
      size = mergepath::merge_join<mergepath::join_kind::inner, std::int32_t>(b.ctx, da.data(), n, db.data(), n).size();
    });
    add("mergepath::merge_join (sorted keys)", t, size);
  });
  // The same keys shuffled: what a caller with unsorted tables has.
  std::vector<key_type> ua = a, ub = bk;
  std::mt19937_64 rng(0x21c);
  std::shuffle(ua.begin(), ua.end(), rng);
  std::shuffle(ub.begin(), ub.end(), rng);
  MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(da.data(), ua.data(), da.bytes(), cudaMemcpyHostToDevice, b.stream()));
  MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(db.data(), ub.data(), db.bytes(), cudaMemcpyHostToDevice, b.stream()));
  b.guarded("sort_merge_join", [&] {
    index_t size = 0;
    timing t = b.timer.measure(b.opts.warmup, reps, 1, [&](int) {
      size = mergepath::sort_merge_join<mergepath::join_kind::inner, std::int32_t>(b.ctx, da.data(), n, db.data(), n)
                 .size();
    });
    add("mergepath::sort_merge_join (unsorted keys)", t, size);
  });
}

template <int Threads, int Items, int MinBlocks = 1, int PrefetchTilesPerSm = 1>
struct set_policy {
  static constexpr mergepath::set_operation_tuning tuning{Threads, Items, MinBlocks, PrefetchTilesPerSm};
};

// --tunings: each set operation under other tile shapes (rows named by them); set_union also
// under other L2 prefetch distances.
template <mergepath::set_op Op, class Row>
void set_tuning_rows(bench_context& b, const char* op_name, index_t n, const key_type* a, const key_type* bk,
                     key_type* out, Row row) {
  auto one = [&](auto policy) {
    using P = decltype(policy);
    timing t = b.timer.measure(b.opts.warmup, b.reps_for(n), 1, [&](int) {
      mergepath::device::launch_set_operation<P, Op>(b.ctx, a, nullptr, n, bk, nullptr, n, out, nullptr,
                                                     mergepath::less<>{});
    });
    std::ostringstream name;
    name << "  " << op_name << " " << P::tuning.block_threads << "x" << P::tuning.items_per_thread << " ("
         << P::tuning.min_blocks << " blocks), prefetch " << P::tuning.prefetch_tiles_per_sm;
    b.add_row(row(name.str(), t));
  };
  one(set_policy<256, 31, 4, 1>{});  // symmetric difference's default (all four before 256 x 27 at 5)
  // More resident threads for fewer registers: the default of union, intersection and difference.
  one(set_policy<256, 27, 5>{});
  one(set_policy<128, 27, 10>{});
  if constexpr (Op == mergepath::set_op::union_) {
    one(set_policy<128, 23, 8>{});
    one(set_policy<128, 31, 8>{});
    one(set_policy<256, 23, 4>{});
    one(set_policy<256, 31, 4, 0>{});
    one(set_policy<256, 31, 4, 2>{});
    one(set_policy<384, 23, 2>{});
    one(set_policy<256, 23, 5>{});
    one(set_policy<256, 19, 6>{});  // 40 registers
    one(set_policy<128, 19, 12>{});
  }
}

void set_rows(bench_context& b, index_t n) {
  const auto a = uniform_keys(n, n, 0x21a, true), bk = uniform_keys(n, n, 0x21b, true);
  device_buffer<key_type> da(a.size(), "a"), db(bk.size(), "b"), out(2 * a.size(), "output"),
      thrust_out(2 * a.size(), "thrust output");
  MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(da.data(), a.data(), da.bytes(), cudaMemcpyHostToDevice, b.stream()));
  MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(db.data(), bk.data(), db.bytes(), cudaMemcpyHostToDevice, b.stream()));
  const int reps = b.reps_for(n);
  for (int op = 0; op < 4; ++op) {
    b.begin_gpu_group(std::string(set_op_names[op]) + ", " + log2_label(n) + " + " + log2_label(n) +
                          " int32 keys in [0, " + log2_label(n) + ")",
                      bench_context::versus::thrust);
    auto policy = thrust::cuda::par_nosync(b.allocator).on(b.stream());
    index_t thrust_count = 0;
    auto run_thrust = [&] {
      key_type* end = nullptr;
      if (op == 0)
        end = thrust::set_union(policy, da.data(), da.data() + n, db.data(), db.data() + n, thrust_out.data());
      if (op == 1)
        end = thrust::set_intersection(policy, da.data(), da.data() + n, db.data(), db.data() + n, thrust_out.data());
      if (op == 2)
        end = thrust::set_difference(policy, da.data(), da.data() + n, db.data(), db.data() + n, thrust_out.data());
      if (op == 3)
        end = thrust::set_symmetric_difference(policy, da.data(), da.data() + n, db.data(), db.data() + n,
                                               thrust_out.data());
      thrust_count = end - thrust_out.data();
    };
    run_thrust();
    const double bytes = 4.0 * static_cast<double>(2 * n + thrust_count);
    const double copy_ms = time_copy(b, "copy (keys in, output out)", bytes, n);
    timing thrust_t = b.timer.measure(b.opts.warmup, reps, 1, [&](int) { run_thrust(); });
    auto row = [&](const std::string& algorithm, const timing& t) {
      result_row r;
      r.algorithm = algorithm;
      r.key_type = "int32";
      r.n = n;
      fill_rates(r, t, static_cast<double>(thrust_count), bytes);
      r.pct_copy = copy_ms / t.median_ms * 100;
      r.ratio_thrust = thrust_t.median_ms / t.median_ms;
      return r;
    };
    b.add_row(row(std::string("thrust::") + set_op_names[op], thrust_t));
    b.guarded(set_op_names[op], [&] {
      index_t count = 0;
      auto run_ours = [&] {
        if (op == 0) count = mergepath::set_union(b.ctx, da.data(), n, db.data(), n, out.data());
        if (op == 1) count = mergepath::set_intersection(b.ctx, da.data(), n, db.data(), n, out.data());
        if (op == 2) count = mergepath::set_difference(b.ctx, da.data(), n, db.data(), n, out.data());
        if (op == 3) count = mergepath::set_symmetric_difference(b.ctx, da.data(), n, db.data(), n, out.data());
      };
      timing t = b.timer.measure(b.opts.warmup, reps, 1, [&](int) { run_ours(); });
      result_row r = row(std::string("mergepath::") + set_op_names[op], t);
      r.check = count == thrust_count &&
                        download(out.data(), count, b.stream()) == download(thrust_out.data(), thrust_count, b.stream())
                    ? "ok"
                    : "MISMATCH";
      if (r.check != "ok") b.fail(std::string(set_op_names[op]) + " differs from thrust's");
      b.add_row(r);
    });
    if (b.opts.tunings) {
      using mergepath::set_op;
      const char* name = set_op_names[op];
      if (op == 0) set_tuning_rows<set_op::union_>(b, name, n, da.data(), db.data(), out.data(), row);
      if (op == 1) set_tuning_rows<set_op::intersection>(b, name, n, da.data(), db.data(), out.data(), row);
      if (op == 2) set_tuning_rows<set_op::difference>(b, name, n, da.data(), db.data(), out.data(), row);
      if (op == 3) set_tuning_rows<set_op::symmetric_difference>(b, name, n, da.data(), db.data(), out.data(), row);
    }
  }
}

void host_rows(bench_context& b) {
  const index_t n = cpu_keys;
  const auto a = uniform_keys(n, n, 0x21a, true), bk = uniform_keys(n, n, 0x21b, true);
  const int reps = 5;
  b.begin_cpu_group("CPU: merge_join inner and the set operations, " + log2_label(n) + " + " + log2_label(n) +
                    " int32 keys in [0, " + log2_label(n) + ")");
  auto add = [&](const std::string& algorithm, int threads, const timing& t, double outputs, double bytes,
                 const timing& sequential, bool ok) {
    result_row r;
    r.algorithm = algorithm;
    r.key_type = "int32";
    r.n = n;
    r.backend = "cpu";
    r.threads = threads;
    fill_rates(r, t, outputs, bytes);
    r.ratio_std = sequential.median_ms / t.median_ms;
    r.check = ok ? "ok" : "MISMATCH";
    if (!ok) b.fail(algorithm + " differs from the sequential reference");
    b.add_row(r);
  };

  // The sequential merge join: walk both, every pair of two equal-key groups.
  std::vector<std::int32_t> ea, eb;
  timing loop = measure_host(1, reps, [&] {
    ea.clear(), eb.clear();
    for (std::size_t i = 0, j = 0; i < a.size() && j < bk.size();) {
      if (a[i] < bk[j]) {
        ++i;
      } else if (bk[j] < a[i]) {
        ++j;
      } else {
        std::size_t ie = i, je = j;
        while (ie < a.size() && a[ie] == a[i]) ++ie;
        while (je < bk.size() && bk[je] == bk[j]) ++je;
        for (std::size_t x = i; x < ie; ++x)
          for (std::size_t y = j; y < je; ++y)
            ea.push_back(static_cast<std::int32_t>(x)), eb.push_back(static_cast<std::int32_t>(y));
        i = ie, j = je;
      }
    }
  });
  const double pairs = static_cast<double>(ea.size());
  const double join_bytes = 8.0 * static_cast<double>(n) + 8.0 * pairs;
  add("sequential merge join", 1, loop, pairs, join_bytes, loop, true);
  for (int threads : {2, b.info.host_threads}) {
    mergepath::host_context host(threads);
    using result = mergepath::join_result<mergepath::host_context, std::int32_t>;
    result r;
    timing t = measure_host(1, reps, [&] {  // the last call's result checked after the timing
      r = mergepath::merge_join<mergepath::join_kind::inner, std::int32_t>(host, a.data(), n, bk.data(), n);
    });
    const bool ok = r.size() == static_cast<index_t>(ea.size()) && std::equal(ea.begin(), ea.end(), r.a_index()) &&
                    std::equal(eb.begin(), eb.end(), r.b_index());
    add("mergepath::merge_join", threads, t, pairs, join_bytes, loop, ok);
    if (threads == b.info.host_threads) break;
  }

  std::vector<key_type> expected(2 * a.size()), out(2 * a.size());
  for (int op = 0; op < 4; ++op) {
    std::size_t count = 0;
    timing std_t = measure_host(1, reps, [&] {
      auto ab = a.begin(), ae = a.end(), bb = bk.begin(), be = bk.end();
      auto end = op == 0   ? std::set_union(ab, ae, bb, be, expected.begin())
                 : op == 1 ? std::set_intersection(ab, ae, bb, be, expected.begin())
                 : op == 2 ? std::set_difference(ab, ae, bb, be, expected.begin())
                           : std::set_symmetric_difference(ab, ae, bb, be, expected.begin());
      count = static_cast<std::size_t>(end - expected.begin());
    });
    const double bytes = 4.0 * static_cast<double>(2 * n + static_cast<index_t>(count));
    add(std::string("std::") + set_op_names[op], 1, std_t, static_cast<double>(count), bytes, std_t, true);
    for (int threads : {2, b.info.host_threads}) {
      mergepath::host_context host(threads);
      index_t got = 0;
      timing t = measure_host(1, reps, [&] {
        if (op == 0) got = mergepath::set_union(host, a.data(), n, bk.data(), n, out.data());
        if (op == 1) got = mergepath::set_intersection(host, a.data(), n, bk.data(), n, out.data());
        if (op == 2) got = mergepath::set_difference(host, a.data(), n, bk.data(), n, out.data());
        if (op == 3) got = mergepath::set_symmetric_difference(host, a.data(), n, bk.data(), n, out.data());
      });
      const bool ok =
          got == static_cast<index_t>(count) && std::equal(out.begin(), out.begin() + got, expected.begin());
      add(std::string("mergepath::") + set_op_names[op], threads, t, static_cast<double>(count), bytes, std_t, ok);
      if (threads == b.info.host_threads) break;
    }
  }
}

}  // namespace

std::string join_summary(const bench_context& b, index_t* size_out) {
  std::string text;
  for (const result_row& r : b.rows) {
    if (r.backend != "gpu") continue;
    char part[160] = "";
    if (r.algorithm == "mergepath::merge_join (sorted keys)")
      std::snprintf(part, sizeof part, "merge_join inner %.3f ms (%.0f%% of copy)", r.ms_median, r.pct_copy);
    if (r.algorithm == "mergepath::sort_merge_join (unsorted keys)")
      std::snprintf(part, sizeof part, "; sort_merge_join %.3f ms", r.ms_median);
    if (r.algorithm.rfind("mergepath::set_", 0) == 0)
      std::snprintf(part, sizeof part, "; %s %.2fx Thrust, %.0f%% of copy", r.algorithm.c_str() + 11, r.ratio_thrust,
                    r.pct_copy);
    text += part;
    *size_out = r.n;
  }
  return text;
}

void run_join_bench(bench_context& b) {
  if (!b.wants_key_type("int32")) {
    b.note("join: the suite runs int32 keys only; --types has no int32");
    return;
  }
  for (int log2 : b.opts.join_log2_sizes) {
    const index_t n = index_t{1} << log2;
    b.guarded("join at " + log2_label(n), [&] { join_rows(b, n); });
    b.guarded("set operations at " + log2_label(n), [&] { set_rows(b, n); });
  }
  if (b.opts.cpu != cpu_rows::none) b.guarded("join CPU rows", [&] { host_rows(b); });
}

// The suite as bench_main.cu lists it.
const suite join_suite = {
    "join",
    "merge_join / sort_merge_join inner vs copy; set_union .. set_symmetric_difference vs Thrust and copy (2^25 + 2^25 int32); CPU rows",
    run_join_bench, join_summary, &options::join_log2_sizes};

}  // namespace bench
