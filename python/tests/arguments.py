"""Argument handling, written once over an array library and run by test_algorithms.py with every
one (numpy and torch on the CPU, CuPy and torch on a GPU). numpy is the oracle: values are never cast
lossily, dtypes meet as numpy promotes them, and every bad argument raises an error naming the
call and the argument.

`lib` is an arrays.ArrayLib: name ("numpy", "torch" or "cupy"), dev(numpy array) -> an array of
the library, host(array) -> a numpy array, is_mine(array)."""

import inspect

import numpy as np
import pytest

import mergepath as mp
from reference import assert_same, join_reference, segmented_reduce, set_reference, sum_dtype

CASES = []


def case(f):
    CASES.append(f)
    return f


def same(lib, got, want):
    """got (an array of lib, or a 0-d one for a scalar answer) equals numpy's want, dtype and all."""
    want = np.asarray(want)
    if want.ndim > 0:
        assert lib.is_mine(got), type(got)
    assert_same(np.asarray(lib.host(got)), want.astype(np.int64) if want.dtype == np.intp else want)


# --------------------------------------------------------------------------- numpy's promotion
@case
def searchsorted_python_values_as_numpy(lib):
    # Numbers and lists are compared by value, as np.searchsorted compares them (2.5 into ints:
    # in float64; 0.1 into float32 keys: as the float64 0.1, not rounded to float32).
    haystacks = {
        "int32": np.array([-5, 1, 2, 2, 3, 2**31 - 1], dtype=np.int32),
        "int64": np.array([-(2**40), 1, 2, 3], dtype=np.int64),
        "uint64": np.array([0, 1, 2, 2**64 - 1], dtype=np.uint64),
        "float32": np.array([0.1, 0.5, 2.5, np.nan], dtype=np.float32),
    }
    needles = [2.5, 2, 2.0, -1, 0.1, 2**40, -(2**40), 2**31, np.nan, np.inf, -np.inf, True, np.float64(2.5),
               np.int64(2**40), np.float32(0.1), [1.5, 2.5], [[0.5], [3.5]], [2**40, -1], [], [0.1, 1]]
    for dtype, hay in haystacks.items():
        dev_hay = lib.dev(hay)
        for v in needles:
            for side in ("left", "right"):
                want = np.searchsorted(hay, v, side=side)
                same(lib, mp.searchsorted(dev_hay, v, side=side), want)
                if np.ndim(v) == 1 and np.all(np.diff(np.asarray(v, dtype=np.float64)) >= 0):
                    same(lib, mp.sorted_search(v, dev_hay, side=side), want)


@case
def searches_promote_arrays_as_numpy(lib):
    rng = np.random.default_rng(11)
    pairs = [("int32", "int64"), ("int64", "float64"), ("int32", "float32"), ("uint64", "int64"),
             ("float32", "float64"), ("uint32", "int32"), ("int64", "uint32"), ("uint8", "int32"), ("int16", "float32")]
    for hay_dtype, needle_dtype in pairs:
        hay = np.sort(rng.integers(0, 40, 50).astype(hay_dtype))
        needles = (rng.integers(-4, 88, 60) / 2).astype(needle_dtype)  # halves where the dtype holds them
        for side in ("left", "right"):
            want = np.searchsorted(hay, needles, side=side)
            same(lib, mp.searchsorted(lib.dev(hay), lib.dev(needles), side=side), want)
            sn = np.sort(needles)
            same(lib, mp.sorted_search(lib.dev(sn), lib.dev(hay), side=side), np.searchsorted(hay, sn, side=side))
            r = mp.sorted_search_matches(lib.dev(sn), lib.dev(hay), side=side)
            same(lib, r.a_bounds, np.searchsorted(hay, sn, side=side))
            same(lib, r.a_matches, np.isin(sn, hay))
            assert r.b_match_count == int(np.isin(hay, sn).sum())


