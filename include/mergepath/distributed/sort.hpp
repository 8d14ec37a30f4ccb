// The distributed sort's algorithm, written once for every communicator and memory space.
//
// A Session is a communicator bound to one call: rank(), size(), and collectives on host memory
//   void allgather(const void* send, std::size_t bytes, void* recv);  // recv: size() * bytes
//   void allreduce_sum(std::int64_t* data, std::size_t n);           // in place
// plus the all-to-all on the memory the context computes in
//   void exchange(const void* send, void* recv, std::size_t element_bytes,
//                 const index_t* send_counts, const index_t* send_offsets,
//                 const index_t* recv_counts, const index_t* recv_offsets,  // in elements, size() each
//                 index_t largest_count);  // the largest rank's count (the same on every rank)
//   std::int64_t max_message_bytes() const;  // a setting every rank must share (0 if none)
//   static constexpr int splitter_samples;     // samples a target and rank each selection round
// A Local is the rank's sorted keys seen from the host:
//   std::vector<Key> fetch(const std::vector<index_t>& positions);  // keys[positions[i]]
//   void bounds(const std::vector<Key>& needles, std::vector<index_t>& lower, std::vector<index_t>& upper);
//
// Steps: (1) one allgather of every rank's arguments, so that a bad or mismatched argument on any
// rank throws on every rank; (2) the local stable sort; (3) exact splitters: the co-rank of each
// rank's first output position, found by a distributed selection (below); (4) the exchange;
// (5) a tree of stable merges of the received runs, lower rank first.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "../context.hpp"
#include "../detail/config.hpp"
#include "../error.hpp"
#include "../merge.hpp"
#include "../sort.hpp"

