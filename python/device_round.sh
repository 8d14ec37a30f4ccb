#!/usr/bin/env bash
# The Python package on the device (offline): build it with CUDA from this tree into
# build-pydev/ (ignored, kept between runs, so a second build is incremental), run its tests with
# CuPy and torch arrays, and optionally the benchmark. Needs python3 with numpy, nanobind,
# scikit-build-core, pytest (and cupy / torch for the GPU tests), cmake >= 3.24 and nvcc.
# Usage: python/device_round.sh [build] [test] [bench]   (default: build test). Logs go to $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/out}
mkdir -p "$out"
steps=${*:-build test}
status=0
for step in $steps; do
  case $step in
    build)
      echo "== build"
      # The H200's own architecture unless MERGEPATH_CUDA_ARCHITECTURES says otherwise (the
      # package's default, every architecture, would take many times as long).
      MERGEPATH_CUDA_ARCHITECTURES=${MERGEPATH_CUDA_ARCHITECTURES:-90} \
        CMAKE_BUILD_PARALLEL_LEVEL=${JOBS:-$(nproc)} python3 -m pip install --no-build-isolation --no-deps --no-index \
        --upgrade --target "$PWD/build-pydev" ./python >"$out/python-build.log" 2>&1 || { status=1; tail -40 "$out/python-build.log"; }
      PYTHONPATH="$PWD/build-pydev" python3 -c "import mergepath as m; print('cuda built', m.cuda_built(), 'available', m.cuda_available())" ;;
    test)
      echo "== test"
      PYTHONPATH="$PWD/build-pydev" python3 -m pytest -q -p no:cacheprovider python/tests 2>&1 | tee "$out/python-tests.log" | tail -25
      [ "${PIPESTATUS[0]}" -eq 0 ] || status=1 ;;
    bench)
      echo "== bench"
      PYTHONPATH="$PWD/build-pydev" python3 python/bench.py 2>&1 | tee "$out/python-bench.md" || status=1 ;;
    *) echo "unknown step $step"; status=2 ;;
  esac
done
exit $status
