#!/usr/bin/env bash
# Builds (here, no GPU needed) and copies into .devbuild/ the binaries scripts/gpu_round.sh runs,
# so the device call carries them instead of compiling there.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
mkdir -p .devbuild
nvcc -std=c++17 -O3 -arch=sm_90 -Xcompiler=-fopenmp -Iinclude scripts/probe_merge.cu -o .devbuild/probe_merge
nvcc -std=c++17 -O3 -arch=sm_90 -Xcompiler=-fopenmp -Iinclude scripts/probe_mergesort.cu -o .devbuild/probe_mergesort
for f in tests/mergepath-host-tests tests/mergepath-gpu-tests tests/mergepath-gpu-large-tests \
         tests/mergepath-example-gpu bench/mergepath-bench demo/mergepath-demo; do
  cp "build/$f" .devbuild/
done
strip .devbuild/* 2>/dev/null || true
du -sh .devbuild
