#!/usr/bin/env bash
# The host tests under AddressSanitizer and UndefinedBehaviorSanitizer (the CPU backend's
# counterpart of compute-sanitizer): a host-only build in build-asan/, then every host test.
# ~15 minutes on 2 cores, so CI does not run it; run it after changing host/ or thread/ code.
set -euo pipefail
cd "$(dirname "$0")/.."
flags="-fsanitize=address,undefined -fno-omit-frame-pointer"
cmake -S . -B build-asan -G Ninja -DMERGEPATH_DISABLE_CUDA=ON -DMERGEPATH_ENABLE_MPI=OFF -DMERGEPATH_BUILD_DEMO=OFF \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" >/dev/null
cmake --build build-asan --target mergepath-host-tests
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 build-asan/tests/mergepath-host-tests --gtest_brief=1
