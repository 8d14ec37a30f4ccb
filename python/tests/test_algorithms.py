"""Every call against numpy, written once and run with every array library (the `lib` fixture of
conftest.py): numpy and torch on the host backend, CuPy and torch on a GPU. Sizes 0, 1, around
the host backend's chunks and the GPU's tiles, and large; every dtype; both orders."""

import gc

import numpy as np
import pytest

import mergepath as mp
from arguments import CASES
from reference import (
    DTYPES,
    SIZES,
    assert_same,
    join_reference,
    random_keys,
    random_starts,
    segment_ids,
    segmented_order,
    segmented_reduce,
    set_reference,
    stable_order,
)

LARGE = 1 << 20  # the GPU libraries' largest size; the host's large cases are test_host.py's


def check(lib, got, want):
    assert lib.is_mine(got), type(got)
    assert_same(lib.host(got), want)


def skip_large_on_host(lib, *sizes):
    if not lib.on_gpu and max(sizes) >= LARGE:
        pytest.skip("the GPU libraries' size")


# ---------------------------------------------------------------------------------------- sort
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", SIZES + [LARGE])
def test_sort(lib, rng, dtype, n):
    skip_large_on_host(lib, n)
    keys = random_keys(rng, n, dtype, distinct=max(n // 4, 2), nans=True)
    values = np.arange(n, dtype=np.int64)
    dev_keys, dev_values = lib.dev(keys), lib.dev(values)
    got = mp.sort(dev_keys)
    check(lib, got, keys[stable_order(keys)])
    assert got is not dev_keys
    for descending in (False, True):
        order = stable_order(keys, descending)
        for value_dtype in ("int64", "float32"):
            k, v = mp.sort(dev_keys, lib.dev(values.astype(value_dtype)), descending=descending)
            check(lib, k, keys[order])
            check(lib, v, values.astype(value_dtype)[order])
        k, v = mp.locality_sort(lib.dev(keys), dev_values, descending=descending)
        check(lib, k, keys[order])
        check(lib, v, values[order])
    # A sorted copy reads its inputs and leaves them as they were.
    assert_same(lib.host(dev_keys), keys)
    assert_same(lib.host(dev_values), values)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [0, 1, 1921, 32769])
def test_locality_sort_near_sorted(lib, rng, dtype, n):
    keys = np.sort(random_keys(rng, n, dtype))
    if n > 2:  # near-sorted: swap some neighbours
        i = rng.integers(0, n - 1, n // 10)
        keys[i], keys[i + 1] = keys[i + 1].copy(), keys[i].copy()
    values = np.arange(n, dtype=np.int32)
    k, v = mp.locality_sort(lib.dev(keys), lib.dev(values))
    order = stable_order(keys)
    check(lib, k, keys[order])
    check(lib, v, values[order])
    check(lib, mp.locality_sort(lib.dev(keys), descending=True), keys[stable_order(keys, True)])


# ---------------------------------------------------------------------------------------- merge
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("na,nb", [(0, 0), (0, 5), (1, 0), (1, 1), (1919, 1921), (4096, 1), (4097, 1),
                                   (32769, 40000), (LARGE, 12345)])
def test_merge(lib, rng, dtype, na, nb):
    skip_large_on_host(lib, na, nb)
    for descending in (False, True):
        a = random_keys(rng, na, dtype, distinct=50, nans=True)
        b = random_keys(rng, nb, dtype, distinct=50, nans=True)
        a, b = a[stable_order(a, descending)], b[stable_order(b, descending)]
        keys = np.concatenate([a, b])
        order = stable_order(keys, descending)
        check(lib, mp.merge(lib.dev(a), lib.dev(b), descending=descending), keys[order])
        for value_dtype in ("uint32", "int64"):
            av = np.arange(na).astype(value_dtype)
            bv = np.arange(na, na + nb).astype(value_dtype)
            k, v = mp.merge(lib.dev(a), lib.dev(b), lib.dev(av), lib.dev(bv), descending=descending, checked=True)
            check(lib, k, keys[order])
            check(lib, v, np.concatenate([av, bv])[order])


# ------------------------------------------------------------------------------- segmented sort
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n,segments", [(0, 0), (0, 1), (1, 1), (17, 0), (257, 5), (1921, 0), (4097, 40),
                                        (32769, 3000), (100003, 7), (LARGE, 3000)])
