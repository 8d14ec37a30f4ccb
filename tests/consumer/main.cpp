#include <mergepath/mergepath.hpp>

#include <cstdio>
#include <vector>

int main() {
  std::vector<int> a{1, 4, 9}, b{2, 3, 10, 11}, out(7);
  mergepath::host_context ctx;
  mergepath::merge(ctx, a.data(), 3, b.data(), 4, out.data());
  const std::vector<int> expected{1, 2, 3, 4, 9, 10, 11};
  if (out != expected) return 1;
  std::puts("consumer: merge ok");
  return 0;
}
