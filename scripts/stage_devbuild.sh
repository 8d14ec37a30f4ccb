#!/usr/bin/env bash
# Builds (here, no GPU needed) and copies into .devbuild/ the binaries scripts/gpu_round.sh runs,
# so the device call carries them instead of compiling there. PYTHON=python3.12 also stages the
# Python package's wheel; TARGETS="tests/mergepath-gpu-tests ..." stages only those binaries.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=${TARGETS:-tests/mergepath-host-tests tests/mergepath-gpu-tests tests/mergepath-gpu-large-tests
  tests/mergepath-gpu-stress-tests tests/mergepath-example-gpu bench/mergepath-bench bench/mergepath-probe
  demo/mergepath-demo}
# The H200 runs sm_90 code; CUDA_ARCHS="80-virtual" builds PTX for the driver's JIT instead (the
# pre-Hopper paths on the same GPU), into build-<archs>.
archs=${CUDA_ARCHS:-90}
build=build; [ "$archs" = 90 ] || build="build-${archs//;/_}"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CUDA_ARCHITECTURES=$archs" >/dev/null
cmake --build "$build" -j"$(nproc)" --target $(for f in $targets; do basename "$f"; done)
mkdir -p .devbuild
for f in $targets; do
  cp "$build/$f" .devbuild/
done
strip .devbuild/* 2>/dev/null || true
# The Python package as a wheel, built here for the GPU machine's python3 when PYTHON names an
# interpreter of the same minor version (3.12 there) that has nanobind and scikit-build-core: its
# CUDA build takes minutes that the device would otherwise spend (gpu_round.sh python installs it).
if [ -n "${PYTHON:-}" ]; then
  rm -f .devbuild/*.whl
  MERGEPATH_CUDA_ARCHITECTURES="$archs" CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" "$PYTHON" -m pip wheel -q --no-build-isolation --no-deps ./python -w .devbuild
fi
du -sh .devbuild
