"""The host backend against numpy: every dtype, sizes 0, 1, around tile and chunk edges, large."""

import gc
import zlib

import numpy as np
import pytest

import mergepath as mp
from arguments import CASES
from reference import (
    DTYPES,
    LARGE,
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

SEED = 2024


class HostLib:
    """An array library whose arrays run on the host backend: numpy, or torch on the CPU."""

    def __init__(self, name):
        self.name = name
        self.m = pytest.importorskip(name)

    def dev(self, x):
        x = np.array(x)  # a copy: in-place calls write it, not the caller's
        return x if self.name == "numpy" else self.m.from_numpy(x)

    def host(self, x):
        return np.asarray(x) if self.name == "numpy" else x.numpy()

    def is_mine(self, x):
        return isinstance(x, np.ndarray) if self.name == "numpy" else isinstance(x, self.m.Tensor) and not x.is_cuda


@pytest.fixture(params=["numpy", "torch"])
def host_lib(request):
    return HostLib(request.param)


@pytest.fixture
def rng(request):
    seed = SEED + zlib.crc32(request.node.name.encode()) % 10000
    print(f"seed {seed}")
    return np.random.default_rng(seed)


# ---------------------------------------------------------------------------------------- sort
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", SIZES)
def test_sort_keys(rng, dtype, n):
    keys = random_keys(rng, n, dtype, nans=True)
    before = keys.copy()
    got = mp.sort(keys)
    assert_same(got, keys[stable_order(keys)])
    assert got is not keys
    assert_same(keys, before)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [0, 1, 257, 4097, 32769])
@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("value_dtype", ["int64", "float32"])
def test_sort_pairs_stable(rng, dtype, n, descending, value_dtype):
    keys = random_keys(rng, n, dtype, distinct=7, nans=True)
    values = np.arange(n).astype(value_dtype)
    k, v = mp.sort(keys, values, descending=descending)
    order = stable_order(keys, descending)
    assert_same(k, keys[order])
    assert_same(v, values[order])


@pytest.mark.parametrize("dtype", ["int32", "float64"])
def test_sort_large(rng, dtype):
    keys = random_keys(rng, LARGE, dtype)
    assert_same(mp.sort(keys), np.sort(keys, kind="stable"))


def test_sort_inplace():
    keys = np.array([3, 1, 2], dtype=np.int32)
    values = np.array([0, 1, 2], dtype=np.uint64)
    k, v = mp.sort(keys, values, inplace=True)
    assert k is keys and v is values
    assert_same(keys, np.array([1, 2, 3], dtype=np.int32))
    assert_same(values, np.array([1, 2, 0], dtype=np.uint64))
    with pytest.raises(ValueError, match="inplace"):
        mp.sort(np.arange(10)[::2], inplace=True)
    ro = np.arange(4)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        mp.sort(ro, inplace=True)


