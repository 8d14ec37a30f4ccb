// mergepath: merge-based parallel primitives for the GPU (cuda_context) and the CPU (host_context).
#pragma once

#include "context.hpp"
#include "error.hpp"
#include "functional.hpp"
#include "join.hpp"
#include "load_balance.hpp"
#include "merge.hpp"
#include "mergesort.hpp"
#include "segmented_sort.hpp"
#include "sort.hpp"
#include "set_operations.hpp"
#include "binary_search.hpp"
#include "sorted_search.hpp"
#if MERGEPATH_HAS_CUDA
#include "textbook.hpp"
#endif
