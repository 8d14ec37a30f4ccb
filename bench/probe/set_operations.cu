// mergepath-probe cases for the set operations (docs/design/join-and-set-operations.md).
#include "probe_common.cuh"

// ==== case set_ops =====================================================================
// The four set operations of N + N sorted int32 keys in [0, N) (issue 21's shape, N = 2^25):
// per-call times beside Thrust's and a device copy of the inputs, each output checked against
// Thrust's; with CALLS = 1 one call each, a fixed workload for ncu (-k regex:set_). [N [CALLS]]
namespace probe_set_ops {

using mergepath::index_t;

template <int Threads, int Items, int MinBlocks>
struct shape {
  static constexpr mergepath::set_operation_tuning tuning{Threads, Items, MinBlocks};
};

int probe_main(int argc, char** argv) {
  const index_t n = argc > 1 ? std::atoll(argv[1]) : index_t{1} << 25;
  const int calls = argc > 2 ? std::atoi(argv[2]) : 20;
  thrust::device_vector<int> a(n), b(n), out(2 * n), expect(2 * n), copy_out(2 * n);
  auto fill = [&](thrust::device_vector<int>& v, unsigned seed) {
    thrust::tabulate(v.begin(), v.end(), [seed, n] __device__(index_t i) {
      thrust::default_random_engine rng(seed);
      rng.discard(2 * i);
      return static_cast<int>(thrust::uniform_int_distribution<index_t>(0, n - 1)(rng));
    });
    thrust::sort(v.begin(), v.end());
  };
  fill(a, 1);
  fill(b, 2);
  mergepath::cuda_context ctx;
  const int* pa = a.data().get();
  const int* pb = b.data().get();
  int* po = out.data().get();
  auto time = [&](const char* what, auto call) {
    const double us = calls > 1 ? per_call_us(ctx.stream(), calls, call) : (call(), 0.0);
    MERGEPATH_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
    std::printf("  %-28s %8.1f us", what, us);
    return us;
  };
  std::printf("--- set operations, 2^%.1f + 2^%.1f int32 keys in [0, n)\n", std::log2(static_cast<double>(n)),
              std::log2(static_cast<double>(n)));
  time("copy of a and b", [&] {
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(copy_out.data().get(), pa, sizeof(int) * n, cudaMemcpyDeviceToDevice, ctx.stream()));
    MERGEPATH_CUDA_CHECK(
        cudaMemcpyAsync(copy_out.data().get() + n, pb, sizeof(int) * n, cudaMemcpyDeviceToDevice, ctx.stream()));
  });
  std::printf("\n");
  const char* names[] = {"set_union", "set_intersection", "set_difference", "set_symmetric_difference"};
  auto policy = thrust::cuda::par.on(ctx.stream());
  for (int op = 0; op < 4; ++op) {
    int* expect_end = nullptr;
    const std::string thrust_name = std::string("thrust::") + names[op];
    time(thrust_name.c_str(), [&] {
      int* e = expect.data().get();
      if (op == 0) expect_end = thrust::set_union(policy, pa, pa + n, pb, pb + n, e);
      if (op == 1) expect_end = thrust::set_intersection(policy, pa, pa + n, pb, pb + n, e);
      if (op == 2) expect_end = thrust::set_difference(policy, pa, pa + n, pb, pb + n, e);
      if (op == 3) expect_end = thrust::set_symmetric_difference(policy, pa, pa + n, pb, pb + n, e);
    });
    std::printf("\n");
    index_t count = 0;
    const std::string name = std::string("mergepath::") + names[op];
    time(name.c_str(), [&] {
      if (op == 0) count = mergepath::set_union(ctx, pa, n, pb, n, po);
      if (op == 1) count = mergepath::set_intersection(ctx, pa, n, pb, n, po);
      if (op == 2) count = mergepath::set_difference(ctx, pa, n, pb, n, po);
      if (op == 3) count = mergepath::set_symmetric_difference(ctx, pa, n, pb, n, po);
    });
    const index_t want = expect_end - expect.data().get();
    const bool ok = count == want && thrust::equal(out.begin(), out.begin() + count, expect.begin());
    std::printf("  %lld keys %s\n", static_cast<long long>(count), ok ? "ok" : "MISMATCH");
  }
  // The tile shape and the tile kernel's register bound (set_operation_tuning::min_blocks), per op.
  auto shapes = [&](auto op, const char* name) {
    auto one = [&](auto policy, const char* what) {
      using P = decltype(policy);
      const std::string label = std::string(name) + " " + what;
      time(label.c_str(), [&] {
        mergepath::device::launch_set_operation<P, decltype(op)::value>(ctx, pa, nullptr, n, pb, nullptr, n, po,
                                                                        nullptr, mergepath::less<>{});
      });
      std::printf("\n");
    };
    one(shape<128, 23, 8>{}, "128 x 23, 8 blocks");
    one(shape<128, 31, 8>{}, "128 x 31, 8 blocks");
    one(shape<256, 31, 4>{}, "256 x 31, 4 blocks");
  };
  using mergepath::set_op;
  shapes(std::integral_constant<set_op, set_op::union_>{}, "union");
  shapes(std::integral_constant<set_op, set_op::intersection>{}, "intersection");
  shapes(std::integral_constant<set_op, set_op::difference>{}, "difference");
  shapes(std::integral_constant<set_op, set_op::symmetric_difference>{}, "symmetric_difference");
  return 0;
}

}  // namespace probe_set_ops
