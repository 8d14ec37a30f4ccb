// distributed_sort and distributed_sort_pairs on GPU ranks, one process per rank under mpirun:
//   DeviceMpi:  cuda_context over mpi_communicator; ranks may share a GPU (rank r takes GPU
//               r % GPUs), so one GPU runs it with any number of ranks.
//   DeviceNccl: cuda_context over nccl_communicator (its id shared by MPI_Bcast); one GPU per
//               rank, skipped when the ranks outnumber the GPUs. On one GPU it runs with 1 rank.
// Every test is skipped (not passed) without a GPU. The cases are distributed_cases.hpp.
#include <cuda_runtime_api.h>

#include <cstdlib>
#include <map>
#include <mergepath/distributed.hpp>

#include "distributed_cases.hpp"

namespace {

using mergepath::index_t;

int gpu_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return n;
}

// Why some rank of comm cannot run with `needed` GPUs each distinct (or any GPU): "" if all can.
std::string gpus_missing(MPI_Comm comm, bool distinct) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  const int gpus = gpu_count();
  int bad = gpus == 0 || (distinct && gpus < size) ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, comm);
  if (!bad) return "";
  return distinct ? "needs one GPU per rank (" + std::to_string(size) + " ranks)" : "no GPU";
}

// Host arrays to the device, the sort, and back; null pointers and bad counts passed on as they are.
template <class T>
struct device_copy {
  T* host;
  index_t count;
  T* device = nullptr;
  device_copy(T* h, index_t n) : host(h), count(n) {
    if (host && count > 0) {
      MERGEPATH_CUDA_CHECK(cudaMalloc(&device, static_cast<std::size_t>(count) * sizeof(T)));
      MERGEPATH_CUDA_CHECK(cudaMemcpy(device, host, static_cast<std::size_t>(count) * sizeof(T), cudaMemcpyHostToDevice));
      // A pageable upload may return before its DMA lands, and the context's non-blocking stream
      // would not wait for it (4 ranks on 2 GPUs sorted stale values once).
      MERGEPATH_CUDA_CHECK(cudaDeviceSynchronize());
    } else if (host) {
      MERGEPATH_CUDA_CHECK(cudaMalloc(&device, sizeof(T)));  // a valid pointer with a count of 0 or less
    }
  }
  void back() {
    if (host && count > 0)
      MERGEPATH_CUDA_CHECK(cudaMemcpy(host, device, static_cast<std::size_t>(count) * sizeof(T), cudaMemcpyDeviceToHost));
  }
  ~device_copy() {
    if (device) (void)cudaFree(device);
  }
};

template <bool Pairs, class Comm, class Key, class Val, class Comp>
void sort_on_device(mergepath::cuda_context& ctx, Comm& comm, Key* keys, Val* vals, index_t count, Comp comp) {
  device_copy<Key> k(keys, count);
  device_copy<Val> v(Pairs ? vals : nullptr, count);
  if constexpr (Pairs)
    mergepath::distributed_sort_pairs(ctx, comm, k.device, v.device, count, comp);
  else
    mergepath::distributed_sort(ctx, comm, k.device, count, comp);
  ctx.synchronize();
  k.back();
  v.back();
}

struct device_mpi_backend {
  static std::string unavailable(MPI_Comm comm) { return gpus_missing(comm, false); }
  static constexpr bool has_message_limit = true;
  template <bool Pairs, class Key, class Val, class Comp>
  static void sort(MPI_Comm comm, Key* keys, Val* vals, index_t count, Comp comp, std::int64_t max_message_bytes, int) {
    mergepath::mpi_communicator mc(comm, max_message_bytes);
    MERGEPATH_CUDA_CHECK(cudaSetDevice(mc.rank() % gpu_count()));
    mergepath::cuda_context ctx;
    sort_on_device<Pairs>(ctx, mc, keys, vals, count, comp);
  }
};

// One NCCL communicator per MPI communicator, made on first use (collective) and kept.
ncclComm_t nccl_for(MPI_Comm comm) {
  static std::map<MPI_Comm, ncclComm_t> made;
  auto found = made.find(comm);
  if (found != made.end()) return found->second;
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  ncclUniqueId id;
  if (rank == 0) MERGEPATH_NCCL_CHECK(ncclGetUniqueId(&id));
  MPI_Bcast(&id, sizeof(id), MPI_BYTE, 0, comm);
  MERGEPATH_CUDA_CHECK(cudaSetDevice(rank));
  ncclComm_t nc;
  MERGEPATH_NCCL_CHECK(ncclCommInitRank(&nc, size, id, rank));
  made[comm] = nc;
  return nc;
}

struct device_nccl_backend {
  static std::string unavailable(MPI_Comm comm) { return gpus_missing(comm, true); }
  static constexpr bool has_message_limit = false;
  template <bool Pairs, class Key, class Val, class Comp>
  static void sort(MPI_Comm comm, Key* keys, Val* vals, index_t count, Comp comp, std::int64_t, int) {
    if (comm != MPI_COMM_WORLD) {  // a sub-communicator: its own NCCL communicator, made and destroyed here
      int rank = 0;
      MPI_Comm_rank(comm, &rank);
      int world = 0;
      MPI_Comm_rank(MPI_COMM_WORLD, &world);
      ncclUniqueId id;
      if (rank == 0) MERGEPATH_NCCL_CHECK(ncclGetUniqueId(&id));
      MPI_Bcast(&id, sizeof(id), MPI_BYTE, 0, comm);
      int size = 1;
      MPI_Comm_size(comm, &size);
      MERGEPATH_CUDA_CHECK(cudaSetDevice(world));
      ncclComm_t nc;
      MERGEPATH_NCCL_CHECK(ncclCommInitRank(&nc, size, id, rank));
      {
        mergepath::nccl_communicator comm_n(nc);
        mergepath::cuda_context ctx;
        sort_on_device<Pairs>(ctx, comm_n, keys, vals, count, comp);
      }
      ncclCommDestroy(nc);
      return;
    }
    mergepath::nccl_communicator nc(nccl_for(comm));
    mergepath::cuda_context ctx;
    sort_on_device<Pairs>(ctx, nc, keys, vals, count, comp);
  }
};

}  // namespace

namespace distributed_test {
INSTANTIATE_TYPED_TEST_SUITE_P(DeviceMpi, DistributedSort, device_mpi_backend);
INSTANTIATE_TYPED_TEST_SUITE_P(DeviceNccl, DistributedSort, device_nccl_backend);
}  // namespace distributed_test

int main(int argc, char** argv) {
  setenv("NCCL_NVLS_ENABLE", "0", 0);  // NVLink multicast stays off (the device's rule)
  return distributed_test::run_all_tests_on_every_rank(argc, argv);
}
