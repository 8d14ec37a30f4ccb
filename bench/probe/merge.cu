// mergepath-probe cases for merge, merge_pairs and the merge sort (docs/design/merge-and-mergesort.md).
#include "probe_common.cuh"

// ==== case merge (was scripts/probe_merge.cu) =========================================
// A fixed workload for profilers (ncu): merge and merge_pairs of 2^26 + 2^26 int32, a few times.
namespace probe_merge {

struct random_key {
  __host__ __device__ int operator()(unsigned i) const {
    thrust::default_random_engine rng(i * 2654435761u + 12345u);
    return static_cast<int>(rng());
  }
};

int probe_main(int argc, char** argv) {
  long n = argc > 1 ? std::atol(argv[1]) : (1l << 26);
  int reps = argc > 2 ? std::atoi(argv[2]) : 3;
  thrust::device_vector<int> a(n), b(n), out(2 * n), av(n), bv(n), outv(2 * n);
  thrust::transform(thrust::counting_iterator<unsigned>(0), thrust::counting_iterator<unsigned>(n), a.begin(), random_key{});
  thrust::transform(thrust::counting_iterator<unsigned>(n), thrust::counting_iterator<unsigned>(2 * n), b.begin(), random_key{});
  if (const char* d = std::getenv("PROBE_DISTINCT_KEYS")) {  // keys below d: few distinct
    const int distinct = std::atoi(d);
    auto below = [distinct] __device__(int k) { return static_cast<int>(static_cast<unsigned>(k) % distinct); };
    thrust::transform(a.begin(), a.end(), a.begin(), below);
    thrust::transform(b.begin(), b.end(), b.begin(), below);
  }
  thrust::sort(a.begin(), a.end());
  thrust::sort(b.begin(), b.end());
  thrust::sequence(av.begin(), av.end());
  thrust::sequence(bv.begin(), bv.end());
  if (const char* g = std::getenv("PROBE_L2_FETCH_BYTES")) {  // experiment: L2 over-fetch on random loads
    MERGEPATH_CUDA_CHECK(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, std::atoi(g)));
    std::size_t v = 0;
    MERGEPATH_CUDA_CHECK(cudaDeviceGetLimit(&v, cudaLimitMaxL2FetchGranularity));
    std::printf("probe: L2 fetch granularity %zu bytes\n", v);
  }
  mergepath::cuda_context ctx;
  for (int r = 0; r < reps; ++r) {
    mergepath::merge(ctx, a.data().get(), n, b.data().get(), n, out.data().get());
    mergepath::merge_pairs(ctx, a.data().get(), av.data().get(), n, b.data().get(), bv.data().get(), n,
                           out.data().get(), outv.data().get());
  }
  ctx.synchronize();
  std::vector<int> h(2 * n);
  thrust::copy(out.begin(), out.end(), h.begin());
  for (long i = 1; i < 2 * n; ++i)
    if (h[i] < h[i - 1]) { std::printf("probe: NOT SORTED at %ld\n", i); return 1; }
  std::printf("probe: ok\n");
  return 0;
}

}  // namespace probe_merge

