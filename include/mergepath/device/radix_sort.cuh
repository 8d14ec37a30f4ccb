// CUB's radix sort behind mergepath's contexts: where it orders keys as a comparator does, and
// stable sorts of device arrays, in place or into other arrays, with scratch from the context's pool.
#pragma once

#include <cstdint>
#include <cub/device/device_radix_sort.cuh>
#include <limits>
#include <type_traits>

#include "../context.hpp"
#include "../detail/cub_item_count.hpp"
#include "../error.hpp"
#include "../functional.hpp"

namespace mergepath {
namespace device {

// Whether CUB's radix sort orders T as Comp does: arithmetic keys under less / greater. CUB treats
// -0.0 and +0.0 as equal, as less<> does; NaNs (which no strict weak order holds) go by their bits.
template <class T, class Comp>
constexpr bool radix_sortable = std::is_arithmetic_v<T> && !std::is_same_v<T, bool> &&
                                (std::is_same_v<Comp, less<>> || std::is_same_v<Comp, less<T>> ||
                                 std::is_same_v<Comp, greater<>> || std::is_same_v<Comp, greater<T>>);

template <class Key, class Comp>
constexpr bool radix_descending = std::is_same_v<Comp, greater<>> || std::is_same_v<Comp, greater<Key>>;

// One CUB radix sort over all of Key's bits: its size query, scratch from the context's pool, the
// sort. Args are SortKeys' or SortPairs' arguments between the scratch and the item count. The
// arguments go by reference: CUB flips a DoubleBuffer's selector to where the sorted keys ended.
template <class Key, bool Descending, bool HasValues, class... Args>
void run_cub_radix_sort(cuda_context& ctx, index_t count, Args&... args) {
  constexpr int end_bit = static_cast<int>(sizeof(Key) * 8);
  auto sort = [&](void* temp, std::size_t& bytes, auto n) {
    if constexpr (HasValues && Descending)
      return cub::DeviceRadixSort::SortPairsDescending(temp, bytes, args..., n, 0, end_bit, ctx.stream());
    else if constexpr (HasValues)
      return cub::DeviceRadixSort::SortPairs(temp, bytes, args..., n, 0, end_bit, ctx.stream());
    else if constexpr (Descending)
      return cub::DeviceRadixSort::SortKeysDescending(temp, bytes, args..., n, 0, end_bit, ctx.stream());
    else
      return cub::DeviceRadixSort::SortKeys(temp, bytes, args..., n, 0, end_bit, ctx.stream());
  };
  with_cub_item_count(count, [&](auto n) {
    std::size_t bytes = 0;
    MERGEPATH_CUDA_CHECK(sort(nullptr, bytes, n));
    auto temp = ctx.allocate<unsigned char>(static_cast<index_t>(bytes));
    MERGEPATH_CUDA_CHECK(sort(temp.data(), bytes, n));
  });
}

// keys[0, count) (and vals with them, unless Val is void) sorted stably in place. The passes
// ping-pong between keys and a scratch array; an odd number of them ends with a copy back.
template <class Comp, class Key, class Val = void>
void radix_sort_in_place(cuda_context& ctx, Key* keys, Val* vals, index_t count) {
  static_assert(radix_sortable<Key, Comp>, "radix_sort_in_place: keys CUB does not order as Comp");
  constexpr bool has_values = !std::is_void_v<Val>;
  if (count <= 1) return;
  auto key_scratch = ctx.allocate<Key>(count);
  cub::DoubleBuffer<Key> key_buffers(keys, key_scratch.data());
  if constexpr (has_values) {
    auto val_scratch = ctx.allocate<Val>(count);
    cub::DoubleBuffer<Val> val_buffers(vals, val_scratch.data());
    run_cub_radix_sort<Key, radix_descending<Key, Comp>, true>(ctx, count, key_buffers, val_buffers);
    if (val_buffers.Current() != vals)
      MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(vals, val_buffers.Current(), sizeof(Val) * count,
                                           cudaMemcpyDeviceToDevice, ctx.stream()));
  } else {
    run_cub_radix_sort<Key, radix_descending<Key, Comp>, false>(ctx, count, key_buffers);
  }
  if (key_buffers.Current() != keys)
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(keys, key_buffers.Current(), sizeof(Key) * count, cudaMemcpyDeviceToDevice,
                                         ctx.stream()));
}

// keys_out[0, count) = keys_in sorted stably (vals_out with them, unless Val is void), the inputs
// untouched: CUB's passes end in the outputs, so nothing is copied back. Outputs equal to the
// inputs sort in place; outputs that overlap them otherwise are not allowed.
template <class Comp, class Key, class Val = void>
void radix_sort_copy(cuda_context& ctx, const Key* keys_in, const Val* vals_in, Key* keys_out, Val* vals_out,
                     index_t count) {
  static_assert(radix_sortable<Key, Comp>, "radix_sort_copy: keys CUB does not order as Comp");
  constexpr bool has_values = !std::is_void_v<Val>;
  if (keys_in == keys_out && (!has_values || vals_in == vals_out)) {
    radix_sort_in_place<Comp>(ctx, keys_out, vals_out, count);
  } else if (count == 1) {
    MERGEPATH_CUDA_CHECK(
        cudaMemcpyAsync(keys_out, keys_in, sizeof(Key), cudaMemcpyDeviceToDevice, ctx.stream()));
    if constexpr (has_values)
      MERGEPATH_CUDA_CHECK(
          cudaMemcpyAsync(vals_out, vals_in, sizeof(Val), cudaMemcpyDeviceToDevice, ctx.stream()));
  } else if (count > 1) {
    if constexpr (has_values)
      run_cub_radix_sort<Key, radix_descending<Key, Comp>, true>(ctx, count, keys_in, keys_out, vals_in, vals_out);
    else
      run_cub_radix_sort<Key, radix_descending<Key, Comp>, false>(ctx, count, keys_in, keys_out);
  }
}

}  // namespace device
}  // namespace mergepath
