// The operations, written once over the context type. run_on(tag, call, f) calls f with the
// backend's context (common.hpp for the host, cuda_run.cuh for the GPU, cuda_stub.cpp without
// nvcc); instantiate.hpp instantiates them for one tag.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "common.hpp"

namespace mergepath_py {

namespace mp = mergepath;

template <class Tag>
void merge_op(Tag tag, const call& c, array a, array b, array a_values, array b_values, array out, array out_values,
              bool descending) {
  run_on(tag, c, [&](auto& ctx) {
    with_key_type(a.type, [&](auto k) {
      using K = typename decltype(k)::type;
      with_order<K>(descending, [&](auto comp) {
        if (!a_values.present) {
          mp::merge(ctx, a.as<const K>(), a.size, b.as<const K>(), b.size, out.as<K>(), comp);
          return;
        }
        with_payload_type(a_values.type, [&](auto v) {
          using V = typename decltype(v)::type;
          mp::merge_pairs(ctx, a.as<const K>(), a_values.as<const V>(), a.size, b.as<const K>(), b_values.as<const V>(),
                          b.size, out.as<K>(), out_values.as<V>(), comp);
        });
      });
    });
  });
}

template <class Tag>
void sort_op(Tag tag, const call& c, array keys, array values, array keys_in, array values_in, bool descending,
             bool locality) {
  if (locality && keys_in.present) throw std::logic_error("sort_op: locality_sort sorts in place only");
  run_on(tag, c, [&](auto& ctx) {
    with_key_type(keys.type, [&](auto k) {
      using K = typename decltype(k)::type;
      with_order<K>(descending, [&](auto comp) {
        if (!values.present) {
          if (locality)
            mp::locality_sort(ctx, keys.as<K>(), keys.size, comp);
          else if (keys_in.present)
            mp::sort_copy(ctx, keys_in.as<const K>(), keys.size, keys.as<K>(), comp);
          else
            mp::sort(ctx, keys.as<K>(), keys.size, comp);
          return;
        }
        with_payload_type(values.type, [&](auto v) {
          using V = typename decltype(v)::type;
          if (locality)
            mp::locality_sort_pairs(ctx, keys.as<K>(), values.as<V>(), keys.size, comp);
          else if (keys_in.present)
            mp::sort_pairs_copy(ctx, keys_in.as<const K>(), values_in.as<const V>(), keys.size, keys.as<K>(),
                                values.as<V>(), comp);
          else
            mp::sort_pairs(ctx, keys.as<K>(), values.as<V>(), keys.size, comp);
        });
      });
    });
  });
}

template <class Tag>
void segmented_sort_op(Tag tag, const call& c, array keys, array values, array starts, bool descending) {
  run_on(tag, c, [&](auto& ctx) {
    // The package's starts may repeat (empty segments) and reach count: the C++ heads, as a set of
    // in-range indices, mean the same segments unchecked, but its checked mode wants strictly
    // increasing heads. So check them as load-balancing starts here and sort unchecked.
    if (ctx.checked() && starts.size > 0)
      check_starts(ctx, "segmented_sort", keys.size, starts.as<const std::int64_t>(), starts.size);
    const bool was_checked = ctx.checked();
    ctx.set_checked(false);
    with_key_type(keys.type, [&](auto k) {
      using K = typename decltype(k)::type;
      with_order<K>(descending, [&](auto comp) {
        if (!values.present) {
          mp::segmented_sort(ctx, keys.as<K>(), keys.size, starts.as<const std::int64_t>(), starts.size, comp);
          return;
        }
        with_payload_type(values.type, [&](auto v) {
          using V = typename decltype(v)::type;
          mp::segmented_sort_pairs(ctx, keys.as<K>(), values.as<V>(), keys.size, starts.as<const std::int64_t>(),
                                   starts.size, comp);
        });
      });
    });
    ctx.set_checked(was_checked);
  });
}

template <class Tag>
void searchsorted_op(Tag tag, const call& c, array haystack, array needles, array out, bool right) {
  run_on(tag, c, [&](auto& ctx) {
    with_key_type(haystack.type, [&](auto k) {
      using K = typename decltype(k)::type;
      // Integer keys: less<>, so batch_search sorts the needles with CUB's radix sort.
      ascending_order<K> comp;
      require_sorted(ctx, "searchsorted", "haystack", haystack.as<const K>(), haystack.size, comp);
      with_side(right, [&](auto side) {
        mp::batch_search<decltype(side)::value>(ctx, needles.as<const K>(), needles.size, haystack.as<const K>(),
                                                haystack.size, out.as<std::int64_t>(), comp);
      });
    });
  });
}

template <class Tag>
void sorted_search_op(Tag tag, const call& c, array a, array b, array out, bool right) {
  run_on(tag, c, [&](auto& ctx) {
    with_key_type(a.type, [&](auto k) {
      using K = typename decltype(k)::type;
      ascending_order<K> comp;
      with_side(right, [&](auto side) {
        mp::sorted_search<decltype(side)::value>(ctx, a.as<const K>(), a.size, b.as<const K>(), b.size,
                                                 out.as<std::int64_t>(), comp);
      });
    });
  });
}

template <class Tag>
std::pair<std::int64_t, std::int64_t> sorted_search_matches_op(Tag tag, const call& c, array a, array b, array a_out,
                                                               array b_out, bool right) {
  mp::match_counts counts;
  run_on(tag, c, [&](auto& ctx) {
    with_key_type(a.type, [&](auto k) {
      using K = typename decltype(k)::type;
      ascending_order<K> comp;
      constexpr auto im = mp::search::index_match;
      with_side(right, [&](auto side) {
        counts =
            mp::sorted_search<decltype(side)::value, im, im>(ctx, a.as<const K>(), a.size, b.as<const K>(), b.size,
                                                             a_out.as<std::int64_t>(), b_out.as<std::int64_t>(), comp);
      });
    });
  });
  return {counts.a, counts.b};
}

template <class Tag>
void load_balancing_search_op(Tag tag, const call& c, std::int64_t count, array starts, array out) {
  run_on(tag, c, [&](auto& ctx) {
    mp::load_balancing_search(ctx, count, starts.as<const std::int64_t>(), starts.size, out.as<std::int64_t>());
  });
}

template <class Tag>
void interval_expand_op(Tag tag, const call& c, array values, std::int64_t count, array starts, array out) {
  run_on(tag, c, [&](auto& ctx) {
    with_payload_type(values.type, [&](auto v) {
      using V = typename decltype(v)::type;
      mp::interval_expand(ctx, values.as<const V>(), count, starts.as<const std::int64_t>(), starts.size, out.as<V>());
    });
  });
}

template <class Tag>
void segmented_reduce_op(Tag tag, const call& c, array values, array starts, array out, reduce_op op) {
  run_on(tag, c, [&](auto& ctx) {
    with_key_type(values.type, [&](auto k) {
      using T = typename decltype(k)::type;
      // R: the type of out and of the running value (values are read as R).
      auto reduce = [&](auto result, auto fn) {
        using R = typename decltype(result)::type;
        mp::segmented_reduce(ctx, values.as<const T>(), values.size, starts.as<const std::int64_t>(), starts.size,
                             out.as<R>(), identity_of<R>(op), fn);
      };
      // Integer sums and products in 64 bits, as np.sum (out is int64 or uint64; torch's int64 sum
      // of unsigned values is the same bits).
      using S = sum_type_t<T>;
      switch (op) {
        case reduce_op::sum:
          return reduce(type_tag<S>{}, op_sum<S>{});
        case reduce_op::min:
          return reduce(type_tag<T>{}, op_min<T>{});
        case reduce_op::max:
          return reduce(type_tag<T>{}, op_max<T>{});
        case reduce_op::prod:
          return reduce(type_tag<S>{}, op_prod<S>{});
      }
      throw std::invalid_argument("mergepath: unknown reduction");
    });
  });
}

// An eytzinger_index behind the neutral sorted_index interface. Searching runs on the backend the
// index was built for (Tag), on the call's stream.
template <class Tag, class K>
class sorted_index_impl final : public sorted_index {
 public:
  using index_type = mp::eytzinger_index<K, ascending_order<K>>;
  sorted_index_impl(index_type index, int device) : index_(std::move(index)), device_(device) {}
  void search(const call& c, array needles, array out, bool right) const override {
    run_on(Tag{}, c, [&](auto& ctx) {
      with_side(right, [&](auto side) {
        index_.template search<decltype(side)::value>(ctx, needles.as<const K>(), needles.size, out.as<std::int64_t>());
      });
    });
  }
  std::int64_t size() const override { return index_.size(); }
  dtype type() const override {
    if constexpr (std::is_same_v<K, std::int32_t>) return dtype::int32;
    if constexpr (std::is_same_v<K, std::int64_t>) return dtype::int64;
    if constexpr (std::is_same_v<K, std::uint32_t>) return dtype::uint32;
    if constexpr (std::is_same_v<K, std::uint64_t>) return dtype::uint64;
    if constexpr (std::is_same_v<K, float>) return dtype::float32;
    return dtype::float64;
  }
  int device() const override { return device_; }

