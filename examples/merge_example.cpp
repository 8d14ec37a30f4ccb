// Merging sorted arrays with mergepath: on the CPU, and on the GPU when compiled by nvcc.
// The tests build and run this file twice (mergepath-example-host: g++, mergepath-example-gpu:
// nvcc), so it stays correct.
#include <cstdio>
#include <mergepath/mergepath.hpp>
#include <vector>

// Returns true if got == expected, printing the outcome under `what`.
static bool report(const char* what, const std::vector<int>& got, const std::vector<int>& expected) {
  std::printf("%-22s", what);
  for (int x : got) std::printf(" %d", x);
  std::printf("%s\n", got == expected ? "" : "   <-- WRONG");
  return got == expected;
}

int main() {
  bool ok = true;
  const std::vector<int> a{1, 3, 5, 7}, b{2, 3, 6};

  // Keys: out receives a and b in order. Stable: the 3 of a comes before the 3 of b.
  mergepath::host_context cpu;  // all cores; host_context(n) for n threads
  std::vector<int> out(a.size() + b.size());
  mergepath::merge(cpu, a.data(), a.size(), b.data(), b.size(), out.data());
  ok &= report("merge", out, {1, 2, 3, 3, 5, 6, 7});

  // Key-value pairs, ordered by mergepath::greater: values travel with their keys.
  const std::vector<int> c{9, 4, 4}, c_vals{0, 1, 2}, d{8, 4}, d_vals{10, 11};
  std::vector<int> keys(5), vals(5);
  mergepath::merge_pairs(cpu, c.data(), c_vals.data(), c.size(), d.data(), d_vals.data(), d.size(), keys.data(),
                         vals.data(), mergepath::greater<>{});
  ok &= report("merge_pairs keys", keys, {9, 8, 4, 4, 4});
  ok &= report("merge_pairs values", vals, {0, 10, 1, 2, 11});
  if (!ok) return 1;

#if MERGEPATH_HAS_CUDA
  if (!mergepath::cuda_available()) {
    std::puts("skipped: no GPU");
    return 0;
  }
  // The same merge on the GPU: device pointers in and out, work queued on the context's stream.
  mergepath::cuda_context gpu;
  int *d_a, *d_b, *d_out;
  MERGEPATH_CUDA_CHECK(cudaMalloc(&d_a, a.size() * sizeof(int)));
  MERGEPATH_CUDA_CHECK(cudaMalloc(&d_b, b.size() * sizeof(int)));
  MERGEPATH_CUDA_CHECK(cudaMalloc(&d_out, out.size() * sizeof(int)));
  // Copies go on gpu.stream() too, so they are ordered with the merge.
  MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(d_a, a.data(), a.size() * sizeof(int), cudaMemcpyHostToDevice, gpu.stream()));
  MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(d_b, b.data(), b.size() * sizeof(int), cudaMemcpyHostToDevice, gpu.stream()));
  mergepath::merge(gpu, d_a, a.size(), d_b, b.size(), d_out);
  std::vector<int> gpu_out(out.size());
  MERGEPATH_CUDA_CHECK(
      cudaMemcpyAsync(gpu_out.data(), d_out, out.size() * sizeof(int), cudaMemcpyDeviceToHost, gpu.stream()));
  gpu.synchronize();  // waits for the copies and the merge; throws cuda_error if any failed
  ok &= report("merge on the GPU", gpu_out, {1, 2, 3, 3, 5, 6, 7});
  MERGEPATH_CUDA_CHECK(cudaFree(d_a));
  MERGEPATH_CUDA_CHECK(cudaFree(d_b));
  MERGEPATH_CUDA_CHECK(cudaFree(d_out));
#endif
  return ok ? 0 : 1;
}