// ==== case merge4 (was scripts/probe_merge4.cu) =======================================
// Probe: mergesort with four-way merge passes, two tile designs side by side (docs/design/merge-and-mergesort.md).
// Blocksort as the library's, then passes that merge groups of four runs: the library's partition
// kernel (mergesort_partition4_kernel, four lanes per split) and one of two tile kernels:
//  - rounds: the four pieces in shared memory, 0+1 and 2+3 merged there, then the two results
//    (what the library's mergesort_merge4_kernel does);
//  - direct: every thread finds its own four-way split in shared memory and merges its outputs
//    from the four pieces at once (one shared-memory read per output; lost by far).
// PROBE_CHECK=1 compares every pass's splits with the one-thread selection (multiway_split);
// PROBE_ONLY=k runs the k-th configuration alone (for ncu).
namespace probe_merge4 {

using mergepath::index_t;
namespace mk = mergepath::kernel;
namespace mb = mergepath::block;
namespace md = mergepath::detail;

struct random_key {
  __host__ __device__ int operator()(unsigned long long i) const {
    thrust::default_random_engine rng(static_cast<unsigned>(i * 2654435761u + 12345u));
    return static_cast<int>(rng() ^ (rng() << 16));
  }
};

// Groups of four runs of `width` keys (the last group and run may be shorter), each group's
// output cut into tiles of tile_items.
struct merge4_pass {
  index_t count, width, tiles_per_group;
  int tile_items;
  __host__ __device__ index_t num_tiles() const {
    index_t group_items = 4 * width;
    index_t full = count / group_items;
    return full * tiles_per_group + md::ceil_div(count - full * group_items, index_t{tile_items});
  }
};

struct merge4_tile {
  index_t begin[4], count[4];  // the group's runs
  index_t diag0, diag1, total;
  __host__ __device__ merge4_tile(const merge4_pass& pass, index_t tile) {
    index_t group = tile / pass.tiles_per_group;
    total = 0;
    for (int r = 0; r < 4; ++r) {
      begin[r] = group * 4 * pass.width + r * pass.width;
      count[r] = md::max_of<index_t>(0, md::min_of(pass.width, pass.count - begin[r]));
      total += count[r];
    }
    diag0 = (tile - group * pass.tiles_per_group) * pass.tile_items;
    diag1 = md::min_of(diag0 + pass.tile_items, total);
  }
};

__global__ void merge4_partition_kernel(const int* keys, merge4_pass pass, index_t* splits) {
  md::allow_dependent_launch();
  md::wait_for_prior_grid();
  index_t tile = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  if (tile >= pass.num_tiles()) return;
  merge4_tile t(pass, tile);
  const int* seqs[4] = {keys + t.begin[0], keys + t.begin[1], keys + t.begin[2], keys + t.begin[3]};
  index_t out[4];
  mergepath::multiway_split<4>(seqs, t.count, t.diag0, out, mergepath::less<>{});
  for (int r = 0; r < 4; ++r) splits[4 * tile + r] = out[r];
}

// Loads the tile's four pieces into shared memory, each at a position that agrees with its
// global address modulo 16 bytes. pos[r], n[r]: where piece r lies and how long it is.
template <int Threads, int TileItems>
__device__ void load_pieces(const int* in, const merge4_tile& t, const index_t* splits, index_t tile, int* segments,
                            int (&pos)[4], int (&n)[4]) {
  const bool last_in_group = t.diag1 == t.total;
  int at = 0;
  MERGEPATH_UNROLL
  for (int r = 0; r < 4; ++r) {
    index_t s0 = splits[4 * tile + r];
    index_t s1 = last_in_group ? t.count[r] : splits[4 * tile + 4 + r];
    n[r] = static_cast<int>(s1 - s0);
    const int* from = in + t.begin[r] + s0;
    int residue = mb::address_residue<int>(from);
    int p = (at + 3) / 4 * 4 + residue;
    if (p < at) p += 4;
    pos[r] = p;
    mb::copy_run_to_shared<Threads, TileItems>(from, n[r], segments, p);
    at = p + n[r];
  }
  mb::commit_copies();
  mb::wait_for_copies<0>();
  __syncthreads();
}

// The kernels' start: wait for the partition, then load this block's tile.
template <int Threads, int TileItems>
__device__ merge4_tile load_tile(const int* in, const merge4_pass& pass, const index_t* splits, int* segments,
                                 int (&pos)[4], int (&n)[4]) {
  md::allow_dependent_launch();
  md::wait_for_prior_grid();
  const merge4_tile t(pass, blockIdx.x);
  load_pieces<Threads, TileItems>(in, t, splits, blockIdx.x, segments, pos, n);
  return t;
}

// ---- rounds: 0+1 and 2+3 in shared memory, then the two results ----
template <int Threads, int Items>
struct rounds_shape {
  static constexpr int tile_items = (Threads - 1) * Items;  // level one needs a thread of slack
  static constexpr int segments_slots = tile_items + 4 * 8 + Items + 1;
  static constexpr int merged_slots = Threads * Items + Items + 1;
  static constexpr std::size_t bytes = sizeof(int) * (segments_slots + merged_slots);
};

template <int Threads, int Items, int Resident>
__global__ void __launch_bounds__(Threads, Resident / Threads)
    rounds_tile_kernel(const int* in, merge4_pass pass, const index_t* splits, int* out) {
  using shape = rounds_shape<Threads, Items>;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  int* segments = reinterpret_cast<int*>(shared_bytes);
  int* merged = segments + shape::segments_slots;
  mergepath::less<> comp;
  int pos[4], n[4];
  const merge4_tile t = load_tile<Threads, shape::tile_items>(in, pass, splits, segments, pos, n);
  const int nx = n[0] + n[1], ny = n[2] + n[3];
  const int x_threads = md::ceil_div(nx, Items);
  const int y_base = x_threads * Items;
  {
    int r = threadIdx.x < x_threads ? 0 : 2;
    int diag = threadIdx.x < x_threads ? threadIdx.x * Items : (threadIdx.x - x_threads) * Items;
    int length = n[r] + n[r + 1];
    if (diag < length) {
      int a_split = mergepath::merge_path(segments + pos[r], n[r], segments + pos[r + 1], n[r + 1], diag, comp);
      int keys_out[Items], source[Items];
      mergepath::serial_merge_n<Items>(segments, pos[r] + a_split, pos[r] + n[r], pos[r + 1] + diag - a_split,
                                       pos[r + 1] + n[r + 1], keys_out, source, comp);
      int* to = merged + (r == 0 ? 0 : y_base) + diag;
      MERGEPATH_UNROLL
      for (int k = 0; k < Items; ++k) to[k] = keys_out[k];
    }
  }
  __syncthreads();
  const int count = nx + ny;
  int diag = md::min_of(static_cast<int>(threadIdx.x) * Items, count);
  int a_split = mergepath::merge_path(merged, nx, merged + y_base, ny, diag, comp);
  int keys_out[Items], source[Items];
  mergepath::serial_merge_n<Items>(merged, a_split, nx, y_base + diag - a_split, y_base + ny, keys_out, source, comp);
  mb::store_blocked_to_shared(keys_out, segments);
  __syncthreads();
  mb::store_shared_to_global<Threads, Items>(segments, count, out + (t.begin[0] + t.diag0));
}

// ---- direct: every thread's own four-way split, then a four-way serial merge ----
// The next Count outputs of the stable merge of keys[begin[s], end[s]), s = 0..K-1 (runs of one
// array in order): one read per output, of the run whose head was taken.
template <int Count, int K, class It, class T, class Comp>
__device__ void serial_multiway_merge_n(It keys, const int (&begin)[K], const int (&end)[K], T (&out)[Count],
                                        int (&source)[Count], Comp comp) {
  int at[K];
  T head[K];
  MERGEPATH_UNROLL
  for (int s = 0; s < K; ++s) {
    at[s] = begin[s];
    head[s] = at[s] < end[s] ? keys[at[s]] : T{};
  }
  MERGEPATH_UNROLL
  for (int k = 0; k < Count; ++k) {
    int best = -1, from = at[0];
    T value = head[0];
    MERGEPATH_UNROLL
    for (int s = 0; s < K; ++s)
      if (at[s] < end[s] && (best < 0 || comp(head[s], value))) best = s, value = head[s], from = at[s];
    out[k] = value;
    source[k] = from;
    const int next = from + 1;
    bool more = false;
    MERGEPATH_UNROLL
    for (int s = 0; s < K; ++s)
      if (s == best) more = next < end[s];
    T loaded = value;
    if (more) loaded = keys[next];
    MERGEPATH_UNROLL
    for (int s = 0; s < K; ++s)
      if (s == best) at[s] = next, head[s] = loaded;
  }
}

template <int Threads, int Items>
struct direct_shape {
  static constexpr int tile_items = Threads * Items;
  static constexpr std::size_t bytes = sizeof(int) * (tile_items + 4 * 4);
};

template <int Threads, int Items, int Resident>
__global__ void __launch_bounds__(Threads, Resident / Threads)
    direct_tile_kernel(const int* in, merge4_pass pass, const index_t* splits, int* out) {
  using shape = direct_shape<Threads, Items>;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  int* keys = reinterpret_cast<int*>(shared_bytes);
  mergepath::less<> comp;
  int pos[4], n[4];
  const merge4_tile t = load_tile<Threads, shape::tile_items>(in, pass, splits, keys, pos, n);
  const int count = n[0] + n[1] + n[2] + n[3];
  const int diag = md::min_of(static_cast<int>(threadIdx.x) * Items, count);
  const int* seqs[4] = {keys + pos[0], keys + pos[1], keys + pos[2], keys + pos[3]};
  int split[4];
  mergepath::multiway_split<4>(seqs, n, diag, split, comp);
  int begin[4], end[4];
  MERGEPATH_UNROLL
  for (int r = 0; r < 4; ++r) begin[r] = pos[r] + split[r], end[r] = pos[r] + n[r];
  int merged[Items], source[Items];
  serial_multiway_merge_n<Items>(keys, begin, end, merged, source, comp);
  __syncthreads();
  mb::store_blocked_to_shared(merged, keys);
  __syncthreads();
  mb::store_shared_to_global<Threads, Items>(keys, count, out + (t.begin[0] + t.diag0));
}

static int config_index = 0;

template <bool Direct, int Threads, int Items, int Resident = 1024>
void run(index_t n, int reps) {
  // PROBE_ONLY=k runs the k-th configuration alone (for ncu).
  const char* only = std::getenv("PROBE_ONLY");
  if (only && std::atoi(only) != config_index++) return;
  using Policy = mergepath::default_mergesort_policy<int>;
  constexpr int tile_items = Direct ? direct_shape<Threads, Items>::tile_items : rounds_shape<Threads, Items>::tile_items;
  constexpr std::size_t tile_bytes = Direct ? direct_shape<Threads, Items>::bytes : rounds_shape<Threads, Items>::bytes;
  constexpr auto tile_kernel = Direct ? direct_tile_kernel<Threads, Items, Resident> : rounds_tile_kernel<Threads, Items, Resident>;
  constexpr mergepath::mergesort_tuning tuning = Policy::tuning;
  constexpr index_t sort_tile = tuning.blocksort.tile_items();
  thrust::device_vector<int> input(n), buf0(n), buf1(n), ref(n);
  thrust::transform(thrust::counting_iterator<unsigned long long>(0), thrust::counting_iterator<unsigned long long>(n),
                    input.begin(), random_key{});
  ref = input;
  thrust::sort(ref.begin(), ref.end());
  mergepath::cuda_context ctx(cudaStream_t{0});
  int* b0 = buf0.data().get();
  int* b1 = buf1.data().get();
  const index_t sort_tiles = md::ceil_div(n, sort_tile);
  const index_t max_tiles = n / tile_items + n / (4 * sort_tile) + 64;  // each group ends with a partial tile
  thrust::device_vector<index_t> splits(4 * max_tiles), splits_ref(4 * max_tiles);
  thrust::device_vector<index_t> partitions(n / tuning.merge.tile_items() + 64);
  int* result = nullptr;
  cudaFuncSetAttribute(tile_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(tile_bytes));
  cudaEvent_t e0, e1, e2;
  cudaEventCreate(&e0), cudaEventCreate(&e1), cudaEventCreate(&e2);
  double partition_us = 0, tile_us = 0;
  auto sort4 = [&](bool timed_parts) {
    constexpr auto sort_kernel = mk::blocksort_kernel<Policy, int*, mk::no_values, int*, mk::no_values, mergepath::less<>>;
    constexpr std::size_t sort_bytes = mk::blocksort_layout<Policy, int*, mk::no_values>::bytes;
    (void)mergepath::device::resident_blocks_per_sm<sort_kernel>(ctx, tuning.blocksort.block_threads, sort_bytes);
    md::launch_dependent("blocksort", sort_kernel, static_cast<unsigned>(sort_tiles), tuning.blocksort.block_threads,
                         sort_bytes, ctx.stream(), b0, mk::no_values{}, n, b0, mk::no_values{}, mergepath::less<>{});
    int* from = b0;
    int* to = b1;
    index_t width = sort_tile;
    while (width < n) {
      if (2 * width < n) {  // more than two runs: a four-way pass
        merge4_pass pass{n, width, md::ceil_div<index_t>(4 * width, tile_items), tile_items};
        index_t tiles = pass.num_tiles();
        if (timed_parts) cudaEventRecord(e0);
        // The library's four-lane partition kernel, 32-bit arithmetic.
        md::launch_dependent("merge4_group_partition",
                             mk::mergesort_partition4_kernel<const int*, int, mergepath::less<>>,
                             static_cast<unsigned>(md::ceil_div<index_t>(4 * tiles, 128)), 128, 0, ctx.stream(),
                             static_cast<const int*>(from),
                             mk::merge4_pass{pass.count, pass.width, pass.tiles_per_group, pass.tile_items},
                             splits.data().get(), mergepath::less<>{});
        if (timed_parts) cudaEventRecord(e1);
        if (timed_parts && std::getenv("PROBE_CHECK")) {  // against the one-thread selection
          md::launch_dependent("merge4_partition", merge4_partition_kernel,
                               static_cast<unsigned>(md::ceil_div<index_t>(tiles, 128)), 128, 0, ctx.stream(),
                               static_cast<const int*>(from), pass, splits_ref.data().get());
          cudaDeviceSynchronize();
          std::vector<index_t> got(4 * tiles), want(4 * tiles);
          thrust::copy(splits.begin(), splits.begin() + 4 * tiles, got.begin());
          thrust::copy(splits_ref.begin(), splits_ref.begin() + 4 * tiles, want.begin());
          for (index_t i = 0; i < 4 * tiles; ++i)
            if (got[i] != want[i]) {
              std::printf("    SPLITS DIFFER at tile %ld run %d: %ld vs %ld\n", long(i / 4), int(i % 4), long(got[i]),
                          long(want[i]));
              break;
            }
          cudaEventRecord(e1);
        }
        md::launch_dependent("merge4_tile", tile_kernel, static_cast<unsigned>(tiles), Threads, tile_bytes,
                             ctx.stream(), static_cast<const int*>(from), pass,
                             static_cast<const index_t*>(splits.data().get()), to);
        if (timed_parts) {
          cudaEventRecord(e2);
          cudaEventSynchronize(e2);
          float p = 0, k = 0;
          cudaEventElapsedTime(&p, e0, e1), cudaEventElapsedTime(&k, e1, e2);
          partition_us += 1000 * p, tile_us += 1000 * k;
          std::printf("    width %9ld: partition %6.1f us, tiles %6.1f us\n", static_cast<long>(width), 1000 * p,
                      1000 * k);
        }
        width *= 4;
      } else {  // two runs left
        mk::merge_pass pass{n, width, md::ceil_div<index_t>(2 * width, tuning.merge.tile_items()),
                            tuning.merge.tile_items()};
        index_t tiles = pass.num_tiles();
        md::launch_dependent("partition", mk::mergesort_partition_kernel<int*, mergepath::less<>>,
                             static_cast<unsigned>(md::ceil_div<index_t>(tiles, 128)), 128, 0, ctx.stream(), from,
                             pass, -1, static_cast<const uint4*>(nullptr), partitions.data().get(),
                             ctx.split_repair_ticket(), mergepath::less<>{});
        constexpr auto merge_kernel =
            mk::mergesort_merge_kernel<Policy, int*, mk::no_values, int*, mk::no_values, mergepath::less<>>;
        constexpr std::size_t bytes = mk::merge_layout_of<mk::merge_pass_policy<Policy>, int*, mk::no_values>::bytes;
        (void)mergepath::device::resident_blocks_per_sm<merge_kernel>(ctx, tuning.merge.block_threads, bytes);
        md::launch_dependent("merge", merge_kernel, static_cast<unsigned>(tiles), tuning.merge.block_threads, bytes,
                             ctx.stream(), from, mk::no_values{}, pass, static_cast<const index_t*>(partitions.data().get()),
                             to, mk::no_values{}, mergepath::less<>{});
        width *= 2;
      }
      std::swap(from, to);
    }
    result = from;
  };
  auto reset = [&] { thrust::copy(input.begin(), input.end(), buf0.begin()); };
  int occupancy = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occupancy, tile_kernel, Threads, tile_bytes);
  std::printf("--- n = %ld, %s tiles %d x %d @%d (%d keys, %zu B, %d blocks/SM), blocksort %d keys\n",
              static_cast<long>(n), Direct ? "direct" : "rounds", Threads, Items, Resident, tile_items, tile_bytes, occupancy,
              static_cast<int>(sort_tile));
  if (std::getenv("PROBE_CHECK")) {  // the timed pass first: it checks the splits
    reset();
    sort4(true);
  }
  float four = median_ms(reps, reset, [&] { sort4(false); });
  cudaError_t err = cudaDeviceSynchronize();
  bool ok = err == cudaSuccess &&
            thrust::equal(thrust::device_pointer_cast(result), thrust::device_pointer_cast(result) + n, ref.begin());
  reset();
  sort4(true);
  std::printf("  four-way mergesort %.3f ms %s (%s); partitions %.1f us, tiles %.1f us in all\n", four,
              ok ? "ok" : "MISMATCH", cudaGetErrorString(err), partition_us, tile_us);
}


