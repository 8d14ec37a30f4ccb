// The load-balancing suite: 2^26 int32 items in segments of uniform random length (0 .. 2 x mean)
// with means 4, 16, 300, 3000, 10^4 and 10^6, int32 starts. Rows: mergepath::load_balancing_search
// against thrust::upper_bound of the items in the starts (what one writes without it) and a
// device copy of the same bytes, also with int64 starts and outputs (as Python calls it);
// interval_expand against a copy; segmented_reduce (sum) against cub::DeviceSegmentedReduce::Sum
// and a copy. CPU rows: load_balancing_search and segmented_reduce on host_context(t) against a
// sequential loop, at 2^24 items.
#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>

#include <cstdint>
#include <cub/device/device_segmented_reduce.cuh>
#include <mergepath/load_balance.hpp>
#include <sstream>
#include <vector>

#include "bench_util.cuh"

namespace bench {
namespace {

using item_type = std::int32_t;  // starts, values and outputs

constexpr index_t segment_means[] = {4, 16, 300, 3000, 10000, 1000000};
constexpr index_t cpu_items = index_t{1} << 24;

std::string mean_label(index_t mean) {
  if (mean == 10000) return "1e4";
  if (mean == 1000000) return "1e6";
  return std::to_string(mean);
}

// Starts of segments of uniform random length in [0, 2 x mean] (empty ones included), covering
// count items, from a fixed seed; offsets = the starts followed by count (CUB's offsets).
std::vector<item_type> segment_offsets(index_t count, index_t mean, std::uint64_t seed) {
  std::vector<item_type> offsets;
  offsets.reserve(static_cast<std::size_t>(count / mean + 2));
  std::uint64_t state = seed;
  for (index_t at = 0; at < count;) {
    offsets.push_back(static_cast<item_type>(at));
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    at += static_cast<index_t>((state >> 33) % static_cast<std::uint64_t>(2 * mean + 1));
  }
  offsets.push_back(static_cast<item_type>(count));
  return offsets;
}

// values[i] in [0, 100): sums of a million of them stay exact in int32.
__global__ void fill_small_values(item_type* values, index_t count) {
  for (index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<index_t>(gridDim.x) * blockDim.x)
    values[i] = static_cast<item_type>((static_cast<std::uint64_t>(i) * 2654435761u >> 7) % 100);
}

template <class T>
std::vector<T> download(const T* d, index_t count, cudaStream_t stream) {
  std::vector<T> h(static_cast<std::size_t>(count));
  if (count > 0)
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(h.data(), d, h.size() * sizeof(T), cudaMemcpyDeviceToHost, stream));
  MERGEPATH_CUDA_CHECK(cudaStreamSynchronize(stream));
  return h;
}

// The rows of one group that share a copy floor: time the copy of bytes / 2 (read once, written
// once), then each row's percentage of it.
struct copy_floor {
  double ms = not_measured;
  double percent_of(double row_ms) const { return ms / row_ms * 100; }
};

copy_floor time_copy(bench_context& b, const std::string& label, std::size_t bytes, index_t n) {
  device_buffer<unsigned char> from(bytes / 2, "copy source"), to(bytes / 2, "copy target");
  timing t = b.timer.measure(b.opts.warmup, b.reps_for(n), 1, [&](int) {
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(to.data(), from.data(), bytes / 2, cudaMemcpyDeviceToDevice, b.stream()));
  });
  result_row r;
  r.algorithm = label;
  r.key_type = "int32";
  r.n = n;
  fill_rates(r, t, static_cast<double>(n), static_cast<double>(bytes));
  r.pct_copy = 100;
  b.add_row(r);
  return {t.median_ms};
}

template <int Threads, int Items>
struct lb_policy {  // with the defaults' L2 prefetch
  static constexpr mergepath::load_balance_tuning tuning{Threads, Items, 0.5f};
};

