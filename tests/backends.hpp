// Tests written once over both backends. A backend names its context, owns memory that the
// context's calls read and write (buffer<T>, with device_vector's interface), finishes a call's
// work and says whether it can run here; gpu_util.cuh adds gpu_backend. A suite in suites/ is a
// typed test over on<Backend, Case>, instantiated by test_host_<family>.cpp for host_backend and
// by test_gpu_<family>.cu for gpu_backend.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <memory>
#include <string>
#include <mergepath/mergepath.hpp>
#include <vector>

#include "sort_util.hpp"
#include "test_util.hpp"

namespace mergepath_test {

// Host memory with device_vector's interface, so a check reads the same on both backends.
template <class T>
class host_buffer {
 public:
  explicit host_buffer(std::size_t count) : data_(count > 0 ? new T[count] : nullptr), size_(count) {}
  explicit host_buffer(const std::vector<T>& host) : host_buffer(host.size()) { upload(host); }

  T* data() const { return data_.get(); }
  std::size_t size() const { return size_; }

  // this[offset, offset + host.size()) = host
  void upload(const std::vector<T>& host, std::size_t offset = 0) {
    std::copy(host.begin(), host.end(), data_.get() + offset);
  }
  std::vector<T> download() const { return std::vector<T>(data_.get(), data_.get() + size_); }
  // Every byte 0xA5, as poison<T>() (test_util.hpp).
  void fill_poison() {
    if (size_ > 0) std::memset(static_cast<void*>(data_.get()), 0xA5, size_ * sizeof(T));
  }

 private:
  std::unique_ptr<T[]> data_;
  std::size_t size_ = 0;
};

struct host_backend {
  using context = mergepath::host_context;
  template <class T>
  using buffer = host_buffer<T>;

  static bool available() { return true; }
  static void finish(context&) {}
  // The contexts a suite runs each case on: one thread, two, an odd count and more than this
  // machine has cores. Work under 2^15 items a chunk stays on one thread, so only the larger
  // sizes split.
  static std::vector<std::unique_ptr<context>> contexts() {
    std::vector<std::unique_ptr<context>> all;
    for (int threads : {1, 2, 3, 8}) all.push_back(std::make_unique<context>(threads));
    return all;
  }
  static std::string describe(const context& ctx) {
    return "host_context, " + std::to_string(ctx.num_threads()) + " threads";
  }
};

// The backend of a context: checks take a context and find its buffers and its finish() here.
template <class Context>
struct backend_of;
template <>
struct backend_of<mergepath::host_context> {
  using type = host_backend;
};
template <class Context, class T>
using buffer_for = typename backend_of<Context>::type::template buffer<T>;
template <class Context>
void finish(Context& ctx) {
  backend_of<Context>::type::finish(ctx);
}

// run(ctx) on each of a backend's contexts(), naming the context in a failure's trace; stops at
// the first fatal failure.
template <class Context, class Run>
void on_each(const std::vector<std::unique_ptr<Context>>& contexts, Run run) {
  for (const auto& ctx : contexts) {
    SCOPED_TRACE(backend_of<Context>::type::describe(*ctx));
    run(*ctx);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// A test on one backend: skipped, not passed, where the backend cannot run here.
template <class Backend>
class backend_test : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!Backend::available()) GTEST_SKIP() << "no GPU";
  }
};

// A typed suite's parameter: a backend and a case of types (keys_case, pairs_case, ...).
template <class Backend, class Case>
struct on : Case {
  using backend = Backend;
};
// The suite's fixture for on<Backend, Case>, and for a bare backend (suites of calls, not types).
template <class Param>
class backend_suite : public backend_test<typename Param::backend> {};

template <class Backend, class Cases>
struct on_backend_list;
template <class Backend, class... Cases>
struct on_backend_list<Backend, ::testing::Types<Cases...>> {
  using type = ::testing::Types<on<Backend, Cases>...>;
};
// ::testing::Types<Cases...> on one backend: Types<on<Backend, Cases>...>.
template <class Backend, class Cases>
using on_backend = typename on_backend_list<Backend, Cases>::type;

// A case for suites that take no types of their own.
struct no_types {};
// A suite's cases on the host backend (one name: macro arguments cannot hold a comma).
template <class Cases = ::testing::Types<no_types>>
using on_host = on_backend<host_backend, Cases>;

// ---------------------------------------------------------------------------------------------
// Checked runs: inputs copied in, outputs poisoned and followed (or surrounded) by guards, the
// result compared with its std:: oracle and the guards shown untouched.

