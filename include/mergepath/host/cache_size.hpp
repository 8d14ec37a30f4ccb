// The CPU's last-level cache size, which decides whether a long array's random reads come from
// cache or from memory (the host sorted search's galloping ratio).
#pragma once

#include <cstddef>
#include <fstream>
#include <string>

#include "../detail/config.hpp"

namespace mergepath {
namespace host {

// Bytes of the largest cache level Linux lists for CPU 0 (/sys/devices/system/cpu/cpu0/cache),
// read once; 0 where it lists none (other systems, some containers). Not sysconf's
// _SC_LEVEL3_CACHE_SIZE: in virtual machines it reports the physical part's whole L3 (320 MiB on
// this project's build machine, whose VM gets 32 MiB).
inline std::size_t last_level_cache_bytes() {
  static const std::size_t bytes = [] {
    std::size_t largest = 0;
    for (int index = 0; index < 8; ++index) {
      std::ifstream file("/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/size");
      std::string size;
      if (!(file >> size) || size.empty()) continue;
      std::size_t digits = 0, value = 0;
      while (digits < size.size() && size[digits] >= '0' && size[digits] <= '9')
        value = value * 10 + static_cast<std::size_t>(size[digits++] - '0');
      const char unit = digits < size.size() ? size[digits] : ' ';
      value <<= unit == 'K' ? 10 : unit == 'M' ? 20 : unit == 'G' ? 30 : 0;
      if (value > largest) largest = value;
    }
    return largest;
  }();
  return bytes;
}

}  // namespace host
}  // namespace mergepath
