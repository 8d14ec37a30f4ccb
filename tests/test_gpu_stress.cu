// Stress (CTest label `stress`, with `gpu`): every GPU call whose blocks talk to one another
// (decoupled look-backs, hand-ons between blocks, atomics, chains of programmatic dependent
// launches) run hundreds of times at sizes around tile multiples (k * tile - 1, k * tile,
// k * tile + 1, for grids below, at and past the blocks resident at once), in sequences of
// different calls launched back to back, on one context and on two streams, each result compared
// with the host backend. The sanitizers serialize blocks and cannot see these races; only repeated
// runs can. MERGEPATH_STRESS_RUNS sets the runs per call (default 200);
// MERGEPATH_STRESS_NONBLOCKING=1 builds the user-copy contexts on non-blocking streams, as the
// default cuda_context did before it shared the legacy stream's order (the cause of issue 67's
// unwritten and stale results): the user-copy tests then fail.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <functional>
#include <memory>
#include <mergepath/mergepath.hpp>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "gpu_util.cuh"

namespace {

using mergepath::index_t;
using mergepath_test::gpu_test;

// How a job's data reaches the device and comes back: plain cudaMemcpy on the legacy default
// stream with no synchronization (what a new user writes), or asynchronous copies on the
// context's stream followed by ctx.synchronize().
enum class copies { legacy, on_stream };

// Device memory a user allocated with cudaMalloc.
template <class T>
class user_buffer {
 public:
  user_buffer(std::size_t count, mergepath::cuda_context& ctx, copies how) : size_(count), ctx_(&ctx), how_(how) {
    if (count > 0) MERGEPATH_CUDA_CHECK(cudaMalloc(&data_, count * sizeof(T)));
  }
  user_buffer(const std::vector<T>& host, mergepath::cuda_context& ctx, copies how)
      : user_buffer(host.size(), ctx, how) {
    upload(host);
  }
  user_buffer(user_buffer&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), size_(o.size_), ctx_(o.ctx_), how_(o.how_) {}
  user_buffer(const user_buffer&) = delete;
  user_buffer& operator=(const user_buffer&) = delete;
  ~user_buffer() {
    if (data_) (void)cudaFree(data_);
  }
  T* data() const { return data_; }

  void upload(const std::vector<T>& host) {
    if (host.empty()) return;
    const std::size_t bytes = host.size() * sizeof(T);
    if (how_ == copies::legacy)
      MERGEPATH_CUDA_CHECK(cudaMemcpy(data_, host.data(), bytes, cudaMemcpyHostToDevice));
    else
      MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(data_, host.data(), bytes, cudaMemcpyHostToDevice, ctx_->stream()));
  }
  // The first n elements (all by default).
  std::vector<T> download(std::size_t n = ~std::size_t{0}) const {
    n = std::min(n, size_);
    std::vector<T> host(n);
    if (n == 0) return host;
    if (how_ == copies::legacy) {
      MERGEPATH_CUDA_CHECK(cudaMemcpy(host.data(), data_, n * sizeof(T), cudaMemcpyDeviceToHost));
    } else {
      MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(host.data(), data_, n * sizeof(T), cudaMemcpyDeviceToHost, ctx_->stream()));
      ctx_->synchronize();
    }
    return host;
  }

 private:
  T* data_ = nullptr;
  std::size_t size_;
  mergepath::cuda_context* ctx_;
  copies how_;
};

// A device array of n elements copied back after a join (the result owns its rows).
template <class T>
std::vector<T> copy_back(const T* device, index_t n, mergepath::cuda_context& ctx, copies how) {
  std::vector<T> host(static_cast<std::size_t>(n));
  if (n == 0) return host;
  if (how == copies::legacy) {
    MERGEPATH_CUDA_CHECK(cudaMemcpy(host.data(), device, n * sizeof(T), cudaMemcpyDeviceToHost));
  } else {
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(host.data(), device, n * sizeof(T), cudaMemcpyDeviceToHost, ctx.stream()));
    ctx.synchronize();
  }
  return host;
}

// A non-commutative associative op: composition of affine maps x -> a x + b (mod 2^32), f then g.
struct affine {
  unsigned a, b;
  bool operator==(const affine& o) const { return a == o.a && b == o.b; }
};
struct compose {
  MERGEPATH_HD affine operator()(const affine& f, const affine& g) const { return {g.a * f.a, g.a * f.b + g.b}; }
};

template <class T>
std::string first_difference(const char* what, const std::vector<T>& expected, const std::vector<T>& got) {
  if (expected.size() != got.size())
    return std::string(what) + ": " + std::to_string(got.size()) + " elements, expected " +
           std::to_string(expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i)
    if (!(expected[i] == got[i])) return std::string(what) + ": first difference at " + std::to_string(i);
  return {};
}

