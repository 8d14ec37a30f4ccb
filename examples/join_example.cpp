// Joins and set operations on the CPU (and on the GPU too when compiled by nvcc and a GPU is
// present): orders joined to customers, unsorted (sort_merge_join) and sorted (merge_join, a left
// join); set_intersection and set_difference of two sorted multisets. Each result is checked
// against the values written here. The tests build and run it both ways
// (mergepath-example-join-host, mergepath-example-join-gpu). docs/join.md and
// docs/set_operations.md quote it.
#include <cstdint>
#include <cstdio>
#include <mergepath/mergepath.hpp>
#include <vector>

#if MERGEPATH_HAS_CUDA
#include <cuda_runtime.h>
#endif

namespace {

int failures = 0;
void check(bool ok, const char* what) {
  if (!ok) std::printf("FAILED: %s\n", what), ++failures;
}

// Where the backend computes: host vectors on the CPU, device copies on the GPU.
template <class Ctx>
struct where;
template <>
struct where<mergepath::host_context> {
  template <class T>
  static std::vector<T> to(const std::vector<T>& v) {
    return v;
  }
  template <class T>
  static std::vector<T> back(const T* p, std::int64_t n) {
    return std::vector<T>(p, p + n);
  }
  template <class T>
  static T* data(std::vector<T>& v) {
    return v.data();
  }
};

template <class Ctx, class Buffers>
void run(Ctx& ctx, Buffers& on) {
  // [join]
  // Orders by customer id, in any order; customers by id (customer 7 has no orders).
  std::vector<int> order_customer = {4, 1, 7, 1, 9};
  std::vector<int> customer_id = {1, 4, 7, 8};
  auto a = on.to(order_customer), b = on.to(customer_id);
  auto inner = mergepath::sort_merge_join<mergepath::join_kind::inner, std::int32_t>(ctx, on.data(a), 5, on.data(b), 4);
  // (order, customer) rows by customer id, then order: (1, 0) (3, 0) (0, 1) (2, 2)
  check(on.back(inner.a_index(), inner.size()) == std::vector<std::int32_t>{1, 3, 0, 2}, "inner a_index");
  check(on.back(inner.b_index(), inner.size()) == std::vector<std::int32_t>{0, 0, 1, 2}, "inner b_index");

  // Sorted keys: merge_join. A left join keeps the order without a customer, with -1.
  std::vector<int> sorted_orders = {1, 1, 4, 7, 9};
  auto s = on.to(sorted_orders);
  auto left = mergepath::merge_join<mergepath::join_kind::left, std::int32_t>(ctx, on.data(s), 5, on.data(b), 4);
  check(on.back(left.b_index(), left.size()) == std::vector<std::int32_t>{0, 0, 1, 2, -1}, "left b_index");
  // [join]

  // [set_operations]
  std::vector<int> x = {1, 2, 2, 2, 5}, y = {2, 2, 3, 5, 5};
  auto dx = on.to(x), dy = on.to(y);
  auto out = on.to(std::vector<int>(10));
  std::int64_t n = mergepath::set_intersection(ctx, on.data(dx), 5, on.data(dy), 5, on.data(out));
  check(on.back(on.data(out), n) == std::vector<int>{2, 2, 5}, "set_intersection");  // min(m, n) copies, from x
  n = mergepath::set_difference(ctx, on.data(dx), 5, on.data(dy), 5, on.data(out));
  check(on.back(on.data(out), n) == std::vector<int>{1, 2}, "set_difference");  // x's last m - n copies
  // [set_operations]
}

#if MERGEPATH_HAS_CUDA
template <class T>
struct device_array {
  T* p = nullptr;
  std::int64_t n = 0;
  device_array(const device_array&) = delete;
  device_array(device_array&& o) noexcept : p(o.p), n(o.n) { o.p = nullptr; }
  explicit device_array(const std::vector<T>& v) : n(static_cast<std::int64_t>(v.size())) {
    MERGEPATH_CUDA_CHECK(cudaMalloc(&p, v.size() * sizeof(T) + 1));
    MERGEPATH_CUDA_CHECK(cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  ~device_array() { (void)cudaFree(p); }
};
struct on_gpu {
  mergepath::cuda_context* ctx;
  template <class T>
  device_array<T> to(const std::vector<T>& v) {
    return device_array<T>(v);
  }
  template <class T>
  std::vector<T> back(const T* p, std::int64_t n) {
    ctx->synchronize();  // the join's rows are written asynchronously
    std::vector<T> v(static_cast<std::size_t>(n));
    if (n > 0) MERGEPATH_CUDA_CHECK(cudaMemcpy(v.data(), p, v.size() * sizeof(T), cudaMemcpyDeviceToHost));
    return v;
  }
  template <class T>
  T* data(device_array<T>& v) {
    return v.p;
  }
};
#endif

}  // namespace

int main() {
  mergepath::host_context cpu;
  where<mergepath::host_context> on_cpu;
  run(cpu, on_cpu);
#if MERGEPATH_HAS_CUDA
  if (!mergepath::cuda_available()) {
    std::printf("skipped: no GPU\n");
    return failures == 0 ? 0 : 1;
  }
  mergepath::cuda_context gpu;
  on_gpu on{&gpu};
  run(gpu, on);
#endif
  std::printf(failures == 0 ? "join example: all results as expected\n" : "join example: %d failures\n", failures);
  return failures == 0 ? 0 : 1;
}