// merge(ctx, a, a_count, b, b_count, out) against the expected output (suites compute it once
// for all their contexts), and against std::merge.
template <class Context, class Key, class Merge>
void check_merge_against(Context& ctx, const merge_input<Key>& in, const std::vector<Key>& expected, Merge merge) {
  buffer_for<Context, Key> a(in.a), b(in.b), out(expected.size() + guard_items);
  out.fill_poison();
  merge(ctx, a.data(), static_cast<index_t>(in.a.size()), b.data(), static_cast<index_t>(in.b.size()), out.data());
  finish(ctx);
  std::vector<Key> got = out.download();
  ASSERT_TRUE(ranges_equal(expected, got));
  ASSERT_TRUE(untouched(got, expected.size(), got.size()));
}
template <class Context, class Key, class Comp, class Merge>
void check_merge(Context& ctx, const merge_input<Key>& in, Comp comp, Merge merge) {
  check_merge_against(ctx, in, std_merge(in.a, in.b, comp), merge);
}

// The inputs and expected output of a merge_pairs check: values record each element's origin
// (a[i] carries i, b[j] carries a_count + j), so stability shows in them.
template <class Key, class Value>
struct merge_pairs_input {
  const merge_input<Key>& keys;
  std::vector<Value> a_vals, b_vals;
  std::pair<std::vector<Key>, std::vector<Value>> expected;

  template <class Comp>
  merge_pairs_input(const merge_input<Key>& in, Comp comp)
      : keys(in),
        a_vals(origins<Value>(static_cast<index_t>(in.a.size()), 0)),
        b_vals(origins<Value>(static_cast<index_t>(in.b.size()), static_cast<index_t>(in.a.size()))),
        expected(std_merge_pairs(in.a, a_vals, in.b, b_vals, comp)) {}
};

// merge_pairs(ctx, a_keys, a_vals, a_count, b_keys, b_vals, b_count, out_keys, out_vals).
template <class Context, class Key, class Value, class MergePairs>
void check_merge_pairs_against(Context& ctx, const merge_pairs_input<Key, Value>& in, MergePairs merge_pairs) {
  const std::size_t total = in.expected.first.size();
  buffer_for<Context, Key> a(in.keys.a), b(in.keys.b), keys(total + guard_items);
  buffer_for<Context, Value> av(in.a_vals), bv(in.b_vals), vals(total + guard_items);
  keys.fill_poison();
  vals.fill_poison();
  merge_pairs(ctx, a.data(), av.data(), static_cast<index_t>(in.a_vals.size()), b.data(), bv.data(),
              static_cast<index_t>(in.b_vals.size()), keys.data(), vals.data());
  finish(ctx);
  std::vector<Key> got_keys = keys.download();
  std::vector<Value> got_vals = vals.download();
  ASSERT_TRUE(ranges_equal(in.expected.first, got_keys));
  ASSERT_TRUE(ranges_equal(in.expected.second, got_vals));
  ASSERT_TRUE(untouched(got_keys, total, got_keys.size()));
  ASSERT_TRUE(untouched(got_vals, total, got_vals.size()));
}
template <class Key, class Value, class Context, class Comp, class MergePairs>
void check_merge_pairs(Context& ctx, const merge_input<Key>& in, Comp comp, MergePairs merge_pairs) {
  check_merge_pairs_against(ctx, merge_pairs_input<Key, Value>(in, comp), merge_pairs);
}

// mergepath::merge and merge_pairs (int values), default tunings, both checked as above.
template <class Context, class Key, class Comp>
void check_default_merges(Context& ctx, const merge_input<Key>& in, Comp comp) {
  ASSERT_NO_FATAL_FAILURE(
      check_merge(ctx, in, comp, [](auto& ctx, auto a, index_t na, auto b, index_t nb, auto out) {
        mergepath::merge(ctx, a, na, b, nb, out, Comp{});
      }));
  ASSERT_NO_FATAL_FAILURE((check_merge_pairs<Key, int>(
      ctx, in, comp, [](auto& ctx, auto ak, auto av, index_t na, auto bk, auto bv, index_t nb, auto ok, auto ov) {
        mergepath::merge_pairs(ctx, ak, av, na, bk, bv, nb, ok, ov, Comp{});
      })));
}