int probe_main(int argc, char** argv) {
  index_t n = argc > 1 ? std::atol(argv[1]) : (index_t{1} << 26);
  int reps = argc > 2 ? std::atoi(argv[2]) : 5;
  if (!std::getenv("PROBE_ONLY")) {
    thrust::device_vector<int> input(n), keys(n);
    thrust::transform(thrust::counting_iterator<unsigned long long>(0),
                      thrust::counting_iterator<unsigned long long>(n), input.begin(), random_key{});
    mergepath::cuda_context ctx(cudaStream_t{0});
    auto reset = [&] { thrust::copy(input.begin(), input.end(), keys.begin()); };
    float lib = median_ms(reps, reset, [&] { mergepath::mergesort(ctx, keys.data().get(), n); });
    std::size_t temp_bytes = 0;
    cub::DeviceMergeSort::StableSortKeys(nullptr, temp_bytes, keys.data().get(), n, mergepath::less<>{});
    thrust::device_vector<char> temp(temp_bytes);
    float cub = median_ms(reps, reset, [&] {
      std::size_t bytes = temp_bytes;
      cub::DeviceMergeSort::StableSortKeys(temp.data().get(), bytes, keys.data().get(), n, mergepath::less<>{});
    });
    std::printf("n = %ld: mergepath::mergesort %.3f ms, CUB %.3f ms (%.2fx)\n", static_cast<long>(n), lib, cub,
                cub / lib);
  }
  run<false, 128, 23, 1536>(n, reps);
  run<false, 128, 15, 1536>(n, reps);
  run<false, 256, 23, 1536>(n, reps);
  run<true, 256, 23>(n, reps);  // direct: ~900 us a pass
  return 0;
}

}  // namespace probe_merge4