 private:
  index_type index_;
  int device_;
};

// build_on(tag, c, f): f(ctx) with the context an index is built on (host: the call's; GPU: a
// context with a stream of its own, so the index outlives the caller's stream).
template <class Tag>
std::unique_ptr<sorted_index> eytzinger_op(Tag tag, const call& c, array sorted) {
  std::unique_ptr<sorted_index> result;
  build_on(tag, c, [&](auto& ctx) {
    with_key_type(sorted.type, [&](auto k) {
      using K = typename decltype(k)::type;
      ascending_order<K> comp;
      require_sorted(ctx, "EytzingerIndex", "sorted_keys", sorted.as<const K>(), sorted.size, comp);
      typename sorted_index_impl<Tag, K>::index_type index(ctx, sorted.as<const K>(), sorted.size, comp);
      result = std::make_unique<sorted_index_impl<Tag, K>>(std::move(index), c.device);
    });
  });
  return result;
}

template <class F>
void build_on(host_tag tag, const call& c, F&& f) {
  run_on(tag, c, std::forward<F>(f));
}

// A join_result behind the neutral join_rows interface.
template <class Ctx>
class join_rows_impl final : public join_rows {
 public:
  join_rows_impl(mp::join_result<Ctx, std::int64_t> rows, bool has_b) : rows_(std::move(rows)), has_b_(has_b) {}
  std::int64_t size() const override { return rows_.size(); }
  bool has_b() const override { return has_b_; }
  std::uintptr_t a_data() const override { return reinterpret_cast<std::uintptr_t>(rows_.a_index()); }
  std::uintptr_t b_data() const override { return has_b_ ? reinterpret_cast<std::uintptr_t>(rows_.b_index()) : 0; }

