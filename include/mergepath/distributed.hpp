// Distributed sort (NOWSort, as in the ECE 508 lecture "Parallel Ordered Merge", with exact
// splitters): sort keys spread over the ranks of an MPI communicator (CPU ranks, host_context) or
// an NCCL communicator (one GPU per rank, cuda_context), through the engine the application already
// runs.
//
//   class mpi_communicator;   // wraps an MPI_Comm (when <mpi.h> is found: MERGEPATH_HAS_MPI)
//   class nccl_communicator;  // wraps an ncclComm_t (nvcc and <nccl.h>: MERGEPATH_HAS_NCCL)
//
//   template <class Key, class Comp = less<>>
//   void distributed_sort(host_context& ctx, mpi_communicator& comm, Key* keys, index_t count, Comp comp = {});
//   template <class Key, class Val, class Comp = less<>>
//   void distributed_sort_pairs(host_context& ctx, mpi_communicator& comm, Key* keys, Val* vals,
//                               index_t count, Comp comp = {});
//   // Both take a last, optional distributed_sort_phases* phases: where this rank's time went.
//   // the same with (cuda_context&, nccl_communicator&) and device pointers: GPU ranks, one GPU each;
//   // and with (cuda_context&, mpi_communicator&): GPU ranks over any MPI, the exchange staged
//   // through host memory (ranks may share a GPU)
//
// Collective: every rank of the communicator calls it, each with its own keys[0, count). In place:
// afterwards the concatenation of every rank's keys in rank order is sorted by comp and a
// permutation of the input, stable in (rank, position) order (of equal keys, those of a lower rank
// come first, and within a rank in their order), and every rank keeps exactly its own count.
// vals[i] moves with keys[i]. Any trivially copyable Key and Val (default constructible, as
// mergesort needs); they travel as bytes. 64-bit counts.
//
// How: (1) one allgather of every rank's arguments; (2) the local stable sort; (3) exact splitters:
// for each rank's first output position, how many keys each rank contributes before it (the co-rank
// of Programming Massively Parallel Processors, ch. 12, across ranks), by a distributed selection
// whose first round is NOWSort's oversampling and whose later rounds, log_k(count) or so, make it
// exact; (4) one all-to-all of the keys (and one of the values): MPI_Alltoallv, or point-to-point
// messages of at most max_message_bytes when an array is larger; NCCL grouped ncclSend / ncclRecv;
// (5) a tree of stable merges of the received runs (lower rank first) into the caller's array. Cost
// per rank: the local sort, O(count) bytes sent and received, O(count log p) merging, and about
// (log_k(count) + 1) rounds of two small collectives, each of size()^2 * k counts at most (k = 64
// samples on MPI, 1024 on NCCL; fewer beyond about 128 ranks).
//
// Throws std::invalid_argument on every rank when any rank passes a negative count, a null
// pointer with a non-zero count, keys or values of another size than rank 0's, or calls the other
// of distributed_sort / distributed_sort_pairs; also when the ranks' splitters disagree (comp is
// not a strict weak order, or differs between ranks). Throws mpi_error / nccl_error / cuda_error
// when the engine fails. Scratch memory: about count keys and values (plus the local sort's).
// Waits: on a GPU it synchronizes ctx.stream() between the selection's rounds and returns with
// the exchange and merges queued on the stream.
//
// Not included by <mergepath/mergepath.hpp>: it pulls in <mpi.h> / <nccl.h> and needs their
// libraries (CMake: MPI::MPI_CXX; nccl).
#pragma once

#include <climits>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "context.hpp"
#include "distributed/sort.hpp"
#include "error.hpp"
#include "functional.hpp"

#if !defined(MERGEPATH_HAS_MPI)
#if __has_include(<mpi.h>)
#define MERGEPATH_HAS_MPI 1
#else
#define MERGEPATH_HAS_MPI 0
#endif
#endif

#if !defined(MERGEPATH_HAS_NCCL)
#if MERGEPATH_HAS_CUDA && __has_include(<nccl.h>)
#define MERGEPATH_HAS_NCCL 1
#else
#define MERGEPATH_HAS_NCCL 0
#endif
#endif

#if MERGEPATH_HAS_MPI
#include <mpi.h>
#endif
#if MERGEPATH_HAS_NCCL
#include <nccl.h>
#endif

