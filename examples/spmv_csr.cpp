// Sparse matrix times vector, y = A x, with A in CSR form (row offsets, column indices, values):
// one transform_segmented_reduce over the nonzeros, each row a segment. However the rows' lengths
// vary (here: most rows short, some empty, one dense), every thread gets the same share of work.
// Runs on the CPU, and on the GPU too when compiled by nvcc and a GPU is present. The tests build
// and run it both ways (mergepath-example-spmv-host, mergepath-example-spmv-gpu).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <mergepath/mergepath.hpp>
#include <random>
#include <vector>

// One term of a row's sum: the nonzero j times the x it multiplies. MERGEPATH_HD makes it callable
// on the GPU when compiled by nvcc (__host__ __device__), and is empty for a plain C++ compiler.
struct csr_term {
  const double* values;
  const int* columns;
  const double* x;
  MERGEPATH_HD double operator()(std::int64_t j) const { return values[j] * x[columns[j]]; }
};

struct csr_matrix {
  int rows = 0, columns = 0;
  std::vector<int> row_offsets;  // row r holds nonzeros [row_offsets[r], row_offsets[r + 1])
  std::vector<int> column_index;
  std::vector<double> values;
  std::int64_t nonzeros() const { return static_cast<std::int64_t>(values.size()); }
};

csr_matrix random_matrix(int rows, int columns) {
  csr_matrix a;
  a.rows = rows, a.columns = columns;
  std::mt19937 rng(2026);
  for (int r = 0; r < rows; ++r) {
    a.row_offsets.push_back(static_cast<int>(a.values.size()));
    int length = r == rows / 2 ? columns : static_cast<int>(rng() % 9);  // one dense row; 0..8 elsewhere
    for (int k = 0; k < length; ++k) {
      a.column_index.push_back(static_cast<int>(rng() % static_cast<unsigned>(columns)));
      a.values.push_back(static_cast<double>(rng() % 100) / 10);
    }
  }
  a.row_offsets.push_back(static_cast<int>(a.values.size()));
  return a;
}

// The textbook loop, to check against.
std::vector<double> spmv_reference(const csr_matrix& a, const std::vector<double>& x) {
  std::vector<double> y(static_cast<std::size_t>(a.rows), 0.0);
  for (int r = 0; r < a.rows; ++r)
    for (int j = a.row_offsets[r]; j < a.row_offsets[r + 1]; ++j) y[r] += a.values[j] * x[a.column_index[j]];
  return y;
}

bool close(const std::vector<double>& got, const std::vector<double>& expected, const char* where) {
  for (std::size_t r = 0; r < got.size(); ++r)
    if (std::abs(got[r] - expected[r]) > 1e-9 * (1 + std::abs(expected[r]))) {
      std::printf("%s: y[%zu] = %g, expected %g   <-- WRONG\n", where, r, got[r], expected[r]);
      return false;
    }
  std::printf("%s: y = A x for %zu rows: y[0..4] = %g %g %g %g %g   ok\n", where, got.size(), got[0], got[1], got[2],
              got[3], got[4]);
  return true;
}

int main() {
  const csr_matrix a = random_matrix(20000, 3000);
  std::vector<double> x(static_cast<std::size_t>(a.columns));
  for (std::size_t c = 0; c < x.size(); ++c) x[c] = 1.0 + static_cast<double>(c % 7);
  const std::vector<double> expected = spmv_reference(a, x);

  // The row offsets without their last entry are the segment starts; the rows are the segments.
  mergepath::host_context cpu;
  std::vector<double> y(static_cast<std::size_t>(a.rows));
  mergepath::transform_segmented_reduce(cpu, csr_term{a.values.data(), a.column_index.data(), x.data()},
                                        a.nonzeros(), a.row_offsets.data(), a.rows, y.data(), 0.0);
  bool ok = close(y, expected, "CPU");

#if MERGEPATH_HAS_CUDA
  if (!mergepath::cuda_available()) {
    std::puts("skipped: no GPU");
    return ok ? 0 : 1;
  }
  // The same on the GPU: the arrays in device memory, the call queued on the context's stream.
  mergepath::cuda_context gpu;
  auto to_device = [&](const auto& host) {
    using T = typename std::decay_t<decltype(host)>::value_type;
    T* p = nullptr;
    MERGEPATH_CUDA_CHECK(cudaMalloc(&p, host.size() * sizeof(T)));
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(p, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice, gpu.stream()));
    return p;
  };
  int* d_offsets = to_device(a.row_offsets);
  int* d_columns = to_device(a.column_index);
  double* d_values = to_device(a.values);
  double* d_x = to_device(x);
  double* d_y = to_device(y);
  mergepath::transform_segmented_reduce(gpu, csr_term{d_values, d_columns, d_x}, a.nonzeros(), d_offsets, a.rows, d_y,
                                        0.0);
  std::vector<double> gpu_y(y.size());
  MERGEPATH_CUDA_CHECK(
      cudaMemcpyAsync(gpu_y.data(), d_y, y.size() * sizeof(double), cudaMemcpyDeviceToHost, gpu.stream()));
  gpu.synchronize();  // throws cuda_error if anything queued failed
  ok &= close(gpu_y, expected, "GPU");
  for (void* p : {static_cast<void*>(d_offsets), static_cast<void*>(d_columns), static_cast<void*>(d_values),
                  static_cast<void*>(d_x), static_cast<void*>(d_y)})
    MERGEPATH_CUDA_CHECK(cudaFree(p));
#endif
  return ok ? 0 : 1;
}