// One call: its inputs uploaded when made, launched later (back to back with others), then
// checked against the host backend's result ("" when right).
struct job {
  std::string what;
  std::function<void()> launch;
  std::function<std::string()> check;
};

enum class call {
  merge,
  merge_pairs,
  mergesort_pairs,
  sort_radix,
  sort_pairs_int64,
  sorted_search,
  sorted_search_matches,
  load_balancing_search,
  interval_expand,
  interval_gather,
  interval_scatter,
  interval_move,
  segmented_reduce_sum,
  segmented_reduce_affine,
  merge_join,
  sort_merge_join,
  set_operation,
  set_union_by_key,
  segmented_sort_pairs,
  merge_pairs_float,
  mergesort_pairs_nan,
  segmented_sort_pairs_float,
  count
};
const char* const call_names[] = {"merge",
                                  "merge_pairs",
                                  "mergesort_pairs",
                                  "sort (radix)",
                                  "sort_pairs (int64)",
                                  "sorted_search",
                                  "sorted_search (matches)",
                                  "load_balancing_search",
                                  "interval_expand",
                                  "interval_gather",
                                  "interval_scatter",
                                  "interval_move",
                                  "segmented_reduce (sum)",
                                  "segmented_reduce (affine)",
                                  "merge_join",
                                  "sort_merge_join",
                                  "set operation",
                                  "set_union_by_key",
                                  "segmented_sort_pairs",
                                  "merge_pairs (float: checked splits)",
                                  "mergesort_pairs (double with NaNs: repaired splits)",
                                  "segmented_sort_pairs (float: checked splits)"};
static_assert(sizeof(call_names) / sizeof(call_names[0]) == static_cast<int>(call::count));

// The tile (items a block takes) and block size of the kernel that talks between blocks.
struct tile_shape {
  index_t items;
  int block_threads;
};
tile_shape shape_of(call c) {
  using namespace mergepath;
  switch (c) {
    case call::merge:
      return {default_merge_policy<int>::tuning.tile_items(), default_merge_policy<int>::tuning.block_threads};
    case call::merge_pairs:
      return {default_merge_policy<int, int>::tuning.tile_items(),
              default_merge_policy<int, int>::tuning.block_threads};
    case call::mergesort_pairs:
    case call::sort_pairs_int64:
    case call::sort_radix:
      return {default_mergesort_policy<int, int>::tuning.blocksort.tile_items(),
              default_mergesort_policy<int, int>::tuning.blocksort.block_threads};
    case call::sorted_search:
    case call::sorted_search_matches:
    case call::merge_join:
    case call::sort_merge_join:
      return {default_sorted_search_policy<int>::tuning.tile_items(),
              default_sorted_search_policy<int>::tuning.block_threads};
    case call::load_balancing_search:
      return {load_balancing_search_tuning.tile_items(), load_balancing_search_tuning.block_threads};
    case call::interval_expand:
      return {interval_expand_tuning.tile_items(), interval_expand_tuning.block_threads};
    case call::interval_gather:
    case call::interval_scatter:
    case call::interval_move:
      return {default_transform_lbs_tuning.tile_items(), default_transform_lbs_tuning.block_threads};
    case call::segmented_reduce_sum:
    case call::segmented_reduce_affine:
      return {segmented_reduce_tuning_for(8).tile_items(), segmented_reduce_tuning_for(8).block_threads};
    case call::set_operation:
      return {set_operation_tuning_for(set_op::union_, 4).tile_span(),
              set_operation_tuning_for(set_op::union_, 4).block_threads};
    case call::set_union_by_key:
      return {set_operation_tuning_for(set_op::union_, 4, true).tile_span(),
              set_operation_tuning_for(set_op::union_, 4, true).block_threads};
    case call::segmented_sort_pairs:
      return {default_segmented_sort_policy<int, int>::tuning.blocksort.tile_items(),
              default_segmented_sort_policy<int, int>::tuning.blocksort.block_threads};
    case call::merge_pairs_float:
      return {default_merge_policy<float, int>::tuning.tile_items(),
              default_merge_policy<float, int>::tuning.block_threads};
    case call::mergesort_pairs_nan:
      return {default_mergesort_policy<double, int>::tuning.merge.tile_items(),
              default_mergesort_policy<double, int>::tuning.merge.block_threads};
    case call::segmented_sort_pairs_float:
      return {default_segmented_sort_policy<float, int>::tuning.merge.tile_items(),
              default_segmented_sort_policy<float, int>::tuning.merge.block_threads};
    default:
      return {1024, 256};
  }
}