@case
def eytzinger_index_takes_needles_of_its_dtype(lib):
    keys = np.array([1, 3, 5, 7], dtype=np.int64)
    index = mp.EytzingerIndex(lib.dev(keys))
    for v in [4, 2.0, np.int32(5), [1, 7.0], [[0], [8]], np.array([2, 6], dtype=np.int32), np.array([5], np.uint8)]:
        dev_v = lib.dev(v) if isinstance(v, np.ndarray) else v
        for side in ("left", "right"):
            same(lib, index.searchsorted(dev_v, side=side), np.searchsorted(keys, v, side=side))
    # numpy would search these in float64: the index holds int64 keys, so it says so.
    for v in [2.5, [1.5], np.float64(0.5), lib.dev(np.array([1.0])), lib.dev(np.array([1], np.uint64))]:
        with pytest.raises(TypeError, match="mixed dtypes"):
            index.searchsorted(v)
    f32 = mp.EytzingerIndex(lib.dev(np.array([0.5, 1.5], dtype=np.float32)))
    same(lib, f32.searchsorted([1.5, 0.25]), np.array([1, 0]))
    with pytest.raises(TypeError, match="float64"):
        f32.searchsorted(0.1)  # not a float32 value: numpy compares it as the float64 0.1


@case
def merge_join_sets_promote_losslessly(lib):
    i32 = np.array([1, 2, 4], dtype=np.int32)
    f = [1.5, 2.0, 2.5]
    want = np.sort(np.concatenate([i32, f]), kind="stable")
    same(lib, mp.merge(lib.dev(i32), f), want)  # int32 and float64 meet in float64, exactly
    i64 = np.array([1, 2, 4], dtype=np.int64)
    same(lib, mp.merge(lib.dev(i32), lib.dev(i64)), np.sort(np.concatenate([i32, i64]), kind="stable"))
    k, v = mp.merge(lib.dev(i32), lib.dev(i64), lib.dev(np.arange(3, dtype=np.int32)), [7, 8, 9])
    same(lib, v, np.array([0, 7, 1, 8, 2, 9]))
    u32 = np.array([0, 2, 3], dtype=np.uint32)
    want = np.array([0, 1, 2, 2, 3, 4])
    same(lib, mp.set_union(lib.dev(i32), lib.dev(u32)), set_reference("union", i32.astype(np.int64), u32.astype(np.int64)))
    same(lib, mp.merge(lib.dev(i32), lib.dev(u32)), want)
    rows = mp.join(lib.dev(i32), f)  # 2 meets 2.0 only
    same(lib, rows[0], np.array([1]))
    same(lib, rows[1], np.array([1]))
    rows = mp.join(lib.dev(i64), [4, 2.0, 9])  # exact in int64: joined as int64
    want = join_reference(i64, np.array([4, 2, 9]), "inner")
    same(lib, rows[0], want[0])
    same(lib, rows[1], want[1])
    # Lists are read as numpy reads them (int64 here): float32 and int64 meet in float64, which
    # holds these values (numpy's np.concatenate gives float64 too) but not 2^53 + 1.
    f32 = np.array([0.5, 2.0], np.float32)
    same(lib, mp.set_intersection(lib.dev(f32), [2, 3]), np.array([2.0]))
    same(lib, mp.merge(lib.dev(f32), [1, 3]), np.array([0.5, 1, 2, 3]))
    with pytest.raises(TypeError, match=r"mergepath\.merge: .*value given exactly"):
        mp.merge(lib.dev(f32), [2**53 + 1])
    # float64 does not hold every int64 (nor uint64) value: numpy's promotion would round them.
    for a, b in [(i64, f), (i64, np.array(f)), (i64, np.array([1], np.uint64)), (np.array([1], np.float32), i64)]:
        b = lib.dev(b) if isinstance(b, np.ndarray) else b
        for call in (mp.merge, mp.join, mp.set_union, mp.set_difference):
            with pytest.raises(TypeError, match=rf"mergepath\.{call.__name__}: .*exactly"):
                call(lib.dev(a), b)
    with pytest.raises(TypeError, match="exactly"):
        mp.merge(lib.dev(i32), lib.dev(i32), lib.dev(i64), lib.dev(np.array([0.5, 1, 2])))
    with pytest.raises(TypeError, match="int16"):
        mp.merge(lib.dev(np.array([1], np.int16)), lib.dev(np.array([1], np.int16)))


