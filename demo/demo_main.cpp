// mergepath-demo: the library's algorithms on small inputs, printed the way the sources
// (moderngpu's pages, the Futhark binary search example; docs/references.md) print them. Runs on
// the GPU when one is usable, else on the CPU; --cpu / --gpu force one.
//
// To add a demonstration: write `void demo_<name>(backend&)` in its own file, declare it in
// demo.hpp, list it in `demonstrations` below and add the file to CMakeLists.txt.
#include <cstdio>
#include <exception>
#include <sstream>
#include <string>
#include <vector>

#include "demo.hpp"

namespace {

const demo::demonstration demonstrations[] = {
    {"merge", "merge two sorted arrays; stable merge_pairs; the textbook ladder (GPU)", demo::demo_merge},
    {"sorted_search", "moderngpu's two sorted searches: lower bounds; both directions with match flags",
     demo::demo_sorted_search},
    {"mergesort", "sort random keys; stable mergesort_pairs; a 3M-key sort against std::stable_sort",
     demo::demo_mergesort},
    {"segmented_sort", "moderngpu's four: segmented sort of keys and pairs; locality sort of keys and pairs",
     demo::demo_segmented_sort},
    {"segsort_stats", "a 10M-key segmented sort (mean segment 300) against std::stable_sort; its stats table",
     demo::demo_segsort_stats},
    {"binary_search",
     "the Futhark example's binary searches; Eytzinger layouts; eytzinger_search, batch_search, eytzinger_index",
     demo::demo_binary_search},
    {"load_balance", "load-balancing search of 20 segments; interval_expand and segmented_reduce on them",
     demo::demo_load_balance},
    {"join", "orders joined to customers, every join_kind as a table; the four set operations on two multisets",
     demo::demo_join},
};

void print_help() {
  std::printf(
      "usage: mergepath-demo [--cpu | --gpu] [--only NAME[,NAME...]] [--list] [--help]\n"
      "\n"
      "  --cpu         run on the CPU (host_context)\n"
      "  --gpu         run on the GPU (cuda_context); an error when there is none\n"
      "                (default: the GPU when one is usable, else the CPU)\n"
      "  --only NAMES  run only these demonstrations, comma separated (see --list)\n"
      "  --list        list the demonstrations\n");
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

bool known(const std::string& name) {
  for (const auto& d : demonstrations)
    if (name == d.name) return true;
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  demo::backend_choice choice = demo::backend_choice::automatic;
  std::vector<std::string> only;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      print_help();
      return 0;
    } else if (a == "--list") {
      for (const auto& d : demonstrations) std::printf("%-14s %s\n", d.name, d.what);
      return 0;
    } else if (a == "--cpu") {
      choice = demo::backend_choice::cpu;
    } else if (a == "--gpu") {
      choice = demo::backend_choice::gpu;
    } else if (a == "--only" && i + 1 < argc) {
      only = split(argv[++i]);
      for (const std::string& name : only)
        if (!known(name)) {
          std::fprintf(stderr, "mergepath-demo: --only: unknown demonstration '%s' (see --list)\n", name.c_str());
          return 2;
        }
    } else {
      std::fprintf(stderr, "mergepath-demo: unknown option '%s' (see --help)\n", a.c_str());
      return 2;
    }
  }

  try {
    demo::backend be(choice);
    std::printf("mergepath-demo backend: %s\n", be.describe().c_str());
    for (const auto& d : demonstrations) {
      if (!only.empty() && std::find(only.begin(), only.end(), d.name) == only.end()) continue;
      d.run(be);
    }
    std::fflush(stdout);
    return 0;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "mergepath-demo: error: %s\n", e.what());
    return 1;
  }
}
