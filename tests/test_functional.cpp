// The reductions' operators (functional.hpp): signed integers wrap around instead of overflowing
// (undefined behaviour, which UBSan reports), other types compute as the built-in operators do.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <mergepath/functional.hpp>

namespace {

template <class T>
constexpr T max_of = std::numeric_limits<T>::max();
template <class T>
constexpr T min_of = std::numeric_limits<T>::min();

static_assert(mergepath::plus<>{}(max_of<int>, 1) == min_of<int>);
static_assert(mergepath::plus<std::int64_t>{}(max_of<std::int64_t>, 2) == min_of<std::int64_t> + 1);
static_assert(mergepath::multiplies<>{}(max_of<int>, 2) == -2);
static_assert(mergepath::multiplies<std::int64_t>{}(min_of<std::int64_t>, -1) == min_of<std::int64_t>);
static_assert(mergepath::plus<>{}(1.5, 2) == 3.5);

TEST(Functional, SignedIntegersWrapAround) {
  volatile int read_at_run_time = max_of<int>;  // where UBSan would see an overflow
  const int big = read_at_run_time;
  EXPECT_EQ(mergepath::plus<>{}(big, big), -2);
  EXPECT_EQ(mergepath::multiplies<int>{}(big, big), 1);
  const short s = max_of<short>;  // promoted to int: no wrap at 16 bits
  EXPECT_EQ(mergepath::plus<>{}(s, s), 2 * static_cast<int>(max_of<short>));
  EXPECT_EQ(mergepath::multiplies<unsigned>{}(max_of<unsigned>, 2u), max_of<unsigned> - 1);
  EXPECT_EQ(mergepath::plus<float>{}(0.5f, 0.25f), 0.75f);
}

}  // namespace
