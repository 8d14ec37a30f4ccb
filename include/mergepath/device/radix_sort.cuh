// CUB's radix sort behind mergepath's contexts: where it orders keys as a comparator does, and an
// in-place stable sort of device arrays with scratch from the context's pool.
#pragma once

#include <cub/device/device_radix_sort.cuh>
#include <type_traits>

#include "../context.hpp"
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

// keys[0, count) (and vals with them, unless Val is void) sorted stably in place. The passes
// ping-pong between keys and a scratch array; an odd number of them ends with a copy back.
template <class Comp, class Key, class Val = void>
void radix_sort_in_place(cuda_context& ctx, Key* keys, Val* vals, index_t count) {
  static_assert(radix_sortable<Key, Comp>, "radix_sort_in_place: keys CUB does not order as Comp");
  constexpr bool descending = std::is_same_v<Comp, greater<>> || std::is_same_v<Comp, greater<Key>>;
  constexpr bool has_values = !std::is_void_v<Val>;
  if (count <= 1) return;
  auto key_scratch = ctx.allocate<Key>(count);
  cub::DoubleBuffer<Key> key_buffers(keys, key_scratch.data());
  using Stored = std::conditional_t<has_values, Val, char>;
  temp_buffer<Stored> val_scratch;
  Stored* val_data = nullptr;
  if constexpr (has_values) {
    val_scratch = ctx.allocate<Val>(count);
    val_data = vals;
  }
  cub::DoubleBuffer<Stored> val_buffers(val_data, val_scratch.data());
  // CUB counts items in an int64 for these overloads (offsets past 2^31 work).
  const auto n = static_cast<std::int64_t>(count);
  constexpr int end_bit = static_cast<int>(sizeof(Key) * 8);
  auto sort = [&](void* temp, std::size_t& bytes) {
    if constexpr (has_values && descending)
      return cub::DeviceRadixSort::SortPairsDescending(temp, bytes, key_buffers, val_buffers, n, 0, end_bit,
                                                       ctx.stream());
    else if constexpr (has_values)
      return cub::DeviceRadixSort::SortPairs(temp, bytes, key_buffers, val_buffers, n, 0, end_bit, ctx.stream());
    else if constexpr (descending)
      return cub::DeviceRadixSort::SortKeysDescending(temp, bytes, key_buffers, n, 0, end_bit, ctx.stream());
    else
      return cub::DeviceRadixSort::SortKeys(temp, bytes, key_buffers, n, 0, end_bit, ctx.stream());
  };
  std::size_t bytes = 0;
  MERGEPATH_CUDA_CHECK(sort(nullptr, bytes));
  auto temp = ctx.allocate<unsigned char>(static_cast<index_t>(bytes));
  MERGEPATH_CUDA_CHECK(sort(temp.data(), bytes));
  if (key_buffers.Current() != keys)
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(keys, key_buffers.Current(), sizeof(Key) * count, cudaMemcpyDeviceToDevice,
                                         ctx.stream()));
  if constexpr (has_values) {
    if (val_buffers.Current() != vals)
      MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(vals, val_buffers.Current(), sizeof(Val) * count,
                                           cudaMemcpyDeviceToDevice, ctx.stream()));
  }
}

}  // namespace device
}  // namespace mergepath