// A size around a tile multiple: k tiles - 1, + 0 or + 1, for k that gives a grid below one block
// per SM, around one wave, a few waves, or the blocks the SMs hold at once by threads (and past).
index_t stress_size(call c, int sms, std::mt19937_64& rng) {
  const tile_shape shape = shape_of(c);
  const index_t resident = static_cast<index_t>(sms) * std::max(1, 2048 / shape.block_threads);
  const int pick = static_cast<int>(rng() % 100);
  index_t k;
  if (pick < 3) return static_cast<index_t>(rng() % 3);  // 0, 1, 2
  if (pick < 75) {
    k = 1 + static_cast<index_t>(rng() % 8);
  } else if (pick < 93) {
    k = sms - 1 + static_cast<index_t>(rng() % 3);
  } else if (pick < 97) {
    k = rng() % 2 ? 2 * sms + 1 : 4 * sms + 1;
  } else {
    k = resident - 1 + static_cast<index_t>(rng() % 3);
  }
  k = std::min<index_t>(k, (index_t{8} << 20) / shape.items);  // the host's answer stays quick
  return std::max<index_t>(k * shape.items + static_cast<index_t>(rng() % 3) - 1, 0);
}

// Random keys in [0, range), sorted when asked.
std::vector<int> random_keys(index_t n, index_t range, std::mt19937_64& rng, bool sorted) {
  std::vector<int> keys(static_cast<std::size_t>(n));
  for (auto& k : keys) k = static_cast<int>(rng() % static_cast<std::uint64_t>(std::max<index_t>(range, 1)));
  if (sorted) std::sort(keys.begin(), keys.end());
  return keys;
}

// Segment starts for `total` steps of the path (count items + num_segments starts) at about
// `mean` items a segment: first 0, non-decreasing, empty segments included.
template <class Start>
std::vector<Start> random_starts(index_t total, index_t mean, std::mt19937_64& rng, index_t& count) {
  const index_t num_segments = std::max<index_t>(1, total / (mean + 1));
  count = std::max<index_t>(total - num_segments, 0);
  std::vector<Start> starts(static_cast<std::size_t>(num_segments));
  for (auto& s : starts) s = static_cast<Start>(count == 0 ? 0 : rng() % static_cast<std::uint64_t>(count + 1));
  std::sort(starts.begin(), starts.end());
  starts[0] = 0;
  return starts;
}

index_t random_mean(std::mt19937_64& rng) {
  const index_t means[] = {1, 4, 30, 300, 1500, 10000, index_t{1} << 40};  // the last: one segment
  return means[rng() % 7];
}

std::vector<int> origins(index_t n, int first = 0) {
  std::vector<int> v(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) v[i] = first + static_cast<int>(i);
  return v;
}

// segmented_sort_pairs of `keys` (values their positions) at random segment heads, checked
// against the host backend.
template <class Key>
job segmented_sort_pairs_job(std::vector<Key> keys, std::mt19937_64& rng, mergepath::cuda_context& ctx, copies how,
                             mergepath::host_context& host, std::ostringstream& what) {
  const index_t n = keys.size();
  auto vals = origins(n);
  const index_t mean = random_mean(rng);
  std::vector<long long> heads;
  for (index_t i = 1; i < n; ++i)
    if (static_cast<index_t>(rng() % static_cast<std::uint64_t>(std::min<index_t>(mean, n) + 1)) == 0)
      heads.push_back(i);
  what << " mean=" << mean;
  auto s = std::make_shared<std::tuple<user_buffer<Key>, user_buffer<int>, user_buffer<long long>>>(
      user_buffer<Key>(keys, ctx, how), user_buffer<int>(vals, ctx, how), user_buffer<long long>(heads, ctx, how));
  mergepath::segmented_sort_pairs(host, keys.data(), vals.data(), n, heads.data(), heads.size());
  const index_t num_heads = heads.size();
  job j;
  j.launch = [s, n, num_heads, &ctx] {
    auto& [k, v, h] = *s;
    mergepath::segmented_sort_pairs(ctx, k.data(), v.data(), n, h.data(), num_heads);
  };
  j.check = [s, keys, vals] {
    auto r = first_difference("keys", keys, std::get<0>(*s).download());
    return r.empty() ? first_difference("values", vals, std::get<1>(*s).download()) : r;
  };
  return j;
}

