// The distributed sort on GPU ranks: a rank's sorted device keys seen from the host (the
// selection's few candidate fetches and bound searches per round), the NCCL session, and the MPI
// session for GPU ranks (collectives on the host, the exchange staged through host memory).
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "../binary_search.hpp"
#include "../context.hpp"
#include "../error.hpp"

namespace mergepath {
namespace detail {

// out[i] = keys[positions[i]]: the selection's candidates, a few hundred a round.
template <class Key>
__global__ void gather_keys_kernel(const Key* keys, const index_t* positions, index_t count, Key* out) {
  const index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) out[i] = keys[positions[i]];
}

// A rank's sorted keys in device memory. Each call is a small upload, a kernel or two and a
// download, then waits: the selection's rounds are latency, not bandwidth.
template <class Key, class Comp>
class device_sorted_keys {
 public:
  device_sorted_keys(cuda_context& ctx, const Key* keys, index_t count, Comp comp)
      : ctx_(ctx), keys_(keys), count_(count), comp_(comp) {}

  std::vector<Key> fetch(const std::vector<index_t>& positions) {
    const index_t m = static_cast<index_t>(positions.size());
    std::vector<Key> out(positions.size());
    if (m == 0) return out;
    auto where = upload(positions);
    auto found = ctx_.allocate<Key>(m);
    constexpr int block_threads = 128;
    launch("gather_keys_kernel", gather_keys_kernel<Key>,
           dim3(static_cast<unsigned>(ceil_div<index_t>(m, block_threads))), dim3(block_threads), 0, ctx_.stream(),
           keys_, static_cast<const index_t*>(where.data()), m, found.data());
    download(found.data(), m, out.data());
    return out;
  }

  void bounds(const std::vector<Key>& needles, std::vector<index_t>& lower, std::vector<index_t>& upper) {
    const index_t m = static_cast<index_t>(needles.size());
    lower.resize(needles.size()), upper.resize(needles.size());
    if (m == 0) return;
    auto needles_d = upload(needles);
    auto lower_d = ctx_.allocate<index_t>(m), upper_d = ctx_.allocate<index_t>(m);
    const Key* n = needles_d.data();
    mergepath::binary_search<mergepath::bounds::lower>(ctx_, n, m, keys_, count_, lower_d.data(), comp_);
    mergepath::binary_search<mergepath::bounds::upper>(ctx_, n, m, keys_, count_, upper_d.data(), comp_);
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(lower.data(), lower_d.data(), static_cast<std::size_t>(m) * sizeof(index_t),
                                         cudaMemcpyDeviceToHost, ctx_.stream()));
    download(upper_d.data(), m, upper.data());
  }

 private:
  template <class T>
  temp_buffer<T> upload(const std::vector<T>& host) {
    auto device = ctx_.allocate<T>(static_cast<index_t>(host.size()));
    MERGEPATH_CUDA_CHECK(
        cudaMemcpyAsync(device.data(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice, ctx_.stream()));
    return device;
  }
  template <class T>
  void download(const T* device, index_t m, T* host) {
    MERGEPATH_CUDA_CHECK(
        cudaMemcpyAsync(host, device, static_cast<std::size_t>(m) * sizeof(T), cudaMemcpyDeviceToHost, ctx_.stream()));
    ctx_.synchronize();
  }

  cuda_context& ctx_;
  const Key* keys_;
  index_t count_;
  Comp comp_;
};

#if MERGEPATH_HAS_MPI
// GPU ranks over MPI (any MPI, CUDA-aware or not): the collectives are mpi_session's; the
// exchange copies the device array to host memory, exchanges there and copies the result back.
class mpi_device_session : public mpi_session {
 public:
  mpi_device_session(cuda_context& ctx, mpi_communicator& comm) : mpi_session(comm), ctx_(ctx) {}

  void exchange(const void* send, void* recv, std::size_t element_bytes, const index_t* send_counts,
                const index_t* send_offsets, const index_t* recv_counts, const index_t* recv_offsets,
                index_t largest_count) {
    const int p = size();
    index_t send_total = 0, recv_total = 0;
    for (int q = 0; q < p; ++q) send_total += send_counts[q], recv_total += recv_counts[q];
    const std::size_t send_bytes = static_cast<std::size_t>(send_total) * element_bytes;
    const std::size_t recv_bytes = static_cast<std::size_t>(recv_total) * element_bytes;
    std::vector<unsigned char> host_send(send_bytes), host_recv(recv_bytes);
    if (send_bytes > 0)
      MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(host_send.data(), send, send_bytes, cudaMemcpyDeviceToHost, ctx_.stream()));
    ctx_.synchronize();  // the local sort and the copy are done before MPI reads the bytes
    mpi_session::exchange(host_send.data(), host_recv.data(), element_bytes, send_counts, send_offsets, recv_counts,
                          recv_offsets, largest_count);
    if (recv_bytes > 0)
      MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(recv, host_recv.data(), recv_bytes, cudaMemcpyHostToDevice, ctx_.stream()));
    ctx_.synchronize();  // host_recv is freed on return
  }

 private:
  cuda_context& ctx_;
};
#endif

