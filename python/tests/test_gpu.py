"""The GPU backend with CuPy arrays and torch tensors, against numpy; skipped without a GPU,
without CuPy / torch, or when this build of mergepath has no CUDA backend."""

import gc
import zlib

import numpy as np
import pytest

import mergepath as mp
from arguments import CASES
from reference import (
    DTYPES,
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

SIZES = [0, 1, 255, 1919, 1920, 1921, 4097, 32769, 1 << 20]


class Lib:
    """One GPU array library: to and from numpy, streams, identity checks."""

    def __init__(self, name):
        self.name = name
        if name == "cupy":
            import cupy

            self.m = cupy
            try:
                count = cupy.cuda.runtime.getDeviceCount()
            except Exception:  # no driver
                count = 0
            if count == 0:
                pytest.skip("no GPU")
        else:
            import torch

            self.m = torch
            if not torch.cuda.is_available():
                pytest.skip("no GPU")
            if not hasattr(torch, "uint64"):
                pytest.skip("torch without uint32/uint64")
        if not mp.cuda_built():
            pytest.skip("mergepath built without CUDA")

    def dev(self, x, device=0):
        x = np.asarray(x)
        if self.name == "cupy":
            with self.m.cuda.Device(device):
                return self.m.asarray(x)
        return self.m.from_numpy(np.ascontiguousarray(x)).to(f"cuda:{device}")

    def host(self, x):
        if self.name == "cupy":
            return self.m.asnumpy(x)
        return x.cpu().numpy()

    def is_mine(self, x, device=0):
        if self.name == "cupy":
            return isinstance(x, self.m.ndarray) and x.device.id == device
        return isinstance(x, self.m.Tensor) and x.device.type == "cuda" and x.device.index == device

    def stream(self):
        if self.name == "cupy":
            return self.m.cuda.Stream(non_blocking=True)
        return self.m.cuda.Stream()

    def use(self, stream):
        if self.name == "cupy":
            return stream
        return self.m.cuda.stream(stream)

    def synchronize(self):
        if self.name == "cupy":
            self.m.cuda.get_current_stream().synchronize()
            self.m.cuda.Device().synchronize()
        else:
            self.m.cuda.synchronize()

    def address(self, x):
        return x.data.ptr if self.name == "cupy" else x.data_ptr()

    def device_count(self):
        if self.name == "cupy":
            return self.m.cuda.runtime.getDeviceCount()
        return self.m.cuda.device_count()


@pytest.fixture(params=["cupy", "torch"])
def lib(request):
    pytest.importorskip(request.param)
    return Lib(request.param)


@pytest.fixture
def rng(request):
    seed = 7 + zlib.crc32(request.node.name.encode()) % 10000
    print(f"seed {seed}")
    return np.random.default_rng(seed)


def check(lib, got, want):
    assert lib.is_mine(got), type(got)
    assert_same(lib.host(got), want)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", SIZES)
def test_sort(lib, rng, dtype, n):
    keys = random_keys(rng, n, dtype, distinct=max(n // 4, 2), nans=True)
    values = np.arange(n, dtype=np.int64)
    dev_keys, dev_values = lib.dev(keys), lib.dev(values)
    check(lib, mp.sort(dev_keys), keys[stable_order(keys)])
    for descending in (False, True):
        order = stable_order(keys, descending)
        k, v = mp.sort(dev_keys, dev_values, descending=descending)
        check(lib, k, keys[order])
        check(lib, v, values[order])
        k, v = mp.locality_sort(lib.dev(keys), lib.dev(values.astype(np.float32)), descending=descending)
        check(lib, k, keys[order])
        check(lib, v, values.astype(np.float32)[order])
    # A sorted copy reads its inputs and leaves them as they were.
    assert_same(lib.host(dev_keys), keys)
    assert_same(lib.host(dev_values), values)


# Small sorts, in place and into other arrays, keys and pairs: one cluster sort launch (a tile of
# 4608 keys, two tiles from 4609 on: tuning/mergesort.hpp).
@pytest.mark.parametrize("dtype", ["int32", "uint32", "float32"])
@pytest.mark.parametrize("n", [4095, 4608, 4609])
def test_sort_small(lib, rng, dtype, n):
    keys = random_keys(rng, n, dtype, distinct=n // 8)
    for descending in (False, True):
        order = stable_order(keys, descending)
        check(lib, mp.sort(lib.dev(keys), descending=descending), keys[order])
        in_place = lib.dev(keys)
        mp.sort(in_place, descending=descending, inplace=True)
        check(lib, in_place, keys[order])
        for value_dtype in ("int32", "int64"):
            values = np.arange(n).astype(value_dtype)
            k, v = mp.sort(lib.dev(keys), lib.dev(values), descending=descending)
            check(lib, k, keys[order])
            check(lib, v, values[order])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("na,nb", [(0, 0), (1, 0), (0, 1), (1919, 1921), (4097, 1), (1 << 20, 12345)])
def test_merge(lib, rng, dtype, na, nb):
    for descending in (False, True):
        a = random_keys(rng, na, dtype, distinct=50, nans=True)
        b = random_keys(rng, nb, dtype, distinct=50, nans=True)
        a, b = a[stable_order(a, descending)], b[stable_order(b, descending)]
        keys = np.concatenate([a, b])
        order = stable_order(keys, descending)
        check(lib, mp.merge(lib.dev(a), lib.dev(b), descending=descending), keys[order])
        av, bv = np.arange(na, dtype=np.uint32), np.arange(na, na + nb, dtype=np.uint32)
        k, v = mp.merge(lib.dev(a), lib.dev(b), lib.dev(av), lib.dev(bv), descending=descending, checked=True)
        check(lib, k, keys[order])
        check(lib, v, np.concatenate([av, bv])[order])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n,segments", [(0, 0), (1, 1), (1921, 0), (4097, 40), (32769, 3000), (1 << 20, 3000)])
def test_segmented_sort(lib, rng, dtype, n, segments):
    keys = random_keys(rng, n, dtype, distinct=30, nans=True)
    starts = random_starts(rng, n, segments)
    values = np.arange(n, dtype=np.int32)
    for descending in (False, True):
        order = segmented_order(keys, starts, descending)
        check(lib, mp.segmented_sort(lib.dev(keys), lib.dev(starts), descending=descending), keys[order])
        k, v = mp.segmented_sort(lib.dev(keys), lib.dev(starts.astype(np.int32)), lib.dev(values),
                                 descending=descending, checked=True)
        check(lib, k, keys[order])
        check(lib, v, values[order])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("nh,nn", [(0, 3), (3, 0), (1, 1), (1921, 4097), (1 << 20, 1 << 16), (1000, 1 << 20)])
def test_searches(lib, rng, dtype, nh, nn):
    hay = np.sort(random_keys(rng, nh, dtype, distinct=max(nh // 3, 2), nans=True))
    needles = random_keys(rng, nn, dtype, distinct=max(nh // 3, 2), nans=True)
    sn = np.sort(needles)
    index = mp.EytzingerIndex(lib.dev(hay), checked=True)
    for side in ("left", "right"):
        want = np.searchsorted(hay, needles, side=side).astype(np.int64)
        check(lib, mp.searchsorted(lib.dev(hay), lib.dev(needles), side=side, checked=True), want)
        check(lib, index.searchsorted(lib.dev(needles), side=side), want)
        check(lib, mp.sorted_search(lib.dev(sn), lib.dev(hay), side=side, checked=True),
              np.searchsorted(hay, sn, side=side).astype(np.int64))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("na,nb", [(0, 0), (5, 0), (1921, 257), (1 << 20, 40000)])
def test_sorted_search_matches(lib, rng, dtype, na, nb):
    a = np.sort(random_keys(rng, na, dtype, distinct=60))
    b = np.sort(random_keys(rng, nb, dtype, distinct=60))
    for side, other in (("left", "right"), ("right", "left")):
        r = mp.sorted_search_matches(lib.dev(a), lib.dev(b), side=side)
        check(lib, r.a_bounds, np.searchsorted(b, a, side=side).astype(np.int64))
        check(lib, r.b_bounds, np.searchsorted(a, b, side=other).astype(np.int64))
        check(lib, r.a_matches, np.isin(a, b))
        check(lib, r.b_matches, np.isin(b, a))
        assert r.a_match_count == int(np.isin(a, b).sum())
        assert r.b_match_count == int(np.isin(b, a).sum())


@pytest.mark.parametrize("count,segments", [(0, 0), (0, 3), (1, 1), (1921, 7), (32769, 1000), (1 << 20, 1 << 20)])
def test_load_balancing(lib, rng, count, segments):
    starts = random_starts(rng, count, segments)
    if count > 0 and segments == 0:
        return
    ids = segment_ids(starts, count).astype(np.int64)
    check(lib, mp.load_balancing_search(count, lib.dev(starts), checked=True), ids)
    for dtype in DTYPES:
        values = random_keys(rng, segments, dtype)
        check(lib, mp.interval_expand(lib.dev(values), lib.dev(starts), count), values[ids])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", ["sum", "min", "max", "prod"])
@pytest.mark.parametrize("count,segments", [(0, 2), (1, 1), (1921, 7), (1 << 20, 5000)])
def test_segmented_reduce(lib, rng, dtype, op, count, segments):
    starts = random_starts(rng, count, segments)
    if op == "prod":
        values = np.ones(count, dtype=dtype)
        values[rng.integers(0, max(count, 1), min(count, 4))] = 3
    else:
        values = random_keys(rng, count, dtype, distinct=100)
    got = mp.segmented_reduce(lib.dev(values), lib.dev(starts), op=op, checked=True)
    want = segmented_reduce(values, starts, op, library=lib.name)  # integer sums: int64 / uint64
    assert lib.is_mine(got)
    if np.dtype(dtype).kind == "f" and op == "sum":
        np.testing.assert_allclose(lib.host(got), want, rtol=1e-4 if dtype == "float32" else 1e-10, atol=1e-2)
    else:
        assert_same(lib.host(got), want)


@pytest.mark.parametrize("dtype", ["int32", "int64", "uint32", "float32", "float64"])
@pytest.mark.parametrize("na,nb,distinct", [(0, 0, None), (0, 7, None), (7, 0, None), (1, 1, 1), (300, 200, 5),
                                            (1921, 4097, 300), (1 << 17, 40000, None)])
def test_join(lib, rng, dtype, na, nb, distinct):
    a = random_keys(rng, na, dtype, distinct=distinct, nans=True)
    b = random_keys(rng, nb, dtype, distinct=distinct, nans=True)
    sa, sb = np.sort(a, kind="stable"), np.sort(b, kind="stable")
    for how in ("inner", "left", "right", "outer", "semi", "anti"):
        for x, y, assume_sorted in ((a, b, False), (sa, sb, True)):
            got = mp.join(lib.dev(x), lib.dev(y), how=how, assume_sorted=assume_sorted, checked=assume_sorted)
            want = join_reference(x, y, how)
            if how in ("semi", "anti"):
                check(lib, got, want)
            else:
                check(lib, got[0], want[0])
                check(lib, got[1], want[1])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("na,nb,distinct", [(0, 0, None), (0, 3, None), (3, 0, None), (300, 200, 5),
                                            (1921, 4097, 300), (40000, 30000, 1000)])
def test_set_operations(lib, rng, dtype, na, nb, distinct):
    a = np.sort(random_keys(rng, na, dtype, distinct=distinct, nans=True))
    b = np.sort(random_keys(rng, nb, dtype, distinct=distinct, nans=True))
    for kind, f in (("union", mp.set_union), ("intersection", mp.set_intersection),
                    ("difference", mp.set_difference), ("symmetric_difference", mp.set_symmetric_difference)):
        check(lib, f(lib.dev(a), lib.dev(b), checked=True), set_reference(kind, a, b))


def test_join_rows_outlive_the_call(lib):
    # The rows are handed over without a copy: each array keeps the join's device memory alive.
    ar, br = mp.join(lib.dev(np.array([3, 1, 2])), lib.dev(np.array([1, 2, 2])))
    gc.collect()
    ar[0] = 1  # writeable
    check(lib, ar, np.array([1, 2, 2]))
    del ar
    gc.collect()
    check(lib, br, np.array([0, 1, 2]))


def test_join_rows_outlive_their_stream(lib):
    # The rows are freed on the stream that made them, after the caller has dropped that stream.
    s = lib.stream()
    with lib.use(s):
        ar, br = mp.join(lib.dev(np.array([2, 1, 2])), lib.dev(np.array([2, 2])))
        s.synchronize()
    del s
    gc.collect()
    check(lib, ar, np.array([0, 0, 2, 2]))
    check(lib, br, np.array([0, 1, 0, 1]))
    del ar, br
    gc.collect()
    check(lib, mp.sort(lib.dev(np.array([3, 1, 2]))), np.array([1, 2, 3]))


def test_join_set_on_stream_and_checked(lib, rng):
    a = random_keys(rng, 1 << 18, "int64", distinct=1 << 16)
    b = random_keys(rng, 1 << 17, "int64", distinct=1 << 16)
    s = lib.stream()
    with lib.use(s):
        ar, br = mp.join(lib.dev(a), lib.dev(b), how="outer")
        u = mp.set_union(mp.sort(lib.dev(a)), mp.sort(lib.dev(b)))
        s.synchronize()
    want = join_reference(a, b, "outer")
    check(lib, ar, want[0])
    check(lib, br, want[1])
    check(lib, u, set_reference("union", np.sort(a), np.sort(b)))
    bad = lib.dev(np.array([1, 3, 2], dtype=np.int64))
    good = lib.dev(np.array([1, 2, 3], dtype=np.int64))
    with pytest.raises(ValueError, match=r"a\[2\]"):
        mp.join(bad, good, assume_sorted=True, checked=True)
    with pytest.raises(ValueError, match="not sorted"):
        mp.set_difference(good, bad, checked=True)
    with pytest.raises(ValueError, match="how must be"):
        mp.join(good, good, how="cross")


def test_current_stream_and_zero_copy(lib, rng):
    keys = random_keys(rng, 1 << 20, "int32")
    values = np.arange(1 << 20, dtype=np.int64)
    s = lib.stream()
    with lib.use(s):
        dk, dv = lib.dev(keys), lib.dev(values)
        pk, pv = lib.address(dk), lib.address(dv)
        k, v = mp.sort(dk, dv, inplace=True)  # queued on s, the library's current stream
        assert lib.address(k) == pk and lib.address(v) == pv
        merged = mp.merge(k, k)
        bounds = mp.searchsorted(k, dk)
        s.synchronize()
    order = stable_order(keys)
    check(lib, k, keys[order])
    check(lib, v, values[order])
    check(lib, merged, np.repeat(keys[order], 2))
    check(lib, bounds, np.searchsorted(keys[order], keys[order]).astype(np.int64))


def test_gpu_errors(lib):
    d32 = lib.dev(np.arange(10, dtype=np.int32))
    d64 = lib.dev(np.arange(10, dtype=np.int64))
    with pytest.raises(ValueError, match="host and device"):
        mp.merge(d32, np.arange(10, dtype=np.int32))
    with pytest.raises(ValueError, match="host and device"):
        mp.searchsorted(np.arange(10, dtype=np.int32), d32)
    check(lib, mp.merge(d32, d64), np.repeat(np.arange(10, dtype=np.int64), 2))  # promoted, as numpy
    with pytest.raises(ValueError, match="1-d"):
        mp.sort(lib.dev(np.zeros((2, 3), dtype=np.float32)))
    with pytest.raises(ValueError, match=r"a\[5\]"):
        mp.merge(lib.dev(np.array([0, 1, 2, 3, 9, 5], dtype=np.int32)), d32, checked=True)
    with pytest.raises(ValueError, match=r"segment_starts\[2\]"):
        mp.load_balancing_search(10, lib.dev(np.array([0, 5, 3])), checked=True)
    with pytest.raises(ValueError, match=r"\[5\]"):
        mp.searchsorted(lib.dev(np.array([0, 1, 2, 3, 9, 5], dtype=np.int32)), d32, checked=True)
    index = mp.EytzingerIndex(d32)
    with pytest.raises(ValueError, match="host"):
        index.searchsorted(np.arange(3, dtype=np.int32))
    # A strided view is copied, not rejected.
    strided = lib.dev(np.arange(20, 0, -1, dtype=np.int64))[1::2]
    check(lib, mp.sort(strided), np.arange(1, 20, 2, dtype=np.int64))
    if lib.device_count() > 1:
        other = lib.dev(np.arange(10, dtype=np.int32), device=1)
        with pytest.raises(ValueError, match="two different GPUs"):
            mp.merge(d32, other)
        got = mp.sort(other)  # runs on GPU 1
        assert lib.is_mine(got, device=1)
        assert_same(lib.host(got), np.arange(10, dtype=np.int32))


# The argument handling of arguments.py, with GPU arrays: promotion, indices, sorters (range
# checked on the device), integer sums, errors naming the call, arrays written in place.
@pytest.mark.parametrize("case", CASES, ids=[f.__name__ for f in CASES])
def test_arguments(lib, case):
    case(lib)


def test_mixed_libraries():
    cupy = pytest.importorskip("cupy")
    torch = pytest.importorskip("torch")
    if not (mp.cuda_available() and torch.cuda.is_available()):
        pytest.skip("no GPU")
    with pytest.raises(TypeError, match="mixed array libraries"):
        mp.merge(cupy.arange(4), torch.arange(4, device="cuda"))


def test_torch_cpu_tensors_run_on_host():
    torch = pytest.importorskip("torch")
    x = torch.tensor([3, 1, 2], dtype=torch.int64)
    got = mp.sort(x)
    assert isinstance(got, torch.Tensor) and got.device.type == "cpu"
    assert got.tolist() == [1, 2, 3]


def test_jax_through_cupy():
    jax = pytest.importorskip("jax")
    pytest.importorskip("cupy")
    try:
        x = jax.device_put(jax.numpy.array([3, 1, 2], dtype=jax.numpy.int32), jax.devices("gpu")[0])
    except RuntimeError:
        pytest.skip("jax without a GPU")
    got = mp.sort(x)
    assert type(got).__module__.startswith("jax")
    assert np.asarray(got).tolist() == [1, 2, 3]