// --tunings: transform_lbs with f (load_balancing_search's or interval_expand's, named `label`)
// under other tile shapes (rows named by their shape).
template <class Func, class Row>
void lbs_tuning_rows(bench_context& b, const char* label, Func f, index_t n, const item_type* starts, index_t segments,
                     Row row) {
  auto one = [&](auto policy) {
    using P = decltype(policy);
    timing t = b.timer.measure(b.opts.warmup, b.reps_for(n), 1,
                               [&](int) { mergepath::device::launch_transform_lbs<P>(b.ctx, f, n, starts, segments); });
    std::ostringstream name;
    name << "  " << label << " " << P::tuning.block_threads << "x" << P::tuning.items_per_thread;
    b.add_row(row(name.str(), t));
  };
  one(lb_policy<128, 15>{});
  one(lb_policy<128, 19>{});
  one(lb_policy<128, 23>{});
  one(lb_policy<128, 31>{});
  one(lb_policy<128, 47>{});
  one(lb_policy<256, 15>{});
  one(lb_policy<256, 23>{});
}

// --tunings: segmented_reduce under other tile shapes.
template <class Row>
void reduce_tuning_rows(bench_context& b, index_t n, const item_type* values, const item_type* starts,
                        index_t segments, item_type* sums, Row row) {
  auto one = [&](auto policy) {
    using P = decltype(policy);
    timing t = b.timer.measure(b.opts.warmup, b.reps_for(n), 1, [&](int) {
      mergepath::transform_segmented_reduce<P>(b.ctx, mergepath::value_at_as<const item_type*, item_type>{values}, n,
                                               starts, segments, sums, item_type{0});
    });
    std::ostringstream name;
    name << "  segmented_reduce " << P::tuning.block_threads << "x" << P::tuning.items_per_thread;
    b.add_row(row(name.str(), t));
  };
  one(lb_policy<128, 15>{});
  one(lb_policy<128, 23>{});
  one(lb_policy<128, 31>{});
  one(lb_policy<256, 15>{});
  one(lb_policy<256, 23>{});
}

