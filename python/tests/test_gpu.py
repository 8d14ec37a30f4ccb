"""What only the GPU backend has, with CuPy arrays and torch tensors: the cluster sort's sizes,
streams, devices, zero-copy results, GPU errors, mixed libraries, JAX. Skipped without a GPU,
without CuPy / torch, or when this build of mergepath has no CUDA backend. The calls' results
against numpy, on every library, are test_algorithms.py's."""

import gc

import numpy as np
import pytest

import mergepath as mp
from arrays import GPU_LIBS, ArrayLib
from reference import (
    assert_same,
    join_reference,
    random_keys,
    set_reference,
    stable_order,
)


@pytest.fixture(params=GPU_LIBS)
def lib(request):
    """The GPU array libraries only (conftest.py's lib takes the host ones too)."""
    return ArrayLib(request.param)


def check(lib, got, want):
    assert lib.is_mine(got), type(got)
    assert_same(lib.host(got), want)


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


def test_mixed_libraries():
    cupy = pytest.importorskip("cupy")
    torch = pytest.importorskip("torch")
    if not (mp.cuda_available() and torch.cuda.is_available()):
        pytest.skip("no GPU")
    with pytest.raises(TypeError, match="mixed array libraries"):
        mp.merge(cupy.arange(4), torch.arange(4, device="cuda"))


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