# ------------------------------------------------------------------------------------- indices
@case
def indices_must_be_integers(lib):
    keys = np.array([3, 1, 2, 9, 8], dtype=np.int64)
    want = np.array([1, 2, 3, 8, 9], dtype=np.int64)
    for dtype in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"):
        starts = lib.dev(np.array([0, 3], dtype=dtype))
        same(lib, mp.segmented_sort(lib.dev(keys), starts), want)
        same(lib, mp.load_balancing_search(5, starts), np.array([0, 0, 0, 1, 1]))
        same(lib, mp.interval_expand(lib.dev(np.array([4.0, 5.0])), starts, 5), np.array([4.0, 4, 4, 5, 5]))
        same(lib, mp.segmented_reduce(lib.dev(keys), starts, op="max"), np.array([3, 9]))
    same(lib, mp.segmented_sort(lib.dev(keys), []), want)  # [] is an empty index, as numpy takes it
    same(lib, mp.segmented_sort(lib.dev(keys), [0, 3]), want)
    for bad in ([0.0, 2.5], [0.0, 3.0], lib.dev(np.array([0.0, 3.0])), lib.dev(np.array([True, False])), [0, 1.5]):
        for call, args in ((mp.segmented_sort, (lib.dev(keys), bad)), (mp.load_balancing_search, (5, bad)),
                           (mp.interval_expand, (lib.dev(np.array([1, 2])), bad, 5)),
                           (mp.segmented_reduce, (lib.dev(keys), bad))):
            with pytest.raises(TypeError, match=rf"mergepath\.{call.__name__}: segment_starts must hold integers"):
                call(*args)


@case
def sorter_any_integer_dtype_in_range(lib):
    a = np.array([5, 1, 7, 3, 3], dtype=np.int64)
    order = np.argsort(a, kind="stable")
    v = np.array([0, 3, 4, 8])
    for dtype in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"):
        for side in ("left", "right"):
            same(lib, mp.searchsorted(lib.dev(a), lib.dev(v), side=side, sorter=lib.dev(order.astype(dtype))),
                 np.searchsorted(a, v, side=side, sorter=order))
    same(lib, mp.searchsorted(lib.dev(a), 4, sorter=order.tolist()), np.searchsorted(a, 4, sorter=order))
    bad = [(np.array([1, 0, 3, 4, -1]), "-1"), (np.array([1, 0, 3, 4, 5]), "5"),
           (np.array([1, 0, 3, 4, 2**64 - 1], dtype=np.uint64), "18446744073709551615"),
           (np.array([1, 0, 3, 4, 200], dtype=np.uint8), "200"), (np.array([1, 0, 3, 4, -128], np.int8), "-128")]
    for sorter, value in bad:
        if lib.name == "torch" and sorter.dtype == np.uint64:
            value = "-1"  # torch has no uint64 min / max: read as int64
        with pytest.raises(ValueError, match=rf"mergepath\.searchsorted: sorter holds {value}, out of range"):
            mp.searchsorted(lib.dev(a), lib.dev(v), sorter=lib.dev(sorter))
    with pytest.raises(ValueError, match="sorter has 4 elements"):
        mp.searchsorted(lib.dev(a), lib.dev(v), sorter=lib.dev(order[:4]))
    with pytest.raises(TypeError, match="sorter must hold integers"):
        mp.searchsorted(lib.dev(a), lib.dev(v), sorter=lib.dev(order.astype(np.float64)))


# ----------------------------------------------------------------------------- segmented_reduce
@case
def segmented_reduce_sums_in_64_bits(lib):
    starts = np.array([0, 3, 3, 5])
    cases = {
        "int32": np.array([2**31 - 1, 2**31 - 1, 5, -(2**31), -(2**31), 7], dtype=np.int32),
        "uint32": np.array([2**32 - 1, 2**32 - 1, 1, 3, 2**31, 2], dtype=np.uint32),
        "int64": np.array([2**62, 2**62, 2**62, 1, -5, 3], dtype=np.int64),  # wraps around, as numpy's sum
        "uint64": np.array([2**63, 2**63, 1, 2, 3, 2**64 - 1], dtype=np.uint64),
        "bool": np.array([True, True, False, True, True, False]),
        "int8": np.array([100, 100, 100, -128, -128, 1], dtype=np.int8),
        "uint16": np.array([60000, 60000, 1, 2, 3, 4], dtype=np.uint16),
        "float32": np.array([0.5, 1.5, 2.0, 4.0, 8.0, 16.0], dtype=np.float32),
    }
    for dtype, values in cases.items():
        for op in ("sum", "prod"):
            got = mp.segmented_reduce(lib.dev(values), lib.dev(starts), op=op, checked=True)
            want = segmented_reduce(values, starts, op, library=lib.name)
            assert want.dtype == sum_dtype(dtype, lib.name)
            same(lib, got, want)
        if dtype not in ("bool", "int8", "uint16"):
            for op in ("min", "max"):
                same(lib, mp.segmented_reduce(lib.dev(values), lib.dev(starts), op=op), segmented_reduce(values, starts, op))
        else:
            with pytest.raises(TypeError, match="values has dtype"):
                mp.segmented_reduce(lib.dev(values), lib.dev(starts), op="min")