void gpu_rows(bench_context& b, index_t n, index_t mean) {
  const std::vector<item_type> offsets = segment_offsets(n, mean, 0x1b5 + static_cast<std::uint64_t>(mean));
  const auto segments = static_cast<index_t>(offsets.size() - 1);
  device_buffer<item_type> d_offsets(offsets.size(), "offsets"), values(static_cast<std::size_t>(n), "values"),
      out(static_cast<std::size_t>(n), "output"), thrust_out(static_cast<std::size_t>(n), "thrust output"),
      segment_values(static_cast<std::size_t>(segments), "segment values"),
      sums(static_cast<std::size_t>(segments), "sums"), cub_sums(static_cast<std::size_t>(segments), "CUB sums");
  MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(d_offsets.data(), offsets.data(), d_offsets.bytes(), cudaMemcpyHostToDevice,
                                       b.stream()));
  mergepath::detail::launch("fill_small_values", fill_small_values, 1024, 256, 0, b.stream(), values.data(), n);
  mergepath::detail::launch("fill_small_values", fill_small_values, 1024, 256, 0, b.stream(), segment_values.data(),
                            segments);
  const int reps = b.reps_for(n);
  const item_type* starts = d_offsets.data();
  const std::string shape = "mean " + mean_label(mean) + " (" + std::to_string(segments) + " segments)";
  auto row = [&](const std::string& algorithm, const timing& t, double bytes, const copy_floor& floor) {
    result_row r;
    r.algorithm = algorithm;
    r.key_type = "int32";
    r.n = n;
    r.input = shape;
    fill_rates(r, t, static_cast<double>(n), bytes);
    r.pct_copy = floor.percent_of(t.median_ms);
    return r;
  };

  // load_balancing_search reads the starts and writes an int32 a item.
  b.begin_gpu_group("load_balancing_search, " + log2_label(n) + " items, " + shape, bench_context::versus::thrust);
  const double lbs_bytes = 4.0 * static_cast<double>(segments + n);
  copy_floor lbs_floor = time_copy(b, "copy (starts in, an int32 a item out)", static_cast<std::size_t>(lbs_bytes), n);
  timing thrust_t = b.timer.measure(b.opts.warmup, reps, 1, [&](int) {
    thrust::upper_bound(thrust::cuda::par_nosync(b.allocator).on(b.stream()), starts, starts + segments,
                        thrust::counting_iterator<item_type>(0), thrust::counting_iterator<item_type>(n),
                        thrust_out.data());
  });
  result_row thrust_row = row("thrust::upper_bound (items in starts)", thrust_t, lbs_bytes, lbs_floor);
  thrust_row.ratio_thrust = 1;
  b.add_row(thrust_row);
  // Marks r against thrust's upper bounds, one past each item's segment.
  auto check_segments = [&](result_row& r, const auto* segment_of, const std::string& what) {
    auto ours = download(segment_of, n, b.stream());
    auto theirs = download(thrust_out.data(), n, b.stream());
    r.check = "ok";
    for (std::size_t i = 0; i < ours.size(); ++i)
      if (ours[i] != theirs[i] - 1) {
        r.check = "MISMATCH";
        b.fail(what + " differs from thrust::upper_bound - 1 at item " + std::to_string(i));
        break;
      }
  };
  b.guarded("load_balancing_search", [&] {
    timing t = b.timer.measure(b.opts.warmup, reps, 1,
                               [&](int) { mergepath::load_balancing_search(b.ctx, n, starts, segments, out.data()); });
    result_row r = row("mergepath::load_balancing_search", t, lbs_bytes, lbs_floor);
    r.ratio_thrust = thrust_t.median_ms / t.median_ms;
    check_segments(r, out.data(), "load_balancing_search");
    b.add_row(r);
  });

  if (b.opts.tunings)
    lbs_tuning_rows(b, "load_balancing_search", mergepath::device::write_segment<item_type*>{out.data(), {}}, n, starts,
                    segments, [&](const std::string& a, const timing& t) { return row(a, t, lbs_bytes, lbs_floor); });

  // The same search with 8-byte starts and outputs, as the Python package calls it.
  {
    const std::vector<std::int64_t> offsets64(offsets.begin(), offsets.end());
    device_buffer<std::int64_t> starts64(offsets64.size(), "int64 offsets"),
        out64(static_cast<std::size_t>(n), "int64 output");
    MERGEPATH_CUDA_CHECK(
        cudaMemcpyAsync(starts64.data(), offsets64.data(), starts64.bytes(), cudaMemcpyHostToDevice, b.stream()));
    const double bytes64 = 8.0 * static_cast<double>(segments + n);
    copy_floor floor64 =
        time_copy(b, "copy (int64 starts in, an int64 a item out)", static_cast<std::size_t>(bytes64), n);
    b.guarded("load_balancing_search, int64", [&] {
      timing t = b.timer.measure(b.opts.warmup, reps, 1, [&](int) {
        mergepath::load_balancing_search(b.ctx, n, starts64.data(), segments, out64.data());
      });
      result_row r = row("mergepath::load_balancing_search, int64", t, bytes64, floor64);
      r.key_type = "int64";
      check_segments(r, out64.data(), "load_balancing_search (int64)");
      b.add_row(r);
    });
  }

  // interval_expand reads the starts and each segment's value, and writes an int32 a item.
  const double expand_bytes = 4.0 * static_cast<double>(2 * segments + n);
  copy_floor expand_floor =
      time_copy(b, "copy (starts + values in, an int32 a item out)", static_cast<std::size_t>(expand_bytes), n);
  b.guarded("interval_expand", [&] {
    timing t = b.timer.measure(b.opts.warmup, reps, 1, [&](int) {
      mergepath::interval_expand(b.ctx, segment_values.data(), n, starts, segments, out.data());
    });
    result_row r = row("mergepath::interval_expand", t, expand_bytes, expand_floor);
    auto ours = download(out.data(), n, b.stream());
    auto segment_of = download(thrust_out.data(), n, b.stream());
    auto value_of = download(segment_values.data(), segments, b.stream());
    r.check = "ok";
    for (std::size_t i = 0; i < ours.size(); ++i)
      if (ours[i] != value_of[static_cast<std::size_t>(segment_of[i] - 1)]) {
        r.check = "MISMATCH";
        b.fail("interval_expand is wrong at item " + std::to_string(i));
        break;
      }
    b.add_row(r);
  });
  if (b.opts.tunings)
    lbs_tuning_rows(b, "interval_expand",
                    mergepath::device::expand_values<const item_type*, item_type*>{out.data(), {segment_values.data()}},
                    n, starts, segments,
                    [&](const std::string& a, const timing& t) { return row(a, t, expand_bytes, expand_floor); });

  // segmented_reduce reads every item and the starts, and writes an int32 a segment.
  b.begin_gpu_group("segmented_reduce (sum), " + log2_label(n) + " items, " + shape);
  const double reduce_bytes = 4.0 * static_cast<double>(n + 2 * segments);
  copy_floor reduce_floor =
      time_copy(b, "copy (items + starts in, a sum a segment out)", static_cast<std::size_t>(reduce_bytes), n);
  std::size_t cub_bytes = 0;
  MERGEPATH_CUDA_CHECK(cub::DeviceSegmentedReduce::Sum(nullptr, cub_bytes, values.data(), cub_sums.data(),
                                                       static_cast<int>(segments), starts, starts + 1, b.stream()));
  device_buffer<unsigned char> cub_temp(std::max<std::size_t>(cub_bytes, 1), "CUB temporary storage");
  timing cub_t = b.timer.measure(b.opts.warmup, reps, 1, [&](int) {
    MERGEPATH_CUDA_CHECK(cub::DeviceSegmentedReduce::Sum(cub_temp.data(), cub_bytes, values.data(), cub_sums.data(),
                                                         static_cast<int>(segments), starts, starts + 1, b.stream()));
  });
  result_row cub_row = row("cub::DeviceSegmentedReduce::Sum", cub_t, reduce_bytes, reduce_floor);
  cub_row.ratio_cub = 1;
  b.add_row(cub_row);
  b.guarded("segmented_reduce", [&] {
    timing t = b.timer.measure(b.opts.warmup, reps, 1, [&](int) {
      mergepath::segmented_reduce(b.ctx, values.data(), n, starts, segments, sums.data(), item_type{0});
    });
    result_row r = row("mergepath::segmented_reduce", t, reduce_bytes, reduce_floor);
    r.ratio_cub = cub_t.median_ms / t.median_ms;
    r.check = download(sums.data(), segments, b.stream()) == download(cub_sums.data(), segments, b.stream())
                  ? "ok"
                  : "MISMATCH";
    if (r.check != "ok") b.fail("segmented_reduce differs from CUB's at mean " + mean_label(mean));
    b.add_row(r);
  });
  if (b.opts.tunings)
    reduce_tuning_rows(b, n, values.data(), starts, segments, sums.data(), [&](const std::string& a, const timing& t) {
      return row(a, t, reduce_bytes, reduce_floor);
    });
}

