// GPU test helpers: the fixture that skips without a GPU, a small owning device buffer, and the
// checked runs of a GPU merge (poisoned output, guard elements, std::merge as the oracle) and of
// a GPU sort (poisoned guards either side, std::stable_sort as the oracle).
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <mergepath/mergepath.hpp>
#include <vector>

#include "sort_util.hpp"
#include "test_util.hpp"

namespace mergepath_test {

// Every GPU test derives from this: without a usable GPU and driver it is skipped, not passed.
class gpu_test : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!mergepath::cuda_available()) GTEST_SKIP() << "no GPU";
  }
};

// cudaMalloc'ed memory for `count` elements. Every transfer has finished when a call returns, so
// tests whose contexts borrow non-blocking streams need no ordering of their own.
template <class T>
class device_vector {
 public:
  explicit device_vector(std::size_t count) : size_(count) {
    if (count > 0) MERGEPATH_CUDA_CHECK(cudaMalloc(&data_, count * sizeof(T)));
  }
  explicit device_vector(const std::vector<T>& host) : device_vector(host.size()) { upload(host); }
  device_vector(const device_vector&) = delete;
  device_vector& operator=(const device_vector&) = delete;
  ~device_vector() {
    if (data_) (void)cudaFree(data_);
  }

  T* data() const { return data_; }
  std::size_t size() const { return size_; }

