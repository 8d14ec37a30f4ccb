// eytzinger_index: sorted keys laid out once in Eytzinger order (eytzinger_layout), then searched
// many times. view() is a trivially copyable handle whose lower_bound / upper_bound run on the
// host or, for an index built on a cuda_context, inside the caller's own kernels:
//
//   mergepath::eytzinger_index<int> index(gpu, sorted_keys, n);   // device pointer in, device tree
//   auto view = index.view();                                    // pass by value to a kernel
//   __device__: mergepath::index_t i = view.lower_bound(x);      // == std::lower_bound's index
//
// Results are indices into the sorted order, equal to binary_search's on the sorted keys.
#pragma once

#include <type_traits>
#include <vector>

#include "binary_search.hpp"
#include "context.hpp"
#include "error.hpp"
#include "functional.hpp"
#include "thread/binary_search.hpp"

namespace mergepath {

template <class Key, class Comp = less<>>
struct eytzinger_view {
  const Key* tree = nullptr;  // count keys in Eytzinger order
  index_t count = 0;
  Comp comp{};

  template <class T>
  MERGEPATH_HD index_t lower_bound(const T& x) const {
    return eytzinger_search_bound<bounds::lower>(tree, count, x, comp);
  }
  template <class T>
  MERGEPATH_HD index_t upper_bound(const T& x) const {
    return eytzinger_search_bound<bounds::upper>(tree, count, x, comp);
  }
};

template <class Key, class Comp = less<>>
class eytzinger_index {
  static_assert(std::is_trivially_copyable_v<Key>, "eytzinger_index keys must be trivially copyable");

 public:
  // From sorted[0, count) in host memory; the tree lives in host memory.
  eytzinger_index(host_context& ctx, const Key* sorted, index_t count, Comp comp = {})
      : host_tree_(static_cast<std::size_t>(count > 0 ? count : 0)), count_(count), comp_(comp) {
    eytzinger_layout(ctx, sorted, count, host_tree_.data(), comp);
    tree_ = host_tree_.data();
  }

#if MERGEPATH_HAS_CUDA
  // From sorted[0, count) in device memory; the tree lives in device memory from ctx's pool, and
  // is ready in stream order on ctx.stream().
  eytzinger_index(cuda_context& ctx, const Key* sorted, index_t count, Comp comp = {})
      : device_tree_(ctx.allocate<Key>(count > 0 ? count : 0)), on_device_(true), count_(count), comp_(comp) {
    eytzinger_layout(ctx, sorted, count, device_tree_.data(), comp);
    tree_ = device_tree_.data();
  }
#endif

  // Move-only: a view points into the index's own storage (which a move carries along).
  eytzinger_index(const eytzinger_index&) = delete;
  eytzinger_index& operator=(const eytzinger_index&) = delete;
  eytzinger_index(eytzinger_index&&) noexcept = default;
  eytzinger_index& operator=(eytzinger_index&&) noexcept = default;

  eytzinger_view<Key, Comp> view() const { return {tree_, count_, comp_}; }
  index_t size() const { return count_; }
  const Key* tree() const { return tree_; }
  bool on_device() const { return on_device_; }

  // out[i] = the bound of needles[i] (eytzinger_search on this tree). The context must be of the
  // kind the index was built on.
  template <bounds Bounds = bounds::lower, class NeedleIt, class OutIt>
  void search(host_context& ctx, NeedleIt needles, index_t needle_count, OutIt out) const {
    detail::require(!on_device_, "eytzinger_index::search", "the index lives on the GPU: search with a cuda_context");
    eytzinger_search<Bounds>(ctx, needles, needle_count, tree_, count_, out, comp_);
  }
#if MERGEPATH_HAS_CUDA
  template <bounds Bounds = bounds::lower, class NeedleIt, class OutIt>
  void search(cuda_context& ctx, NeedleIt needles, index_t needle_count, OutIt out) const {
    detail::require(on_device_, "eytzinger_index::search", "the index lives on the host: search with a host_context");
    eytzinger_search<Bounds>(ctx, needles, needle_count, tree_, count_, out, comp_);
  }
#endif

 private:
  std::vector<Key> host_tree_;
#if MERGEPATH_HAS_CUDA
  temp_buffer<Key> device_tree_;
#endif
  bool on_device_ = false;
  const Key* tree_ = nullptr;
  index_t count_ = 0;
  Comp comp_;
};

}  // namespace mergepath
