// Array printing in moderngpu's style: rows of `per_row` values, each row prefixed by its start index.
//
//   print_array(values, "%4d", 10)  ->      0:     0    5    5    7 ...
//                                          10:    10   11   12   14 ...
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace demo {

// printf-formats one value ("%4d", "%c%3d", ...).
template <class... Args>
std::string format(const char* fmt, Args... args) {
  char buffer[128];
  std::snprintf(buffer, sizeof buffer, fmt, args...);
  return buffer;
}

// Prints count cells, cell(i) being the text of element i, per_row to a row.
template <class Cell>
void print_array_op(std::size_t count, Cell cell, int per_row = 10) {
  std::size_t row = per_row > 0 ? static_cast<std::size_t>(per_row) : 10;
  for (std::size_t i = 0; i < count; ++i) {
    if (i % row == 0) {
      if (i) std::printf("\n");
      std::printf("%5zu:  ", i);
    } else {
      std::printf(" ");
    }
    std::fputs(cell(i).c_str(), stdout);
  }
  if (count) std::printf("\n");
}

template <class T>
void print_array(const std::vector<T>& values, const char* fmt, int per_row = 10) {
  print_array_op(
      values.size(), [&](std::size_t i) { return format(fmt, values[i]); }, per_row);
}

}  // namespace demo
