"""What only the host backend's tests need: large arrays, in-place calls, special floats, numpy's
call forms, checked mode's and the argument errors' messages, non-contiguous and byte-swapped
arrays, masked arrays. The calls' results against numpy, on every library, are
test_algorithms.py's."""

import numpy as np
import pytest

import mergepath as mp
from reference import LARGE, assert_same, join_reference, random_keys


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


def test_merge_large(rng):
    a = np.sort(random_keys(rng, LARGE, "uint64"))
    b = np.sort(random_keys(rng, LARGE // 3, "uint64"))
    assert_same(mp.merge(a, b), np.sort(np.concatenate([a, b]), kind="stable"))


# ------------------------------------------------------------------------------- segmented sort
def test_segmented_sort_int32_starts():
    keys = np.array([3, 2, 1, 6, 5, 4], dtype=np.float32)
    got = mp.segmented_sort(keys, np.array([0, 3], dtype=np.int32))
    assert_same(got, np.array([1, 2, 3, 4, 5, 6], dtype=np.float32))
    assert_same(mp.segmented_sort(keys, [0, 2, 2, 6, 6]), np.array([2, 3, 1, 4, 5, 6], dtype=np.float32))


# ------------------------------------------------------------------------------------- searches
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


def test_segmented_reduce_nan():
    values = np.array([1.0, np.nan, 2.0, 3.0])
    got = mp.segmented_reduce(values, np.array([0, 2]), op="min")
    assert np.isnan(got[0]) and got[1] == 2.0
    got = mp.segmented_reduce(values, np.array([0, 2]), op="max")
    assert np.isnan(got[0]) and got[1] == 3.0


# ------------------------------------------------------------------------- joins, set operations
def test_join_nan_and_zero_keys():
    a = np.array([np.nan, 0.0, 1.0, np.nan])
    b = np.array([-0.0, np.nan, 2.0])
    ar, br = mp.join(a, b, how="outer")
    assert_same(ar, np.array([1, 2, -1, 0, 3]))
    assert_same(br, np.array([0, -1, 2, 1, 1]))


def test_set_operations_keep_copies():
    a = np.array([1, 2, 2, 2, 5], dtype=np.int32)
    b = np.array([2, 2, 3, 5, 5], dtype=np.int32)
    assert_same(mp.set_union(a, b), np.array([1, 2, 2, 2, 3, 5, 5], dtype=np.int32))
    assert_same(mp.set_intersection(a, b), np.array([2, 2, 5], dtype=np.int32))
    assert_same(mp.set_difference(a, b), np.array([1, 2], dtype=np.int32))
    assert_same(mp.set_symmetric_difference(a, b), np.array([1, 2, 3, 5], dtype=np.int32))
    assert_same(mp.set_union([1.0, np.nan], [np.nan, np.nan]), np.array([1.0, np.nan, np.nan]))


def test_join_set_checked_and_errors():
    a = np.array([1, 3, 2, 4])
    b = np.array([1, 2, 3])
    with pytest.raises(ValueError, match=r"a\[2\]"):
        mp.join(a, b, assume_sorted=True, checked=True)
    with pytest.raises(ValueError, match=r"b\[2\]"):
        mp.join(b, a, how="semi", assume_sorted=True, checked=True)
    want = join_reference(a, b, "inner")
    for rows in (mp.join(a, b, checked=True),  # unsorted is fine without assume_sorted
                 mp.join(a.astype(np.int32), b)):  # int32 and int64 meet in int64
        assert_same(rows[0], want[0])
        assert_same(rows[1], want[1])
    mp.join(a, b, assume_sorted=True)  # unchecked: unspecified rows, no error
    for f in (mp.set_union, mp.set_intersection, mp.set_difference, mp.set_symmetric_difference):
        with pytest.raises(ValueError, match="not sorted"):
            f(a, b, checked=True)
        f(a, b)  # unchecked: unspecified elements, no error
    with pytest.raises(ValueError, match="how must be"):
        mp.join(a, b, how="full")
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


def test_torch_cpu_tensors_run_on_host():
    torch = pytest.importorskip("torch")
    x = torch.tensor([3, 1, 2], dtype=torch.int64)
    got = mp.sort(x)
    assert isinstance(got, torch.Tensor) and got.device.type == "cpu"
    assert got.tolist() == [1, 2, 3]


def test_cuda_reporting():
    assert isinstance(mp.cuda_built(), bool)
    assert isinstance(mp.cuda_available(), bool)
    if not mp.cuda_built():
        assert not mp.cuda_available()


# -------------------------------------------------------------------------------- masked arrays
def test_masked_arrays_are_refused():
    masked = np.ma.masked_array([3, 1, 2], mask=[0, 1, 0])
    for call, args in ((mp.sort, (masked,)), (mp.merge, (np.arange(3), masked)),
                       (mp.searchsorted, (np.arange(3), masked)), (mp.segmented_sort, (np.arange(3), masked)),
                       (mp.segmented_reduce, (masked, [0]))):
        with pytest.raises(TypeError, match=rf"mergepath\.{call.__name__}: .* is a numpy masked array"):
            call(*args)
