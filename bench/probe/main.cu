// mergepath-probe: the experiments the design notes (docs/design/) cite, one named case each, in one harness.
//
//   mergepath-probe --list
//   mergepath-probe --case merge_time [N [CALLS]]       # the arguments after the case are its own
//   ncu ... -k regex:merge mergepath-probe --case merge 67108864 1
//
// Unlike mergepath-bench (tables beside CUB and Thrust, every result checked, L2 rotation), a case
// times one question quickly, often with kernels of its own (other tile designs, cache hints) or
// as a fixed workload for a profiler; the design notes say which case gave which figure. Timing comes
// from bench_util.cuh (per_call_us, median_ms), as when the figures were taken. Each case lives
// in its own namespace, its arguments as they were: argv[1] is its first.
//
// The cases live in bench/probe/, a file per family; this file is the harness.
#include <cstdio>
#include <string>

#include "probe_cases.hpp"

// ==== the harness ===============================================================================

namespace {

struct probe_case {
  const char* name;
  int (*main)(int argc, char** argv);
  const char* what;
};
const probe_case cases[] = {
    {"batch", probe_batch::probe_main, "batch_search's sorting path, per-needle variants, a run-writing layout [N]"},
    {"merge", probe_merge::probe_main,
     "fixed workload for ncu: merge and merge_pairs, 2^26 + 2^26 int32 (PROBE_DISTINCT_KEYS) [N [REPS]]"},
    {"merge4", probe_merge4::probe_main,
     "mergesort with four-way passes, two tile designs (PROBE_CHECK, PROBE_ONLY) [N [REPS]]"},
    {"merge_time", probe_merge_time::probe_main,
     "merge = partition pass + tile kernel + gaps beside CUB, back-to-back calls [N [DISTINCT_KEYS]]"},
    {"mergesort", probe_mergesort::probe_main,
     "mergesort at a few tunings beside CUB merge and radix sort [N [REPS [profile ...]]]"},
    {"search", probe_search::probe_main,
     "binary/Eytzinger/batch search: 2^26 random needles and the seed's case [sort: one sorting-path call, for ncu]"},
    {"search_cache", probe_search_cache::probe_main,
     "L2 eviction hints for one search per needle [N [binary|eytzinger|prefetch|grid|levels|persisting]]"},
    {"search_time", probe_search_time::probe_main,
     "sorted search = partition pass + tile kernel; index_match, back-to-back calls [N [CALLS]]"},
    {"needles", probe_needles::probe_main,
     "a few sorted needles in a long b: thrust, the Merge Path, the per-needle search, b's tiles [LOG2_B "
     "[uniform|distinct16|clustered|skewed]]"},
    {"gallop", probe_gallop::probe_main,
     "CPU: a few sorted needles in a long b, the Merge Path walk against galloping [LOG2_B]"},
    {"search_wide", probe_search_wide::probe_main, "sorted search, int64 bounds (Python's), several tile shapes [N]"},
    {"load_balance", probe_load_balance::probe_main,
     "load_balancing_search, interval_expand, segmented_reduce of 2^26 int32 [MEAN [CALLS [LOG2_N]]]"},
    {"set_ops", probe_set_ops::probe_main,
     "the four set operations of N + N int32 keys in [0, N) beside Thrust [N [CALLS]]"},
    {"segsort", probe_segsort::probe_main,
     "segmented sort over segment-length means, checked; then locality_sort [N [MEAN WHAT]]"},
};

void usage() {
  std::printf("usage: mergepath-probe --case NAME [ARGS...] | --list\n\ncases:\n");
  for (const probe_case& c : cases) std::printf("  %-13s %s\n", c.name, c.what);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 3 && std::string(argv[1]) == "--case") {
    for (const probe_case& c : cases)
      if (argv[2] == std::string(c.name)) return c.main(argc - 2, argv + 2);  // argv[0]: the case's name
    std::fprintf(stderr, "mergepath-probe: unknown case '%s'\n", argv[2]);
    usage();
    return 2;
  }
  usage();
  return argc >= 2 && std::string(argv[1]) == "--list" ? 0 : 2;
}
