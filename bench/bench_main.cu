// mergepath-bench: GPU throughput of mergepath's algorithms beside CUB, Thrust and a copy of the
// same bytes. Parses the options, describes the machine, runs the suites, prints the table and a
// summary, and writes every figure to --json FILE. See bench/README.md.
#include <thrust/version.h>

#include <cstdlib>
#include <ctime>
#include <exception>
#include <fstream>
#include <functional>
#include <sstream>

#include "bench_util.cuh"

#if defined(_OPENMP)
#include <omp.h>
#endif

#ifndef MERGEPATH_BENCH_VERSION
#define MERGEPATH_BENCH_VERSION "unknown"
#endif

namespace {

using bench::bench_context;
using bench::index_t;
using bench::options;
using bench::result_row;

// The suites, in the order they run: each is defined at the bottom of its file (bench_<name>.cu)
// and declared in bench_util.cuh. A new algorithm file adds its line here.
using bench::suite;
const std::reference_wrapper<const suite> suites[] = {
    bench::merge_suite,          bench::sorted_search_suite, bench::mergesort_suite,
    bench::segmented_sort_suite, bench::binary_search_suite, bench::load_balance_suite,
    bench::join_suite,
};

bool wanted(const options& o, const suite& s) {
  return o.only.empty() || std::find(o.only.begin(), o.only.end(), s.name) != o.only.end();
}

struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void print_help() {
  std::printf(
      "usage: mergepath-bench [options]\n"
      "\n"
      "Times mergepath's GPU algorithms beside CUB, Thrust and a device-to-device copy of the same\n"
      "bytes: CUDA events on one stream, %d warm-up runs, the median of --reps runs, inputs rotated\n"
      "over several buffer sets so small sizes do not time the L2. Every result is checked once.\n"
      "\n"
      "options:\n"
      "  --sizes LIST      log2 of n (elements per input; mergesort, segmented_sort: keys;\n"
      "                    binary_search: needles and keys, Futhark's table 2^(n-1)-1 keys), comma\n"
      "                    separated (default 20,22,24,26,28; mergesort 16,18,20,22,24,26,28;\n"
      "                    segmented_sort 26; binary_search 26)\n"
      "  --min-log2 K      drop sizes below 2^K\n"
      "  --max-log2 K      drop sizes above 2^K (e.g. 26 on a small GPU)\n"
      "  --types LIST      key types: int32,int64 (default both)\n"
      "  --reps N          timed runs per row (default 20; 10 at 2^28 unless given)\n"
      "  --warmup N        untimed runs before timing (default 2)\n"
      "  --tunings         add rows for other tile shapes (merge<Policy> and the others with a\n"
      "                    policy; rows named *_tuned)\n"
      "  --cpu             CPU rows (std::merge, std::lower_bound, std::stable_sort vs mergepath on\n"
      "                    host_context) at every size (by default only at 2^26 with int32 keys;\n"
      "                    mergesort at 2^24)\n"
      "  --no-cpu          no CPU rows\n"
      "  --quick           smoke test: sizes 2^20 and 2^24, 5 reps\n"
      "  --only LIST       run only these suites (see --list)\n"
      "  --list            list the suites and exit\n"
      "  --device N        CUDA device ordinal (default 0)\n"
      "  --json FILE       also write every figure and the header as JSON\n"
      "  --commit HASH     git commit to print and record\n"
      "  --help            this text\n"
      "\n"
      "Exit status: 0 when every check passed, 1 on a MISMATCH, an error, or no CUDA device.\n",
      options{}.warmup);
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

int parse_int(const std::string& flag, const std::string& v, int lo, int hi) {
  char* end = nullptr;
  long x = std::strtol(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0' || x < lo || x > hi)
    throw usage_error(flag + ": expected an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                      "], got '" + v + "'");
  return static_cast<int>(x);
}

// Returns false when the program should exit 0 at once (--help, --list).
bool parse(int argc, char** argv, options& o) {
  int min_log2 = 0, max_log2 = 40;
  bool sizes_given = false;
  for (int i = 0; i < argc; ++i) o.command_line += (i ? " " : "") + std::string(argv[i]);
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw usage_error(a + " needs a value");
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      print_help();
      return false;
    } else if (a == "--list") {
      for (const suite& s : suites) std::printf("%-14s %s\n", s.name, s.what);
      return false;
    } else if (a == "--sizes") {
      o.log2_sizes.clear();
      for (const std::string& s : split(value())) {
        std::string e = s.rfind("2^", 0) == 0 ? s.substr(2) : s;
        o.log2_sizes.push_back(parse_int("--sizes", e, 1, 31));
      }
      sizes_given = true;
    } else if (a == "--min-log2") {
      min_log2 = parse_int(a, value(), 0, 40);
    } else if (a == "--max-log2") {
      max_log2 = parse_int(a, value(), 0, 40);
    } else if (a == "--types") {
      o.key_types = split(value());
      for (const std::string& t : o.key_types)
        if (t != "int32" && t != "int64") throw usage_error("--types: unknown key type '" + t + "' (int32, int64)");
    } else if (a == "--reps") {
      o.reps = parse_int(a, value(), 1, 100000);
      o.reps_given = true;
    } else if (a == "--warmup") {
      o.warmup = parse_int(a, value(), 0, 1000);
    } else if (a == "--tunings") {
      o.tunings = true;
    } else if (a == "--cpu") {
      o.cpu = bench::cpu_rows::all;
    } else if (a == "--no-cpu") {
      o.cpu = bench::cpu_rows::none;
    } else if (a == "--quick") {
      o.quick = true;
    } else if (a == "--only") {
      o.only = split(value());
      for (const std::string& name : o.only) {
        bool known = false;
        for (const suite& s : suites) known = known || name == s.name;
        if (!known) throw usage_error("--only: unknown suite '" + name + "' (see --list)");
      }
    } else if (a == "--device") {
      o.device = parse_int(a, value(), 0, 1023);
    } else if (a == "--json") {
      o.json_path = value();
    } else if (a == "--commit") {
      o.commit = value();
    } else {
      throw usage_error("unknown option '" + a + "' (see --help)");
    }
  }
  if (o.quick) {
    if (!sizes_given) o.log2_sizes = {20, 24};
    if (!o.reps_given) o.reps = 5;
  }
  // --sizes (or --quick's) replaces every suite's list, the sort suites' own ones included.
  if (sizes_given || o.quick) {
    o.mergesort_log2_sizes = o.log2_sizes;
    o.segmented_sort_log2_sizes = o.log2_sizes;
    o.binary_search_log2_sizes = o.log2_sizes;
    o.load_balance_log2_sizes = o.log2_sizes;
    o.join_log2_sizes = o.log2_sizes;
  }
  auto keep = [&](std::vector<int>& sizes) {
    std::vector<int> kept;
    for (int l : sizes)
      if (l >= min_log2 && l <= max_log2) kept.push_back(l);
    sizes = kept;
  };
  keep(o.log2_sizes);
  keep(o.mergesort_log2_sizes);
  keep(o.segmented_sort_log2_sizes);
  keep(o.binary_search_log2_sizes);
  keep(o.load_balance_log2_sizes);
  keep(o.join_log2_sizes);
  for (const suite& s : suites)
    if (wanted(o, s) && (o.*s.sizes).empty())
      throw usage_error(std::string("no sizes left to run for ") + s.name + " (check --sizes, --min-log2, --max-log2)");
  if (o.key_types.empty()) throw usage_error("--types: no key types");
  return true;
}

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char s[64];
  std::strftime(s, sizeof s, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return s;
}

bench::device_info describe_device(int device) {
  bench::device_info d;
  d.device = device;
  cudaDeviceProp p{};
  MERGEPATH_CUDA_CHECK(cudaGetDeviceProperties(&p, device));
  d.name = p.name;
  d.arch = p.major * 10 + p.minor;
  d.compiled_arch = mergepath::detail::running_code_arch();
  d.sm_count = p.multiProcessorCount;
  d.l2_bytes = p.l2CacheSize;
  d.global_mem_bytes = static_cast<long long>(p.totalGlobalMem);
  int mem_khz = 0, bus_bits = 0;
  if (cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, device) == cudaSuccess &&
      cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device) == cudaSuccess)
    d.peak_gb_per_s = 2.0 * mem_khz * 1e3 * (bus_bits / 8.0) / 1e9;  // double data rate
  (void)cudaGetLastError();
  MERGEPATH_CUDA_CHECK(cudaDriverGetVersion(&d.driver_version));
  MERGEPATH_CUDA_CHECK(cudaRuntimeGetVersion(&d.runtime_version));
