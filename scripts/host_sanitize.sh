#!/usr/bin/env bash
# The host tests under AddressSanitizer and UndefinedBehaviorSanitizer (the CPU backend's
# counterpart of compute-sanitizer): a host-only build in build-asan/, then every host test, then
# the comparator and malformed-start fuzz again, larger (MERGEPATH_FUZZ_ROUNDS rounds, default 1,
# on 1 to 8 threads and longer inputs). ~25 minutes on 2 cores, so CI does not run it; run it
# after changing host/ or thread/ code.
set -euo pipefail
cd "$(dirname "$0")/.."
flags="-fsanitize=address,undefined -fno-omit-frame-pointer"
cmake -S . -B build-asan -G Ninja -DMERGEPATH_DISABLE_CUDA=ON -DMERGEPATH_ENABLE_MPI=OFF -DMERGEPATH_BUILD_DEMO=OFF \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" >/dev/null
cmake --build build-asan --target mergepath-host-tests
# Every allocation filled with garbage first (malloc_fill_byte), so that an output a call leaves
# unwritten shows as a value out of range.
export ASAN_OPTIONS=detect_leaks=1:max_malloc_fill_size=2147483647 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
build-asan/tests/mergepath-host-tests --gtest_brief=1
MERGEPATH_FUZZ_ROUNDS="${MERGEPATH_FUZZ_ROUNDS:-1}" build-asan/tests/mergepath-host-tests --gtest_brief=1 \
  --gtest_filter='HostComparatorFuzz.*:HostLoadBalance/*.MalformedStarts*'
