// Timing shared by the probes: the median over 7 reps of `calls` back-to-back calls of f on
// stream s, in microseconds per call (CUDA events, like mergepath-bench).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

template <class F>
double per_call_us(cudaStream_t s, int calls, F f) {
  cudaEvent_t t0, t1;
  cudaEventCreate(&t0);
  cudaEventCreate(&t1);
  std::vector<float> ms;
  for (int rep = 0; rep < 7; ++rep) {
    cudaEventRecord(t0, s);
    for (int c = 0; c < calls; ++c) f();
    cudaEventRecord(t1, s);
    cudaEventSynchronize(t1);
    float m = 0;
    cudaEventElapsedTime(&m, t0, t1);
    ms.push_back(m);
  }
  cudaEventDestroy(t0);
  cudaEventDestroy(t1);
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2] * 1000.0 / calls;
}

// The median over `reps` runs of run() on the default stream, each after an untimed setup() (a
// warm-up run first, not counted), in milliseconds.
template <class Setup, class Run>
float median_ms(int reps, Setup setup, Run run) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  std::vector<float> times;
  for (int r = 0; r <= reps; ++r) {
    setup();
    cudaEventRecord(a);
    run();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    if (r > 0) times.push_back(ms);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}