namespace mergepath {

#if MERGEPATH_HAS_MPI

// An MPI call failed (the communicator returns errors instead of aborting). what() names the
// call, MPI's message and file:line.
struct mpi_error : std::runtime_error {
  int code;
  mpi_error(int code, const char* call, const char* file, int line)
      : std::runtime_error(std::string(call) + " failed: " + message(code) + " at " + file + ":" + std::to_string(line)),
        code(code) {}

 private:
  static std::string message(int code) {
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) return "MPI error " + std::to_string(code);
    return std::string(text, static_cast<std::size_t>(length));
  }
};

#define MERGEPATH_MPI_CHECK(call)                                                           \
  do {                                                                                      \
    int mergepath_mpi_code_ = (call);                                                       \
    if (mergepath_mpi_code_ != MPI_SUCCESS) throw ::mergepath::mpi_error(mergepath_mpi_code_, #call, __FILE__, __LINE__); \
  } while (0)

// CPU ranks: the processes of an MPI communicator. Construction is collective (it duplicates the
// communicator, so that the sort's messages never meet the application's); the duplicate returns
// errors, which the sort throws as mpi_error. MPI must be initialized; the duplicate is freed on
// destruction unless MPI is finalized by then. Not copyable.
//
// max_message_bytes: the largest message the exchange sends. When one rank's keys (or values) take
// more bytes, the exchange goes as point-to-point messages of at most that size instead of one
// MPI_Alltoallv (whose counts and offsets are int). The same on every rank; positive, at most
// INT_MAX. Lower it only to test that path.
class mpi_communicator {
 public:
  explicit mpi_communicator(MPI_Comm comm = MPI_COMM_WORLD, std::int64_t max_message_bytes = INT_MAX)
      : max_message_bytes_(max_message_bytes) {
    detail::require(max_message_bytes > 0 && max_message_bytes <= INT_MAX, "mpi_communicator",
                    "max_message_bytes must be in [1, INT_MAX]");
    int initialized = 0;
    MERGEPATH_MPI_CHECK(MPI_Initialized(&initialized));
    if (!initialized) throw std::logic_error("mergepath::mpi_communicator: MPI is not initialized (call MPI_Init first)");
    MERGEPATH_MPI_CHECK(MPI_Comm_dup(comm, &comm_));
    MERGEPATH_MPI_CHECK(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN));
    MERGEPATH_MPI_CHECK(MPI_Comm_rank(comm_, &rank_));
    MERGEPATH_MPI_CHECK(MPI_Comm_size(comm_, &size_));
  }
  mpi_communicator(const mpi_communicator&) = delete;
  mpi_communicator& operator=(const mpi_communicator&) = delete;
  mpi_communicator(mpi_communicator&& o) noexcept
      : comm_(std::exchange(o.comm_, MPI_COMM_NULL)), rank_(o.rank_), size_(o.size_), max_message_bytes_(o.max_message_bytes_) {}
  mpi_communicator& operator=(mpi_communicator&& o) noexcept {
    if (this != &o) {
      release();
      comm_ = std::exchange(o.comm_, MPI_COMM_NULL);
      rank_ = o.rank_, size_ = o.size_, max_message_bytes_ = o.max_message_bytes_;
    }
    return *this;
  }
  ~mpi_communicator() { release(); }

  int rank() const { return rank_; }
  int size() const { return size_; }
  // The duplicate the sort talks through.
  MPI_Comm get() const { return comm_; }
  std::int64_t max_message_bytes() const { return max_message_bytes_; }

 private:
  void release() noexcept {
    int finalized = 1;
    if (comm_ != MPI_COMM_NULL && MPI_Finalized(&finalized) == MPI_SUCCESS && !finalized) (void)MPI_Comm_free(&comm_);
    comm_ = MPI_COMM_NULL;
  }
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
  std::int64_t max_message_bytes_;
};

#endif  // MERGEPATH_HAS_MPI

#if MERGEPATH_HAS_NCCL

// An NCCL call failed. what() names the call, NCCL's message and file:line.
struct nccl_error : std::runtime_error {
  ncclResult_t code;
  nccl_error(ncclResult_t code, const char* call, const char* file, int line)
      : std::runtime_error(std::string(call) + " failed: " + ncclGetErrorString(code) + " at " + file + ":" +
                           std::to_string(line)),
        code(code) {}
};