// ==== case merge_time (was scripts/probe_merge_time.cu) ===============================
// Where a merge's time goes between its launches: the median over reps of N back-to-back calls
// of the whole merge, of its partition pass alone and of its tile kernel alone (2^26 + 2^26
// int32 keys by default), timed with CUDA events like mergepath-bench.
namespace probe_merge_time {

using mergepath::index_t;
struct wide_policy {  // a larger tile: fewer splits for the partition pass
  static constexpr mergepath::merge_tuning tuning{384, 27, 1, false, 1536, 1, 2};
};

struct key_below {  // a random key in [0, limit)
  unsigned limit;
  __host__ __device__ int operator()(unsigned i) const {
    thrust::default_random_engine rng(i * 2654435761u + 12345u);
    return static_cast<int>(rng() % limit);
  }
};

// distinct_keys == 0: a = the even numbers, b = the odd ones; else both random in [0, distinct_keys).
template <class policy>
void measure(const char* name, index_t n, unsigned distinct_keys) {
  thrust::device_vector<int> a(n), b(n), out(2 * n), out2(2 * n);
  if (distinct_keys == 0) {
    thrust::sequence(a.begin(), a.end(), 0, 2);
    thrust::sequence(b.begin(), b.end(), 1, 2);
  } else {
    thrust::transform(thrust::counting_iterator<unsigned>(0), thrust::counting_iterator<unsigned>(n), a.begin(),
                      key_below{distinct_keys});
    thrust::transform(thrust::counting_iterator<unsigned>(n), thrust::counting_iterator<unsigned>(2 * n), b.begin(),
                      key_below{distinct_keys});
    thrust::sort(a.begin(), a.end());
    thrust::sort(b.begin(), b.end());
  }
  mergepath::cuda_context ctx;
  std::printf("%s, n = %ld + %ld int32 keys, %s\n", name, static_cast<long>(n), static_cast<long>(n),
              distinct_keys == 0 ? "evens and odds" : ("keys below " + std::to_string(distinct_keys)).c_str());
  constexpr mergepath::merge_tuning t = policy::tuning;
  index_t tiles = mergepath::detail::ceil_div<index_t>(2 * n, t.tile_items());
  thrust::device_vector<index_t> parts(tiles + 1);
  const int* pa = a.data().get();
  const int* pb = b.data().get();
  int* po = out.data().get();
  auto partition = [&] {
    auto samples = mergepath::device::launch_merge_partition<mergepath::bounds::lower, 1, t.partition_sample_bytes>(
        ctx, pa, n, pb, n, t.tile_items(), tiles + 1, parts.data().get(), mergepath::less<>{});
  };
  constexpr auto tile_kernel = mergepath::kernel::merge_tile_kernel<policy, const int*, mergepath::kernel::no_values,
                                                                    const int*, mergepath::kernel::no_values, int*,
                                                                    mergepath::kernel::no_values, mergepath::less<>>;
  std::size_t shared = mergepath::kernel::merge_layout_of<policy, const int*, mergepath::kernel::no_values>::bytes;
  mergepath::device::resident_blocks_per_sm<tile_kernel>(ctx, t.block_threads, shared);
  auto tile = [&] {
    mergepath::detail::launch("merge_tile_kernel", tile_kernel, static_cast<unsigned>(tiles), t.block_threads, shared,
                              ctx.stream(), pa, mergepath::kernel::no_values{}, pb, mergepath::kernel::no_values{},
                              2 * n, static_cast<const index_t*>(parts.data().get()), tiles, po,
                              mergepath::kernel::no_values{}, index_t{0}, false, mergepath::less<>{});
  };
  auto merge = [&] { mergepath::merge<policy>(ctx, pa, n, pb, n, po); };
  auto copy = [&] {
    cudaMemcpyAsync(out2.data().get(), po, 2 * n * sizeof(int), cudaMemcpyDeviceToDevice, ctx.stream());
  };
  std::size_t cub_bytes = 0;
  MERGEPATH_CUDA_CHECK(cub::DeviceMerge::MergeKeys(nullptr, cub_bytes, pa, n, pb, n, out2.data().get(),
                                                   ::cuda::std::less<>{}, ctx.stream()));
  thrust::device_vector<unsigned char> cub_temp(cub_bytes + 1);
  auto cub_merge = [&] {
    MERGEPATH_CUDA_CHECK(cub::DeviceMerge::MergeKeys(cub_temp.data().get(), cub_bytes, pa, n, pb, n, out2.data().get(),
                                                     ::cuda::std::less<>{}, ctx.stream()));
  };
  for (int calls : {1, 10}) {
    std::printf("calls %2d: merge %.1f us, partition %.1f us, tile kernel %.1f us, copy of the output %.1f us, "
                "cub::DeviceMerge %.1f us\n",
                calls, per_call_us(ctx.stream(), calls, merge), per_call_us(ctx.stream(), calls, partition),
                per_call_us(ctx.stream(), calls, tile), per_call_us(ctx.stream(), calls, copy),
                per_call_us(ctx.stream(), calls, cub_merge));
  }
  merge();
  std::printf("  %s\n", out == out2 ? "ok (equals CUB's)" : "MISMATCH against CUB");
  ctx.synchronize();
}

int probe_main(int argc, char** argv) {
  index_t n = argc > 1 ? std::atol(argv[1]) : (index_t{1} << 26);
  const unsigned distinct_keys = argc > 2 ? static_cast<unsigned>(std::atol(argv[2])) : 0;
  measure<mergepath::default_merge_policy<int>>("default tuning", n, distinct_keys);
  measure<wide_policy>("{384, 27}", n, distinct_keys);
  return 0;
}

}  // namespace probe_merge_time