#if defined(_OPENMP)
  d.host_threads = omp_get_max_threads();
#endif
  return d;
}

std::string thrust_version() {
  return std::to_string(THRUST_MAJOR_VERSION) + "." + std::to_string(THRUST_MINOR_VERSION) + "." +
         std::to_string(THRUST_SUBMINOR_VERSION);
}

std::string sizes_label(const std::vector<int>& log2_sizes) {
  std::string sizes;
  for (int l : log2_sizes) sizes += (sizes.empty() ? "2^" : ", 2^") + std::to_string(l);
  return sizes;
}

void print_header(const options& o, const bench::device_info& d, const std::string& date) {
  // The per-input sizes of merge and sorted search, then each sort suite's own key counts (named
  // when more than one list is printed).
  bool per_input = false;
  std::vector<const suite*> sorts;
  for (const suite& s : suites) {
    if (!wanted(o, s)) continue;
    if (s.sizes == &options::log2_sizes)
      per_input = true;
    else
      sorts.push_back(&s);
  }
  std::string sizes;
  if (per_input) sizes = "n = " + sizes_label(o.log2_sizes) + " per input";
  for (const suite* s : sorts) {
    bool named = per_input || sorts.size() > 1;
    sizes += std::string(sizes.empty() ? "" : "; ") + (named ? std::string(s->name) + " " : "") +
             "n = " + sizes_label(o.*(s->sizes)) + " keys";
  }
  std::string types;
  for (const std::string& t : o.key_types) types += (types.empty() ? "" : ", ") + t;
  std::printf("mergepath-bench %s\n", MERGEPATH_BENCH_VERSION);
  std::printf("date:    %s\n", date.c_str());
  if (!o.commit.empty()) std::printf("commit:  %s\n", o.commit.c_str());
  std::printf("gpu:     %s (device %d), sm_%d, %d SMs, L2 %.1f MiB, %.1f GiB", d.name.c_str(), d.device, d.arch,
              d.sm_count, d.l2_bytes / 1048576.0, d.global_mem_bytes / 1073741824.0);
  if (d.peak_gb_per_s > 0) std::printf(", peak DRAM ~%.0f GB/s", d.peak_gb_per_s);
  std::printf("\nkernels: compiled for sm_%d%s", d.compiled_arch,
              d.compiled_arch == d.arch ? "" : " (older code than the device: JIT-compiled PTX or an older SASS)");
  std::printf("\ncuda:    driver %s, runtime %s, Thrust/CUB %s\n", bench::cuda_version_string(d.driver_version).c_str(),
              bench::cuda_version_string(d.runtime_version).c_str(), thrust_version().c_str());
  std::printf("host:    %d OpenMP threads\n", d.host_threads);
  std::printf(
      "method:  CUDA events on one stream, %d warm-up runs, median of %d reps%s, inputs rotated to cover 4x L2\n",
      o.warmup, o.reps, o.reps_given ? "" : " (10 at 2^28)");
  std::printf("sizes:   %s; keys %s%s\n", sizes.c_str(), types.c_str(), o.tunings ? "; with tunings" : "");
  std::printf("command: %s\n", o.command_line.c_str());
  std::printf(
      "columns: ms(med) = median time; Gkeys/s = output keys/s; GB/s = bytes read + written per second;\n"
      "         %%copy = copy of the same bytes' time / this time (mergesort: one copy of the keys and\n"
      "         values); vs CUB = CUB time / this time (mergesort: cub::DeviceMergeSort's; segmented\n"
      "         sort: cub::DeviceSegmentedSort's); vs Thrust = Thrust time / this time (sorted search,\n"
      "         binary search)\n");
  std::fflush(stdout);
}

