// RELATIONAL JOIN DEMONSTRATIONS (moderngpu's Vectorized Sorted Search page: "pairing vectorized
// sorted search with load-balancing search to implement relational joins"): orders joined to
// customers by customer id, every join_kind printed as a table; then the four set operations on
// two short multisets. Each is checked against a sequential loop (a nested-loop join, std::set_*).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "demo.hpp"

namespace demo {
namespace {

void require(bool ok, const std::string& what) {
  if (!ok) throw std::runtime_error("join demonstration: " + what);
}

// A join_result's column, copied to the host.
template <class Ctx>
std::vector<int> column(const mergepath::join_result<Ctx, int>& r, const int* p) {
  std::vector<int> v(static_cast<std::size_t>(r.size()));
  if (!p || v.empty()) return v;
#if MERGEPATH_HAS_CUDA
  if constexpr (std::is_same_v<Ctx, mergepath::cuda_context>) {
    MERGEPATH_CUDA_CHECK(cudaMemcpy(v.data(), p, v.size() * sizeof(int), cudaMemcpyDeviceToHost));
    return v;
  }
#endif
  std::copy(p, p + v.size(), v.begin());
  return v;
}

struct rows {
  std::vector<int> a, b;
};

// The nested-loop join of sorted keys, rows ordered by key, then a row, then b row.
rows nested_loop_join(mergepath::join_kind kind, const std::vector<int>& a, const std::vector<int>& b) {
  using mergepath::join_kind;
  rows r;
  std::vector<int> keys = a;
  keys.insert(keys.end(), b.begin(), b.end());
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  for (int key : keys) {
    std::vector<int> in_a, in_b;
    for (int i = 0; i < static_cast<int>(a.size()); ++i)
      if (a[i] == key) in_a.push_back(i);
    for (int j = 0; j < static_cast<int>(b.size()); ++j)
      if (b[j] == key) in_b.push_back(j);
    for (int i : in_a) {
      if (kind == join_kind::left_semi && !in_b.empty()) r.a.push_back(i);
      if (kind == join_kind::left_anti && in_b.empty()) r.a.push_back(i);
      if (kind == join_kind::left_semi || kind == join_kind::left_anti) continue;
      for (int j : in_b) r.a.push_back(i), r.b.push_back(j);
      if (in_b.empty() && (kind == join_kind::left || kind == join_kind::full_outer))
        r.a.push_back(i), r.b.push_back(-1);
    }
    if (in_a.empty() && (kind == join_kind::right || kind == join_kind::full_outer))
      for (int j : in_b) r.a.push_back(-1), r.b.push_back(j);
  }
  return r;
}

const char* kind_name(mergepath::join_kind kind) {
  const char* names[] = {"inner", "left", "right", "full_outer", "left_semi", "left_anti"};
  return names[static_cast<int>(kind)];
}

template <mergepath::join_kind Kind>
void show_join(backend& be, const array<int>& orders, const std::vector<int>& order_customer,
               const array<int>& customers, const std::vector<int>& customer_id,
               const std::vector<std::string>& customer_name) {
  rows got;
  be.run([&](auto& ctx) {
    auto r = mergepath::merge_join<Kind, int>(ctx, orders.data(), static_cast<std::int64_t>(orders.size()),
                                              customers.data(), static_cast<std::int64_t>(customers.size()));
    got.a = column(r, r.a_index());
    got.b = column(r, r.b_index());
  });
  std::printf("\n%s join: %zu rows\n", kind_name(Kind), got.a.size());
  const bool has_b = Kind != mergepath::join_kind::left_semi && Kind != mergepath::join_kind::left_anti;
  std::printf(has_b ? "  order  customer_id  |  customer  name\n" : "  order  customer_id\n");
  for (std::size_t k = 0; k < got.a.size(); ++k) {
    const int i = got.a[k], j = has_b ? got.b[k] : -1;
    std::string left = i < 0 ? "      -            -" : format("  %5d  %11d", i, order_customer[i]);
    std::string right = j < 0 ? "         -  -" : format("  %8d  %s", customer_id[j], customer_name[j].c_str());
    if (has_b)
      std::printf("%s  |%s\n", left.c_str(), right.c_str());
    else
      std::printf("%s\n", left.c_str());
  }
  const rows expected = nested_loop_join(Kind, order_customer, customer_id);
  require(got.a == expected.a && (!has_b || got.b == expected.b),
          std::string(kind_name(Kind)) + " join differs from the nested-loop join");
}

}  // namespace

void demo_join(backend& be) {
  // Orders (by customer id, sorted) and customers (by id, sorted; customer 4 has two rows).
  const std::vector<int> order_customer = {1, 1, 2, 4, 4, 6, 7, 7, 7};
  const std::vector<int> customer_id = {1, 2, 3, 4, 4, 5, 7};
  const std::vector<std::string> customer_name = {"ada", "bob", "cy", "dee", "dee2", "eve", "gus"};

  std::printf("\n\nRELATIONAL JOIN DEMONSTRATION:\n\n");
  std::printf("Orders (a): the customer id of each order:\n");
  print_array(order_customer, "%4d", 10);
  std::printf("\nCustomers (b): their ids:\n");
  print_array(customer_id, "%4d", 10);

  auto orders = be.to_backend(order_customer);
  auto customers = be.to_backend(customer_id);
  using mergepath::join_kind;
  show_join<join_kind::inner>(be, orders, order_customer, customers, customer_id, customer_name);
  show_join<join_kind::left>(be, orders, order_customer, customers, customer_id, customer_name);
  show_join<join_kind::right>(be, orders, order_customer, customers, customer_id, customer_name);
  show_join<join_kind::full_outer>(be, orders, order_customer, customers, customer_id, customer_name);
  show_join<join_kind::left_semi>(be, orders, order_customer, customers, customer_id, customer_name);
  show_join<join_kind::left_anti>(be, orders, order_customer, customers, customer_id, customer_name);

  // The set operations on two multisets: which copies each keeps is std::set_*'s rule.
  const std::vector<int> a = {1, 2, 2, 2, 3, 5, 5, 8}, b = {2, 3, 3, 5, 6, 8, 8};
  std::printf("\n\nSET OPERATIONS DEMONSTRATION:\n\nA:\n");
  print_array(a, "%4d", 10);
  std::printf("\nB:\n");
  print_array(b, "%4d", 10);
  auto da = be.to_backend(a), db = be.to_backend(b);
  const char* names[] = {"set_union", "set_intersection", "set_difference", "set_symmetric_difference"};
  for (int op = 0; op < 4; ++op) {
    auto out = be.make_array<int>(a.size() + b.size());
    std::int64_t n = 0;
    be.run([&](auto& ctx) {
      const auto na = static_cast<std::int64_t>(a.size()), nb = static_cast<std::int64_t>(b.size());
      if (op == 0) n = mergepath::set_union(ctx, da.data(), na, db.data(), nb, out.data());
      if (op == 1) n = mergepath::set_intersection(ctx, da.data(), na, db.data(), nb, out.data());
      if (op == 2) n = mergepath::set_difference(ctx, da.data(), na, db.data(), nb, out.data());
      if (op == 3) n = mergepath::set_symmetric_difference(ctx, da.data(), na, db.data(), nb, out.data());
    });
    std::vector<int> got = be.to_host(out);
    got.resize(static_cast<std::size_t>(n));
    std::vector<int> expected(a.size() + b.size());
    auto end = op == 0   ? std::set_union(a.begin(), a.end(), b.begin(), b.end(), expected.begin())
               : op == 1 ? std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), expected.begin())
               : op == 2 ? std::set_difference(a.begin(), a.end(), b.begin(), b.end(), expected.begin())
                         : std::set_symmetric_difference(a.begin(), a.end(), b.begin(), b.end(), expected.begin());
    expected.erase(end, expected.end());
    std::printf("\n%s (%lld elements):\n", names[op], static_cast<long long>(n));
    print_array(got, "%4d", 10);
    require(got == expected, std::string(names[op]) + " differs from std::" + (names[op]));
  }
}

}  // namespace demo