#define MERGEPATH_NCCL_CHECK(call)                                                                \
  do {                                                                                            \
    ncclResult_t mergepath_nccl_code_ = (call);                                                   \
    if (mergepath_nccl_code_ != ncclSuccess) throw ::mergepath::nccl_error(mergepath_nccl_code_, #call, __FILE__, __LINE__); \
  } while (0)

// GPU ranks: one GPU per rank of an NCCL communicator, borrowed (not destroyed). The sort runs on
// the cuda_context passed with it, whose device must be the communicator's.
class nccl_communicator {
 public:
  explicit nccl_communicator(ncclComm_t comm) : comm_(comm) {
    detail::require(comm != nullptr, "nccl_communicator", "comm is null");
    MERGEPATH_NCCL_CHECK(ncclCommUserRank(comm_, &rank_));
    MERGEPATH_NCCL_CHECK(ncclCommCount(comm_, &size_));
  }
  int rank() const { return rank_; }
  int size() const { return size_; }
  ncclComm_t get() const { return comm_; }

 private:
  ncclComm_t comm_;
  int rank_ = 0, size_ = 1;
};

#endif  // MERGEPATH_HAS_NCCL

}  // namespace mergepath

#if MERGEPATH_HAS_MPI
#include "distributed/mpi.hpp"
#endif
#if MERGEPATH_HAS_CUDA
#include "distributed/device.cuh"
#endif

namespace mergepath {

#if MERGEPATH_HAS_MPI
template <class Key, class Comp = less<>>
void distributed_sort(host_context& ctx, mpi_communicator& comm, Key* keys, index_t count, Comp comp = {},
                      distributed_sort_phases* phases = nullptr) {
  detail::mpi_session session(comm);
  detail::distributed_sort_impl<false, host_context, detail::mpi_session, detail::host_sorted_keys<Key, Comp>>(
      ctx, session, keys, static_cast<unsigned char*>(nullptr), count, comp, phases);
}

template <class Key, class Val, class Comp = less<>>
void distributed_sort_pairs(host_context& ctx, mpi_communicator& comm, Key* keys, Val* vals, index_t count,
                            Comp comp = {},
                            distributed_sort_phases* phases = nullptr) {
  detail::mpi_session session(comm);
  detail::distributed_sort_impl<true, host_context, detail::mpi_session, detail::host_sorted_keys<Key, Comp>>(
      ctx, session, keys, vals, count, comp, phases);
}
#endif

#if MERGEPATH_HAS_MPI && MERGEPATH_HAS_CUDA
template <class Key, class Comp = less<>>
void distributed_sort(cuda_context& ctx, mpi_communicator& comm, Key* keys, index_t count, Comp comp = {},
                      distributed_sort_phases* phases = nullptr) {
  detail::mpi_device_session session(ctx, comm);
  detail::distributed_sort_impl<false, cuda_context, detail::mpi_device_session, detail::device_sorted_keys<Key, Comp>>(
      ctx, session, keys, static_cast<unsigned char*>(nullptr), count, comp, phases);
}

template <class Key, class Val, class Comp = less<>>
void distributed_sort_pairs(cuda_context& ctx, mpi_communicator& comm, Key* keys, Val* vals, index_t count,
                            Comp comp = {},
                            distributed_sort_phases* phases = nullptr) {
  detail::mpi_device_session session(ctx, comm);
  detail::distributed_sort_impl<true, cuda_context, detail::mpi_device_session, detail::device_sorted_keys<Key, Comp>>(
      ctx, session, keys, vals, count, comp, phases);
}
#endif

#if MERGEPATH_HAS_NCCL
template <class Key, class Comp = less<>>
void distributed_sort(cuda_context& ctx, nccl_communicator& comm, Key* keys, index_t count, Comp comp = {},
                      distributed_sort_phases* phases = nullptr) {
  detail::nccl_session session(ctx, comm);
  detail::distributed_sort_impl<false, cuda_context, detail::nccl_session, detail::device_sorted_keys<Key, Comp>>(
      ctx, session, keys, static_cast<unsigned char*>(nullptr), count, comp, phases);
}

template <class Key, class Val, class Comp = less<>>
void distributed_sort_pairs(cuda_context& ctx, nccl_communicator& comm, Key* keys, Val* vals, index_t count,
                            Comp comp = {},
                            distributed_sort_phases* phases = nullptr) {
  detail::nccl_session session(ctx, comm);
  detail::distributed_sort_impl<true, cuda_context, detail::nccl_session, detail::device_sorted_keys<Key, Comp>>(
      ctx, session, keys, vals, count, comp, phases);
}
#endif

}  // namespace mergepath
