// Sorting keys spread over GPUs, one process per GPU, through NCCL:
//   mpirun -np <GPUs> ./distributed_sort_gpu [keys per rank] [--bench]
//
// MPI starts the processes and shares the NCCL id (MPI_Bcast); the sort itself talks through
// NCCL on each rank's cuda_context. Keys stay on the GPUs. Prints "skipped: no GPU" (exit 0)
// where a rank has no GPU of its own. --bench: a table of each phase's time, the slowest rank's,
// over a few repetitions, beside one GPU's sort, mergesort and CUB radix sort of all the keys
// (rank 0, when they fit).
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cub/device/device_radix_sort.cuh>
#include <mergepath/distributed.hpp>
#include <mergepath/mergesort.hpp>
#include <mergepath/sort.hpp>
#include <random>
#include <vector>

namespace {

double slowest(double seconds) {
  double max = 0;
  MPI_Allreduce(&seconds, &max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return max;
}

// Random uint32 keys on the device, from a per-rank seed.
__global__ void fill_keys(std::uint32_t* keys, long long count, std::uint32_t seed) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    std::uint64_t x = (static_cast<std::uint64_t>(seed) << 32) ^ static_cast<std::uint64_t>(i);
    x ^= x >> 33, x *= 0xff51afd7ed558ccdull, x ^= x >> 33, x *= 0xc4ceb9fe1a85ec53ull, x ^= x >> 33;
    keys[i] = static_cast<std::uint32_t>(x);
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  setenv("NCCL_NVLS_ENABLE", "0", 0);
  // NCCL reads this when the communicator is made: with 64 channels for send/recv the all-to-all
  // of 2^30 keys over 4 H200s took 5.0 ms instead of 7.4 (2 H200s: 4.4 instead of 5.1).
  setenv("NCCL_MIN_P2P_NCHANNELS", "64", 0);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long long per_rank = 1 << 24;
  bool bench = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--bench") == 0) bench = true;
    else per_rank = std::atoll(argv[i]);
  }