void host_rows(bench_context& b, index_t mean) {
  const index_t n = cpu_items;
  const std::vector<item_type> offsets = segment_offsets(n, mean, 0x1b5 + static_cast<std::uint64_t>(mean));
  const auto segments = static_cast<index_t>(offsets.size() - 1);
  std::vector<item_type> values(static_cast<std::size_t>(n)), out(static_cast<std::size_t>(n)),
      expected(static_cast<std::size_t>(n)), sums(static_cast<std::size_t>(segments)),
      expected_sums(static_cast<std::size_t>(segments));
  for (index_t i = 0; i < n; ++i) values[static_cast<std::size_t>(i)] = static_cast<item_type>(i % 100);
  const int reps = 5;
  const std::string shape = "mean " + mean_label(mean);
  b.begin_cpu_group("CPU: load_balancing_search and segmented_reduce, " + log2_label(n) + " items, " + shape);
  auto add = [&](const std::string& algorithm, int threads, const timing& t, double bytes, const timing& sequential,
                 bool ok) {
    result_row r;
    r.algorithm = algorithm;
    r.key_type = "int32";
    r.n = n;
    r.input = shape;
    r.backend = "cpu";
    r.threads = threads;
    fill_rates(r, t, static_cast<double>(n), bytes);
    r.ratio_std = sequential.median_ms / t.median_ms;
    r.check = ok ? "ok" : "MISMATCH";
    if (!ok) b.fail(algorithm + " differs from the sequential loop");
    b.add_row(r);
  };

  const double lbs_bytes = 4.0 * static_cast<double>(segments + n);
  timing loop = measure_host(1, reps, [&] {
    std::size_t s = 0;
    for (index_t i = 0; i < n; ++i) {
      while (s + 1 < static_cast<std::size_t>(segments) && offsets[s + 1] <= i) ++s;
      expected[static_cast<std::size_t>(i)] = static_cast<item_type>(s);
    }
  });
  add("sequential loop (segment of each item)", 1, loop, lbs_bytes, loop, true);
  for (int threads : {2, b.info.host_threads}) {
    mergepath::host_context host(threads);
    timing t = measure_host(1, reps, [&] { mergepath::load_balancing_search(host, n, offsets.data(), segments, out.data()); });
    add("mergepath::load_balancing_search", threads, t, lbs_bytes, loop, out == expected);
    if (threads == b.info.host_threads) break;
  }

  const double reduce_bytes = 4.0 * static_cast<double>(n + 2 * segments);
  timing reduce_loop = measure_host(1, reps, [&] {
    for (index_t s = 0; s < segments; ++s) {
      item_type sum = 0;
      for (index_t i = offsets[static_cast<std::size_t>(s)]; i < offsets[static_cast<std::size_t>(s) + 1]; ++i)
        sum += values[static_cast<std::size_t>(i)];
      expected_sums[static_cast<std::size_t>(s)] = sum;
    }
  });
  add("sequential loop (sum of each segment)", 1, reduce_loop, reduce_bytes, reduce_loop, true);
  for (int threads : {2, b.info.host_threads}) {
    mergepath::host_context host(threads);
    timing t = measure_host(1, reps, [&] {
      mergepath::segmented_reduce(host, values.data(), n, offsets.data(), segments, sums.data(), item_type{0});
    });
    add("mergepath::segmented_reduce", threads, t, reduce_bytes, reduce_loop, sums == expected_sums);
    if (threads == b.info.host_threads) break;
  }
}

}  // namespace