def test_segmented_sort(lib, rng, dtype, n, segments):
    skip_large_on_host(lib, n)
    keys = random_keys(rng, n, dtype, distinct=30, nans=True)
    starts = random_starts(rng, n, segments)
    for descending in (False, True):
        order = segmented_order(keys, starts, descending)
        check(lib, mp.segmented_sort(lib.dev(keys), lib.dev(starts), descending=descending), keys[order])
        for value_dtype in ("int32", "uint32"):
            values = np.arange(n).astype(value_dtype)
            k, v = mp.segmented_sort(lib.dev(keys), lib.dev(starts.astype(np.int32)), lib.dev(values),
                                     descending=descending, checked=True)
            check(lib, k, keys[order])
            check(lib, v, values[order])


# ------------------------------------------------------------------------------------- searches
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("nh,nn", [(0, 0), (0, 3), (3, 0), (1, 1), (257, 4097), (1921, 4097), (4097, 257),
                                   (32769, 100003), (100003, 50), (LARGE, 1 << 16), (1000, LARGE)])
def test_searches(lib, rng, dtype, nh, nn):
    skip_large_on_host(lib, nh, nn)
    hay = np.sort(random_keys(rng, nh, dtype, distinct=max(nh // 3, 2), nans=True))
    needles = random_keys(rng, nn, dtype, distinct=max(nh // 3, 2), nans=True)
    sn = np.sort(needles)
    index = mp.EytzingerIndex(lib.dev(hay), checked=True)
    assert len(index) == nh
    for side in ("left", "right"):
        want = np.searchsorted(hay, needles, side=side).astype(np.int64)
        check(lib, mp.searchsorted(lib.dev(hay), lib.dev(needles), side=side, checked=True), want)
        check(lib, index.searchsorted(lib.dev(needles), side=side), want)
        check(lib, mp.sorted_search(lib.dev(sn), lib.dev(hay), side=side, checked=True),
              np.searchsorted(hay, sn, side=side).astype(np.int64))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("na,nb", [(0, 0), (0, 4), (5, 0), (1, 1), (1921, 257), (32769, 40000), (LARGE, 40000)])
def test_sorted_search_matches(lib, rng, dtype, na, nb):
    skip_large_on_host(lib, na, nb)
    a = np.sort(random_keys(rng, na, dtype, distinct=60))
    b = np.sort(random_keys(rng, nb, dtype, distinct=60))
    for side, other in (("left", "right"), ("right", "left")):
        r = mp.sorted_search_matches(lib.dev(a), lib.dev(b), side=side, checked=True)
        check(lib, r.a_bounds, np.searchsorted(b, a, side=side).astype(np.int64))
        check(lib, r.b_bounds, np.searchsorted(a, b, side=other).astype(np.int64))
        check(lib, r.a_matches, np.isin(a, b))
        check(lib, r.b_matches, np.isin(b, a))
        assert r.a_match_count == int(np.isin(a, b).sum())
        assert r.b_match_count == int(np.isin(b, a).sum())


# -------------------------------------------------------------------------------- load balancing
@pytest.mark.parametrize("count,segments", [(0, 0), (0, 3), (1, 1), (5, 9), (1921, 7), (32769, 1000),
                                            (100003, 100003), (LARGE, LARGE)])
def test_load_balancing(lib, rng, count, segments):
    skip_large_on_host(lib, count)
    starts = random_starts(rng, count, segments)
    if count > 0 and segments == 0:
        return
    ids = segment_ids(starts, count).astype(np.int64)
    check(lib, mp.load_balancing_search(count, lib.dev(starts), checked=True), ids)
    check(lib, mp.load_balancing_search(count, lib.dev(starts.astype(np.int32))), ids)
    for dtype in DTYPES:
        values = random_keys(rng, segments, dtype)
        check(lib, mp.interval_expand(lib.dev(values), lib.dev(starts), count), values[ids])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", ["sum", "min", "max", "prod"])
@pytest.mark.parametrize("count,segments", [(0, 0), (0, 2), (1, 1), (1921, 7), (32769, 500), (100003, 3),
                                            (LARGE, 5000)])
def test_segmented_reduce(lib, rng, dtype, op, count, segments):
    skip_large_on_host(lib, count)
    starts = random_starts(rng, count, segments)
    if count > 0 and segments == 0:
        return
    if op == "prod":
        values = np.ones(count, dtype=dtype)  # a few 3s (and -1s): no overflow, exact in floats
        values[rng.integers(0, max(count, 1), min(count, 4))] = 3
        if np.dtype(dtype).kind != "u":
            values[rng.integers(0, max(count, 1), min(count, 5))] = -1
    else:
        values = random_keys(rng, count, dtype, distinct=100)
    got = mp.segmented_reduce(lib.dev(values), lib.dev(starts), op=op, checked=True)
    want = segmented_reduce(values, starts, op, library=lib.name)  # integer sums: the library's dtype
    assert lib.is_mine(got), type(got)
    if np.dtype(dtype).kind == "f" and op in ("sum", "prod"):
        assert lib.host(got).dtype == want.dtype
        np.testing.assert_allclose(lib.host(got), want, rtol=1e-4 if dtype == "float32" else 1e-10, atol=1e-2)
    else:
        assert_same(lib.host(got), want)


# ------------------------------------------------------------------------- joins, set operations
HOWS = ["inner", "left", "right", "outer", "semi", "anti"]
# (na, nb, distinct keys): empty sides, single rows, few distinct keys (many-to-many), mostly unique.
JOIN_SHAPES = [(0, 0, None), (0, 5, None), (5, 0, None), (1, 1, 1), (1, 3, 2), (17, 9, 3), (300, 200, 5),
               (257, 1921, 40), (1921, 4097, 300), (4097, 4096, None), (100003, 50001, None), (1 << 17, 40000, None)]


@pytest.mark.parametrize("dtype", ["int32", "int64", "uint32", "uint64", "float32", "float64"])
@pytest.mark.parametrize("shape", JOIN_SHAPES)
def test_join(lib, rng, dtype, shape):
    na, nb, distinct = shape
    nans = max(na, nb) <= 4097  # NaNs join one another: at larger sizes they would be most of the rows
    a = random_keys(rng, na, dtype, distinct=distinct, nans=nans)
    b = random_keys(rng, nb, dtype, distinct=distinct, nans=nans)
    sa, sb = np.sort(a, kind="stable"), np.sort(b, kind="stable")
    for how in HOWS:
        for x, y, assume_sorted in ((a, b, False), (sa, sb, True)):
            got = mp.join(lib.dev(x), lib.dev(y), how=how, assume_sorted=assume_sorted, checked=assume_sorted)
            want = join_reference(x, y, how)
            if how in ("semi", "anti"):
                check(lib, got, want)
            else:
                assert isinstance(got, tuple) and len(got) == 2
                check(lib, got[0], want[0])
                check(lib, got[1], want[1])


SET_SHAPES = [(0, 0, None), (0, 3, None), (3, 0, None), (1, 1, 1), (17, 9, 3), (300, 200, 5), (257, 1921, 40),
              (1921, 4097, 300), (4097, 4096, None), (40000, 30000, 1000)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SET_SHAPES)
def test_set_operations(lib, rng, dtype, shape):
    na, nb, distinct = shape
    a = np.sort(random_keys(rng, na, dtype, distinct=distinct, nans=True))
    b = np.sort(random_keys(rng, nb, dtype, distinct=distinct, nans=True))
    for kind, f in (("union", mp.set_union), ("intersection", mp.set_intersection),
                    ("difference", mp.set_difference), ("symmetric_difference", mp.set_symmetric_difference)):
        check(lib, f(lib.dev(a), lib.dev(b), checked=True), set_reference(kind, a, b))


def test_join_rows_outlive_the_call(lib):
    # The rows are handed over without a copy: each array keeps the join's memory alive.
    ar, br = mp.join(lib.dev(np.array([3, 1, 2])), lib.dev(np.array([1, 2, 2])))
    gc.collect()
    ar[0] = 1  # writeable
    check(lib, ar, np.array([1, 2, 2]))
    del ar
    gc.collect()
    check(lib, br, np.array([0, 1, 2]))


# ------------------------------------------------------------------- arguments (arguments.py)
@pytest.mark.parametrize("case", CASES, ids=[f.__name__ for f in CASES])
def test_arguments(lib, case):
    case(lib)