  int gpus = 0;
  if (cudaGetDeviceCount(&gpus) != cudaSuccess) gpus = 0;
  int missing = gpus < size ? 1 : 0;  // one GPU of its own for every rank on this node (one node)
  MPI_Allreduce(MPI_IN_PLACE, &missing, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (missing) {
    if (rank == 0) std::printf("skipped: no GPU for every rank\n");
    MPI_Finalize();
    return 0;
  }

  int status = 0;
  {
    MERGEPATH_CUDA_CHECK(cudaSetDevice(rank));
    ncclUniqueId id;
    if (rank == 0) MERGEPATH_NCCL_CHECK(ncclGetUniqueId(&id));
    MPI_Bcast(&id, sizeof(id), MPI_BYTE, 0, MPI_COMM_WORLD);
    ncclComm_t nccl;
    MERGEPATH_NCCL_CHECK(ncclCommInitRank(&nccl, size, id, rank));
    mergepath::nccl_communicator comm(nccl);
    mergepath::cuda_context ctx;

    std::uint32_t* keys = nullptr;
    MERGEPATH_CUDA_CHECK(cudaMalloc(&keys, static_cast<std::size_t>(per_rank) * sizeof(std::uint32_t)));
    // --bench: the total from runs without phases (asking for them adds a wait at each phase's
    // end), then the phases from as many runs again.
    const int repetitions = bench ? 5 : 1;
    mergepath::distributed_sort_phases best{};
    double best_total = 1e30, best_phased_total = 1e30;
    for (int r = 0; r < (bench ? 2 : 1) * repetitions; ++r) {
      const bool phased = r >= repetitions;
      fill_keys<<<1024, 256, 0, ctx.stream()>>>(keys, per_rank, 1234u + static_cast<std::uint32_t>(rank));
      ctx.synchronize();
      MPI_Barrier(MPI_COMM_WORLD);
      mergepath::distributed_sort_phases phases;
      const double start = MPI_Wtime();
      mergepath::distributed_sort(ctx, comm, keys, per_rank, mergepath::less<>{}, phased ? &phases : nullptr);
      ctx.synchronize();
      const double total = slowest(MPI_Wtime() - start);
      if (!phased)
        best_total = std::min(best_total, total);
      else if (total < best_phased_total)
        best_phased_total = total, best = phases;
    }

    // Check: sorted here, and the first key no less than the previous rank's last.
    std::vector<std::uint32_t> host(static_cast<std::size_t>(per_rank));
    MERGEPATH_CUDA_CHECK(cudaMemcpy(host.data(), keys, host.size() * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
    int ok = std::is_sorted(host.begin(), host.end()) ? 1 : 0;
    std::uint32_t last = host.empty() ? 0 : host.back(), previous_last = 0;
    MPI_Sendrecv(&last, 1, MPI_UINT32_T, rank + 1 < size ? rank + 1 : MPI_PROC_NULL, 0, &previous_last, 1,
                 MPI_UINT32_T, rank > 0 ? rank - 1 : MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank > 0 && !host.empty() && host.front() < previous_last) ok = 0;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    const double keys_total = static_cast<double>(per_rank) * size;
    if (rank == 0)
      std::printf("%.0f uint32 keys over %d GPUs (NCCL) sorted in %.3f ms (%.2f Gkeys/s): %s\n", keys_total, size,
                  best_total * 1e3, keys_total / best_total * 1e-9, ok ? "ok" : "NOT SORTED");
    if (bench) {
      const double ls = slowest(best.local_sort), sp = slowest(best.splitters), ex = slowest(best.exchange),
                   me = slowest(best.merge);
      if (rank == 0) {
        std::printf("| GPUs | keys | total ms | Gkeys/s | local sort ms | splitters ms (rounds) | all-to-all ms | merge ms |\n");
        std::printf("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
        std::printf("| %d | %.0f | %.2f | %.2f | %.2f | %.2f (%d) | %.2f | %.2f |\n", size, keys_total, best_total * 1e3,
                    keys_total / best_total * 1e-9, ls * 1e3, sp * 1e3, best.rounds, ex * 1e3, me * 1e3);
      }
      // One GPU, all the keys (rank 0, if they fit twice): mergepath's sort (CUB's radix sort for
      // these keys) and mergesort, and CUB's radix sort itself, each the best of `repetitions`.
      if (rank == 0) {
        const long long all = per_rank * size;
        std::uint32_t *a = nullptr, *b = nullptr;
        void* temp = nullptr;
        std::size_t temp_bytes = 0;
        // CUB picks its offset type from the count's: an int where it fits, as CUB's own users pass.
        const auto radix_sort = [&](void* storage) {
          if (all <= INT_MAX)
            return cub::DeviceRadixSort::SortKeys(storage, temp_bytes, a, b, static_cast<int>(all), 0, 32,
                                                  ctx.stream());
          return cub::DeviceRadixSort::SortKeys(storage, temp_bytes, a, b, static_cast<std::int64_t>(all), 0, 32,
                                                ctx.stream());
        };
        MERGEPATH_CUDA_CHECK(radix_sort(nullptr));
        if (cudaMalloc(&a, all * sizeof(std::uint32_t)) == cudaSuccess &&
            cudaMalloc(&b, all * sizeof(std::uint32_t)) == cudaSuccess && cudaMalloc(&temp, temp_bytes) == cudaSuccess) {
          cudaEvent_t e0, e1;
          MERGEPATH_CUDA_CHECK(cudaEventCreate(&e0));
          MERGEPATH_CUDA_CHECK(cudaEventCreate(&e1));
          const auto best_ms = [&](auto&& sort_all) {
            float best_ms = 1e30f, ms = 0;
            for (int r = 0; r < repetitions; ++r) {
              fill_keys<<<1024, 256, 0, ctx.stream()>>>(a, all, 99u);
              MERGEPATH_CUDA_CHECK(cudaEventRecord(e0, ctx.stream()));
              sort_all();
              MERGEPATH_CUDA_CHECK(cudaEventRecord(e1, ctx.stream()));
              MERGEPATH_CUDA_CHECK(cudaEventSynchronize(e1));
              MERGEPATH_CUDA_CHECK(cudaEventElapsedTime(&ms, e0, e1));
              best_ms = std::min(best_ms, ms);
            }
            return best_ms;
          };
          const float sort_ms = best_ms([&] { mergepath::sort(ctx, a, static_cast<mergepath::index_t>(all)); });
          const float merge_ms = best_ms([&] { mergepath::mergesort(ctx, a, static_cast<mergepath::index_t>(all)); });
          const float cub_ms = best_ms([&] { MERGEPATH_CUDA_CHECK(radix_sort(temp)); });
          const auto row = [&](const char* name, float ms) {
            std::printf("| 1 (%s) | %.0f | %.2f | %.2f | | | | |\n", name, keys_total, ms, keys_total / ms * 1e-6);
          };
          row("mergepath::sort", sort_ms);
          row("mergepath::mergesort", merge_ms);
          row("cub::DeviceRadixSort", cub_ms);
          (void)cudaEventDestroy(e0), (void)cudaEventDestroy(e1);
        } else {
          (void)cudaGetLastError();
          std::printf("(one GPU cannot hold %.0f keys twice: no single-GPU rows)\n", keys_total);
        }
        cudaFree(a), cudaFree(b), cudaFree(temp);
      }
    }
    status = ok ? 0 : 1;
    MERGEPATH_CUDA_CHECK(cudaFree(keys));
    ctx.synchronize();
    ncclCommDestroy(nccl);
  }
  MPI_Finalize();
  return status;
}