std::string load_balance_summary(const bench_context& b, index_t* size_out) {
  std::string text;
  for (const result_row& r : b.rows) {
    if (r.backend != "gpu" || r.input.rfind("mean 4 ", 0) != 0) continue;
    char part[160] = "";
    if (r.algorithm == "mergepath::load_balancing_search")
      std::snprintf(part, sizeof part, "mean 4: load_balancing_search %.0f%% of copy, %.2fx thrust::upper_bound",
                    r.pct_copy, r.ratio_thrust);
    if (r.algorithm == "mergepath::segmented_reduce")
      std::snprintf(part, sizeof part, "; segmented_reduce %.0f%% of copy, %.2fx CUB", r.pct_copy, r.ratio_cub);
    text += part;
    *size_out = r.n;
  }
  return text;
}

void run_load_balance_bench(bench_context& b) {
  if (!b.wants_key_type("int32")) {
    b.note("load_balance: the suite runs int32 items only; --types has no int32");
    return;
  }
  for (int log2 : b.opts.load_balance_log2_sizes)
    for (index_t mean : segment_means) {
      const index_t n = index_t{1} << log2;
      if (mean > n) continue;
      b.guarded("load_balance at mean " + mean_label(mean), [&] { gpu_rows(b, n, mean); });
    }
  if (b.opts.cpu != cpu_rows::none)
    for (index_t mean : {index_t{4}, index_t{300}}) b.guarded("load_balance CPU rows", [&] { host_rows(b, mean); });
}

// The suite as bench_main.cu lists it.
const suite load_balance_suite = {
    "load_balance",
    "load_balancing_search, interval_expand vs thrust::upper_bound and copy; segmented_reduce vs CUB (means 4 .. 1e6); CPU rows",
    run_load_balance_bench, load_balance_summary, &options::load_balance_log2_sizes};

}  // namespace bench