namespace mergepath {

// Where one rank's time went in a distributed sort (wall-clock seconds), filled when a pointer is
// passed; a GPU call then waits for its stream at the end of each phase, so it costs a little.
struct distributed_sort_phases {
  double local_sort = 0;  // argument check and the local sort
  double splitters = 0;   // the selection of the exact splitters, and sharing them
  double exchange = 0;    // the all-to-all of keys (and values)
  double merge = 0;       // the tree of merges of the received runs
  int rounds = 0;         // rounds of the splitter selection
};

namespace detail {

// ---------------------------------------------------------------------------------------------
// (1) Arguments, checked on every rank at once

enum class distributed_call : std::int64_t { keys = 1, pairs = 2 };
enum distributed_fault : std::int64_t { fault_none = 0, fault_negative_count, fault_null_keys, fault_null_vals };

// What one rank passed; every rank sees every rank's record and reaches the same verdict.
struct distributed_args {
  std::int64_t fault;
  std::int64_t count;
  std::int64_t key_bytes;
  std::int64_t value_bytes;
  std::int64_t call;
  std::int64_t max_message_bytes;  // the communicator's setting; it must agree too (mpi_communicator)
};

inline const char* distributed_call_name(std::int64_t call) {
  return call == static_cast<std::int64_t>(distributed_call::pairs) ? "distributed_sort_pairs" : "distributed_sort";
}

// Throws std::invalid_argument naming the first rank at fault, identically on every rank.
inline void check_distributed_args(const std::vector<distributed_args>& all, const char* algorithm) {
  const std::string head = std::string("mergepath::") + algorithm + ": ";
  for (std::size_t r = 0; r < all.size(); ++r) {
    const distributed_args& a = all[r];
    const std::string rank = "rank " + std::to_string(r);
    if (a.call != all[0].call)
      throw std::invalid_argument(head + rank + " calls " + distributed_call_name(a.call) + " while rank 0 calls " +
                                  distributed_call_name(all[0].call));
    if (a.fault == fault_negative_count)
      throw std::invalid_argument(head + rank + ": count is negative (" + std::to_string(a.count) + ")");
    if (a.fault == fault_null_keys)
      throw std::invalid_argument(head + rank + ": keys is a null pointer with count " + std::to_string(a.count));
    if (a.fault == fault_null_vals)
      throw std::invalid_argument(head + rank + ": vals is a null pointer with count " + std::to_string(a.count));
    if (a.key_bytes != all[0].key_bytes)
      throw std::invalid_argument(head + rank + " passes keys of " + std::to_string(a.key_bytes) +
                                  " bytes, rank 0 of " + std::to_string(all[0].key_bytes));
    if (a.value_bytes != all[0].value_bytes)
      throw std::invalid_argument(head + rank + " passes values of " + std::to_string(a.value_bytes) +
                                  " bytes, rank 0 of " + std::to_string(all[0].value_bytes));
    if (a.max_message_bytes != all[0].max_message_bytes)
      throw std::invalid_argument(head + rank + "'s communicator has max_message_bytes " +
                                  std::to_string(a.max_message_bytes) + ", rank 0's " +
                                  std::to_string(all[0].max_message_bytes));
  }
}

// ---------------------------------------------------------------------------------------------
// (3) Exact splitters
//
// Order every element by (key, rank, position in its rank's sorted keys): a strict total order, and
// the order of a stable sort of the ranks' keys concatenated in rank order. Rank k's output is the
// elements of global positions [t_k, t_{k+1}), t_k the exclusive prefix sum of the counts. For a
// target t, split_r(t) = how many of rank r's elements come before global position t (the co-rank
// of Programming Massively Parallel Processors, ch. 12, over p sequences). A candidate element
// c = (v, q, j) has
//   before_r(c) = upper_bound(v) on ranks r < q, j on r = q, lower_bound(v) on ranks r > q
// elements of rank r before it, and C(c) = sum_r before_r(c) before it in all: C grows strictly
// along the order, so the host picks among candidates by their counts alone, without a key
// comparison. Each rank keeps a window [lo_r, hi_r] known to hold split_r(t); each round every rank
// proposes samples spaced evenly over its window (all its window once it is small), the ranks
// count them, and the candidates just below and above t become the new window edges. A window of
// w elements shrinks to about w / k a round, so rounds ~ log_k(largest count) + 1, every target
// vectorised into the same collectives. The first round is the sampling step (NOWSort's
// oversampled splitters) and the later ones make it exact.

// Samples per target per rank a round (the Session's splitter_samples): a round divides each
// window by about this much and costs an allgather of size() * (size() - 1) * k keys plus an
// allreduce of as many counts. On MPI, 64: a host rank's counting is binary searches over cold
// memory. On NCCL (GPU ranks, searches on the device), 1024: 3 rounds instead of 4 at 2^29 keys.
// Cap on size()^2 * k counts a round (8 MiB): many ranks get fewer samples, not huge collectives.
constexpr std::int64_t splitter_round_budget = std::int64_t{1} << 20;
// A valid comparator finishes in log_2(2^62) + 2 rounds; a broken one stops here, and the split
// check below rejects what it found.
constexpr int splitter_max_rounds = 64;

inline int splitter_samples_for(int ranks, int samples) {
  const std::int64_t pairs = std::int64_t{ranks} * std::max(1, ranks - 1);
  return static_cast<int>(std::max<std::int64_t>(2, std::min<std::int64_t>(samples, splitter_round_budget / pairs)));
}

template <class Key>
struct splitter_candidate {
  std::int64_t position;  // in the proposing rank's sorted keys; -1: no candidate
  Key key;
};

// This rank's splits: out[k] = how many of its sorted keys go to ranks < k, k in [0, size()].
template <class Key, class Session, class Local>
std::vector<index_t> find_splits(Session& session, Local& local, const std::vector<index_t>& counts, int* rounds) {
  const int p = session.size(), me = session.rank();
  const index_t mine = counts[static_cast<std::size_t>(me)];
  std::vector<index_t> prefix(static_cast<std::size_t>(p) + 1, 0);
  for (int r = 0; r < p; ++r)
    prefix[static_cast<std::size_t>(r) + 1] = prefix[static_cast<std::size_t>(r)] + counts[static_cast<std::size_t>(r)];
  const index_t total = prefix.back();
  const int targets = p - 1;
  const int k = splitter_samples_for(p, Session::splitter_samples);

  struct target_state {
    index_t t;
    bool done = false;
    index_t lo = 0, hi = 0;          // this rank's window
    index_t lo_all = 0, hi_all = 0;  // the windows' sums over all ranks (the same on every rank)
    index_t split = 0;
  };
  std::vector<target_state> state(static_cast<std::size_t>(targets));
  int active = 0;
  for (int j = 0; j < targets; ++j) {
    target_state& s = state[static_cast<std::size_t>(j)];
    s.t = prefix[static_cast<std::size_t>(j) + 1];
    s.lo = 0, s.hi = mine, s.lo_all = 0, s.hi_all = total;
    if (s.t == 0)
      s.done = true, s.split = 0;
    else if (s.t == total)
      s.done = true, s.split = mine;
    else
      ++active;
  }

  const std::size_t slots = static_cast<std::size_t>(targets) * static_cast<std::size_t>(k);
  std::vector<splitter_candidate<Key>> proposed(slots), gathered(slots * static_cast<std::size_t>(p));
  std::vector<index_t> positions, lower, upper, before(gathered.size()), before_all;
  std::vector<Key> needles;
  int round = 0;
  for (; active > 0 && round < splitter_max_rounds; ++round) {
    // Propose: k samples spaced evenly over the window, or the whole window when it is smaller.
    positions.clear();
    for (int j = 0; j < targets; ++j) {
      const target_state& s = state[static_cast<std::size_t>(j)];
      const index_t width = s.done ? 0 : s.hi - s.lo;
      for (int i = 0; i < k; ++i) {
        index_t at = -1;
        if (width > 0 && width <= k)
          at = i < width ? s.lo + i : -1;
        else if (width > k)
          at = s.lo + (2 * index_t{i} + 1) * width / (2 * index_t{k});
        proposed[static_cast<std::size_t>(j) * k + i].position = at;
        if (at >= 0) positions.push_back(at);
      }
    }
    const std::vector<Key> fetched = local.fetch(positions);
    for (std::size_t slot = 0, next = 0; slot < slots; ++slot)
      if (proposed[slot].position >= 0) proposed[slot].key = fetched[next++];
    session.allgather(proposed.data(), slots * sizeof(splitter_candidate<Key>), gathered.data());

    // Count: how many of this rank's keys come before each candidate.
    needles.clear();
    for (const auto& c : gathered)
      if (c.position >= 0) needles.push_back(c.key);
    local.bounds(needles, lower, upper);
    for (std::size_t g = 0, next = 0; g < gathered.size(); ++g) {
      const int owner = static_cast<int>(g / slots);
      if (gathered[g].position < 0) {
        before[g] = 0;
        continue;
      }
      const index_t b = owner < me ? lower[next] : owner > me ? upper[next] : gathered[g].position;
      before[g] = std::min(std::max(b, index_t{0}), mine);  // a broken comparator stays in bounds
      ++next;
    }
    before_all = before;
    session.allreduce_sum(before_all.data(), before_all.size());

    // Narrow: the candidates nearest t from below and from above become the window's edges.
    for (int j = 0; j < targets; ++j) {
      target_state& s = state[static_cast<std::size_t>(j)];
      if (s.done) continue;
      std::ptrdiff_t below = -1, above = -1;
      for (int q = 0; q < p && !s.done; ++q)
        for (int i = 0; i < k && !s.done; ++i) {
          const std::size_t g = static_cast<std::size_t>(q) * slots + static_cast<std::size_t>(j) * k + i;
          if (gathered[g].position < 0) continue;
          const index_t c = before_all[g];
          if (c == s.t) {  // the element at global position t itself
            s.done = true, s.split = before[g];
            continue;
          }
          if (c < s.t && (below < 0 || c > before_all[static_cast<std::size_t>(below)]))
            below = static_cast<std::ptrdiff_t>(g);
          if (c > s.t && (above < 0 || c < before_all[static_cast<std::size_t>(above)]))
            above = static_cast<std::ptrdiff_t>(g);
        }
      if (!s.done) {
        if (below >= 0) {  // the candidate below t is before position t too
          const std::size_t g = static_cast<std::size_t>(below);
          s.lo = std::min(before[g] + (static_cast<int>(g / slots) == me ? 1 : 0), mine);
          s.lo_all = before_all[g] + 1;
        }
        if (above >= 0) {
          s.hi = before[static_cast<std::size_t>(above)];
          s.hi_all = before_all[static_cast<std::size_t>(above)];
        }
        s.hi = std::max(s.hi, s.lo);
        if (s.lo_all == s.t)
          s.done = true, s.split = s.lo;
        else if (s.hi_all == s.t)
          s.done = true, s.split = s.hi;
      }
      if (s.done) --active;
    }
  }

  if (rounds) *rounds = round;
  std::vector<index_t> splits(static_cast<std::size_t>(p) + 1);
  splits[0] = 0, splits[static_cast<std::size_t>(p)] = mine;
  for (int j = 0; j < targets; ++j) {
    const target_state& s = state[static_cast<std::size_t>(j)];
    splits[static_cast<std::size_t>(j) + 1] = s.done ? s.split : s.lo;
  }
  for (int j = 1; j <= p; ++j)  // monotone and in [0, mine] whatever the comparator did
    splits[static_cast<std::size_t>(j)] =
        std::min(mine, std::max(splits[static_cast<std::size_t>(j)], splits[static_cast<std::size_t>(j) - 1]));
  return splits;
}

// Every rank's splits (row r: rank r's, size() + 1 each) are consistent when column k sums to t_k:
// then every rank receives exactly its own count. Only a comparator that is not a strict weak
// order (or differs between ranks) breaks it; the verdict is the same on every rank.
inline void check_splits(const std::vector<index_t>& all_splits, const std::vector<index_t>& counts,
                         const char* algorithm) {
  const std::size_t p = counts.size();
  index_t t = 0;
  for (std::size_t k = 0; k <= p; ++k) {
    index_t sum = 0;
    for (std::size_t r = 0; r < p; ++r) sum += all_splits[r * (p + 1) + k];
    if (sum != t)
      throw std::invalid_argument(std::string("mergepath::") + algorithm +
                                  ": the ranks' splitters disagree; comp is not a strict weak order, or the ranks "
                                  "pass different comparators");
    if (k < p) t += counts[k];
  }
}

// ---------------------------------------------------------------------------------------------
// Scratch and copies where the context computes

template <class T>
class host_scratch {
 public:
  host_scratch(host_context&, index_t count) : data_(count > 0 ? new T[static_cast<std::size_t>(count)] : nullptr) {}
  T* data() const { return data_.get(); }