// ---- JSON -----------------------------------------------------------------------------------

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char u[8];
          std::snprintf(u, sizeof u, "\\u%04x", c);
          out += u;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}
std::string json_number(double v) {
  if (!std::isfinite(v)) return "null";
  char s[64];
  std::snprintf(s, sizeof s, "%.9g", v);
  return s;
}
std::string json_opt_string(const std::string& s) { return s.empty() ? "null" : json_string(s); }
std::string json_count(index_t n) { return n > 0 ? std::to_string(n) : "null"; }

// One suite's headline, as printed after the table.
struct suite_summary {
  std::string suite;
  index_t n = 0;
  std::string text;
};

void write_json(const std::string& path, const options& o, const bench::device_info* d, const std::string& date,
                const bench_context* b, const std::vector<suite_summary>& summaries, const std::string& fatal_error) {
  std::ofstream f(path);
  if (!f) {
    std::fprintf(stderr, "mergepath-bench: cannot write %s\n", path.c_str());
    return;
  }
  f << "{\n";
  f << "  \"tool\": \"mergepath-bench\",\n";
  f << "  \"version\": " << json_string(MERGEPATH_BENCH_VERSION) << ",\n";
  f << "  \"date\": " << json_string(date) << ",\n";
  f << "  \"commit\": " << json_opt_string(o.commit) << ",\n";
  f << "  \"command\": " << json_string(o.command_line) << ",\n";
  f << "  \"method\": {\"timer\": \"cuda events, one stream\", \"warmup\": " << o.warmup << ", \"reps\": " << o.reps
    << ", \"reps_given\": " << (o.reps_given ? "true" : "false")
    << ", \"statistic\": \"median\", \"l2_rotation\": \"input sets covering 4x L2\"},\n";
  if (d) {
    f << "  \"device\": {\"name\": " << json_string(d->name) << ", \"ordinal\": " << d->device
      << ", \"arch\": " << d->arch << ", \"compiled_arch\": " << d->compiled_arch << ", \"sm_count\": " << d->sm_count << ", \"l2_bytes\": " << d->l2_bytes
      << ", \"global_mem_bytes\": " << d->global_mem_bytes << ", \"peak_gb_per_s\": " << json_number(d->peak_gb_per_s)
      << ", \"driver_version\": " << json_string(bench::cuda_version_string(d->driver_version))
      << ", \"runtime_version\": " << json_string(bench::cuda_version_string(d->runtime_version))
      << ", \"thrust_version\": " << json_string(thrust_version()) << ", \"host_threads\": " << d->host_threads
      << "},\n";
  } else {
    f << "  \"device\": null,\n";
  }
  f << "  \"rows\": [";
  if (b) {
    for (std::size_t i = 0; i < b->rows.size(); ++i) {
      const result_row& r = b->rows[i];
      f << (i ? ",\n    " : "\n    ") << "{\"algorithm\": " << json_string(r.algorithm)
        << ", \"backend\": " << json_string(r.backend) << ", \"key_type\": " << json_string(r.key_type)
        << ", \"value_type\": " << json_opt_string(r.value_type) << ", \"input\": " << json_opt_string(r.input)
        << ", \"n\": " << r.n << ", \"a_count\": " << json_count(r.a_count)
        << ", \"b_count\": " << json_count(r.b_count)
        << ", \"threads\": " << (r.backend == "cpu" ? std::to_string(r.threads) : "null")
        << ", \"ms_median\": " << json_number(r.ms_median) << ", \"ms_min\": " << json_number(r.ms_min)
        << ", \"ms_max\": " << json_number(r.ms_max) << ", \"reps\": " << r.reps << ", \"input_sets\": " << r.input_sets
        << ", \"gkeys_per_s\": " << json_number(r.gkeys_per_s) << ", \"gb_per_s\": " << json_number(r.gb_per_s)
        << ", \"pct_copy\": " << json_number(r.pct_copy) << ", \"ratio_cub\": " << json_number(r.ratio_cub)
        << ", \"ratio_thrust\": " << json_number(r.ratio_thrust)
        << ", \"ratio_std_merge\": " << json_number(r.ratio_std) << ", \"tuning\": ";
      if (r.tuning)
        f << "{\"block_threads\": " << r.tuning->block_threads
          << ", \"items_per_thread\": " << r.tuning->items_per_thread << ", \"stages\": " << r.tuning->stages << "}";
      else
        f << "null";
      f << ", \"sort_tuning\": ";
      if (r.sort_tuning)
        f << "{\"blocksort\": {\"block_threads\": " << r.sort_tuning->blocksort.block_threads
          << ", \"items_per_thread\": " << r.sort_tuning->blocksort.items_per_thread
          << ", \"min_resident_threads\": " << r.sort_tuning->blocksort.min_resident_threads
          << "}, \"merge\": {\"block_threads\": " << r.sort_tuning->merge.block_threads
          << ", \"items_per_thread\": " << r.sort_tuning->merge.items_per_thread
          << ", \"min_resident_threads\": " << r.sort_tuning->merge.min_resident_threads
          << "}, \"four_way\": {\"block_threads\": " << r.sort_tuning->four_way.block_threads
          << ", \"items_per_thread\": " << r.sort_tuning->four_way.items_per_thread
          << ", \"min_resident_threads\": " << r.sort_tuning->four_way.min_resident_threads << "}}";
      else
        f << "null";
      f << ", \"check\": " << json_string(r.check) << "}";
    }
  }
  f << "\n  ],\n";
  auto list = [&](const char* name, const std::vector<std::string>* items) {
    f << "  \"" << name << "\": [";
    if (items)
      for (std::size_t i = 0; i < items->size(); ++i) f << (i ? ", " : "") << json_string((*items)[i]);
    f << "],\n";
  };
  list("notes", b ? &b->notes : nullptr);
  list("failures", b ? &b->failures : nullptr);
  // "summary" is the merge suite's, as in files written before there were other suites.
  suite_summary merge;
  for (const suite_summary& s : summaries)
    if (s.suite == "merge") merge = s;
  f << "  \"summary\": {\"n\": " << merge.n << ", \"text\": " << json_opt_string(merge.text) << "},\n";
  f << "  \"summaries\": [";
  for (std::size_t i = 0; i < summaries.size(); ++i)
    f << (i ? ", " : "") << "{\"suite\": " << json_string(summaries[i].suite) << ", \"n\": " << summaries[i].n
      << ", \"text\": " << json_string(summaries[i].text) << "}";
  f << "],\n";
  f << "  \"error\": " << json_opt_string(fatal_error) << ",\n";
  f << "  \"ok\": " << (fatal_error.empty() && b && b->failures.empty() ? "true" : "false") << "\n";
  f << "}\n";
  if (!f) std::fprintf(stderr, "mergepath-bench: error while writing %s\n", path.c_str());
}

