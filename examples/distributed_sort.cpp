// Sorting keys spread over MPI ranks (CPU ranks): mpirun -np 4 ./distributed_sort [keys per rank]
//
// Each rank holds its own keys; after distributed_sort the ranks' keys, read in rank order, are
// sorted, and every rank holds as many keys as it started with. Run as a test (4 ranks).
//
// Benchmark: mpirun -np P ./distributed_sort --bench TOTAL [threads per rank] spreads TOTAL uint32
// keys evenly and prints a table row of the slowest rank's phases (best of 5); compare -np 1 with
// -np 4 (docs/distributed.md).
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mergepath/distributed.hpp>
#include <random>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 0;
  {
    mergepath::mpi_communicator comm;  // MPI_COMM_WORLD
    const bool bench = argc > 2 && std::strcmp(argv[1], "--bench") == 0;
    mergepath::host_context ctx = bench && argc > 3 ? mergepath::host_context(std::atoi(argv[3]))
                                                    : mergepath::host_context();  // this rank's cores
    // Ranks hold different amounts: rank r has per_rank * (r + 1) keys; --bench: an even share.
    const long long per_rank = bench ? std::atoll(argv[2]) / comm.size() : argc > 1 ? std::atoll(argv[1]) : 100000;
    std::vector<std::uint32_t> keys(static_cast<std::size_t>(bench ? per_rank : per_rank * (comm.rank() + 1)));

    double seconds = 1e30;
    mergepath::distributed_sort_phases phases, best;
    for (int repetition = 0; repetition < (bench ? 5 : 1); ++repetition) {
      std::mt19937 gen(12345u + static_cast<unsigned>(comm.rank()));
      for (auto& k : keys) k = gen();
      MPI_Barrier(MPI_COMM_WORLD);
      const double start = MPI_Wtime();
      mergepath::distributed_sort(ctx, comm, keys.data(), static_cast<std::int64_t>(keys.size()), mergepath::less<>{},
                                  &phases);
      double mine = MPI_Wtime() - start, slowest = 0;
      MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      if (slowest < seconds) seconds = slowest, best = phases;
    }

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
    if (bench) {
      double slowest[4] = {}, mine[4] = {best.local_sort, best.splitters, best.exchange, best.merge};
      MPI_Reduce(mine, slowest, 4, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
      if (comm.rank() == 0)
        std::printf("| ranks x threads | keys | total ms | Mkeys/s | local sort ms | splitters ms (rounds) | all-to-all ms "
                    "| merge ms |\n| %d x %d | %lld | %.1f | %.1f | %.1f | %.2f (%d) | %.1f | %.1f |\n",
                    comm.size(), ctx.num_threads(), all_keys, seconds * 1e3, all_keys / seconds * 1e-6,
                    slowest[0] * 1e3, slowest[1] * 1e3, best.rounds, slowest[2] * 1e3, slowest[3] * 1e3);
    }
    status = all_ok ? 0 : 1;
  }  // the communicator is freed before MPI_Finalize
  MPI_Finalize();
  return status;
}