def test_sort_special_floats():
    x = np.array([np.nan, -0.0, np.inf, 0.0, -np.inf, np.nan, 1.0], dtype=np.float64)
    got = mp.sort(x)
    want = np.sort(x, kind="stable")
    assert_same(got, want)
    assert np.isnan(got[-2:]).all()
    assert np.isnan(mp.sort(x, descending=True)[:2]).all()


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [0, 1, 1921, 32769])
def test_locality_sort(rng, dtype, n):
    keys = np.sort(random_keys(rng, n, dtype))
    # near-sorted: swap some neighbours
    if n > 2:
        i = rng.integers(0, n - 1, n // 10)
        keys[i], keys[i + 1] = keys[i + 1].copy(), keys[i].copy()
    values = np.arange(n, dtype=np.int32)
    k, v = mp.locality_sort(keys, values)
    order = stable_order(keys)
    assert_same(k, keys[order])
    assert_same(v, values[order])
    assert_same(mp.locality_sort(keys, descending=True), keys[stable_order(keys, True)])


# ---------------------------------------------------------------------------------------- merge
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("na,nb", [(0, 0), (0, 5), (1, 0), (1, 1), (1919, 1921), (4096, 1), (32769, 40000)])
@pytest.mark.parametrize("descending", [False, True])
def test_merge(rng, dtype, na, nb, descending):
    a = random_keys(rng, na, dtype, distinct=50, nans=True)
    b = random_keys(rng, nb, dtype, distinct=50, nans=True)
    a = a[stable_order(a, descending)]
    b = b[stable_order(b, descending)]
    av = np.arange(na, dtype=np.int64)
    bv = np.arange(na, na + nb, dtype=np.int64)
    keys = np.concatenate([a, b])
    order = stable_order(keys, descending)
    assert_same(mp.merge(a, b, descending=descending), keys[order])
    k, v = mp.merge(a, b, av, bv, descending=descending)
    assert_same(k, keys[order])
    assert_same(v, np.concatenate([av, bv])[order])


def test_merge_large(rng):
    a = np.sort(random_keys(rng, LARGE, "uint64"))
    b = np.sort(random_keys(rng, LARGE // 3, "uint64"))
    assert_same(mp.merge(a, b), np.sort(np.concatenate([a, b]), kind="stable"))


# ------------------------------------------------------------------------------- segmented sort
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n,segments", [(0, 0), (0, 1), (1, 1), (17, 0), (257, 5), (4097, 40), (32769, 3000), (100003, 7)])
@pytest.mark.parametrize("descending", [False, True])
def test_segmented_sort(rng, dtype, n, segments, descending):
    keys = random_keys(rng, n, dtype, distinct=30, nans=True)
    starts = random_starts(rng, n, segments)
    values = np.arange(n, dtype=np.uint32)
    order = segmented_order(keys, starts, descending)
    assert_same(mp.segmented_sort(keys, starts, descending=descending), keys[order])
    k, v = mp.segmented_sort(keys, starts, values, descending=descending, checked=True)
    assert_same(k, keys[order])
    assert_same(v, values[order])


def test_segmented_sort_int32_starts():
    keys = np.array([3, 2, 1, 6, 5, 4], dtype=np.float32)
    got = mp.segmented_sort(keys, np.array([0, 3], dtype=np.int32))
    assert_same(got, np.array([1, 2, 3, 4, 5, 6], dtype=np.float32))
    assert_same(mp.segmented_sort(keys, [0, 2, 2, 6, 6]), np.array([2, 3, 1, 4, 5, 6], dtype=np.float32))


# ------------------------------------------------------------------------------------- searches
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("nh,nn", [(0, 0), (0, 3), (3, 0), (1, 1), (257, 4097), (4097, 257), (32769, 100003), (100003, 50)])
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted(rng, dtype, nh, nn, side):
    hay = np.sort(random_keys(rng, nh, dtype, distinct=max(nh // 3, 2), nans=True))
    needles = random_keys(rng, nn, dtype, distinct=max(nh // 3, 2), nans=True)
    assert_same(mp.searchsorted(hay, needles, side=side), np.searchsorted(hay, needles, side=side))
    sn = np.sort(needles)
    assert_same(mp.sorted_search(sn, hay, side=side), np.searchsorted(hay, sn, side=side))
    index = mp.EytzingerIndex(hay)
    assert len(index) == nh
    assert_same(index.searchsorted(needles, side=side), np.searchsorted(hay, needles, side=side))


def test_searchsorted_numpy_forms(rng):
    hay = np.array([1, 3, 5, 7], dtype=np.int64)
    assert mp.searchsorted(hay, 4) == 2
    assert mp.searchsorted(hay, 7, side="right") == 4
    assert_same(mp.searchsorted(hay, [[0, 5], [6, 9]]), np.array([[0, 2], [3, 4]]))
    assert_same(mp.searchsorted([1, 2, 3], [2]), np.array([1]))
    unsorted = np.array([5, 1, 7, 3], dtype=np.int64)
    sorter = np.argsort(unsorted)
    assert_same(mp.searchsorted(unsorted, [4, 8], sorter=sorter), np.searchsorted(unsorted, [4, 8], sorter=sorter))
    f32 = np.array([0.5, 1.5], dtype=np.float32)
    assert_same(mp.searchsorted(f32, 1.0), np.searchsorted(f32, 1.0))
    index = mp.EytzingerIndex(hay)
    assert index.searchsorted(4) == 2
    assert_same(index.searchsorted(np.array([[0], [8]])), np.array([[0], [4]]))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("na,nb", [(0, 0), (0, 4), (5, 0), (1, 1), (1921, 257), (32769, 40000)])
@pytest.mark.parametrize("side", ["left", "right"])
def test_sorted_search_matches(rng, dtype, na, nb, side):
    a = np.sort(random_keys(rng, na, dtype, distinct=60))
    b = np.sort(random_keys(rng, nb, dtype, distinct=60))
    r = mp.sorted_search_matches(a, b, side=side, checked=True)
    other = "right" if side == "left" else "left"
    assert_same(r.a_bounds, np.searchsorted(b, a, side=side).astype(np.int64))
    assert_same(r.b_bounds, np.searchsorted(a, b, side=other).astype(np.int64))
    assert_same(r.a_matches, np.isin(a, b))
    assert_same(r.b_matches, np.isin(b, a))
    assert r.a_match_count == int(np.isin(a, b).sum())
    assert r.b_match_count == int(np.isin(b, a).sum())


# -------------------------------------------------------------------------------- load balancing
@pytest.mark.parametrize("count,segments", [(0, 0), (0, 3), (1, 1), (5, 9), (1921, 7), (32769, 1000), (100003, 100003)])
def test_load_balancing(rng, count, segments):
    starts = random_starts(rng, count, segments)
    if count > 0 and segments == 0:
        return
    ids = segment_ids(starts, count)
    assert_same(mp.load_balancing_search(count, starts, checked=True), ids.astype(np.int64))
    assert_same(mp.load_balancing_search(count, starts.astype(np.int32)), ids.astype(np.int64))
    for dtype in DTYPES:
        values = random_keys(rng, segments, dtype)
        assert_same(mp.interval_expand(values, starts, count), values[ids])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", ["sum", "min", "max", "prod"])
@pytest.mark.parametrize("count,segments", [(0, 0), (0, 2), (1, 1), (1921, 7), (32769, 500), (100003, 3)])
def test_segmented_reduce(rng, dtype, op, count, segments):
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
    got = mp.segmented_reduce(values, starts, op=op, checked=True)
    want = segmented_reduce(values, starts, op)
    if np.dtype(dtype).kind == "f" and op in ("sum", "prod"):
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-4 if dtype == "float32" else 1e-10, atol=1e-3)
    else:
        assert_same(got, want)


def test_segmented_reduce_nan():
    values = np.array([1.0, np.nan, 2.0, 3.0])
    got = mp.segmented_reduce(values, np.array([0, 2]), op="min")
    assert np.isnan(got[0]) and got[1] == 2.0
    got = mp.segmented_reduce(values, np.array([0, 2]), op="max")
    assert np.isnan(got[0]) and got[1] == 3.0


# ------------------------------------------------------------------------- joins, set operations
HOWS = ["inner", "left", "right", "outer", "semi", "anti"]
JOIN_DTYPES = ["int32", "int64", "uint64", "float32", "float64"]
# (na, nb, distinct keys): empty sides, single rows, few distinct keys (many-to-many), mostly unique.
JOIN_SHAPES = [(0, 0, None), (0, 5, None), (5, 0, None), (1, 1, 1), (1, 3, 2), (17, 9, 3), (300, 200, 5),
               (257, 1921, 40), (4097, 4096, None), (100003, 50001, None)]


def _join_inputs(rng, dtype, na, nb, distinct, sorted_=False):
    a = random_keys(rng, na, dtype, distinct=distinct, nans=True)
    b = random_keys(rng, nb, dtype, distinct=distinct, nans=True)
    if sorted_:
        a, b = np.sort(a, kind="stable"), np.sort(b, kind="stable")
    return a, b


def _assert_join(got, a, b, how):
    want = join_reference(a, b, how)
    if how in ("semi", "anti"):
        assert_same(got, want)
    else:
        assert isinstance(got, tuple) and len(got) == 2
        assert_same(got[0], want[0])
        assert_same(got[1], want[1])


@pytest.mark.parametrize("dtype", JOIN_DTYPES)
@pytest.mark.parametrize("shape", JOIN_SHAPES)
@pytest.mark.parametrize("how", HOWS)
def test_join(rng, dtype, shape, how):
    a, b = _join_inputs(rng, dtype, *shape)
    _assert_join(mp.join(a, b, how=how), a, b, how)


@pytest.mark.parametrize("dtype", ["int32", "float64"])
@pytest.mark.parametrize("shape", JOIN_SHAPES)
@pytest.mark.parametrize("how", HOWS)
def test_join_assume_sorted(rng, dtype, shape, how):
    a, b = _join_inputs(rng, dtype, *shape, sorted_=True)
    _assert_join(mp.join(a, b, how=how, assume_sorted=True, checked=True), a, b, how)


def test_join_nan_and_zero_keys():
    a = np.array([np.nan, 0.0, 1.0, np.nan])
    b = np.array([-0.0, np.nan, 2.0])
    ar, br = mp.join(a, b, how="outer")
    assert_same(ar, np.array([1, 2, -1, 0, 3]))
    assert_same(br, np.array([0, -1, 2, 1, 1]))


SET_OPS = {
    "union": mp.set_union,
    "intersection": mp.set_intersection,
    "difference": mp.set_difference,
    "symmetric_difference": mp.set_symmetric_difference,
}
SET_SHAPES = [(0, 0, None), (0, 3, None), (3, 0, None), (1, 1, 1), (17, 9, 3), (300, 200, 5), (257, 1921, 40),
              (4097, 4096, None), (40000, 30000, 1000)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SET_SHAPES)
@pytest.mark.parametrize("kind", list(SET_OPS))
def test_set_operations(rng, dtype, shape, kind):
    a, b = _join_inputs(rng, dtype, *shape, sorted_=True)
    got = SET_OPS[kind](a, b, checked=True)
    assert_same(got, set_reference(kind, a, b))


def test_set_operations_keep_copies():
    a = np.array([1, 2, 2, 2, 5], dtype=np.int32)
    b = np.array([2, 2, 3, 5, 5], dtype=np.int32)
    assert_same(mp.set_union(a, b), np.array([1, 2, 2, 2, 3, 5, 5], dtype=np.int32))
    assert_same(mp.set_intersection(a, b), np.array([2, 2, 5], dtype=np.int32))
    assert_same(mp.set_difference(a, b), np.array([1, 2], dtype=np.int32))
    assert_same(mp.set_symmetric_difference(a, b), np.array([1, 2, 3, 5], dtype=np.int32))
    assert_same(mp.set_union([1.0, np.nan], [np.nan, np.nan]), np.array([1.0, np.nan, np.nan]))


def test_join_rows_outlive_the_call():
    # The rows are handed over without a copy: each array keeps the join's memory alive.
    ar, br = mp.join(np.array([3, 1, 2]), np.array([1, 2, 2]))
    semi = mp.join(np.array([3, 1, 2]), np.array([1, 2, 2]), how="semi")
    gc.collect()
    ar[0] = ar[0]  # writeable
    assert_same(ar, np.array([1, 2, 2]))
    assert_same(br, np.array([0, 1, 2]))
    assert_same(semi, np.array([1, 2]))
    del ar
    gc.collect()
    assert_same(br, np.array([0, 1, 2]))


def test_join_set_checked_and_errors():
    a = np.array([1, 3, 2, 4])
    b = np.array([1, 2, 3])
    with pytest.raises(ValueError, match=r"a\[2\]"):
        mp.join(a, b, assume_sorted=True, checked=True)
    with pytest.raises(ValueError, match=r"b\[2\]"):
        mp.join(b, a, how="semi", assume_sorted=True, checked=True)
    _assert_join(mp.join(a, b, checked=True), a, b, "inner")  # unsorted is fine without assume_sorted
    mp.join(a, b, assume_sorted=True)  # unchecked: unspecified rows, no error
    for f in SET_OPS.values():
        with pytest.raises(ValueError, match="not sorted"):
            f(a, b, checked=True)
        f(a, b)  # unchecked: unspecified elements, no error
    with pytest.raises(ValueError, match="how must be"):
        mp.join(a, b, how="full")
    _assert_join(mp.join(a.astype(np.int32), b), a, b, "inner")  # int32 and int64 meet in int64
    with pytest.raises(TypeError, match="exactly"):
        mp.set_union(np.sort(a), b.astype(np.float64))  # float64 does not hold every int64
    with pytest.raises(ValueError, match="1-d"):
        mp.join(a.reshape(2, 2), b)
    with pytest.raises(TypeError):
        mp.set_intersection(a.astype(np.int16), b.astype(np.int16))
    ar, br = mp.join([1, 2, 2], [2])  # lists become numpy arrays
    assert_same(ar, np.array([1, 2]))
    assert_same(br, np.array([0, 0]))
    assert_same(mp.join(a[::-1], b, how="semi"), join_reference(a[::-1].copy(), b, "semi"))  # non-contiguous


# ------------------------------------------------------------------------------ checked, errors
def test_checked_unsorted_names_position():
    a = np.array([1, 2, 5, 4], dtype=np.int32)
    b = np.array([1, 2], dtype=np.int32)
    with pytest.raises(ValueError, match=r"a\[3\]"):
        mp.merge(a, b, checked=True)
    with pytest.raises(ValueError, match=r"\[3\]"):
        mp.searchsorted(a, b, checked=True)
    with pytest.raises(ValueError, match=r"\[3\]"):
        mp.sorted_search(b, a, checked=True)
    with pytest.raises(ValueError, match=r"\[3\]"):
        mp.sorted_search_matches(a, b, checked=True)
    with pytest.raises(ValueError, match=r"\[3\]"):
        mp.EytzingerIndex(a, checked=True)
    mp.merge(a, b)  # unchecked: unspecified order, no error
    mp.searchsorted(a, b)


def test_checked_bad_starts():
    with pytest.raises(ValueError, match=r"segment_starts\[2\]"):
        mp.load_balancing_search(10, np.array([0, 5, 3]), checked=True)
    with pytest.raises(ValueError, match=r"segment_starts\[0\]"):
        mp.segmented_reduce(np.arange(10), np.array([1, 5]), checked=True)
    with pytest.raises(ValueError, match=r"segment_starts\[1\]"):
        mp.segmented_sort(np.arange(10), np.array([0, 11]), checked=True)
    with pytest.raises(ValueError, match=r"segment_starts\[1\]"):
        mp.interval_expand(np.arange(2), np.array([0, 11]), 10, checked=True)
    # unchecked: malformed starts never crash
    mp.segmented_sort(np.arange(10), np.array([7, 11, -3, 2]))
    mp.load_balancing_search(10, np.array([0, 50, 3]))
    mp.segmented_reduce(np.arange(10.0), np.array([0, 50, 3, -1]))


def test_errors():
    i32 = np.arange(4, dtype=np.int32)
    i64 = np.arange(4, dtype=np.int64)
    assert_same(mp.merge(i32, i64), np.sort(np.concatenate([i32, i64]), kind="stable"))  # promoted, as numpy
    assert_same(mp.searchsorted(i32, i64 + 0.5), np.searchsorted(i32, i64 + 0.5))
    with pytest.raises(TypeError, match="float16"):
        mp.sort(np.zeros(3, dtype=np.float16))
    with pytest.raises(TypeError, match="bool"):
        mp.sort(np.zeros(3, dtype=bool))
    with pytest.raises(TypeError):
        mp.sort(np.array(["a", "b"]))
    with pytest.raises(ValueError, match="1-d"):
        mp.sort(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="1-d"):
        mp.merge(np.zeros(()), np.zeros(3))
    with pytest.raises(ValueError, match="side"):
        mp.searchsorted(i32, i32, side="middle")
    with pytest.raises(ValueError, match="side"):
        mp.sorted_search(i32, i32, side=None)
    with pytest.raises(ValueError, match="op"):
        mp.segmented_reduce(i32, i64, op="mean")
    with pytest.raises(ValueError, match="values"):
        mp.sort(i32, np.arange(3))
    with pytest.raises(ValueError, match="both"):
        mp.merge(i32, i32, a_values=i32)
    with pytest.raises(ValueError, match="values"):
        mp.merge(i32, i32, i32, i32[:2])
    with pytest.raises(TypeError, match="segment_starts"):
        mp.load_balancing_search(3, np.array([0.0, 1.0]))
    with pytest.raises(ValueError, match="count"):
        mp.load_balancing_search(-1, i64)
    with pytest.raises(ValueError):
        mp.load_balancing_search(5, np.zeros(0, dtype=np.int64))  # items but no segment
    with pytest.raises(TypeError):
        mp.load_balancing_search("5", i64)
    with pytest.raises(ValueError, match="elements"):
        mp.interval_expand(i32, np.array([0, 1]), 3)
    index = mp.EytzingerIndex(i32)
    with pytest.raises(TypeError, match="mixed dtypes"):
        index.searchsorted(i64)


def test_non_contiguous_and_byteswapped():
    x = np.arange(20, dtype=np.int64)[::-2]
    assert_same(mp.sort(x), np.sort(x))
    y = np.array([3, 1, 2], dtype=">i4")
    assert_same(mp.sort(y), np.array([1, 2, 3], dtype=np.int32))
    hay = np.arange(0, 40, 2, dtype=np.float32)[::2]
    assert_same(mp.searchsorted(hay, np.array([5.0, 1.0], dtype=np.float32)), np.array([2, 1]))


def test_cuda_reporting():
    assert isinstance(mp.cuda_built(), bool)
    assert isinstance(mp.cuda_available(), bool)
    if not mp.cuda_built():
        assert not mp.cuda_available()


# ------------------------------------------------------------------- arguments (arguments.py)
@pytest.mark.parametrize("case", CASES, ids=[f.__name__ for f in CASES])
def test_arguments(host_lib, case):
    case(host_lib)


def test_masked_arrays_are_refused():
    masked = np.ma.masked_array([3, 1, 2], mask=[0, 1, 0])
    for call, args in ((mp.sort, (masked,)), (mp.merge, (np.arange(3), masked)),
                       (mp.searchsorted, (np.arange(3), masked)), (mp.segmented_sort, (np.arange(3), masked)),
                       (mp.segmented_reduce, (masked, [0]))):
        with pytest.raises(TypeError, match=rf"mergepath\.{call.__name__}: .* is a numpy masked array"):
            call(*args)