 private:
  mp::join_result<Ctx, std::int64_t> rows_;
  bool has_b_;
};

// f(std::integral_constant<join_kind, ...>) for the kind named by how.
template <class F>
void with_join_kind(join_how how, F&& f) {
  using mp::join_kind;
  switch (how) {
    case join_how::inner:
      return f(std::integral_constant<join_kind, join_kind::inner>{});
    case join_how::left:
      return f(std::integral_constant<join_kind, join_kind::left>{});
    case join_how::right:
      return f(std::integral_constant<join_kind, join_kind::right>{});
    case join_how::outer:
      return f(std::integral_constant<join_kind, join_kind::full_outer>{});
    case join_how::semi:
      return f(std::integral_constant<join_kind, join_kind::left_semi>{});
    case join_how::anti:
      return f(std::integral_constant<join_kind, join_kind::left_anti>{});
  }
  throw std::invalid_argument("mergepath: unknown join kind " + std::to_string(static_cast<int>(how)));
}

template <class Tag>
std::unique_ptr<join_rows> join_op(Tag tag, const call& c, array a, array b, join_how how, bool assume_sorted) {
  std::unique_ptr<join_rows> result;
  run_on(tag, c, [&](auto& ctx) {
    using Ctx = std::decay_t<decltype(ctx)>;
    with_key_type(a.type, [&](auto k) {
      using K = typename decltype(k)::type;
      // Integer keys: less<>, so sort_merge_join's sorts take CUB's radix sort.
      ascending_order<K> comp;
      with_join_kind(how, [&](auto kind) {
        constexpr mp::join_kind Kind = decltype(kind)::value;
        auto rows =
            assume_sorted
                ? mp::merge_join<Kind, std::int64_t>(ctx, a.as<const K>(), a.size, b.as<const K>(), b.size, comp)
                : mp::sort_merge_join<Kind, std::int64_t>(ctx, a.as<const K>(), a.size, b.as<const K>(), b.size, comp);
        result = std::make_unique<join_rows_impl<Ctx>>(
            std::move(rows), Kind != mp::join_kind::left_semi && Kind != mp::join_kind::left_anti);
      });
    });
  });
  return result;
}

template <class Tag>
std::int64_t set_operation_op(Tag tag, const call& c, set_kind kind, array a, array b, array out) {
  std::int64_t written = 0;
  run_on(tag, c, [&](auto& ctx) {
    with_key_type(a.type, [&](auto k) {
      using K = typename decltype(k)::type;
      ascending_order<K> comp;
      const K* pa = a.as<const K>();
      const K* pb = b.as<const K>();
      K* po = out.as<K>();
      switch (kind) {
        case set_kind::union_:
          written = mp::set_union(ctx, pa, a.size, pb, b.size, po, comp);
          return;
        case set_kind::intersection:
          written = mp::set_intersection(ctx, pa, a.size, pb, b.size, po, comp);
          return;
        case set_kind::difference:
          written = mp::set_difference(ctx, pa, a.size, pb, b.size, po, comp);
          return;
        case set_kind::symmetric_difference:
          written = mp::set_symmetric_difference(ctx, pa, a.size, pb, b.size, po, comp);
          return;
      }
      throw std::invalid_argument("mergepath: unknown set operation " + std::to_string(static_cast<int>(kind)));
    });
  });
  return written;
}

}  // namespace mergepath_py

