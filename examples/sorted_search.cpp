// Sorted search with mergepath: every needle of a sorted array looked up in another sorted array
// in one walk of both, instead of one binary search per needle. docs/sorted_search.md quotes this
// file; the tests build and run it (mergepath-example-sorted-search), so it stays correct.
#include <cstdint>
#include <cstdio>
#include <mergepath/mergepath.hpp>
#include <vector>

// Returns true if got == expected, printing the outcome under `what`.
template <class T>
static bool report(const char* what, const std::vector<T>& got, const std::vector<T>& expected) {
  std::printf("%-26s", what);
  for (T x : got) std::printf(" %lld", static_cast<long long>(x));
  std::printf("%s\n", got == expected ? "" : "   <-- WRONG");
  return got == expected;
}

int main() {
  bool ok = true;
  mergepath::host_context cpu;  // or mergepath::cuda_context gpu, with device pointers
  const std::vector<int> a{1, 3, 3, 8}, b{2, 3, 5, 7, 8, 9};

  // lower[i] = std::lower_bound(b, a[i]) - b, for every a[i] at once (a and b sorted).
  std::vector<std::int64_t> lower(a.size()), upper(a.size());
  mergepath::sorted_search(cpu, a.data(), a.size(), b.data(), b.size(), lower.data());
  ok &= report<std::int64_t>("lower bounds of a in b", lower, {0, 1, 1, 4});
  mergepath::sorted_search<mergepath::bounds::upper>(cpu, a.data(), a.size(), b.data(), b.size(), upper.data());
  ok &= report<std::int64_t>("upper bounds of a in b", upper, {0, 2, 2, 5});

  // Both directions in one pass: the lower bound of a into b and the upper bound of b into a,
  // each with the output type's top bit set where the other input holds an equal key.
  // Returns how many elements of each side have a match.
  using mergepath::search;
  std::vector<std::int64_t> a_out(a.size()), b_out(b.size());
  mergepath::match_counts m =
      mergepath::sorted_search<mergepath::bounds::lower, search::index_match, search::index_match>(
          cpu, a.data(), a.size(), b.data(), b.size(), a_out.data(), b_out.data());
  std::vector<int> a_matched;
  for (std::int64_t x : a_out) a_matched.push_back(x < 0 ? 1 : 0);  // the top bit of a signed bound
  ok &= report<int>("a has a match in b", a_matched, {0, 1, 1, 1});
  ok &= report<std::int64_t>("match counts (a, b)", {m.a, m.b}, {3, 2});

  // counts[i] = how many elements of b equal a[i], from the lower bounds found above.
  std::vector<std::int64_t> counts(a.size());
  mergepath::sorted_equality_count(cpu, a.data(), a.size(), b.data(), b.size(), lower.data(), counts.data());
  ok &= report<std::int64_t>("equal keys in b", counts, {0, 1, 1, 1});
  return ok ? 0 : 1;
}