#if MERGEPATH_HAS_NCCL
// nccl_communicator bound to one call on ctx's stream. The host-side collectives stage their few
// bytes through the device and wait; the exchange is one group of ncclSend / ncclRecv, queued.
class nccl_session {
 public:
  nccl_session(cuda_context& ctx, nccl_communicator& comm) : ctx_(ctx), comm_(comm) {
    int device = -1;
    MERGEPATH_NCCL_CHECK(ncclCommCuDevice(comm.get(), &device));
    if (device != ctx.device())
      throw std::invalid_argument("mergepath::distributed_sort: the cuda_context is on device " +
                                  std::to_string(ctx.device()) + ", the nccl_communicator's rank on device " +
                                  std::to_string(device));
  }
  int rank() const { return comm_.rank(); }
  int size() const { return comm_.size(); }
  std::int64_t max_message_bytes() const { return 0; }
  static constexpr int splitter_samples = 1024;

  void allgather(const void* send, std::size_t bytes, void* recv) {
    const std::size_t p = static_cast<std::size_t>(size());
    auto buffer = ctx_.allocate<unsigned char>(static_cast<index_t>(bytes * p));
    unsigned char* mine = buffer.data() + static_cast<std::size_t>(rank()) * bytes;  // in place
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(mine, send, bytes, cudaMemcpyHostToDevice, ctx_.stream()));
    MERGEPATH_NCCL_CHECK(ncclAllGather(mine, buffer.data(), bytes, ncclUint8, comm_.get(), ctx_.stream()));
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(recv, buffer.data(), bytes * p, cudaMemcpyDeviceToHost, ctx_.stream()));
    ctx_.synchronize();
  }
  void allreduce_sum(std::int64_t* data, std::size_t n) {
    auto buffer = ctx_.allocate<std::int64_t>(static_cast<index_t>(n));
    MERGEPATH_CUDA_CHECK(
        cudaMemcpyAsync(buffer.data(), data, n * sizeof(std::int64_t), cudaMemcpyHostToDevice, ctx_.stream()));
    MERGEPATH_NCCL_CHECK(
        ncclAllReduce(buffer.data(), buffer.data(), n, ncclInt64, ncclSum, comm_.get(), ctx_.stream()));
    MERGEPATH_CUDA_CHECK(
        cudaMemcpyAsync(data, buffer.data(), n * sizeof(std::int64_t), cudaMemcpyDeviceToHost, ctx_.stream()));
    ctx_.synchronize();
  }

  void exchange(const void* send, void* recv, std::size_t element_bytes, const index_t* send_counts,
                const index_t* send_offsets, const index_t* recv_counts, const index_t* recv_offsets, index_t) {
    const int p = size(), me = rank();
    const auto at = [&](const void* base, index_t elements) {
      return static_cast<const unsigned char*>(base) + static_cast<std::size_t>(elements) * element_bytes;
    };
    if (send_counts[me] > 0)  // this rank's own part: a copy, not a message
      MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(
          const_cast<unsigned char*>(at(recv, recv_offsets[me])), at(send, send_offsets[me]),
          static_cast<std::size_t>(send_counts[me]) * element_bytes, cudaMemcpyDeviceToDevice, ctx_.stream()));
    // Every send and receive of the group is posted before any may block; the group is always
    // closed, and the first failure reported after.
    ncclResult_t first = ncclGroupStart();
    if (first != ncclSuccess) throw nccl_error(first, "ncclGroupStart()", __FILE__, __LINE__);
    for (int q = 0; q < p && first == ncclSuccess; ++q) {
      if (q == me) continue;
      if (send_counts[q] > 0)
        first = ncclSend(at(send, send_offsets[q]), static_cast<std::size_t>(send_counts[q]) * element_bytes, ncclUint8,
                         q, comm_.get(), ctx_.stream());
      if (first == ncclSuccess && recv_counts[q] > 0)
        first = ncclRecv(const_cast<unsigned char*>(at(recv, recv_offsets[q])),
                         static_cast<std::size_t>(recv_counts[q]) * element_bytes, ncclUint8, q, comm_.get(),
                         ctx_.stream());
    }
    const ncclResult_t end = ncclGroupEnd();
    if (first != ncclSuccess) throw nccl_error(first, "ncclSend / ncclRecv", __FILE__, __LINE__);
    if (end != ncclSuccess) throw nccl_error(end, "ncclGroupEnd()", __FILE__, __LINE__);
  }

 private:
  cuda_context& ctx_;
  nccl_communicator& comm_;
};
#endif

}  // namespace detail
}  // namespace mergepath
