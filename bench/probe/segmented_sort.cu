// mergepath-probe cases for segmented sort and locality sort (docs/design/segmented-sort.md).
#include "probe_common.cuh"

// ==== case segsort (was scripts/probe_segsort.cu) =====================================
// Quick device probe for the segmented sort: correctness against a per-segment std::stable_sort
// and the time of each call, over segment-length means; then locality_sort. Not a test (the
// tests live in tests/); a first look before the full round.
namespace probe_segsort {

namespace {

std::vector<int> make_heads(int n, double mean, std::mt19937_64& rng) {
  std::vector<int> heads;
  std::uniform_int_distribution<long> len(1, std::max<long>(1, static_cast<long>(2 * mean - 1)));
  for (long i = len(rng); i < n; i += len(rng)) heads.push_back(static_cast<int>(i));
  return heads;
}

// Milliseconds of one call of f on `stream` (after one warm-up call).
template <class F>
float time_ms(cudaStream_t stream, F f) {
  cudaEvent_t a, b;
  cudaEventCreate(&a), cudaEventCreate(&b);
  f();
  cudaEventRecord(a, stream);
  f();
  cudaEventRecord(b, stream);
  cudaEventSynchronize(b);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  return ms;
}

}  // namespace

int probe_main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 1 << 24;
  mergepath::cuda_context ctx;
  std::mt19937_64 rng(7);
  std::vector<int> keys(n);
  for (int& k : keys) k = static_cast<int>(rng() % 1000000);
  if (argc > 3) {  // profile mode: `--case segsort N MEAN keys|pairs|locality` sorts once, for ncu or nsys
    double mean = std::atof(argv[2]);
    std::string what = argv[3];
    std::vector<int> heads = make_heads(n, mean, rng);
    thrust::device_vector<int> d_heads(heads.begin(), heads.end()), d_keys(keys.begin(), keys.end()), d_vals(n);
    if (what == "keys")
      mergepath::segmented_sort(ctx, d_keys.data().get(), n, d_heads.data().get(), static_cast<long>(heads.size()));
    else if (what == "pairs")
      mergepath::segmented_sort_pairs(ctx, d_keys.data().get(), d_vals.data().get(), n, d_heads.data().get(),
                                      static_cast<long>(heads.size()));
    else
      mergepath::locality_sort(ctx, d_keys.data().get(), n);
    ctx.synchronize();
    return 0;
  }
  auto copy = [&](const thrust::device_vector<int>& from, thrust::device_vector<int>& to) {
    cudaMemcpyAsync(to.data().get(), from.data().get(), from.size() * sizeof(int), cudaMemcpyDeviceToDevice,
                    ctx.stream());
  };
  bool all_ok = true;
  for (double mean : {2.0, 20.0, 300.0, 1e4, 1e6}) {
    std::vector<int> heads = make_heads(n, mean, rng);
    thrust::device_vector<int> d_heads(heads.begin(), heads.end());
    thrust::device_vector<int> d_keys(keys.begin(), keys.end()), d_vals(n);
    thrust::sequence(d_vals.begin(), d_vals.end());
    mergepath::segsort_stats stats;
    mergepath::segmented_sort_pairs(ctx, d_keys.data().get(), d_vals.data().get(), n, d_heads.data().get(),
                                    static_cast<long>(heads.size()), mergepath::less<>{}, &stats);
    ctx.synchronize();
    std::vector<int> out(n), vals(n);
    thrust::copy(d_keys.begin(), d_keys.end(), out.begin());
    thrust::copy(d_vals.begin(), d_vals.end(), vals.begin());
    std::vector<int> order(n);
    for (int i = 0; i < n; ++i) order[i] = i;
    std::size_t b = 0;
    heads.push_back(n);
    for (int e : heads) {
      std::stable_sort(order.begin() + b, order.begin() + e, [&](int l, int r) { return keys[l] < keys[r]; });
      b = e;
    }
    heads.pop_back();
    bool ok = true;
    for (int i = 0; i < n && ok; ++i) ok = vals[i] == order[i] && out[i] == keys[order[i]];
    all_ok &= ok;
    thrust::device_vector<int> work(n), d_orig(keys.begin(), keys.end());
    float keys_ms = time_ms(ctx.stream(), [&] { copy(d_orig, work); });
    float sort_ms = time_ms(ctx.stream(), [&] {
      copy(d_orig, work);
      mergepath::segmented_sort(ctx, work.data().get(), n, d_heads.data().get(), static_cast<long>(heads.size()));
    });
    float pairs_ms = time_ms(ctx.stream(), [&] {
      copy(d_orig, work);
      mergepath::segmented_sort_pairs(ctx, work.data().get(), d_vals.data().get(), n, d_heads.data().get(),
                                      static_cast<long>(heads.size()));
    });
    std::printf("mean %8.0f: %s  keys %.3f ms (%.1f Gkeys/s)  pairs %.3f ms (%.1f Gkeys/s)\n",
                mean, ok ? "ok" : "MISMATCH", sort_ms - keys_ms, n / (sort_ms - keys_ms) / 1e6, pairs_ms - keys_ms,
                n / (pairs_ms - keys_ms) / 1e6);
    if (mean == 300.0) std::cout << stats;
  }
  {
    std::vector<int> near(n);
    for (int i = 0; i < n; ++i) near[i] = i + static_cast<int>(rng() % 26);
    thrust::device_vector<int> d(near.begin(), near.end()), work(n);
    mergepath::segsort_stats stats;
    copy(d, work);
    mergepath::locality_sort(ctx, work.data().get(), n, mergepath::less<>{}, &stats);
    ctx.synchronize();
    std::vector<int> out(n), ref = near;
    thrust::copy(work.begin(), work.end(), out.begin());
    std::stable_sort(ref.begin(), ref.end());
    bool ok = out == ref;
    all_ok &= ok;
    float copy_ms = time_ms(ctx.stream(), [&] { copy(d, work); });
    float loc_ms = time_ms(ctx.stream(), [&] {
      copy(d, work);
      mergepath::locality_sort(ctx, work.data().get(), n);
    });
    float ms_ms = time_ms(ctx.stream(), [&] {
      copy(d, work);
      mergepath::mergesort(ctx, work.data().get(), n);
    });
    std::printf("locality: %s  %.3f ms (%.1f Gkeys/s); mergesort %.3f ms (%.1f Gkeys/s)\n", ok ? "ok" : "MISMATCH",
                loc_ms - copy_ms, n / (loc_ms - copy_ms) / 1e6, ms_ms - copy_ms, n / (ms_ms - copy_ms) / 1e6);
    std::cout << stats;
  }
  std::printf("%s\n", all_ok ? "ALL OK" : "FAILURES");
  return all_ok ? 0 : 1;
}

}  // namespace probe_segsort
