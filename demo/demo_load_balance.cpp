// LOAD-BALANCING DEMONSTRATIONS (moderngpu's "load-balancing search"): which segment each work item
// falls in, given the segments' sizes; then interval_expand and segmented_reduce on the same
// segments, printed in moderngpu's table style and checked against sequential loops.
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "demo.hpp"

namespace demo {
namespace {

void require(bool ok, const std::string& what) {
  if (!ok) throw std::runtime_error("load-balancing demonstration: " + what);
}

}  // namespace

void demo_load_balance(backend& be) {
  // 20 segments of 0..6 items each (some empty): the work a graph's frontier or a sparse
  // matrix's rows would hand out.
  const std::vector<int> sizes = random_values(20, 0, 6, 20);
  std::vector<int> starts(sizes.size());
  int count = 0;
  for (std::size_t s = 0; s < sizes.size(); ++s) starts[s] = count, count += sizes[s];
  const auto num_segments = static_cast<std::int64_t>(starts.size());

  std::printf("\n\nLOAD-BALANCING SEARCH DEMONSTRATION:\n\n");
  std::printf("Segment sizes:\n");
  print_array(sizes, "%4d", 10);
  std::printf("\nSegment starts (exclusive scan of the sizes), %d items in all:\n", count);
  print_array(starts, "%4d", 10);

  auto d_starts = be.to_backend(starts);
  auto segment_of = be.make_array<int>(static_cast<std::size_t>(count));
  be.run([&](auto& ctx) { mergepath::load_balancing_search(ctx, count, d_starts.data(), num_segments, segment_of.data()); });
  const std::vector<int> got = be.to_host(segment_of);
  std::printf("\nLoad-balancing search (the segment of each item):\n");
  print_array(got, "%4d", 10);

  std::vector<int> expected;
  for (int s = 0; s < static_cast<int>(sizes.size()); ++s) expected.insert(expected.end(), sizes[s], s);
  require(got == expected, "load_balancing_search differs from the sequential loop");

  // interval_expand: every item gets its segment's value (here 100 + the segment).
  std::vector<int> values(sizes.size());
  for (std::size_t s = 0; s < values.size(); ++s) values[s] = 100 + static_cast<int>(s);
  auto d_values = be.to_backend(values);
  auto expanded = be.make_array<int>(static_cast<std::size_t>(count));
  be.run([&](auto& ctx) {
    mergepath::interval_expand(ctx, d_values.data(), count, d_starts.data(), num_segments, expanded.data());
  });
  const std::vector<int> expanded_got = be.to_host(expanded);
  std::printf("\nInterval expand of the values 100 + segment:\n");
  print_array(expanded_got, "%4d", 10);
  for (int i = 0; i < count; ++i) require(expanded_got[i] == values[expected[i]], "interval_expand is wrong");

  // segmented_reduce: each segment's sum of its items' indices (0 for an empty segment).
  std::vector<int> item_index(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) item_index[i] = i;
  auto d_items = be.to_backend(item_index);
  auto sums = be.make_array<int>(sizes.size());
  be.run([&](auto& ctx) {
    mergepath::segmented_reduce(ctx, d_items.data(), count, d_starts.data(), num_segments, sums.data(), 0);
  });
  const std::vector<int> sums_got = be.to_host(sums);
  std::printf("\nSegmented reduce (each segment's sum of its item indices):\n");
  print_array(sums_got, "%4d", 10);
  for (std::size_t s = 0; s < sizes.size(); ++s) {
    int sum = 0;
    for (int k = 0; k < sizes[s]; ++k) sum += starts[s] + k;
    require(sums_got[s] == sum, "segmented_reduce is wrong");
  }
}

}  // namespace demo