// ==== case mergesort (was scripts/probe_mergesort.cu) =================================
// A quick mergesort probe: 2^26 random keys sorted by mergepath (a few tunings) and by CUB's merge
// and radix sorts, timed with events (median of reps), results checked. Also a fixed workload for ncu.
namespace probe_mergesort {

// The default tuning with other four-way tiles (FT 0: two-way passes only).
template <class Key, class Value, int FT, int FI, int FR>
struct four_way_shape {
  static constexpr mergepath::mergesort_tuning tuning = [] {
    mergepath::mergesort_tuning t = mergepath::default_mergesort_policy<Key, Value>::tuning;
    t.four_way = {FT, FI, FR};
    return t;
  }();
};

template <class K>
void run(long n, int reps) {
  thrust::device_vector<K> input(n), keys(n), ref(n), out(n);
  thrust::device_vector<int> vals(n), vout(n);
  thrust::transform(thrust::counting_iterator<unsigned long long>(0), thrust::counting_iterator<unsigned long long>(n),
                    input.begin(), random_key<K>{});
  ref = input;
  thrust::sort(ref.begin(), ref.end());
  mergepath::cuda_context ctx(cudaStream_t{0});
  K* k = keys.data().get();
  int* v = vals.data().get();
  auto reset = [&] { thrust::copy(input.begin(), input.end(), keys.begin()); thrust::sequence(vals.begin(), vals.end()); };
  auto check = [&](const char* what) {
    cudaDeviceSynchronize();
    bool ok = keys == ref;
    std::printf("  %-44s %s\n", what, ok ? "ok" : "MISMATCH");
  };
  double gk = n / 1e6;
  auto report = [&](const char* what, float ms) { std::printf("%-48s %8.3f ms %8.2f Gkeys/s\n", what, ms, gk / ms); };
  std::printf("--- %zu-byte keys, n = %ld\n", sizeof(K), n);
  report("copy", median_ms(reps, [] {}, [&] { cudaMemcpyAsync(out.data().get(), k, n * sizeof(K), cudaMemcpyDeviceToDevice); }));

  std::size_t temp_bytes = 0;
  cub::DeviceMergeSort::StableSortKeys(nullptr, temp_bytes, k, n, mergepath::less<>{});
  thrust::device_vector<char> temp(temp_bytes);
  report("cub::DeviceMergeSort::StableSortKeys", median_ms(reps, reset, [&] {
    std::size_t b = temp_bytes;
    cub::DeviceMergeSort::StableSortKeys(temp.data().get(), b, k, n, mergepath::less<>{});
  }));
  check("cub merge sort keys");
  temp_bytes = 0;
  cub::DeviceMergeSort::StableSortPairs(nullptr, temp_bytes, k, v, n, mergepath::less<>{});
  temp.resize(temp_bytes);
  report("cub::DeviceMergeSort::StableSortPairs", median_ms(reps, reset, [&] {
    std::size_t b = temp_bytes;
    cub::DeviceMergeSort::StableSortPairs(temp.data().get(), b, k, v, n, mergepath::less<>{});
  }));
  temp_bytes = 0;
  cub::DeviceRadixSort::SortKeys(nullptr, temp_bytes, k, out.data().get(), n);
  temp.resize(temp_bytes);
  report("cub::DeviceRadixSort::SortKeys", median_ms(reps, reset, [&] {
    std::size_t b = temp_bytes;
    cub::DeviceRadixSort::SortKeys(temp.data().get(), b, k, out.data().get(), n);
  }));

  report("mergepath::mergesort (default)", median_ms(reps, reset, [&] { mergepath::mergesort(ctx, k, n); }));
  check("mergepath keys");
  report("mergepath::mergesort_pairs (default)", median_ms(reps, reset, [&] { mergepath::mergesort_pairs(ctx, k, v, n); }));
  check("mergepath pairs");
  auto tuned = [&](auto policy, const char* name) {
    using P = decltype(policy);
    report(name, median_ms(reps, reset, [&] { mergepath::mergesort<P>(ctx, k, n); }));
    check(name);
  };
  auto tuned_pairs = [&](auto policy, const char* name) {
    using P = decltype(policy);
    report(name, median_ms(reps, reset, [&] { mergepath::mergesort_pairs<P>(ctx, k, v, n); }));
    check(name);
  };
  // Four-way tiles (the blocksort and two-way tiles as the defaults'); 0 x 0: two-way only.
  tuned(four_way_shape<K, void, 0, 0, 0>{}, "keys two-way only");
  tuned(four_way_shape<K, void, 256, 23, 1536>{}, "keys four-way 256 x 23 @1536");
  tuned(four_way_shape<K, void, 128, 23, 1536>{}, "keys four-way 128 x 23 @1536");
  tuned(four_way_shape<K, void, 128, 23, 1024>{}, "keys four-way 128 x 23 @1024");
  tuned(four_way_shape<K, void, 256, 15, 1024>{}, "keys four-way 256 x 15 @1024");
  if constexpr (sizeof(K) == 4) {
    tuned_pairs(four_way_shape<K, int, 0, 0, 0>{}, "pairs two-way only");
    tuned_pairs(four_way_shape<K, int, 128, 23, 1024>{}, "pairs four-way 128 x 23 @1024");
    tuned_pairs(four_way_shape<K, int, 256, 23, 1024>{}, "pairs four-way 256 x 23 @1024");
    tuned_pairs(four_way_shape<K, int, 128, 15, 1024>{}, "pairs four-way 128 x 15 @1024");
    tuned_pairs(four_way_shape<K, int, 256, 15, 1024>{}, "pairs four-way 256 x 15 @1024");
    tuned_pairs(four_way_shape<K, int, 128, 15, 1536>{}, "pairs four-way 128 x 15 @1536");
    tuned_pairs(four_way_shape<K, int, 128, 19, 1024>{}, "pairs four-way 128 x 19 @1024");
    tuned_pairs(four_way_shape<K, int, 128, 11, 1024>{}, "pairs four-way 128 x 11 @1024");
    tuned_pairs(four_way_shape<K, int, 64, 15, 1024>{}, "pairs four-way 64 x 15 @1024");
  }
}

// --case mergesort N REPS: the table. --case mergesort N REPS profile: only mergepath's sorts of
// int32 keys and pairs, once each, for a profiler. --case mergesort N REPS double: double keys.
int probe_main(int argc, char** argv) {
  long n = argc > 1 ? std::atol(argv[1]) : (1l << 26);
  int reps = argc > 2 ? std::atoi(argv[2]) : 5;
  if (argc > 3 && std::string(argv[3]) == "profile") {
    thrust::device_vector<int> keys(n), vals(n);
    thrust::transform(thrust::counting_iterator<unsigned long long>(0), thrust::counting_iterator<unsigned long long>(n),
                      keys.begin(), random_key<int>{});
    thrust::device_vector<int> input = keys;
    mergepath::cuda_context ctx;
    mergepath::mergesort(ctx, keys.data().get(), n);
    keys = input;
    mergepath::mergesort_pairs(ctx, keys.data().get(), vals.data().get(), n);
    ctx.synchronize();
    return 0;
  }
  if (argc > 3 && std::string(argv[3]) == "double") {  // 8-byte floating-point keys alone
    run<double>(n, reps);
    return 0;
  }
  run<int>(n, reps);
  if (argc <= 3) run<long long>(n, reps);
  return 0;
}

}  // namespace probe_mergesort