# ------------------------------------------------------------------------------- bad arguments
def _calls(lib):
    """(name in messages, function, good keyword arguments, optional array arguments) of every public call."""
    k = lib.dev(np.array([1, 2, 3], dtype=np.int64))
    v = lib.dev(np.array([4, 5, 6], dtype=np.int64))  # sorted in place (inplace=True) with k
    s = lib.dev(np.array([0, 2], dtype=np.int64))
    return [
        ("merge", mp.merge, dict(a=k, b=k, a_values=v, b_values=v), ("a_values", "b_values")),
        ("sort", mp.sort, dict(keys=k, values=v), ("values",)),
        ("locality_sort", mp.locality_sort, dict(keys=k, values=v), ("values",)),
        ("segmented_sort", mp.segmented_sort, dict(keys=k, segment_starts=s, values=v), ("values",)),
        ("searchsorted", mp.searchsorted, dict(a=k, v=k, sorter=lib.dev(np.arange(3))), ("sorter",)),
        ("sorted_search", mp.sorted_search, dict(a=k, b=k), ()),
        ("sorted_search_matches", mp.sorted_search_matches, dict(a=k, b=k), ()),
        ("load_balancing_search", mp.load_balancing_search, dict(count=3, segment_starts=s), ()),
        ("interval_expand", mp.interval_expand, dict(values=lib.dev(np.array([5, 6])), segment_starts=s, count=3), ()),
        ("segmented_reduce", mp.segmented_reduce, dict(values=k, segment_starts=s), ()),
        ("EytzingerIndex", mp.EytzingerIndex, dict(sorted_keys=k), ()),
        ("EytzingerIndex.searchsorted", mp.EytzingerIndex(k).searchsorted, dict(v=k), ()),
        ("join", mp.join, dict(a=k, b=k), ()),
        ("set_union", mp.set_union, dict(a=k, b=k), ()),
        ("set_intersection", mp.set_intersection, dict(a=k, b=k), ()),
        ("set_difference", mp.set_difference, dict(a=k, b=k), ()),
        ("set_symmetric_difference", mp.set_symmetric_difference, dict(a=k, b=k), ()),
    ]


_ARRAYS = ("a", "b", "v", "keys", "values", "sorted_keys", "segment_starts", "a_values", "b_values", "sorter")
_FLAGS = ("descending", "inplace", "assume_sorted", "checked", "stable", "right", "out_int32")


