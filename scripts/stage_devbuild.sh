#!/usr/bin/env bash
# Builds (here, no GPU needed) and copies into .devbuild/ the binaries scripts/gpu_round.sh runs,
# so the device call carries them instead of compiling there.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
mkdir -p .devbuild
for f in tests/mergepath-host-tests tests/mergepath-gpu-tests tests/mergepath-gpu-large-tests \
         tests/mergepath-example-gpu bench/mergepath-bench bench/mergepath-probe demo/mergepath-demo; do
  cp "build/$f" .devbuild/
done
strip .devbuild/* 2>/dev/null || true
du -sh .devbuild
