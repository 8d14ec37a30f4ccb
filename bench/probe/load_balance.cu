// mergepath-probe cases for load balancing and segmented reduce (docs/design/load-balance.md).
#include "probe_common.cuh"

// ==== case load_balance ================================================================
// load_balancing_search, interval_expand and segmented_reduce of 2^26 items (int32), segment
// lengths uniform in [0, 2 * MEAN]: per-call times beside a device copy of the output, each
// checked against thrust::upper_bound, and the search and expansion at a few tile shapes;
// segmented_reduce beside cub::DeviceReduce::Sum (a bare read of the items) and CUB's segmented
// reduce, with its merge-path tiles and its streaming path at a few shapes side by side; with
// CALLS = 1, one call each, a fixed workload for ncu (-k regex:lbs|segmented_reduce).
// [MEAN [CALLS [LOG2_N]]]
namespace probe_load_balance {

using mergepath::index_t;

template <int Threads, int Items>
struct ab_policy {
  static constexpr mergepath::load_balance_tuning tuning{Threads, Items};
};
template <int Threads, int Vectors, int Stages, int Blocks, bool OneStartReduce = true>
struct stream_policy {
  using tuning_t = mergepath::segmented_reduce_stream_tuning;
  static constexpr tuning_t tuning{Threads, Vectors, Stages, Blocks, 1, OneStartReduce};
};

int probe_main(int argc, char** argv) {
  const index_t mean = argc > 1 ? std::atoll(argv[1]) : 4;
  const int calls = argc > 2 ? std::atoi(argv[2]) : 20;
  const index_t n = index_t{1} << (argc > 3 ? std::atoi(argv[3]) : 26);
  std::mt19937_64 rng(0x1b5 + static_cast<std::uint64_t>(mean));
  std::vector<int> offsets{0};
  while (offsets.back() < n) offsets.push_back(static_cast<int>(std::min<index_t>(offsets.back() + rng() % (2 * mean + 1), n)));
  offsets.pop_back();
  const auto segments = static_cast<index_t>(offsets.size());
  mergepath::cuda_context ctx;
  thrust::device_vector<int> starts(offsets), out(n), expect(n), values(n, 1), copy_out(n), sums(segments),
      segment_values(segments);
  thrust::sequence(segment_values.begin(), segment_values.end());
  thrust::upper_bound(starts.begin(), starts.end(), thrust::counting_iterator<int>(0),
                      thrust::counting_iterator<int>(static_cast<int>(n)), expect.begin());
  thrust::transform(expect.begin(), expect.end(), expect.begin(), [] __device__(int s) { return s - 1; });
  auto time = [&](const char* what, auto call) {
    const double us = calls > 1 ? per_call_us(ctx.stream(), calls, call) : (call(), 0.0);
    MERGEPATH_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
    std::printf("  %-24s %8.1f us", what, us);
    return us;
  };
  std::printf("--- 2^%d items, mean %lld (%lld segments)\n", static_cast<int>(std::log2(static_cast<double>(n))),
              static_cast<long long>(mean), static_cast<long long>(segments));
  time("copy of the output", [&] {
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(copy_out.data().get(), out.data().get(), sizeof(int) * n,
                                         cudaMemcpyDeviceToDevice, ctx.stream()));
  });
  std::printf("\n");
  time("load_balancing_search", [&] {
    mergepath::load_balancing_search(ctx, n, starts.data().get(), segments, out.data().get());
  });
  std::printf("  %s\n", out == expect ? "ok" : "MISMATCH");
  time("interval_expand", [&] {
    mergepath::interval_expand(ctx, segment_values.data().get(), n, starts.data().get(), segments, out.data().get());
  });
  std::printf("  %s\n", out == expect ? "ok" : "MISMATCH");
  {  // 8-byte starts and outputs (what the Python package passes)
    thrust::device_vector<long long> starts64(offsets.begin(), offsets.end()), out64(n), copy64(n),
        values64(segment_values.begin(), segment_values.end());
    time("copy of an int64 output", [&] {
      MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(copy64.data().get(), out64.data().get(), sizeof(long long) * n,
                                           cudaMemcpyDeviceToDevice, ctx.stream()));
    });
    std::printf("\n");
    time("  search, int64",
         [&] { mergepath::load_balancing_search(ctx, n, starts64.data().get(), segments, out64.data().get()); });
    std::printf("  %s\n", thrust::equal(out64.begin(), out64.end(), expect.begin()) ? "ok" : "MISMATCH");
    time("  expand, int64", [&] {
      mergepath::interval_expand(ctx, values64.data().get(), n, starts64.data().get(), segments, out64.data().get());
    });
    std::printf("  %s\n", thrust::equal(out64.begin(), out64.end(), expect.begin()) ? "ok" : "MISMATCH");
  }
  // The store kernel at a few tile shapes, side by side. Back-to-back calls keep the starts and
  // values in L2 from mean 16 on; bench --tunings rotates its inputs, and decides the tunings.
  auto one = [&](auto policy) {
    using P = decltype(policy);
    char name[64];
    std::snprintf(name, sizeof(name), "%dx%d", P::tuning.block_threads, P::tuning.items_per_thread);
    std::printf("  %-12s", name);
    thrust::fill(out.begin(), out.end(), -7);
    time("  search", [&] {
      mergepath::device::launch_transform_lbs<P>(ctx, mergepath::device::write_segment<int*>{out.data().get(), {}}, n,
                                                 starts.data().get(), segments);
    });
    std::printf(" %s", out == expect ? "ok" : "MISMATCH");
    thrust::fill(out.begin(), out.end(), -7);
    time("  expand", [&] {
      mergepath::device::launch_transform_lbs<P>(
          ctx, mergepath::device::expand_values<const int*, int*>{out.data().get(), {segment_values.data().get()}}, n,
          starts.data().get(), segments);
    });
    std::printf(" %s\n", out == expect ? "ok" : "MISMATCH");
  };
  if (calls > 1) {
    one(ab_policy<128, 15>{});
    one(ab_policy<128, 19>{});
    one(ab_policy<128, 31>{});
  }
  // The reduction's floors: all items read once (cub::DeviceReduce::Sum), and CUB's segmented reduce.
  {
    thrust::device_vector<int> ends(offsets.begin() + 1, offsets.end()), total(1);
    ends.push_back(static_cast<int>(n));
    std::size_t bytes = 0, seg_bytes = 0;
    MERGEPATH_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, values.data().get(), total.data().get(), n, ctx.stream()));
    MERGEPATH_CUDA_CHECK(cub::DeviceSegmentedReduce::Sum(nullptr, seg_bytes, values.data().get(), sums.data().get(),
                                                         static_cast<int>(segments), starts.data().get(),
                                                         ends.data().get(), ctx.stream()));
    thrust::device_vector<unsigned char> temp(std::max(bytes, seg_bytes));
    time("cub::DeviceReduce::Sum", [&] {
      MERGEPATH_CUDA_CHECK(cub::DeviceReduce::Sum(temp.data().get(), bytes, values.data().get(), total.data().get(), n,
                                                  ctx.stream()));
    });
    std::printf("\n");
    time("cub segmented reduce", [&] {
      MERGEPATH_CUDA_CHECK(cub::DeviceSegmentedReduce::Sum(temp.data().get(), seg_bytes, values.data().get(),
                                                           sums.data().get(), static_cast<int>(segments),
                                                           starts.data().get(), ends.data().get(), ctx.stream()));
    });
    std::printf("\n");
  }
  if (calls > 1) {  // the merge-path tiles, whatever the mean
    time("segmented_reduce tiles", [&] {
      mergepath::device::launch_segmented_reduce_tiles<mergepath::default_segmented_reduce_policy<int>>(
          ctx, mergepath::value_at_as<const int*, int>{values.data().get()}, n, starts.data().get(), segments,
          sums.data().get(), 0, mergepath::plus<>{});
    });
    std::printf("\n");
    // The streaming path at a few shapes (threads, 16-byte pieces a thread, stages, blocks an SM).
    auto stream = [&](auto policy) {
      using P = decltype(policy);
      char name[64];
      std::snprintf(name, sizeof(name), "stream %dx%dx%d/%d%s", P::tuning.block_threads, P::tuning.vectors_per_thread,
                    P::tuning.stages, P::tuning.min_blocks_per_sm, P::tuning.one_start_reduce ? "" : " walk");
      time(name, [&] {
        mergepath::device::launch_segmented_reduce_stream<P>(ctx, static_cast<const int*>(values.data().get()), n,
                                                             starts.data().get(), segments, sums.data().get(), 0,
                                                             mergepath::plus<>{});
      });
      std::printf("\n");
    };
    stream(stream_policy<128, 8, 3, 4, false>{});  // sub-tiles with one start by the walk and scan
    stream(stream_policy<128, 8, 3, 4>{});         // the tuning from mean 7000
    stream(stream_policy<64, 8, 3, 8, false>{});
    stream(stream_policy<64, 8, 3, 8>{});  // the tuning from mean 1250
    stream(stream_policy<64, 8, 2, 12>{});
  }
  time("segmented_reduce", [&] {
    mergepath::segmented_reduce(ctx, values.data().get(), n, starts.data().get(), segments, sums.data().get(), 0);
  });
  thrust::host_vector<int> got = sums;
  index_t bad = 0, first_bad = -1;
  for (index_t s = 0; s < segments; ++s) {
    if (got[s] == (s + 1 < segments ? offsets[s + 1] : n) - offsets[s]) continue;
    if (bad++ == 0) first_bad = s;
  }
  if (bad == 0) {
    std::printf("  ok\n");
  } else {
    const index_t s = first_bad;
    std::printf("  MISMATCH at %lld segments, first %lld (start %d): %d, expected %lld\n", static_cast<long long>(bad),
                static_cast<long long>(s), offsets[s], got[s],
                static_cast<long long>((s + 1 < segments ? offsets[s + 1] : n) - offsets[s]));
  }
  return 0;
}

}  // namespace probe_load_balance
