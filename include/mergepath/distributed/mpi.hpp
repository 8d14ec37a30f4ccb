// The distributed sort's MPI session (host memory) and its view of a rank's sorted host keys.
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <vector>

#include "../context.hpp"

namespace mergepath {
namespace detail {

// mpi_communicator bound to one call: collectives on host memory, the exchange on host arrays.
class mpi_session {
 public:
  explicit mpi_session(mpi_communicator& comm) : comm_(comm) {}
  int rank() const { return comm_.rank(); }
  int size() const { return comm_.size(); }
  std::int64_t max_message_bytes() const { return comm_.max_message_bytes(); }
  static constexpr int splitter_samples = 64;

  void allgather(const void* send, std::size_t bytes, void* recv) {
    require(bytes <= static_cast<std::size_t>(INT_MAX), "distributed_sort",
            "a collective record exceeds INT_MAX bytes");
    MERGEPATH_MPI_CHECK(
        MPI_Allgather(send, static_cast<int>(bytes), MPI_BYTE, recv, static_cast<int>(bytes), MPI_BYTE, comm_.get()));
  }
  void allreduce_sum(std::int64_t* data, std::size_t n) {
    require(n <= static_cast<std::size_t>(INT_MAX), "distributed_sort", "a collective record exceeds INT_MAX counts");
    MERGEPATH_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, data, static_cast<int>(n), MPI_INT64_T, MPI_SUM, comm_.get()));
  }

  void exchange(const void* send, void* recv, std::size_t element_bytes, const index_t* send_counts,
                const index_t* send_offsets, const index_t* recv_counts, const index_t* recv_offsets,
                index_t largest_count) {
    const int p = size();
    const auto bytes = [&](index_t elements) {
      return static_cast<std::int64_t>(elements) * static_cast<std::int64_t>(element_bytes);
    };
    if (bytes(largest_count) <= max_message_bytes()) {
      // Every count and offset of every rank fits an int: one MPI_Alltoallv in bytes.
      std::vector<int> sc(static_cast<std::size_t>(p)), so(sc.size()), rc(sc.size()), ro(sc.size());
      for (int q = 0; q < p; ++q) {
        const std::size_t uq = static_cast<std::size_t>(q);
        sc[uq] = static_cast<int>(bytes(send_counts[uq]));
        so[uq] = static_cast<int>(bytes(send_offsets[uq]));
        rc[uq] = static_cast<int>(bytes(recv_counts[uq]));
        ro[uq] = static_cast<int>(bytes(recv_offsets[uq]));
      }
      MERGEPATH_MPI_CHECK(
          MPI_Alltoallv(send, sc.data(), so.data(), MPI_BYTE, recv, rc.data(), ro.data(), MPI_BYTE, comm_.get()));
      return;
    }
    // Larger: messages of at most max_message_bytes, in order between each pair (MPI keeps the
    // order of messages with one source, tag and communicator); this rank's own part is copied.
    constexpr int tag = 24;
    const std::int64_t piece = max_message_bytes();
    std::vector<MPI_Request> requests;
    const auto post = [&](bool sending) {
      for (int q = 0; q < p; ++q) {
        const std::size_t uq = static_cast<std::size_t>(q);
        if (q == rank()) continue;
        const std::int64_t total = bytes(sending ? send_counts[uq] : recv_counts[uq]);
        const std::int64_t offset = bytes(sending ? send_offsets[uq] : recv_offsets[uq]);
        for (std::int64_t done = 0; done < total; done += piece) {
          const int n = static_cast<int>(std::min(piece, total - done));
          requests.emplace_back();
          if (sending)
            MERGEPATH_MPI_CHECK(MPI_Isend(static_cast<const char*>(send) + offset + done, n, MPI_BYTE, q, tag,
                                          comm_.get(), &requests.back()));
          else
            MERGEPATH_MPI_CHECK(MPI_Irecv(static_cast<char*>(recv) + offset + done, n, MPI_BYTE, q, tag, comm_.get(),
                                          &requests.back()));
        }
      }
    };
    post(false);  // receives first, so that the sends find them waiting
    post(true);
    const std::size_t me = static_cast<std::size_t>(rank());
    if (send_counts[me] > 0)
      std::memcpy(static_cast<char*>(recv) + bytes(recv_offsets[me]),
                  static_cast<const char*>(send) + bytes(send_offsets[me]),
                  static_cast<std::size_t>(bytes(send_counts[me])));
    MERGEPATH_MPI_CHECK(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE));
  }

 private:
  mpi_communicator& comm_;
};

// A rank's sorted keys in host memory, read directly.
template <class Key, class Comp>
class host_sorted_keys {
 public:
  host_sorted_keys(host_context&, const Key* keys, index_t count, Comp comp)
      : keys_(keys), count_(count), comp_(comp) {}

  std::vector<Key> fetch(const std::vector<index_t>& positions) const {
    std::vector<Key> out(positions.size());
    for (std::size_t i = 0; i < positions.size(); ++i) out[i] = keys_[positions[i]];
    return out;
  }
  void bounds(const std::vector<Key>& needles, std::vector<index_t>& lower, std::vector<index_t>& upper) const {
    lower.resize(needles.size()), upper.resize(needles.size());
    for (std::size_t i = 0; i < needles.size(); ++i) {
      lower[i] = std::lower_bound(keys_, keys_ + count_, needles[i], comp_) - keys_;
      upper[i] = std::upper_bound(keys_ + lower[i], keys_ + count_, needles[i], comp_) - keys_;
    }
  }

 private:
  const Key* keys_;
  index_t count_;
  Comp comp_;
};

}  // namespace detail
}  // namespace mergepath