// Makes a job of call c on ctx: inputs drawn and uploaded, the host backend's answer computed.
job make_job(call c, index_t n, std::mt19937_64& rng, mergepath::cuda_context& ctx, copies how,
             mergepath::host_context& host) {
  std::ostringstream what;
  what << call_names[static_cast<int>(c)] << " n=" << n;
  job j;
  switch (c) {
    case call::merge:
    case call::merge_pairs: {
      const index_t na = n / 2 + static_cast<index_t>(rng() % 2), nb = n - std::min(n, na);
      const index_t range = std::max<index_t>(1, n / (1 + static_cast<index_t>(rng() % 8)));
      auto a = random_keys(std::min(n, na), range, rng, true), b = random_keys(nb, range, rng, true);
      auto av = origins(a.size()), bv = origins(b.size(), static_cast<int>(a.size()));
      std::vector<int> keys(a.size() + b.size()), vals(keys.size());
      mergepath::merge_pairs(host, a.data(), av.data(), a.size(), b.data(), bv.data(), b.size(), keys.data(),
                             vals.data());
      auto s = std::make_shared<std::tuple<user_buffer<int>, user_buffer<int>, user_buffer<int>, user_buffer<int>,
                                           user_buffer<int>, user_buffer<int>>>(
          user_buffer<int>(a, ctx, how), user_buffer<int>(av, ctx, how), user_buffer<int>(b, ctx, how),
          user_buffer<int>(bv, ctx, how), user_buffer<int>(keys.size(), ctx, how),
          user_buffer<int>(keys.size(), ctx, how));
      const bool pairs = c == call::merge_pairs;
      const index_t a_count = a.size(), b_count = b.size();
      j.launch = [s, pairs, a_count, b_count, &ctx] {
        auto& [a, av, b, bv, ok, ov] = *s;
        if (pairs)
          mergepath::merge_pairs(ctx, a.data(), av.data(), a_count, b.data(), bv.data(), b_count, ok.data(), ov.data());
        else
          mergepath::merge(ctx, a.data(), a_count, b.data(), b_count, ok.data());
      };
      j.check = [s, pairs, keys, vals] {
        auto r = first_difference("keys", keys, std::get<4>(*s).download());
        if (r.empty() && pairs) r = first_difference("values", vals, std::get<5>(*s).download());
        return r;
      };
      break;
    }
    case call::mergesort_pairs:
    case call::sort_radix: {
      auto keys = random_keys(n, rng() % 2 ? n : 1 + static_cast<index_t>(rng() % 16), rng, false);
      auto vals = origins(n);
      const bool radix = c == call::sort_radix;
      auto s = std::make_shared<std::pair<user_buffer<int>, user_buffer<int>>>(user_buffer<int>(keys, ctx, how),
                                                                               user_buffer<int>(vals, ctx, how));
      std::vector<int> expected_keys = keys, expected_vals = vals;
      mergepath::sort_pairs(host, expected_keys.data(), expected_vals.data(), n);
      j.launch = [s, n, radix, &ctx] {
        if (radix)
          mergepath::sort(ctx, s->first.data(), n);
        else
          mergepath::mergesort_pairs(ctx, s->first.data(), s->second.data(), n);
      };
      j.check = [s, radix, expected_keys, expected_vals] {
        auto r = first_difference("keys", expected_keys, s->first.download());
        if (r.empty() && !radix) r = first_difference("values", expected_vals, s->second.download());
        return r;
      };
      break;
    }
    case call::sort_pairs_int64: {
      std::vector<long long> keys(static_cast<std::size_t>(n));
      for (auto& k : keys) k = static_cast<long long>(rng() % 1000003) - 500000;
      auto vals = origins(n);
      auto s = std::make_shared<std::pair<user_buffer<long long>, user_buffer<int>>>(
          user_buffer<long long>(keys, ctx, how), user_buffer<int>(vals, ctx, how));
      mergepath::sort_pairs(host, keys.data(), vals.data(), n);
      j.launch = [s, n, &ctx] { mergepath::sort_pairs(ctx, s->first.data(), s->second.data(), n); };
      j.check = [s, keys, vals] {
        auto r = first_difference("keys", keys, s->first.download());
        return r.empty() ? first_difference("values", vals, s->second.download()) : r;
      };
      break;
    }
    case call::sorted_search:
    case call::sorted_search_matches: {
      const index_t na = static_cast<index_t>(rng() % 2) ? n : n / 16, nb = n;
      const index_t range = std::max<index_t>(1, rng() % 2 ? 2 * n : n / 64);
      auto a = random_keys(na, range, rng, true), b = random_keys(nb, range, rng, true);
      const bool matches = c == call::sorted_search_matches;
      std::vector<index_t> a_out(a.size()), b_out(b.size());
      mergepath::match_counts expected_counts{};
      if (matches)
        expected_counts = mergepath::sorted_search<mergepath::bounds::lower, mergepath::search::index_match,
                                                   mergepath::search::match>(host, a.data(), na, b.data(), nb,
                                                                             a_out.data(), b_out.data());
      else
        mergepath::sorted_search(host, a.data(), na, b.data(), nb, a_out.data());
      auto s = std::make_shared<std::tuple<user_buffer<int>, user_buffer<int>, user_buffer<index_t>,
                                           user_buffer<index_t>, mergepath::match_counts>>(
          user_buffer<int>(a, ctx, how), user_buffer<int>(b, ctx, how), user_buffer<index_t>(a.size(), ctx, how),
          user_buffer<index_t>(b.size(), ctx, how), mergepath::match_counts{});
      j.launch = [s, na, nb, matches, &ctx] {
        auto& [a, b, ao, bo, counts] = *s;
        if (matches)
          counts =
              mergepath::sorted_search<mergepath::bounds::lower, mergepath::search::index_match,
                                       mergepath::search::match>(ctx, a.data(), na, b.data(), nb, ao.data(), bo.data());
        else
          mergepath::sorted_search(ctx, a.data(), na, b.data(), nb, ao.data());
      };
      j.check = [s, matches, a_out, b_out, expected_counts] {
        auto r = first_difference("a_out", a_out, std::get<2>(*s).download());
        if (!matches || !r.empty()) return r;
        r = first_difference("b_out", b_out, std::get<3>(*s).download());
        const auto& got = std::get<4>(*s);
        if (r.empty() && (got.a != expected_counts.a || got.b != expected_counts.b)) r = "match counts differ";
        return r;
      };
      break;
    }
    case call::load_balancing_search:
    case call::interval_expand:
    case call::interval_gather:
    case call::interval_scatter:
    case call::interval_move: {
      index_t count = 0;
      const index_t mean = random_mean(rng);
      auto starts = random_starts<long long>(n, mean, rng, count);
      const index_t num_segments = starts.size();
      auto in = origins(count, 7);
      // gather and scatter: segment s reads and writes the elements of its own range, reversed
      // segment order (each segment's run moved to the mirror place).
      std::vector<long long> place(starts.size());
      for (index_t s = 0; s < num_segments; ++s) {
        const index_t size = (s + 1 < num_segments ? starts[s + 1] : count) - starts[s];
        place[s] = count - starts[s] - size;
      }
      std::vector<int> values(starts.size());
      for (auto& v : values) v = static_cast<int>(rng());
      // The call on either backend, over its pointers.
      auto run = [c, count, num_segments](auto& context, const long long* st, const long long* pl, const int* vals,
                                          const int* in, int* out) {
        switch (c) {
          case call::load_balancing_search:
            mergepath::load_balancing_search(context, count, st, num_segments, out);
            break;
          case call::interval_expand:
            mergepath::interval_expand(context, vals, count, st, num_segments, out);
            break;
          case call::interval_gather:
            mergepath::interval_gather(context, in, count, st, num_segments, pl, out);
            break;
          case call::interval_scatter:
            mergepath::interval_scatter(context, in, count, st, num_segments, pl, out);
            break;
          default:
            mergepath::interval_move(context, in, count, st, num_segments, pl, pl, out);
        }
      };
      std::vector<int> expected(static_cast<std::size_t>(count), -1);
      run(host, starts.data(), place.data(), values.data(), in.data(), expected.data());
      auto s = std::make_shared<std::tuple<user_buffer<long long>, user_buffer<long long>, user_buffer<int>,
                                           user_buffer<int>, user_buffer<int>>>(
          user_buffer<long long>(starts, ctx, how), user_buffer<long long>(place, ctx, how),
          user_buffer<int>(values, ctx, how), user_buffer<int>(in, ctx, how),
          user_buffer<int>(std::vector<int>(static_cast<std::size_t>(count), -1), ctx, how));
      what << " mean=" << mean;
      j.launch = [s, run, &ctx] {
        auto& [st, pl, vals, in, out] = *s;
        run(ctx, st.data(), pl.data(), vals.data(), in.data(), out.data());
      };
      j.check = [s, expected] { return first_difference("out", expected, std::get<4>(*s).download()); };
      break;
    }
    case call::segmented_reduce_sum:
    case call::segmented_reduce_affine: {
      index_t count = 0;
      const index_t mean = random_mean(rng);
      auto starts = random_starts<long long>(n, mean, rng, count);
      const index_t num_segments = starts.size();
      what << " mean=" << mean;
      if (c == call::segmented_reduce_sum) {
        std::vector<long long> values(static_cast<std::size_t>(count));
        for (auto& v : values) v = static_cast<long long>(rng() % 2001) - 1000;
        std::vector<long long> expected(starts.size());
        mergepath::segmented_reduce(host, values.data(), count, starts.data(), num_segments, expected.data(), 5LL);
        auto s = std::make_shared<std::tuple<user_buffer<long long>, user_buffer<long long>, user_buffer<long long>>>(
            user_buffer<long long>(values, ctx, how), user_buffer<long long>(starts, ctx, how),
            user_buffer<long long>(starts.size(), ctx, how));
        j.launch = [s, count, num_segments, &ctx] {
          auto& [v, st, out] = *s;
          mergepath::segmented_reduce(ctx, v.data(), count, st.data(), num_segments, out.data(), 5LL);
        };
        j.check = [s, expected] { return first_difference("out", expected, std::get<2>(*s).download()); };
      } else {
        std::vector<affine> values(static_cast<std::size_t>(count));
        for (auto& v : values) v = {static_cast<unsigned>(rng()) | 1u, static_cast<unsigned>(rng())};
        std::vector<affine> expected(starts.size());
        mergepath::segmented_reduce(host, values.data(), count, starts.data(), num_segments, expected.data(),
                                    affine{1, 0}, compose{});
        auto s = std::make_shared<std::tuple<user_buffer<affine>, user_buffer<long long>, user_buffer<affine>>>(
            user_buffer<affine>(values, ctx, how), user_buffer<long long>(starts, ctx, how),
            user_buffer<affine>(starts.size(), ctx, how));
        j.launch = [s, count, num_segments, &ctx] {
          auto& [v, st, out] = *s;
          mergepath::segmented_reduce(ctx, v.data(), count, st.data(), num_segments, out.data(), affine{1, 0},
                                      compose{});
        };
        j.check = [s, expected] { return first_difference("out", expected, std::get<2>(*s).download()); };
      }
      break;
    }
    case call::merge_join:
    case call::sort_merge_join: {
      const index_t na = n / 2, nb = n - na;
      const bool sorted = c == call::merge_join;
      const index_t range = std::max<index_t>(1, rng() % 2 ? n : n / 8);
      auto a = random_keys(na, range, rng, sorted), b = random_keys(nb, range, rng, sorted);
      using mergepath::join_kind;
      const join_kind kinds[] = {join_kind::inner, join_kind::left, join_kind::right, join_kind::full_outer};
      const join_kind kind = sorted ? kinds[rng() % 4] : join_kind::inner;
      what << " kind=" << static_cast<int>(kind);
      auto run = [sorted, kind](auto& context, const int* a, index_t na, const int* b, index_t nb) {
        using ctx_t = std::decay_t<decltype(context)>;
        mergepath::join_result<ctx_t, index_t> r;
        if (!sorted)
          r = mergepath::sort_merge_join<join_kind::inner>(context, a, na, b, nb);
        else if (kind == join_kind::inner)
          r = mergepath::merge_join<join_kind::inner>(context, a, na, b, nb);
        else if (kind == join_kind::left)
          r = mergepath::merge_join<join_kind::left>(context, a, na, b, nb);
        else if (kind == join_kind::right)
          r = mergepath::merge_join<join_kind::right>(context, a, na, b, nb);
        else
          r = mergepath::merge_join<join_kind::full_outer>(context, a, na, b, nb);
        return r;
      };
      auto expected = run(host, a.data(), na, b.data(), nb);
      std::vector<index_t> ea(expected.a_index(), expected.a_index() + expected.size()),
          eb(expected.b_index(), expected.b_index() + expected.size());
      struct state {
        user_buffer<int> a, b;
        mergepath::join_result<mergepath::cuda_context, index_t> result;
      };
      auto s = std::make_shared<state>(state{user_buffer<int>(a, ctx, how), user_buffer<int>(b, ctx, how), {}});
      j.launch = [s, run, na, nb, &ctx] { s->result = run(ctx, s->a.data(), na, s->b.data(), nb); };
      j.check = [s, ea, eb, how, &ctx] {
        const index_t rows = s->result.size();
        auto r = first_difference("a_index", ea, copy_back(s->result.a_index(), rows, ctx, how));
        return r.empty() ? first_difference("b_index", eb, copy_back(s->result.b_index(), rows, ctx, how)) : r;
      };
      break;
    }
    case call::set_operation:
    case call::set_union_by_key: {
      const index_t na = n / 2 + static_cast<index_t>(rng() % 2), nb = n - std::min(n, na);
      const index_t range = std::max<index_t>(1, rng() % 2 ? n : n / 16);
      auto a = random_keys(std::min(n, na), range, rng, true), b = random_keys(nb, range, rng, true);
      auto av = origins(a.size()), bv = origins(b.size(), static_cast<int>(a.size()));
      const int op = c == call::set_union_by_key ? -1 : static_cast<int>(rng() % 4);
      what << " op=" << op;
      auto run = [op](auto& context, const int* a, const int* av, index_t na, const int* b, const int* bv, index_t nb,
                      int* out, int* out_vals) -> index_t {
        switch (op) {
          case 0:
            return mergepath::set_union(context, a, na, b, nb, out);
          case 1:
            return mergepath::set_intersection(context, a, na, b, nb, out);
          case 2:
            return mergepath::set_difference(context, a, na, b, nb, out);
          case 3:
            return mergepath::set_symmetric_difference(context, a, na, b, nb, out);
          default:
            return mergepath::set_union_by_key(context, a, av, na, b, bv, nb, out, out_vals);
        }
      };
      const index_t capacity = a.size() + b.size();
      std::vector<int> keys(capacity), vals(capacity);
      const index_t size =
          run(host, a.data(), av.data(), a.size(), b.data(), bv.data(), b.size(), keys.data(), vals.data());
      keys.resize(size);
      vals.resize(size);
      struct state {
        user_buffer<int> a, av, b, bv, out, out_vals;
        index_t size = -1;
      };
      auto s = std::make_shared<state>(state{
          user_buffer<int>(a, ctx, how), user_buffer<int>(av, ctx, how), user_buffer<int>(b, ctx, how),
          user_buffer<int>(bv, ctx, how), user_buffer<int>(capacity, ctx, how), user_buffer<int>(capacity, ctx, how)});
      const index_t a_count = a.size(), b_count = b.size();
      j.launch = [s, run, a_count, b_count, &ctx] {
        s->size = run(ctx, s->a.data(), s->av.data(), a_count, s->b.data(), s->bv.data(), b_count, s->out.data(),
                      s->out_vals.data());
      };
      j.check = [s, keys, vals, op] {
        if (s->size != static_cast<index_t>(keys.size()))
          return "size " + std::to_string(s->size) + ", expected " + std::to_string(keys.size());
        auto r = first_difference("keys", keys, s->out.download(keys.size()));
        return r.empty() && op < 0 ? first_difference("values", vals, s->out_vals.download(vals.size())) : r;
      };
      break;
    }
    case call::segmented_sort_pairs:
      j = segmented_sort_pairs_job(random_keys(n, 1 + static_cast<index_t>(rng() % 1000), rng, false), rng, ctx, how,
                                   host, what);
      break;
    // Floating-point keys: an order the kernels do not trust, so every merge checks its threads'
    // slices and every partition pass's last block checks the splits (block/slice_check.cuh,
    // kernel/split_repair.cuh); with NaNs under less<> those splits are repaired.
    case call::merge_pairs_float: {
      const index_t na = n / 2, nb = n - na;
      auto make = [&](index_t count) {
        std::vector<float> k(static_cast<std::size_t>(count));
        for (auto& x : k) x = static_cast<float>(rng() % static_cast<std::uint64_t>(std::max<index_t>(n / 4, 1)));
        std::sort(k.begin(), k.end());
        return k;
      };
      auto a = make(na), b = make(nb);
      auto av = origins(na), bv = origins(nb, static_cast<int>(na));
      std::vector<float> keys(static_cast<std::size_t>(n));
      std::vector<int> vals(keys.size());
      mergepath::merge_pairs(host, a.data(), av.data(), na, b.data(), bv.data(), nb, keys.data(), vals.data());
      auto s = std::make_shared<std::tuple<user_buffer<float>, user_buffer<int>, user_buffer<float>, user_buffer<int>,
                                           user_buffer<float>, user_buffer<int>>>(
          user_buffer<float>(a, ctx, how), user_buffer<int>(av, ctx, how), user_buffer<float>(b, ctx, how),
          user_buffer<int>(bv, ctx, how), user_buffer<float>(keys.size(), ctx, how),
          user_buffer<int>(keys.size(), ctx, how));
      j.launch = [s, na, nb, &ctx] {
        auto& [a, av, b, bv, ok, ov] = *s;
        mergepath::merge_pairs(ctx, a.data(), av.data(), na, b.data(), bv.data(), nb, ok.data(), ov.data());
      };
      j.check = [s, keys, vals] {
        auto r = first_difference("keys", keys, std::get<4>(*s).download());
        return r.empty() ? first_difference("values", vals, std::get<5>(*s).download()) : r;
      };
      break;
    }
    case call::mergesort_pairs_nan: {
      std::vector<double> keys(static_cast<std::size_t>(n));
      for (auto& k : keys)
        k = rng() % 8 == 0 ? std::numeric_limits<double>::quiet_NaN() : static_cast<double>(rng() % 1000);
      auto vals = origins(n);
      auto s = std::make_shared<std::pair<user_buffer<double>, user_buffer<int>>>(user_buffer<double>(keys, ctx, how),
                                                                                  user_buffer<int>(vals, ctx, how));
      j.launch = [s, n, &ctx] { mergepath::mergesort_pairs(ctx, s->first.data(), s->second.data(), n); };
      // The order is unspecified: each value once, with its own key.
      j.check = [s, keys] {
        const std::vector<double> got_keys = s->first.download();
        const std::vector<int> got_vals = s->second.download();
        std::vector<char> seen(keys.size());
        for (std::size_t i = 0; i < got_vals.size(); ++i) {
          const int v = got_vals[i];
          if (v < 0 || static_cast<std::size_t>(v) >= keys.size() || seen[v])
            return "values: " + std::to_string(i) + " is not a fresh input position";
          seen[v] = 1;
          if (std::memcmp(&keys[v], &got_keys[i], sizeof(double)) != 0)
            return "keys: " + std::to_string(i) + " did not come with its value";
        }
        return std::string();
      };
      break;
    }
    case call::segmented_sort_pairs_float: {
      std::vector<float> keys(static_cast<std::size_t>(n));
      for (auto& k : keys) k = static_cast<float>(rng() % 1000);
      j = segmented_sort_pairs_job(keys, rng, ctx, how, host, what);
      break;
    }
    default:
      break;
  }
  j.what = what.str();
  return j;
}

