// Sorting keys spread over MPI ranks (CPU ranks): mpirun -np 4 ./distributed_sort [keys per rank]
//
// Each rank holds its own keys; after distributed_sort the ranks' keys, read in rank order, are
// sorted, and every rank holds as many keys as it started with. Run as a test (4 ranks).
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mergepath/distributed.hpp>
#include <random>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 0;
  {
    mergepath::mpi_communicator comm;  // MPI_COMM_WORLD
    mergepath::host_context ctx;       // this rank's cores
    const long long per_rank = argc > 1 ? std::atoll(argv[1]) : 100000;

    // Ranks hold different amounts: rank r has per_rank * (r + 1) keys.
    std::vector<std::uint32_t> keys(static_cast<std::size_t>(per_rank * (comm.rank() + 1)));
    std::mt19937 gen(12345u + static_cast<unsigned>(comm.rank()));
    for (auto& k : keys) k = gen();

    const double start = MPI_Wtime();
    mergepath::distributed_sort(ctx, comm, keys.data(), static_cast<std::int64_t>(keys.size()));
    const double seconds = MPI_Wtime() - start;

    // Check: sorted here, and this rank's first key is no less than the previous rank's last.
    bool ok = std::is_sorted(keys.begin(), keys.end());
    std::uint32_t last = keys.empty() ? 0 : keys.back(), previous_last = 0;
    const int next = comm.rank() + 1 < comm.size() ? comm.rank() + 1 : MPI_PROC_NULL;
    const int previous = comm.rank() > 0 ? comm.rank() - 1 : MPI_PROC_NULL;
    MPI_Sendrecv(&last, 1, MPI_UINT32_T, next, 0, &previous_last, 1, MPI_UINT32_T, previous, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    if (previous != MPI_PROC_NULL && !keys.empty() && keys.front() < previous_last) ok = false;
    int all_ok = 0;
    int mine_ok = ok ? 1 : 0;
    MPI_Allreduce(&mine_ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    long long total = static_cast<long long>(keys.size()), all_keys = 0;
    MPI_Reduce(&total, &all_keys, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (comm.rank() == 0)
      std::printf("%lld keys over %d ranks sorted in %.3f s: %s\n", all_keys, comm.size(), seconds,
                  all_ok ? "ok" : "NOT SORTED");
    status = all_ok ? 0 : 1;
  }  // the communicator is freed before MPI_Finalize
  MPI_Finalize();
  return status;
}
