// cuda_context (own and borrowed streams, properties, temporary memory), CUDA graph capture,
// and cuda_error.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <mergepath/device/tuning_family.cuh>
#include <mergepath/mergepath.hpp>
#include <string>
#include <type_traits>
#include <vector>

#include "gpu_util.cuh"

namespace mergepath_test {
namespace {

class CudaContext : public gpu_test {};

// A keys merge and a pairs merge of a few tiles on ctx, checked against std::merge.
void check_merges_on(mergepath::cuda_context& ctx) {
  merge_case c{3 * merge_tile_items<int>() + 11, 2 * merge_tile_items<int>() - 7, distribution::few_distinct,
               case_seed({10})};
  SCOPED_TRACE(c.name());
  ASSERT_NO_FATAL_FAILURE(
      check_default_merges(ctx, make_merge_input<int>(c, mergepath::less<>{}), mergepath::less<>{}));
}

TEST_F(CudaContext, OwnStreamAndProperties) {
  mergepath::cuda_context ctx;
  int device = -1;
  MERGEPATH_CUDA_CHECK(cudaGetDevice(&device));
  EXPECT_EQ(ctx.device(), device);
  ASSERT_NE(ctx.stream(), nullptr);
  unsigned flags = 0;
  MERGEPATH_CUDA_CHECK(cudaStreamGetFlags(ctx.stream(), &flags));
  // A blocking stream: ordered with the legacy default stream's plain cudaMemcpy (issue 67).
  EXPECT_EQ(flags & cudaStreamNonBlocking, 0u);
  EXPECT_GT(ctx.props().multiProcessorCount, 0);
  EXPECT_GT(ctx.props().totalGlobalMem, 0u);
  EXPECT_EQ(ctx.arch(), ctx.props().major * 10 + ctx.props().minor);
  EXPECT_FALSE(ctx.checked());
  EXPECT_NO_THROW(ctx.synchronize());
  check_merges_on(ctx);
}

// What a kernel can do is what it was compiled for (issue 68): the code that runs is one of the
// architectures this file was built for, no newer than the device, and the front doors tune for
// its family. A compute_80 PTX build on an H200 reports 80 here and takes the pre-Hopper paths.
TEST_F(CudaContext, CompiledArchitectureIsOneOfTheBuilds) {
  mergepath::cuda_context ctx;
  const int code = ctx.compiled_arch();
  EXPECT_LE(code, ctx.arch());
  bool listed = false;
  for (int arch : mergepath::detail::compiled_arch_list) listed = listed || arch / 10 == code;
  EXPECT_TRUE(listed) << "sm_" << code << " is not among the architectures compiled";
  EXPECT_EQ(mergepath::detail::running_tuning_family(), mergepath::tuning_family(code));
  std::printf("device sm_%d, kernels compiled for sm_%d (tuning family sm_%d)\n", ctx.arch(), code,
              mergepath::detail::running_tuning_family());
}

// Every family's blocksort tile fits the shared memory its GPUs give a block (tuning/arch.hpp):
// the one default tile that needs a shape per family.
template <int Family, class Key, class Value>
constexpr bool blocksort_fits() {
  using policy = mergepath::mergesort_policy_for<Key, Value, Family>;
  using vals = std::conditional_t<std::is_void_v<Value>, mergepath::kernel::no_values, Value*>;
  return mergepath::kernel::blocksort_layout<policy, Key*, vals>::bytes <= mergepath::family_max_shared_bytes(Family);
}
template <int Family>
constexpr bool blocksorts_fit() {
  return blocksort_fits<Family, int, void>() && blocksort_fits<Family, float, void>() &&
         blocksort_fits<Family, long long, void>() && blocksort_fits<Family, double, void>() &&
         blocksort_fits<Family, int, int>() && blocksort_fits<Family, int, long long>() &&
         blocksort_fits<Family, long long, long long>();
}
static_assert(blocksorts_fit<mergepath::family_sm75>() && blocksorts_fit<mergepath::family_sm80>() &&
                  blocksorts_fit<mergepath::family_sm86>() && blocksorts_fit<mergepath::family_sm90>() &&
                  blocksorts_fit<mergepath::family_sm100>(),
              "a mergesort blocksort tile exceeds its family's shared memory");
// Families whose blocksort is sm_90's share sm_90's kernels.
static_assert(std::is_same_v<mergepath::mergesort_policy_for<int, void, mergepath::family_sm100>,
                             mergepath::default_mergesort_policy<int>>);
static_assert(!std::is_same_v<mergepath::mergesort_policy_for<int, void, mergepath::family_sm75>,
                              mergepath::default_mergesort_policy<int>>);

// A borrowed stream is used, and is still alive after the context is gone.
TEST_F(CudaContext, BorrowedStreamOutlivesTheContext) {
  cudaStream_t stream = nullptr;
  MERGEPATH_CUDA_CHECK(cudaStreamCreate(&stream));
  {
    mergepath::cuda_context ctx(stream);
    EXPECT_EQ(ctx.stream(), stream);
    check_merges_on(ctx);
  }
  EXPECT_EQ(cudaStreamQuery(stream), cudaSuccess);
  {
    mergepath::cuda_context again(stream);
    check_merges_on(again);
  }
  device_vector<int> x(16);
  EXPECT_EQ(cudaMemsetAsync(x.data(), 0, 16 * sizeof(int), stream), cudaSuccess);
  EXPECT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  EXPECT_EQ(cudaStreamDestroy(stream), cudaSuccess);
}

std::int64_t free_device_bytes() {
  std::size_t free = 0, total = 0;
  MERGEPATH_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  return static_cast<std::int64_t>(free);
}

// The context's pool caches temporary memory: a thousand merges, and a stream of contexts that
// come and go, leave the free device memory where it was.
TEST_F(CudaContext, TemporaryMemoryDoesNotLeak) {
  constexpr std::int64_t allowed_drift = 4 << 20;
  const index_t n = 1 << 16;  // a few dozen tiles: the size of the temporaries is not the point
  device_vector<int> a(origins<int>(n, 0)), b(origins<int>(n, 0)), out(2 * n), vals(2 * n);
  auto merge_both = [&](mergepath::cuda_context& ctx) {
    mergepath::merge(ctx, a.data(), n, b.data(), n, out.data());
    mergepath::merge_pairs(ctx, a.data(), a.data(), n, b.data(), b.data(), n, out.data(), vals.data());
  };
  mergepath::cuda_context ctx;
  merge_both(ctx);  // the pool's first blocks
  ctx.synchronize();
  std::int64_t before = free_device_bytes();
  for (int i = 0; i < 1000; ++i) merge_both(ctx);
  ctx.synchronize();
  EXPECT_LE(std::abs(free_device_bytes() - before), allowed_drift) << "after 1000 merges on one context";
  for (int i = 0; i < 50; ++i) {
    mergepath::cuda_context short_lived;
    merge_both(short_lived);
    short_lived.synchronize();
  }
  EXPECT_LE(std::abs(free_device_bytes() - before), allowed_drift) << "after 50 contexts came and went";
}

// Small tiles, so that these sizes take the tiled schedule: the sample, partition and tile
// kernels, chained by programmatic dependent launch.
struct small_tile_policy {
  static constexpr mergepath::merge_tuning tuning{128, 7, 1};
};

// merge and merge_pairs captured into a CUDA graph, replayed with new input each time.
TEST_F(CudaContext, MergeCapturedInGraph) {
  mergepath::cuda_context ctx;
  const index_t na = 3 * merge_tile_items<int>() + 17, nb = 2 * merge_tile_items<int, int>() + 5;
  device_vector<int> a(na), b(nb), out(na + nb), a_vals(origins<int>(na, 0)), b_vals(origins<int>(nb, na)),
      keys(na + nb), vals(na + nb), tiled_out(na + nb);

  const captured_graph graph(ctx.stream(), [&] {
    mergepath::merge(ctx, a.data(), na, b.data(), nb, out.data());
    mergepath::merge_pairs(ctx, a.data(), a_vals.data(), na, b.data(), b_vals.data(), nb, keys.data(), vals.data());
    mergepath::merge<small_tile_policy>(ctx, a.data(), na, b.data(), nb, tiled_out.data());
  });

  const distribution replays[] = {distribution::uniform, distribution::few_distinct, distribution::reversed};
  for (distribution d : replays) {
    merge_case c{na, nb, d, case_seed({na, nb, static_cast<int>(d), 11})};
    SCOPED_TRACE(c.name());
    merge_input<int> in = make_merge_input<int>(c, mergepath::less<>{});
    graph.upload(a.data(), in.a);  // new input, ordered before the replay on the same stream
    graph.upload(b.data(), in.b);
    graph.launch();
    ctx.synchronize();
    EXPECT_TRUE(ranges_equal(std_merge(in.a, in.b, mergepath::less<>{}), out.download()));
    EXPECT_TRUE(ranges_equal(std_merge(in.a, in.b, mergepath::less<>{}), tiled_out.download()));
    auto expected = std_merge_pairs(in.a, origins<int>(na, 0), in.b, origins<int>(nb, na), mergepath::less<>{});
    EXPECT_TRUE(ranges_equal(expected.first, keys.download()));
    EXPECT_TRUE(ranges_equal(expected.second, vals.download()));
  }
}

// ---------------------------------------------------------------------------------------------
// cuda_error

class CudaError : public gpu_test {};

TEST_F(CudaError, NamesTheCallTheErrorAndTheLocation) {
  static_assert(std::is_base_of_v<std::runtime_error, mergepath::cuda_error>, "cuda_error is a runtime_error");
  mergepath::cuda_error e(cudaErrorInvalidValue, "cudaMemcpy(dst, src, n, kind)", "some/file.cu", 42);
  EXPECT_EQ(e.code, cudaErrorInvalidValue);
  std::string what = e.what();
  EXPECT_NE(what.find("cudaMemcpy(dst, src, n, kind)"), std::string::npos) << what;
  EXPECT_NE(what.find("cudaErrorInvalidValue"), std::string::npos) << what;
  EXPECT_NE(what.find("some/file.cu:42"), std::string::npos) << what;
}

// An allocation far larger than the GPU fails with cudaErrorMemoryAllocation.
cudaError_t allocate_too_much() {
  void* p = nullptr;
  std::size_t free = 0, total = 0;
  MERGEPATH_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  return cudaMalloc(&p, 4 * total);
}

TEST_F(CudaError, CheckThrowsForAFailedCall) {
  void* p = nullptr;
  std::size_t huge = std::size_t{1} << 50;
  try {
    MERGEPATH_CUDA_CHECK(cudaMalloc(&p, huge));
    ADD_FAILURE() << "cudaMalloc of 2^50 bytes succeeded";
  } catch (const mergepath::cuda_error& e) {
    EXPECT_EQ(e.code, cudaErrorMemoryAllocation);
    std::string what = e.what();
    EXPECT_NE(what.find("cudaMalloc"), std::string::npos) << what;
    EXPECT_NE(what.find("test_gpu_context.cu"), std::string::npos) << what;
  }
  (void)cudaGetLastError();  // a failed cudaMalloc is also recorded as the thread's last error
}

// A caller that caught a failed CUDA call (here: an allocation too large) and went on must not
// see that old error again from the next merge's launch check.
TEST_F(CudaError, CaughtErrorDoesNotResurfaceInTheNextMerge) {
  mergepath::cuda_context ctx;
  EXPECT_EQ(allocate_too_much(), cudaErrorMemoryAllocation);
  try {
    check_merges_on(ctx);
  } catch (const mergepath::cuda_error& e) {
    ADD_FAILURE() << "an earlier, unrelated error resurfaced: " << e.what();
  }
  (void)cudaGetLastError();
}

}  // namespace
}  // namespace mergepath_test