 private:
  std::unique_ptr<T[]> data_;
};

template <class T>
host_scratch<T> distributed_scratch(host_context& ctx, index_t count) {
  return host_scratch<T>(ctx, count);
}
template <class T>
void distributed_copy(host_context&, const T* src, index_t count, T* dst) {
  if (count > 0)
    std::memcpy(static_cast<void*>(dst), static_cast<const void*>(src), static_cast<std::size_t>(count) * sizeof(T));
}

inline void distributed_wait(host_context&) {}

#if MERGEPATH_HAS_CUDA
inline void distributed_wait(cuda_context& ctx) { ctx.synchronize(); }

template <class T>
temp_buffer<T> distributed_scratch(cuda_context& ctx, index_t count) {
  return ctx.allocate<T>(count);
}
template <class T>
void distributed_copy(cuda_context& ctx, const T* src, index_t count, T* dst) {
  if (count > 0)
    MERGEPATH_CUDA_CHECK(
        cudaMemcpyAsync(dst, src, static_cast<std::size_t>(count) * sizeof(T), cudaMemcpyDeviceToDevice, ctx.stream()));
}
#endif

// (5) Runs [runs[i], runs[i + 1]) of src merged pairwise, lower run as `a` (stable in run order),
// ping-ponging with dst; the result ends in dst.
template <bool HasValues, class Ctx, class Key, class Val, class Comp>
void merge_received_runs(Ctx& ctx, Key* src_keys, Val* src_vals, Key* dst_keys, Val* dst_vals,
                         std::vector<index_t> runs, Comp comp) {
  const index_t count = runs.back();
  bool in_dst = false;
  while (runs.size() > 2) {
    Key* from_keys = in_dst ? dst_keys : src_keys;
    Key* to_keys = in_dst ? src_keys : dst_keys;
    Val* from_vals = in_dst ? dst_vals : src_vals;
    Val* to_vals = in_dst ? src_vals : dst_vals;
    std::vector<index_t> next;
    for (std::size_t i = 0; i + 1 < runs.size(); i += 2) {
      next.push_back(runs[i]);
      const index_t a = runs[i], m = runs[i + 1];
      if (i + 2 < runs.size()) {
        const index_t e = runs[i + 2];
        if constexpr (HasValues)
          mergepath::merge_pairs(ctx, from_keys + a, from_vals + a, m - a, from_keys + m, from_vals + m, e - m,
                                 to_keys + a, to_vals + a, comp);
        else
          mergepath::merge(ctx, from_keys + a, m - a, from_keys + m, e - m, to_keys + a, comp);
      } else {  // an odd run out: carried over
        distributed_copy(ctx, from_keys + a, m - a, to_keys + a);
        if constexpr (HasValues) distributed_copy(ctx, from_vals + a, m - a, to_vals + a);
      }
    }
    next.push_back(count);
    runs.swap(next);
    in_dst = !in_dst;
  }
  if (!in_dst) {
    distributed_copy(ctx, src_keys, count, dst_keys);
    if constexpr (HasValues) distributed_copy(ctx, src_vals, count, dst_vals);
  }
}

// The whole call. vals is ignored (may be null) when !HasValues.
template <bool HasValues, class Ctx, class Session, class Local, class Key, class Val, class Comp>
void distributed_sort_impl(Ctx& ctx, Session& session, Key* keys, Val* vals, index_t count, Comp comp,
                           distributed_sort_phases* phases) {
  static_assert(std::is_trivially_copyable_v<Key>, "mergepath::distributed_sort: keys are sent as bytes");
  static_assert(std::is_trivially_copyable_v<Val>, "mergepath::distributed_sort_pairs: values are sent as bytes");
  const char* algorithm = HasValues ? "distributed_sort_pairs" : "distributed_sort";
  const int p = session.size(), me = session.rank();

  // (1) Arguments: checked everywhere before any rank starts work, in one collective.
  distributed_args args{};
  args.fault = count < 0                                   ? fault_negative_count
               : count > 0 && keys == nullptr              ? fault_null_keys
               : HasValues && count > 0 && vals == nullptr ? fault_null_vals
                                                           : fault_none;
  args.count = count;
  args.key_bytes = static_cast<std::int64_t>(sizeof(Key));
  args.value_bytes = HasValues ? static_cast<std::int64_t>(sizeof(Val)) : 0;
  args.call = static_cast<std::int64_t>(HasValues ? distributed_call::pairs : distributed_call::keys);
  args.max_message_bytes = session.max_message_bytes();
  std::vector<distributed_args> all_args(static_cast<std::size_t>(p));
  session.allgather(&args, sizeof(args), all_args.data());
  check_distributed_args(all_args, algorithm);
  std::vector<index_t> counts(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r) counts[static_cast<std::size_t>(r)] = all_args[static_cast<std::size_t>(r)].count;

  // (2) The local stable sort.
  using clock = std::chrono::steady_clock;
  auto mark = clock::now();
  const auto lap = [&](double distributed_sort_phases::*phase) {
    if (!phases) return;
    distributed_wait(ctx);
    const auto now = clock::now();
    phases->*phase = std::chrono::duration<double>(now - mark).count();
    mark = now;
  };
  if (phases) *phases = distributed_sort_phases{};
  // sort, not mergesort: on a GPU arithmetic keys under less / greater take CUB's radix sort
  // (same result, stable), which is faster there (docs/design/distributed.md#tuning).
  if constexpr (HasValues)
    mergepath::sort_pairs(ctx, keys, vals, count, comp);
  else
    mergepath::sort(ctx, keys, count, comp);
  lap(&distributed_sort_phases::local_sort);
  if (p == 1) return;

  // (3) Splitters, then every rank's splits, known to all.
  Local local(ctx, keys, count, comp);
  const std::vector<index_t> splits = find_splits<Key>(session, local, counts, phases ? &phases->rounds : nullptr);
  std::vector<index_t> all_splits(static_cast<std::size_t>(p) * (static_cast<std::size_t>(p) + 1));
  session.allgather(splits.data(), splits.size() * sizeof(index_t), all_splits.data());
  check_splits(all_splits, counts, algorithm);
  lap(&distributed_sort_phases::splitters);

  // (4) The exchange: [splits[k], splits[k + 1]) to rank k; from rank q its [splits_q[me], splits_q[me + 1]).
  std::vector<index_t> send_counts(static_cast<std::size_t>(p)), send_offsets(static_cast<std::size_t>(p));
  std::vector<index_t> recv_counts(static_cast<std::size_t>(p)), recv_offsets(static_cast<std::size_t>(p) + 1, 0);
  for (int k = 0; k < p; ++k) {
    const std::size_t uk = static_cast<std::size_t>(k);
    send_offsets[uk] = splits[uk];
    send_counts[uk] = splits[uk + 1] - splits[uk];
    const index_t* theirs = all_splits.data() + uk * (static_cast<std::size_t>(p) + 1);
    recv_counts[uk] = theirs[me + 1] - theirs[me];
    recv_offsets[uk + 1] = recv_offsets[uk] + recv_counts[uk];
  }
  const index_t largest = *std::max_element(counts.begin(), counts.end());
  auto recv_keys = distributed_scratch<Key>(ctx, count);
  auto recv_vals = distributed_scratch<Val>(ctx, HasValues ? count : 0);
  session.exchange(keys, recv_keys.data(), sizeof(Key), send_counts.data(), send_offsets.data(), recv_counts.data(),
                   recv_offsets.data(), largest);
  if constexpr (HasValues)
    session.exchange(vals, recv_vals.data(), sizeof(Val), send_counts.data(), send_offsets.data(), recv_counts.data(),
                     recv_offsets.data(), largest);
  lap(&distributed_sort_phases::exchange);

  // (5) Merge the runs into the caller's arrays.
  merge_received_runs<HasValues>(ctx, recv_keys.data(), recv_vals.data(), keys, vals, recv_offsets, comp);
  lap(&distributed_sort_phases::merge);
}

}  // namespace detail
}  // namespace mergepath