// Sorts a copy of keys, between poisoned guards, with sort(ctx, keys, count), and checks it
// against the expected result (suites compute it once for all their contexts), or against
// std::stable_sort, and that the guards are untouched.
template <class Context, class Key, class Sort>
void check_sort_against(Context& ctx, const std::vector<Key>& keys, const std::vector<Key>& expected, Sort sort) {
  buffer_for<Context, Key> data(guarded(keys));
  sort(ctx, data.data() + guard_items, static_cast<index_t>(keys.size()));
  finish(ctx);
  ASSERT_TRUE(guarded_equal(expected, data.download()));
}

// Values record each key's origin; expected is std_stable_sort_pairs's.
template <class Context, class Key, class Value, class SortPairs>
void check_sort_pairs_against(Context& ctx, const std::vector<Key>& keys,
                              const std::pair<std::vector<Key>, std::vector<Value>>& expected, SortPairs sort_pairs) {
  const index_t count = static_cast<index_t>(keys.size());
  buffer_for<Context, Key> data_keys(guarded(keys));
  buffer_for<Context, Value> data_vals(guarded(origins<Value>(count, 0)));
  sort_pairs(ctx, data_keys.data() + guard_items, data_vals.data() + guard_items, count);
  finish(ctx);
  ASSERT_TRUE(guarded_equal(expected.first, data_keys.download()));
  ASSERT_TRUE(guarded_equal(expected.second, data_vals.download()));
}

// Into a guarded output of poison, the input untouched.
template <class Context, class Key, class SortCopy>
void check_sort_copy_against(Context& ctx, const std::vector<Key>& keys, const std::vector<Key>& expected,
                             SortCopy sort_copy) {
  buffer_for<Context, Key> in(guarded(keys)), out(guarded(std::vector<Key>(keys.size(), poison<Key>())));
  sort_copy(ctx, static_cast<const Key*>(in.data() + guard_items), static_cast<index_t>(keys.size()),
            out.data() + guard_items);
  finish(ctx);
  ASSERT_TRUE(guarded_equal(expected, out.download()));
  ASSERT_TRUE(guarded_equal(keys, in.download()));
}

template <class Context, class Key, class Value, class SortPairsCopy>
void check_sort_pairs_copy_against(Context& ctx, const std::vector<Key>& keys,
                                   const std::pair<std::vector<Key>, std::vector<Value>>& expected,
                                   SortPairsCopy sort_pairs_copy) {
  const index_t count = static_cast<index_t>(keys.size());
  const std::vector<Value> origin = origins<Value>(count, 0);
  buffer_for<Context, Key> keys_in(guarded(keys)), keys_out(guarded(std::vector<Key>(keys.size(), poison<Key>())));
  buffer_for<Context, Value> vals_in(guarded(origin)),
      vals_out(guarded(std::vector<Value>(keys.size(), poison<Value>())));
  sort_pairs_copy(ctx, static_cast<const Key*>(keys_in.data() + guard_items),
                  static_cast<const Value*>(vals_in.data() + guard_items), count, keys_out.data() + guard_items,
                  vals_out.data() + guard_items);
  finish(ctx);
  ASSERT_TRUE(guarded_equal(expected.first, keys_out.download()));
  ASSERT_TRUE(guarded_equal(expected.second, vals_out.download()));
  ASSERT_TRUE(guarded_equal(keys, keys_in.download()));
  ASSERT_TRUE(guarded_equal(origin, vals_in.download()));
}

template <class Context, class Key, class Comp, class Sort>
void check_sort(Context& ctx, const std::vector<Key>& keys, Comp comp, Sort sort) {
  check_sort_against(ctx, keys, std_stable_sort(keys, comp), sort);
}
template <class Key, class Value, class Context, class Comp, class SortPairs>
void check_sort_pairs(Context& ctx, const std::vector<Key>& keys, Comp comp, SortPairs sort_pairs) {
  check_sort_pairs_against(ctx, keys, std_stable_sort_pairs<Key, Value>(keys, comp), sort_pairs);
}
template <class Context, class Key, class Comp, class SortCopy>
void check_sort_copy(Context& ctx, const std::vector<Key>& keys, Comp comp, SortCopy sort_copy) {
  check_sort_copy_against(ctx, keys, std_stable_sort(keys, comp), sort_copy);
}
template <class Key, class Value, class Context, class Comp, class SortPairsCopy>
void check_sort_pairs_copy(Context& ctx, const std::vector<Key>& keys, Comp comp, SortPairsCopy sort_pairs_copy) {
  check_sort_pairs_copy_against(ctx, keys, std_stable_sort_pairs<Key, Value>(keys, comp), sort_pairs_copy);
}

}  // namespace mergepath_test