int runs_per_call() {
  const char* env = std::getenv("MERGEPATH_STRESS_RUNS");
  return env ? std::max(1, std::atoi(env)) : 200;
}

// A context as a user makes one: the default (the legacy stream's order), or, to show what the
// old default did, one on a non-blocking stream of its own.
struct user_context {
  cudaStream_t stream = nullptr;
  std::unique_ptr<mergepath::cuda_context> ctx;
  explicit user_context(bool nonblocking) {
    if (nonblocking) {
      MERGEPATH_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
      ctx = std::make_unique<mergepath::cuda_context>(stream);
    } else {
      ctx = std::make_unique<mergepath::cuda_context>();
    }
  }
  ~user_context() {
    ctx.reset();
    if (stream) (void)cudaStreamDestroy(stream);
  }
};

// Runs every call runs_per_call() times at stress sizes, in batches of `batch` jobs of different
// calls (on the contexts in turn), each uploaded just before its launch, and checked once the
// whole batch is launched. Copies on the streams are made first, so that a batch's kernels run
// back to back.
void run_stress(std::vector<mergepath::cuda_context*> contexts, copies how, int batch, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  mergepath::host_context host;
  int sms = 0;
  MERGEPATH_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, contexts[0]->device()));
  std::vector<call> order;
  for (int r = 0; r < runs_per_call(); ++r)
    for (int c = 0; c < static_cast<int>(call::count); ++c) order.push_back(static_cast<call>(c));
  std::shuffle(order.begin(), order.end(), rng);
  int wrong = 0, calls = 0;
  std::vector<int> wrong_by_call(static_cast<int>(call::count));
  std::vector<std::string> failures;
  for (std::size_t first = 0; first < order.size(); first += batch) {
    std::vector<job> jobs;
    for (std::size_t i = first; i < std::min(order.size(), first + batch); ++i) {
      mergepath::cuda_context& ctx = *contexts[i % contexts.size()];
      jobs.push_back(make_job(order[i], stress_size(order[i], sms, rng), rng, ctx, how, host));
      if (how == copies::legacy) jobs.back().launch();
    }
    if (how == copies::on_stream)
      for (auto& j : jobs) j.launch();
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      const std::string r = jobs[i].check();
      ++calls;
      if (r.empty()) continue;
      ++wrong;
      ++wrong_by_call[static_cast<int>(order[first + i])];
      if (failures.size() < 10) failures.push_back(jobs[i].what + ": " + r);
    }
  }
  for (auto* ctx : contexts) ctx->synchronize();
  std::ostringstream summary;
  summary << wrong << " wrong of " << calls << " calls";
  for (int c = 0; c < static_cast<int>(call::count); ++c)
    if (wrong_by_call[c]) summary << "; " << call_names[c] << ": " << wrong_by_call[c];
  for (auto& f : failures) summary << "\n  " << f;
  std::cout << "[ stress   ] " << summary.str() << "\n";
  EXPECT_EQ(wrong, 0) << summary.str();
}

bool emulate_nonblocking() {
  const char* env = std::getenv("MERGEPATH_STRESS_NONBLOCKING");
  return env && std::string(env) == "1";
}

class GpuStress : public gpu_test {};

// What a user writes: a default context, plain cudaMemcpy in, the call, plain cudaMemcpy out.
TEST_F(GpuStress, UserCopiesOneContext) {
  user_context user(emulate_nonblocking());
  run_stress({user.ctx.get()}, copies::legacy, 1, 1);
}

// Two default contexts (two streams), calls alternating between them, plain cudaMemcpy.
TEST_F(GpuStress, UserCopiesTwoContexts) {
  user_context first(emulate_nonblocking()), second(emulate_nonblocking());
  run_stress({first.ctx.get(), second.ctx.get()}, copies::legacy, 4, 2);
}

// Copies on the contexts' own non-blocking streams, nothing between the launches of a batch: the
// calls' kernels overlap through programmatic dependent launch, on each of two streams at once.
TEST_F(GpuStress, StreamCopiesTwoStreams) {
  user_context first(true), second(true);
  run_stress({first.ctx.get(), second.ctx.get()}, copies::on_stream, 12, 3);
}

}  // namespace