  // this[offset, offset + host.size()) = host
  void upload(const std::vector<T>& host, std::size_t offset = 0) {
    if (host.empty()) return;
    MERGEPATH_CUDA_CHECK(cudaMemcpy(data_ + offset, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
    MERGEPATH_CUDA_CHECK(cudaDeviceSynchronize());
  }
  // Waits for all work on the device first.
  std::vector<T> download() const {
    MERGEPATH_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<T> host(size_);
    if (size_ > 0) MERGEPATH_CUDA_CHECK(cudaMemcpy(host.data(), data_, size_ * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
  }
  // Every byte 0xA5, as poison<T>() (test_util.hpp).
  void fill_poison() {
    if (size_ > 0) MERGEPATH_CUDA_CHECK(cudaMemset(data_, 0xA5, size_ * sizeof(T)));
    MERGEPATH_CUDA_CHECK(cudaDeviceSynchronize());
  }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

// Runs `merge(ctx, a, a_count, b, b_count, out)` on device copies of in.a and in.b, into an
// output poisoned beforehand and followed by guard elements, and checks that it equals
// std::merge, every element was written and nothing after the end was.
template <class Key, class Comp, class Merge>
void check_gpu_merge(mergepath::cuda_context& ctx, const merge_input<Key>& in, Comp comp, Merge merge) {
  std::vector<Key> expected = std_merge(in.a, in.b, comp);
  device_vector<Key> a(in.a), b(in.b), out(expected.size() + guard_items);
  out.fill_poison();
  merge(ctx, a.data(), static_cast<index_t>(in.a.size()), b.data(), static_cast<index_t>(in.b.size()), out.data());
  ctx.synchronize();
  std::vector<Key> got = out.download();
  ASSERT_TRUE(ranges_equal(expected, got));
  ASSERT_TRUE(untouched(got, expected.size(), got.size()));
}

// The same for `merge_pairs(ctx, a_keys, a_vals, a_count, b_keys, b_vals, b_count, out_keys,
// out_vals)`, with values that record each element's origin: stability shows in them.
template <class Key, class Value, class Comp, class MergePairs>
void check_gpu_merge_pairs(mergepath::cuda_context& ctx, const merge_input<Key>& in, Comp comp,
                           MergePairs merge_pairs) {
  index_t a_count = static_cast<index_t>(in.a.size()), b_count = static_cast<index_t>(in.b.size());
  std::vector<Value> a_vals = origins<Value>(a_count, 0), b_vals = origins<Value>(b_count, a_count);
  auto expected = std_merge_pairs(in.a, a_vals, in.b, b_vals, comp);
  std::size_t total = expected.first.size();
  device_vector<Key> a(in.a), b(in.b), keys(total + guard_items);
  device_vector<Value> av(a_vals), bv(b_vals), vals(total + guard_items);
  keys.fill_poison();
  vals.fill_poison();
  merge_pairs(ctx, a.data(), av.data(), a_count, b.data(), bv.data(), b_count, keys.data(), vals.data());
  ctx.synchronize();
  std::vector<Key> got_keys = keys.download();
  std::vector<Value> got_vals = vals.download();
  ASSERT_TRUE(ranges_equal(expected.first, got_keys));
  ASSERT_TRUE(ranges_equal(expected.second, got_vals));
  ASSERT_TRUE(untouched(got_keys, total, got_keys.size()));
  ASSERT_TRUE(untouched(got_vals, total, got_vals.size()));
}

// mergepath::merge and merge_pairs (int values), default tunings, both checked as above.
template <class Key, class Comp>
void check_default_merges(mergepath::cuda_context& ctx, const merge_input<Key>& in, Comp comp) {
  ASSERT_NO_FATAL_FAILURE(
      check_gpu_merge(ctx, in, comp, [](auto& ctx, auto a, index_t na, auto b, index_t nb, auto out) {
        mergepath::merge(ctx, a, na, b, nb, out, Comp{});
      }));
  ASSERT_NO_FATAL_FAILURE((check_gpu_merge_pairs<Key, int>(
      ctx, in, comp, [](auto& ctx, auto ak, auto av, index_t na, auto bk, auto bv, index_t nb, auto ok, auto ov) {
        mergepath::merge_pairs(ctx, ak, av, na, bk, bv, nb, ok, ov, Comp{});
      })));
}

// Sorts a device copy of keys, between poisoned guards, with sort(ctx, keys, count), and checks
// that it equals std::stable_sort and that the guards are untouched.
template <class Key, class Comp, class Sort>
void check_gpu_sort(mergepath::cuda_context& ctx, const std::vector<Key>& keys, Comp comp, Sort sort) {
  device_vector<Key> data(guarded(keys));
  sort(ctx, data.data() + guard_items, static_cast<index_t>(keys.size()));
  ctx.synchronize();
  ASSERT_TRUE(guarded_equal(std_stable_sort(keys, comp), data.download()));
}

// The same for sort_pairs(ctx, keys, vals, count), with values that record each key's origin:
// stability shows in them.
template <class Key, class Value, class Comp, class SortPairs>
void check_gpu_sort_pairs(mergepath::cuda_context& ctx, const std::vector<Key>& keys, Comp comp, SortPairs sort_pairs) {
  const index_t count = static_cast<index_t>(keys.size());
  device_vector<Key> data_keys(guarded(keys));
  device_vector<Value> data_vals(guarded(origins<Value>(count, 0)));
  sort_pairs(ctx, data_keys.data() + guard_items, data_vals.data() + guard_items, count);
  ctx.synchronize();
  auto expected = std_stable_sort_pairs<Key, Value>(keys, comp);
  ASSERT_TRUE(guarded_equal(expected.first, data_keys.download()));
  ASSERT_TRUE(guarded_equal(expected.second, data_vals.download()));
}

// The same for sort_copy(ctx, keys_in, count, keys_out): the result in a guarded output of
// poison, the input untouched.
template <class Key, class Comp, class SortCopy>
void check_gpu_sort_copy(mergepath::cuda_context& ctx, const std::vector<Key>& keys, Comp comp, SortCopy sort_copy) {
  const index_t count = static_cast<index_t>(keys.size());
  device_vector<Key> in(guarded(keys)), out(guarded(std::vector<Key>(keys.size(), poison<Key>())));
  sort_copy(ctx, static_cast<const Key*>(in.data() + guard_items), count, out.data() + guard_items);
  ctx.synchronize();
  ASSERT_TRUE(guarded_equal(std_stable_sort(keys, comp), out.download()));
  ASSERT_TRUE(guarded_equal(keys, in.download()));
}

// The same for sort_pairs_copy(ctx, keys_in, vals_in, count, keys_out, vals_out).
template <class Key, class Value, class Comp, class SortPairsCopy>
void check_gpu_sort_pairs_copy(mergepath::cuda_context& ctx, const std::vector<Key>& keys, Comp comp,
                               SortPairsCopy sort_pairs_copy) {
  const index_t count = static_cast<index_t>(keys.size());
  const std::vector<Value> origin = origins<Value>(count, 0);
  device_vector<Key> keys_in(guarded(keys)), keys_out(guarded(std::vector<Key>(keys.size(), poison<Key>())));
  device_vector<Value> vals_in(guarded(origin)), vals_out(guarded(std::vector<Value>(keys.size(), poison<Value>())));
  sort_pairs_copy(ctx, static_cast<const Key*>(keys_in.data() + guard_items),
                  static_cast<const Value*>(vals_in.data() + guard_items), count, keys_out.data() + guard_items,
                  vals_out.data() + guard_items);
  ctx.synchronize();
  auto expected = std_stable_sort_pairs<Key, Value>(keys, comp);
  ASSERT_TRUE(guarded_equal(expected.first, keys_out.download()));
  ASSERT_TRUE(guarded_equal(expected.second, vals_out.download()));
  ASSERT_TRUE(guarded_equal(keys, keys_in.download()));
  ASSERT_TRUE(guarded_equal(origin, vals_in.download()));
}

}  // namespace mergepath_test