@case
def every_call_names_its_bad_arguments(lib):
    for where, f, good, optional in _calls(lib):
        f(**good)
        call = rf"mergepath\.{where}: "
        for name in good:
            if name in _ARRAYS:
                for bad in ([None] if name not in optional else []) + ["abc", {1: 2}, object()]:
                    with pytest.raises(TypeError, match=call + f"{name} must be an array or a list of numbers, got"):
                        f(**dict(good, **{name: bad}))
                with pytest.raises(ValueError, match=call + f"{name} does not convert to an array"):
                    f(**dict(good, **{name: [[1], [1, 2]]}))
                with pytest.raises(TypeError, match=call + f"(.* and )?{name} (has|must hold integers, got) dtype complex128"):
                    f(**dict(good, **{name: [1j, 2j]}))
        for name in _FLAGS:
            try:
                f(**dict(good, **{name: True}))
            except TypeError as e:
                assert "unexpected keyword" in str(e)
                continue
            for bad in ("no", 1, None, np.array([True])):
                with pytest.raises(TypeError, match=call + f"{name} must be True or False"):
                    f(**dict(good, **{name: bad}))
        for name in ("side", "how", "op"):
            parameter = inspect.signature(f).parameters.get(name)
            if parameter is not None:
                for bad in ("middle", ["left"]) + ((None,) if parameter.default is not None else ()):
                    with pytest.raises(ValueError, match=call + f"{name} must be one of"):
                        f(**dict(good, **{name: bad}))
        if "count" in good:
            for bad in (True, 2.0, "3", None, np.float64(3), np.True_):
                with pytest.raises(TypeError, match=call + "count must be an integer"):
                    f(**dict(good, count=bad))
            with pytest.raises(ValueError, match=call + "count must be >= 0"):
                f(**dict(good, count=-1))
            assert_same(np.asarray(lib.host(f(**dict(good, count=np.int32(3))))),
                        np.asarray(lib.host(f(**good))))


@case
def searchsorted_takes_torchs_keywords(lib):
    hay = np.array([1, 2, 2, 3], dtype=np.int32)
    needles = np.array([[2, 0], [4, 3]], dtype=np.int32)
    for right in (False, True):
        want = np.searchsorted(hay, needles, side="right" if right else "left")
        got = mp.searchsorted(sorted_sequence=lib.dev(hay), values=lib.dev(needles), right=right)
        same(lib, got, want)
        same(lib, mp.searchsorted(lib.dev(hay), lib.dev(needles), right=right, out_int32=True), want.astype(np.int32))
        same(lib, mp.searchsorted(lib.dev(hay), values=lib.dev(needles), side="right", right=right),
             np.searchsorted(hay, needles, side="right"))
    assert int(mp.searchsorted(lib.dev(hay), 2, right=True, out_int32=True)) == 3
    where = r"mergepath\.searchsorted: "
    with pytest.raises(ValueError, match=where + "side='left' and right=True ask for opposite sides"):
        mp.searchsorted(lib.dev(hay), lib.dev(needles), side="left", right=True)
    with pytest.raises(TypeError, match=where + "a and sorted_sequence= are the same argument, passed twice"):
        mp.searchsorted(lib.dev(hay), lib.dev(needles), sorted_sequence=lib.dev(hay))
    with pytest.raises(TypeError, match=where + r"missing the argument v \(or values=\)"):
        mp.searchsorted(sorted_sequence=lib.dev(hay))
    with pytest.raises(TypeError, match=where + "values must be an array or a list of numbers"):
        mp.searchsorted(sorted_sequence=lib.dev(hay), values="abc")


@case
def sort_takes_torchs_stable(lib):
    keys = np.array([2, 1, 2, 1], dtype=np.int64)
    for stable in (True, False):  # stable either way
        k, v = mp.sort(lib.dev(keys), lib.dev(np.arange(4)), stable=stable)
        same(lib, k, np.array([1, 1, 2, 2]))
        same(lib, v, np.array([1, 3, 0, 2]))


@case
def inplace_arrays_must_not_overlap(lib):
    base = lib.dev(np.arange(10, 0, -1, dtype=np.int64))
    for call, args in ((mp.sort, ()), (mp.locality_sort, ())):
        with pytest.raises(ValueError, match=rf"mergepath\.{call.__name__}: keys and values share memory"):
            call(base[:6], base[4:], inplace=True)
        with pytest.raises(ValueError, match="share memory"):
            call(base, base, inplace=True)
    with pytest.raises(ValueError, match="mergepath.segmented_sort: keys and values share memory"):
        mp.segmented_sort(base[:5], [0, 2], base[4:9], inplace=True)
    with pytest.raises(ValueError, match="mergepath.segmented_sort: keys and segment_starts share memory"):
        mp.segmented_sort(base, base[8:], inplace=True)
    mp.sort(base[:5], base[5:], inplace=True)  # neighbours, not overlapping
    same(lib, base, np.array([6, 7, 8, 9, 10, 1, 2, 3, 4, 5]))
    k, v = mp.sort(base, base)  # into new arrays: the same array twice is fine
    same(lib, k, np.array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]))
    same(lib, v, np.array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]))