// Explicit instantiations for one backend tag, in groups, one translation unit each (the GPU
// groups take minutes apiece under nvcc; separate units build in parallel).
#define MERGEPATH_PY_INSTANTIATE_MERGE(Tag) \
  template void mergepath_py::merge_op(Tag, const call&, array, array, array, array, array, array, bool);
#define MERGEPATH_PY_INSTANTIATE_SORT(Tag) \
  template void mergepath_py::sort_op(Tag, const call&, array, array, array, array, bool, bool);
#define MERGEPATH_PY_INSTANTIATE_SEGMENTED_SORT(Tag) \
  template void mergepath_py::segmented_sort_op(Tag, const call&, array, array, array, bool);
#define MERGEPATH_PY_INSTANTIATE_SEARCH(Tag)                                                                        \
  template void mergepath_py::searchsorted_op(Tag, const call&, array, array, array, bool);                         \
  template void mergepath_py::sorted_search_op(Tag, const call&, array, array, array, bool);                        \
  template std::pair<std::int64_t, std::int64_t> mergepath_py::sorted_search_matches_op(Tag, const call&, array,    \
                                                                                        array, array, array, bool); \
  template std::unique_ptr<mergepath_py::sorted_index> mergepath_py::eytzinger_op(Tag, const call&, array);
#define MERGEPATH_PY_INSTANTIATE_LOAD_BALANCE(Tag)                                                     \
  template void mergepath_py::load_balancing_search_op(Tag, const call&, std::int64_t, array, array);  \
  template void mergepath_py::interval_expand_op(Tag, const call&, array, std::int64_t, array, array); \
  template void mergepath_py::segmented_reduce_op(Tag, const call&, array, array, array, reduce_op);
#define MERGEPATH_PY_INSTANTIATE_JOIN(Tag)                                                                          \
  template std::unique_ptr<mergepath_py::join_rows> mergepath_py::join_op(Tag, const call&, array, array, join_how, \
                                                                          bool);
#define MERGEPATH_PY_INSTANTIATE_SET(Tag) \
  template std::int64_t mergepath_py::set_operation_op(Tag, const call&, set_kind, array, array, array);
#define MERGEPATH_PY_INSTANTIATE_ALL(Tag)      \
  MERGEPATH_PY_INSTANTIATE_MERGE(Tag)          \
  MERGEPATH_PY_INSTANTIATE_SORT(Tag)           \
  MERGEPATH_PY_INSTANTIATE_SEGMENTED_SORT(Tag) \
  MERGEPATH_PY_INSTANTIATE_SEARCH(Tag)         \
  MERGEPATH_PY_INSTANTIATE_LOAD_BALANCE(Tag)   \
  MERGEPATH_PY_INSTANTIATE_JOIN(Tag)           \
  MERGEPATH_PY_INSTANTIATE_SET(Tag)