int run(const options& o) {
  std::string date = utc_now();
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    (void)cudaGetLastError();
    std::fprintf(stderr, "mergepath-bench: no CUDA device: %s\n",
                 e != cudaSuccess ? cudaGetErrorString(e) : "the driver reports no devices");
    if (!o.json_path.empty()) write_json(o.json_path, o, nullptr, date, nullptr, {}, "no CUDA device");
    return 1;
  }
  if (o.device >= count) {
    std::fprintf(stderr, "mergepath-bench: --device %d: only %d CUDA device(s)\n", o.device, count);
    return 1;
  }
  MERGEPATH_CUDA_CHECK(cudaSetDevice(o.device));

  bench::device_info info = describe_device(o.device);
  print_header(o, info, date);

  // Thrust's temporaries come from the default pool: keep freed blocks, like mergepath's pool.
  cudaMemPool_t pool = nullptr;
  MERGEPATH_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, o.device));
  std::uint64_t keep_all = ~std::uint64_t{0};
  MERGEPATH_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep_all));

  mergepath::cuda_context ctx;
  bench_context b(o, ctx, info);
  std::string fatal;
  try {
    for (const suite& s : suites) {
      if (!wanted(o, s)) continue;
      std::printf("\n=== %s: %s\n", s.name, s.what);
      std::fflush(stdout);
      s.run(b);
    }
  } catch (const std::exception& ex) {
    fatal = ex.what();
    b.fail(std::string("ERROR (fatal): ") + fatal);
  }

  std::vector<suite_summary> summaries;
  for (const suite& s : suites) {
    suite_summary sum;
    sum.suite = s.name;
    if (wanted(o, s)) sum.text = s.summary(b, &sum.n);
    if (sum.text.empty()) continue;
    std::printf("%ssummary (int32, n = %s): %s\n", summaries.empty() ? "\n" : "", bench::log2_label(sum.n).c_str(),
                sum.text.c_str());
    summaries.push_back(sum);
  }
  if (!o.json_path.empty()) {
    write_json(o.json_path, o, &info, date, &b, summaries, fatal);
    std::printf("json:    %s\n", o.json_path.c_str());
  }
  if (!b.failures.empty()) {
    std::printf("\nFAILED: %zu problem(s):\n", b.failures.size());
    for (const std::string& f : b.failures) std::printf("  %s\n", f.c_str());
    return 1;
  }
  std::printf("all checks passed\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  options o;
  try {
    if (!parse(argc, argv, o)) return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mergepath-bench: %s\n", e.what());
    return 2;
  }
  try {
    return run(o);
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "mergepath-bench: error: %s\n", e.what());
    return 1;
  } catch (...) {
    std::fprintf(stderr, "mergepath-bench: unknown error\n");
    return 1;
  }
}
