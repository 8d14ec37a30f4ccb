// distributed_sort and distributed_sort_pairs on CPU ranks: host_context over mpi_communicator.
// Run under mpirun with any number of ranks (ctest: 2, 3 and 4); the cases are distributed_cases.hpp.
#include <mergepath/distributed.hpp>

#include "distributed_cases.hpp"

namespace {

struct host_mpi_backend {
  static std::string unavailable(MPI_Comm) { return ""; }
  static constexpr bool has_message_limit = true;
  template <bool Pairs, class Key, class Val, class Comp>
  static void sort(MPI_Comm comm, Key* keys, Val* vals, mergepath::index_t count, Comp comp,
                   std::int64_t max_message_bytes, int threads) {
    mergepath::host_context ctx(threads);
    mergepath::mpi_communicator mc(comm, max_message_bytes);
    if constexpr (Pairs)
      mergepath::distributed_sort_pairs(ctx, mc, keys, vals, count, comp);
    else
      mergepath::distributed_sort(ctx, mc, keys, count, comp);
  }
};

}  // namespace

namespace distributed_test {
INSTANTIATE_TYPED_TEST_SUITE_P(HostMpi, DistributedSort, host_mpi_backend);
}

int main(int argc, char** argv) { return distributed_test::run_all_tests_on_every_rank(argc, argv); }
