// host_context, the no-CUDA build, and the merge tuning values.
#include <gtest/gtest.h>

#include <mergepath/mergepath.hpp>
#include <mergepath/tuning/merge.hpp>
#include <sstream>

#include "test_util.hpp"

namespace mergepath_test {
namespace {

TEST(HostContext, DefaultsToAtLeastOneThread) {
  mergepath::host_context ctx;
  EXPECT_GE(ctx.num_threads(), 1);
  EXPECT_FALSE(ctx.checked());
  EXPECT_EQ(mergepath::host_context(5).num_threads(), 5);
}

TEST(HostContext, CheckedModeToggles) {
  mergepath::host_context ctx(2);
  ctx.set_checked(true);
  EXPECT_TRUE(ctx.checked());
  ctx.set_checked(false);
  EXPECT_FALSE(ctx.checked());
}

TEST(HostContext, ThreadCountErrorNamesTheContext) {
  try {
    mergepath::host_context ctx(0);
    FAIL() << "host_context(0) did not throw";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("host_context"), std::string::npos) << e.what();
  }
}

// This file is compiled by the C++ compiler, never nvcc: the host backend stands on its own.
TEST(HostOnlyBuild, HasNoCudaBackend) {
  static_assert(MERGEPATH_HAS_CUDA == 0, "the host tests must be compiled without CUDA");
  EXPECT_FALSE(mergepath::cuda_available());
}

TEST(MergeTuning, DefaultsAndPrinting) {
  constexpr mergepath::merge_tuning t = mergepath::merge_tuning_for(90, 4, 0);
  static_assert(t.tile_items() == t.block_threads * t.items_per_thread, "tile = threads x items");
  EXPECT_EQ(t.stages == 1 || t.stages == 2, true);
  auto printed = [](const mergepath::merge_tuning& tuning) {
    std::ostringstream os;
    os << tuning;
    return os.str();
  };
  EXPECT_EQ(printed({128, 7, 2}),
            "{block_threads 128, items_per_thread 7, stages 2, min_resident_threads 1024, "
            "partition_probes 1, chunked_max_tiles 0, partition_sample_bytes 32768, prefetch_tiles_per_sm 0, "
            "evict_first_stores_past_l2 1, evict_first_stores_max_l2_mib 56}");
  EXPECT_EQ(printed({32, 3, 1, true}), "{block_threads 32, items_per_thread 3, streamed, min_resident_threads 1024}");
  EXPECT_EQ(printed({256, 23, 1, false, 1536, 3, 2}),
            "{block_threads 256, items_per_thread 23, stages 1, "
            "min_resident_threads 1536, partition_probes 3, chunked_max_tiles 2, partition_sample_bytes 32768, "
            "prefetch_tiles_per_sm 0, evict_first_stores_past_l2 1, evict_first_stores_max_l2_mib 56}");
  mergepath::merge_tuning small_chunks{128, 7, 1};
  small_chunks.small_block_threads = 32;
  small_chunks.small_items_per_thread = 3;
  small_chunks.small_max_total = 896;
  EXPECT_EQ(printed(small_chunks),
            "{block_threads 128, items_per_thread 7, stages 1, min_resident_threads 1024, "
            "partition_probes 1, chunked_max_tiles 0, partition_sample_bytes 32768, prefetch_tiles_per_sm 0, "
            "evict_first_stores_past_l2 1, evict_first_stores_max_l2_mib 56, small_block_threads 32, "
            "small_items_per_thread 3, small_max_total 896}");
  // The default policy is the tuning for the key (and value) sizes.
  EXPECT_EQ(mergepath::default_merge_policy<double>::tuning.tile_items(), merge_tile_items<double>());
  EXPECT_EQ((mergepath::default_merge_policy<int, double>::tuning.tile_items()), (merge_tile_items<int, double>()));
  // Larger elements never get larger tiles (shared memory per tile stays bounded).
  EXPECT_GE(merge_tile_items<std::uint8_t>(), merge_tile_items<std::int64_t>());
  EXPECT_GE(merge_tile_items<std::int64_t>(), (merge_tile_items<std::int64_t, std::int64_t>()));
}

}  // namespace
}  // namespace mergepath_test
