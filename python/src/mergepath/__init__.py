"""mergepath: merge-based parallel primitives for numpy, CuPy and PyTorch arrays.

Every function takes and returns arrays of the caller's own library. numpy arrays (and CPU
torch tensors) run on the host backend (all cores); CuPy arrays and CUDA torch tensors run on
their GPU, on the library's current stream, without copies, and return arrays of the same
library on the same device. Other GPU arrays speaking DLPack (JAX, ...) are viewed through CuPy.

Supported dtypes: int32, int64, uint32, uint64, float32, float64. Floats are ordered as numpy
sorts them: NaNs last (descending: NaNs first). Inputs must be 1-d; non-contiguous ones are
copied. Every function takes ``checked=False``; ``checked=True`` verifies the data preconditions
(sorted inputs, well-formed segment starts) and raises ValueError naming the first bad position.
Index results are int64.

Nothing is cast lossily. Lists and numbers are read as ``np.asarray`` reads them; two inputs of
different dtypes meet in numpy's promoted dtype (``np.result_type``): the searches compare in it
as ``np.searchsorted`` does, while merge, join and the set operations raise TypeError where it
would not hold both inputs exactly (int64 with float64). Indices (segment starts, sorters) must
be integers, flags bools, counts integers; bad arguments raise TypeError or ValueError naming the
call and the argument.

Segment starts (``segment_starts``) are CSR row offsets without the last entry: non-decreasing,
starting at 0, each <= the item count; empty segments are allowed.
"""

from collections import namedtuple

from . import _core
from ._args import MISSING as _MISSING
from ._args import _Call
from ._args import alias as _alias
from ._args import check_length as _check_length
from ._args import choice as _choice
from ._args import count as _count
from ._args import flag as _flag
from ._args import shape as _shape
from ._arrays import DTYPE_NAMES

__all__ = [
    "merge",
    "sort",
    "locality_sort",
    "segmented_sort",
    "searchsorted",
    "sorted_search",
    "sorted_search_matches",
    "SortedSearchMatches",
    "load_balancing_search",
    "interval_expand",
    "segmented_reduce",
    "EytzingerIndex",
    "join",
    "set_union",
    "set_intersection",
    "set_difference",
    "set_symmetric_difference",
    "cuda_available",
    "cuda_built",
    "DTYPES",
]

DTYPES = DTYPE_NAMES


def cuda_built():
    """True when this build of mergepath has the CUDA backend (nvcc was found at build time)."""
    return _core.cuda_built()


def cuda_available():
    """True when the CUDA backend is built and a usable GPU and driver are present."""
    return _core.cuda_available()


_SIDES = {"left": False, "right": True}
_INT32_MAX = 2**31 - 1


def merge(a, b, a_values=None, b_values=None, *, descending=False, checked=False):
    """Merge two sorted arrays into one, stably (of equal keys, those of ``a`` come first).

    With ``a_values`` and ``b_values`` (arrays as long as ``a`` and ``b``) the values move with
    their keys and ``(keys, values)`` is returned. ``descending=True``: both inputs sorted from
    largest to smallest. Inputs of two dtypes merge in numpy's promoted dtype where it holds
    both exactly (int32 and int64: int64), else TypeError (int64 and float64). Replaces
    ``sort(concatenate([a, b]), kind="stable")``.

    >>> import numpy as np, mergepath
    >>> mergepath.merge(np.array([1, 3, 5]), np.array([2, 3, 4]))
    array([1, 2, 3, 3, 4, 5])
    >>> keys, vals = mergepath.merge(np.array([1, 3]), np.array([3]), np.array([10, 30]), np.array([31]))
    >>> vals
    array([10, 30, 31])
    """
    where = "merge"
    descending = _flag(where, "descending", descending)
    if (a_values is None) != (b_values is None):
        raise ValueError(f"mergepath.{where}: give both a_values and b_values, or neither")
    c = _Call(where, checked, a=a, b=b, a_values=a_values, b_values=b_values)
    a, b = c.common(("a", a), ("b", b), exact=True)
    n = int(a.shape[0]) + int(b.shape[0])
    out = c.empty(n, c.dtype_name(a))
    if a_values is None:
        _core.merge(c.core, c.core_array(a), c.core_array(b), _core.Array(), _core.Array(), c.core_array(out),
                    _core.Array(), descending)
        return c.result(out)
    av, bv = c.common(("a_values", a_values), ("b_values", b_values), exact=True)
    _check_length(where, "a_values", av, "a", int(a.shape[0]))
    _check_length(where, "b_values", bv, "b", int(b.shape[0]))
    out_v = c.empty(n, c.dtype_name(av))
    _core.merge(c.core, c.core_array(a), c.core_array(b), c.core_array(av), c.core_array(bv), c.core_array(out),
                c.core_array(out_v), descending)
    return c.result(out), c.result(out_v)


def _sort_inputs(where, c, keys, values, inplace):
    """keys and values as the call's arrays, checked; with ``inplace``, checked to be the caller's own."""
    original = (keys, values)
    k = c.array("keys", keys)
    v = c.array("values", values) if values is not None else None
    if v is not None:
        _check_length(where, "values", v, "keys", int(k.shape[0]))
    if inplace:
        for name, given, x in (("keys", original[0], k), ("values", original[1], v)):
            if x is None:
                continue
            if x is not given:
                raise ValueError(f"mergepath.{where}: inplace=True needs {name} as a contiguous 1-d array of a "
                                 "supported dtype (it would have to be copied)")
            if not c.adapter.writeable(x):
                raise ValueError(f"mergepath.{where}: inplace=True but {name} is read-only")
        c.disjoint(("keys", k), ("values", v))  # sorted in place, each would overwrite the other
    return k, v


def _copies(c, k, v):
    return c.adapter.copy(k), (c.adapter.copy(v) if v is not None else None)


def _sort(where, keys, values, descending, inplace, checked, locality):
    descending, inplace = _flag(where, "descending", descending), _flag(where, "inplace", inplace)
    c = _Call(where, checked, keys=keys, values=values)
    k, v = _sort_inputs(where, c, keys, values, inplace)
    if inplace or locality:
        out_k, out_v = (k, v) if inplace else _copies(c, k, v)
        k, v = None, None
    else:  # a sorted copy reads the inputs where it sorts them: nothing is copied first
        n = int(k.shape[0])
        out_k = c.empty(n, c.adapter.dtype_name(k))
        out_v = c.empty(n, c.adapter.dtype_name(v)) if v is not None else None
    _core.sort(c.core, c.core_array(out_k), c.core_array(out_v), c.core_array(k), c.core_array(v), descending,
               locality)
    return c.result(out_k) if out_v is None else (c.result(out_k), c.result(out_v))


def sort(keys, values=None, *, descending=False, inplace=False, stable=True, checked=False):
    """Sort stably (equal keys keep their order): a sorted copy, or ``keys`` itself with ``inplace=True``.

    With ``values`` (as long as ``keys``) the values move with their keys and ``(keys, values)``
    is returned. NaNs sort last (first with ``descending=True``), as in numpy. Replaces
    ``np.sort(kind="stable")``, ``torch.sort(stable=True)``, ``cupy.sort``; with values,
    ``order = argsort(keys); keys[order], values[order]``. ``stable`` is taken for torch's sake:
    the sort is stable either way.

    >>> import numpy as np, mergepath
    >>> mergepath.sort(np.array([3.0, np.nan, 1.0, 2.0]))
    array([ 1.,  2.,  3., nan])
    >>> mergepath.sort(np.array([2, 1, 2, 1]), np.arange(4), descending=True)
    (array([2, 2, 1, 1]), array([0, 2, 1, 3]))
    """
    _flag("sort", "stable", stable)
    return _sort("sort", keys, values, descending, inplace, checked, False)


def locality_sort(keys, values=None, *, descending=False, inplace=False, checked=False):
    """Sort stably, fast when the input is nearly sorted (elements close to their sorted place).

    Same arguments and result as :func:`sort`; the merge passes skip data already in order.

    >>> import numpy as np, mergepath
    >>> mergepath.locality_sort(np.array([1, 2, 4, 3, 5, 7, 6]))
    array([1, 2, 3, 4, 5, 6, 7])
    """
    return _sort("locality_sort", keys, values, descending, inplace, checked, True)


def segmented_sort(keys, segment_starts, values=None, *, descending=False, inplace=False, checked=False):
    """Sort each segment of ``keys`` stably; no key leaves its segment.

    ``segment_starts``: the segments' first positions (CSR offsets without the last entry:
    non-decreasing, from 0, each <= len(keys); empty segments allowed; an empty array means one
    segment). With ``values`` returns ``(keys, values)``. Replaces sorting packed
    ``(segment << 32) | key`` keys, or ``np.lexsort((keys, segment_ids))``.

    >>> import numpy as np, mergepath
    >>> mergepath.segmented_sort(np.array([3, 1, 2, 9, 8, 5]), np.array([0, 3, 3]))
    array([1, 2, 3, 5, 8, 9])
    """
    where = "segmented_sort"
    descending, inplace = _flag(where, "descending", descending), _flag(where, "inplace", inplace)
    c = _Call(where, checked, keys=keys, segment_starts=segment_starts, values=values)
    k, v = _sort_inputs(where, c, keys, values, inplace)
    s = c.indices("segment_starts", segment_starts)
    if inplace:
        c.disjoint(("keys", k), ("values", v), ("segment_starts", s))
    else:
        k, v = _copies(c, k, v)
    _core.segmented_sort(c.core, c.core_array(k), c.core_array(v), c.core_array(s), descending)
    return c.result(k) if v is None else (c.result(k), c.result(v))


def searchsorted(a=_MISSING, v=_MISSING, side=None, sorter=None, *, right=False, out_int32=False,
                 sorted_sequence=_MISSING, values=_MISSING, checked=False):
    """Indices where ``v``'s elements would be inserted into sorted ``a`` to keep it sorted.

    numpy's signature and meaning: ``side="left"`` gives the first suitable index (lower bound),
    ``"right"`` the last (upper bound); ``v`` in any order and any shape (the result has its
    shape; a scalar gives a scalar); ``sorter`` (integers of any dtype, each in
    ``[0, len(a))``: ValueError otherwise) sorts ``a`` by gather first. ``a`` and ``v`` are
    compared as numpy compares them, in ``np.result_type`` of the two (an int array and 2.5: in
    float64). Picks per-needle binary search or sort-then-merge-search by the sizes. Replaces
    ``np.searchsorted``, ``torch.searchsorted``, ``cupy.searchsorted``.

    torch's spelling works too: ``sorted_sequence=`` and ``values=`` for ``a`` and ``v``,
    ``right=True`` for ``side="right"`` (with ``side="left"``: ValueError, as torch), and
    ``out_int32=True`` for int32 indices (ValueError where ``a`` is too long for them). ``side``
    left out is ``"left"``.

    >>> import numpy as np, mergepath
    >>> mergepath.searchsorted(np.array([1, 2, 2, 3]), np.array([2, 0, 4]), side="right")
    array([3, 0, 4])
    >>> int(mergepath.searchsorted(np.array([1, 2, 3]), 2.5))
    2
    >>> mergepath.searchsorted(sorted_sequence=np.array([1, 2, 2, 3]), values=np.array([2]), right=True,
    ...                        out_int32=True)
    array([3], dtype=int32)
    """
    where = "searchsorted"
    a_name, a = _alias(where, "a", a, "sorted_sequence", sorted_sequence)
    v_name, v = _alias(where, "v", v, "values", values)
    right = _searchsorted_side(where, side, right)
    out_int32 = _flag(where, "out_int32", out_int32)
    c = _Call(where, checked, **{a_name: a, v_name: v, "sorter": sorter})
    v_shape = _shape(where, v_name, v)
    a, needles = c.common((a_name, a), (v_name, v), exact=False, weak_values=True, flatten=(v_name,))
    n = int(a.shape[0])
    if out_int32 and n > _INT32_MAX:
        raise ValueError(f"mergepath.{where}: out_int32=True, but {a_name} has {n} elements (int32 holds indices "
                         f"to {_INT32_MAX})")
    if sorter is not None:
        order = c.indices("sorter", sorter, within=(n, a_name))
        _check_length(where, "sorter", order, a_name, n)
        a = c.adapter.contiguous(a[order])
    out = c.empty(int(needles.shape[0]), "int64")
    _core.searchsorted(c.core, c.core_array(a), c.core_array(needles), c.core_array(out), right)
    if out_int32:  # every index is <= n, which int32 holds
        out = c.adapter.astype(out, "int32")
    if len(v_shape) == 0:
        return out[0]
    if len(v_shape) != 1:
        out = out.reshape(v_shape)
    return c.result(out)


def _searchsorted_side(where, side, right):
    """True for the upper bound: numpy's side= or torch's right=; side="left" with right=True is an error, as in torch."""
    right = _flag(where, "right", right)
    if side is None:
        return right
    upper = _choice(where, "side", side, _SIDES)
    if right and not upper:
        raise ValueError(f"mergepath.{where}: side='left' and right=True ask for opposite sides")
    return upper


def sorted_search(a, b, side="left", *, checked=False):
    """For each element of sorted ``a``, its insertion index into sorted ``b``, by one merge-like walk.

    Equals ``np.searchsorted(b, a, side)`` when ``a`` is sorted, in O(len(a) + len(b)) work
    (note the argument order: the needles first, as in the C++ API).

    >>> import numpy as np, mergepath
    >>> mergepath.sorted_search(np.array([0, 2, 5]), np.array([1, 2, 3, 4]))
    array([0, 1, 4])
    """
    where = "sorted_search"
    right = _choice(where, "side", side, _SIDES)
    c = _Call(where, checked, a=a, b=b)
    a, b = c.common(("a", a), ("b", b), exact=False, weak_values=True)
    out = c.empty(int(a.shape[0]), "int64")
    _core.sorted_search(c.core, c.core_array(a), c.core_array(b), c.core_array(out), right)
    return c.result(out)


SortedSearchMatches = namedtuple(
    "SortedSearchMatches", ["a_bounds", "a_matches", "b_bounds", "b_matches", "a_match_count", "b_match_count"]
)
SortedSearchMatches.__doc__ = """sorted_search_matches' result: bounds (int64), match flags (bool), match counts (int)."""

_INDEX_MASK = (1 << 63) - 1


def sorted_search_matches(a, b, side="left", *, checked=False):
    """Both directions of a sorted search at once, with match flags and counts.

    ``side="left"``: ``a_bounds`` = lower bounds of ``a`` in ``b`` and ``b_bounds`` = upper bounds
    of ``b`` in ``a``; ``side="right"``: upper bounds of ``a`` in ``b``, lower bounds of ``b``
    in ``a``. ``a_matches[i]`` is True when ``b`` holds an element equal to ``a[i]`` (and the
    other way round); the counts are how many elements of each side match (the call waits for
    them). Replaces ``np.searchsorted`` twice plus ``np.isin`` twice.

    >>> import numpy as np, mergepath
    >>> r = mergepath.sorted_search_matches(np.array([1, 2, 4]), np.array([2, 3, 4, 4]))
    >>> r.a_bounds, r.a_matches, r.b_match_count
    (array([0, 0, 2]), array([False,  True,  True]), 3)
    """
    where = "sorted_search_matches"
    right = _choice(where, "side", side, _SIDES)
    c = _Call(where, checked, a=a, b=b)
    a, b = c.common(("a", a), ("b", b), exact=False, weak_values=True)
    a_raw = c.empty(int(a.shape[0]), "int64")
    b_raw = c.empty(int(b.shape[0]), "int64")
    na, nb = _core.sorted_search_matches(c.core, c.core_array(a), c.core_array(b), c.core_array(a_raw),
                                         c.core_array(b_raw), right)
    # The match flag is the sign bit (search::index_match on int64 outputs).
    return SortedSearchMatches(c.result(a_raw & _INDEX_MASK), c.result(a_raw < 0), c.result(b_raw & _INDEX_MASK),
                               c.result(b_raw < 0), int(na), int(nb))


def load_balancing_search(count, segment_starts, *, checked=False):
    """The segment of each work item: ``out[i]`` = the last ``s`` with ``segment_starts[s] <= i``.

    ``count`` items fall into the segments given by ``segment_starts`` (see the module doc).
    Returns int64 of length ``count``, in the library and on the device of ``segment_starts``.
    Replaces ``repeat_interleave(arange(S), diff(append(starts, count)))`` and
    ``searchsorted(starts, arange(count), side="right") - 1``.

    >>> import numpy as np, mergepath
    >>> mergepath.load_balancing_search(6, np.array([0, 2, 2, 5]))
    array([0, 0, 2, 2, 2, 3])
    """
    where = "load_balancing_search"
    n = _count(where, count)
    c = _Call(where, checked, segment_starts=segment_starts)
    s = c.indices("segment_starts", segment_starts)
    out = c.empty(n, "int64")
    _core.load_balancing_search(c.core, n, c.core_array(s), c.core_array(out))
    return c.result(out)


def interval_expand(values, segment_starts, count, *, checked=False):
    """Repeat each segment's value over its items: ``out[i] = values[segment of i]``.

    ``values`` has one element per segment. Replaces ``np.repeat(values, sizes)`` /
    ``torch.repeat_interleave(values, sizes)``.

    >>> import numpy as np, mergepath
    >>> mergepath.interval_expand(np.array([10., 20., 30.]), np.array([0, 1, 1]), 4)
    array([10., 30., 30., 30.])
    """
    where = "interval_expand"
    n = _count(where, count)
    c = _Call(where, checked, values=values, segment_starts=segment_starts)
    v = c.array("values", values)
    s = c.indices("segment_starts", segment_starts)
    _check_length(where, "values", v, "segment_starts", int(s.shape[0]))
    out = c.empty(n, c.dtype_name(v))
    _core.interval_expand(c.core, c.core_array(v), n, c.core_array(s), c.core_array(out))
    return c.result(out)


_OPS = {"sum": 0, "min": 1, "max": 2, "prod": 3}
_SMALL_INTEGERS = ("bool", "int8", "int16", "uint8", "uint16")


def segmented_reduce(values, segment_starts, op="sum", *, checked=False):
    """Reduce each segment of ``values``: ``op`` is "sum", "min", "max" or "prod".

    Returns one element per segment. min and max keep ``values``' dtype; sum and prod take the
    dtype the array library's own sum gives (numpy and CuPy: int64 for signed integers and
    bools, uint64 for unsigned ones, as ``np.sum``; torch: int64 for every integer dtype and
    bool, as ``torch.sum``; floats keep theirs), so int32 sums do not wrap around at 2^31. An
    empty segment gives the identity (0, 1, +inf / the largest integer for min, -inf / the
    smallest for max). NaNs propagate through min and max. Float sums may round differently
    from a sequential loop. Replaces ``np.add.reduceat`` and ``torch.segment_reduce`` /
    ``scatter_reduce``.

    >>> import numpy as np, mergepath
    >>> mergepath.segmented_reduce(np.array([1, 2, 3, 4, 5]), np.array([0, 2, 2]), op="sum")
    array([ 3,  0, 12])
    >>> mergepath.segmented_reduce(np.array([2**31 - 1, 1], dtype=np.int32), np.array([0])).dtype
    dtype('int64')
    """
    where = "segmented_reduce"
    op = _choice(where, "op", op, _OPS)
    c = _Call(where, checked, values=values, segment_starts=segment_starts)
    if op in (_OPS["sum"], _OPS["prod"]):
        # Accumulated in the library's sum dtype: smaller integers and bools are widened to it first.
        v = c.array("values", values, dtypes=DTYPE_NAMES + _SMALL_INTEGERS)
        out_dtype = c.adapter.sum_dtype(c.np_dtype(v)).name
        if c.dtype_name(v) is None:
            v = c.adapter.astype(v, out_dtype)
    else:
        v = c.array("values", values)
        out_dtype = c.dtype_name(v)
    s = c.indices("segment_starts", segment_starts)
    out = c.empty(int(s.shape[0]), out_dtype)
    _core.segmented_reduce(c.core, c.core_array(v), c.core_array(s), c.core_array(out), op)
    return c.result(out)


class EytzingerIndex:
    """Sorted keys laid out once in Eytzinger (BFS) order, then searched many times.

    Built in the memory of ``sorted_keys`` (host or its GPU; the keys are copied, the input may
    be freed). ``searchsorted`` gives the same results as ``np.searchsorted(sorted_keys, ...)``,
    with cache-friendlier probes for large key sets and many unsorted needles. Needles must be
    of the keys' dtype, or of one numpy would search them in without converting the keys (an
    int32 array into int64 keys; lists and numbers whose values the keys' dtype holds exactly):
    TypeError otherwise (2.5 into int64 keys, which numpy would search in float64).

    >>> import numpy as np, mergepath
    >>> index = mergepath.EytzingerIndex(np.array([1, 3, 5, 7]))
    >>> index.searchsorted(np.array([4, 0, 7]), side="left")
    array([2, 0, 3])
    """

    def __init__(self, sorted_keys, *, checked=False):
        where = "EytzingerIndex"
        c = _Call(where, checked, sorted_keys=sorted_keys)
        k = c.array("sorted_keys", sorted_keys)
        self._adapter = c.adapter
        self._device = c.device
        self._dtype = c.dtype_name(k)
        self._index = _core.eytzinger_index(c.core, c.core_array(k))

    def __len__(self):
        return self._index.size

    @property
    def dtype(self):
        """The keys' dtype name."""
        return self._dtype

    def searchsorted(self, v, side="left", *, checked=False):
        """Insertion indices of ``v`` (any order, any shape) into the sorted keys, as np.searchsorted."""
        where = "EytzingerIndex.searchsorted"
        right = _choice(where, "side", side, _SIDES)
        c = _Call(where, checked, home=("the index", self._adapter, self._device), v=v)
        v_shape = _shape(where, "v", v)
        # The keys are laid out in their dtype: an empty array of it stands for them in the promotion.
        keys, needles = c.common(("the index's keys", c.empty(0, self._dtype)), ("v", v), exact=False,
                                 weak_values=True, flatten=("v",))
        if c.dtype_name(keys) != self._dtype:
            raise TypeError(
                f"mergepath.{where}: the index holds {self._dtype} keys and v has dtype {c.np_dtype(needles)}: "
                f"numpy would search them in {c.dtype_name(keys)} (mixed dtypes); build the index from "
                f"{c.dtype_name(keys)} keys, or give v as {self._dtype}"
            )
        out = c.empty(int(needles.shape[0]), "int64")
        self._index.search(c.core, c.core_array(needles), c.core_array(out), right)
        if len(v_shape) == 0:
            return out[0]
        if len(v_shape) != 1:
            out = out.reshape(v_shape)
        return c.result(out)


_HOWS = {"inner": 0, "left": 1, "right": 2, "outer": 3, "semi": 4, "anti": 5}


def join(a, b, how="inner", *, assume_sorted=False, checked=False):
    """Relational join on equal keys: the row numbers of ``a`` and ``b`` that pair up.

    Returns ``(a_rows, b_rows)``, int64 arrays of one row per output pair, ordered by key, then
    ``a`` row, then ``b`` row. ``how``: "inner" (every pair ``(i, j)`` with ``a[i] == b[j]``),
    "left" (plus ``(i, -1)`` for each ``a`` row without a partner), "right" (plus ``(-1, j)`` for
    each lone ``b`` row), "outer" (both); "semi" and "anti" return a single ``a_rows`` array:
    the ``a`` rows that have a partner, or that have none. ``a`` and ``b`` may be in any order
    (they are sorted, as copies, with their row numbers); ``assume_sorted=True`` skips that for
    inputs already sorted (``checked=True`` then verifies it). NaN keys match each other. The
    call waits for the output's size; the rows are handed over without a copy. Replaces
    ``pandas.merge`` on row numbers, or sort + searchsorted + repeat_interleave in torch / CuPy.

    >>> import numpy as np, mergepath
    >>> a_rows, b_rows = mergepath.join(np.array([3, 1, 2, 1]), np.array([1, 3, 1, 5]))
    >>> a_rows, b_rows
    (array([1, 1, 3, 3, 0]), array([0, 2, 0, 2, 1]))
    >>> mergepath.join(np.array([1, 2]), np.array([2, 3]), how="outer")
    (array([ 0,  1, -1]), array([-1,  0,  1]))
    >>> mergepath.join(np.array([1, 2, 4]), np.array([2, 3, 4]), how="anti", assume_sorted=True)
    array([0])
    """
    where = "join"
    how = _choice(where, "how", how, _HOWS)
    assume_sorted = _flag(where, "assume_sorted", assume_sorted)
    c = _Call(where, checked, a=a, b=b)
    a, b = c.common(("a", a), ("b", b), exact=True, weak_values=True)
    rows = _core.join(c.core, c.core_array(a), c.core_array(b), how, assume_sorted)
    a_rows = c.result(c.borrow_int64(rows, rows.a_data, rows.size))
    if not rows.has_b:
        return a_rows
    return a_rows, c.result(c.borrow_int64(rows, rows.b_data, rows.size))


_SET_KINDS = {"set_union": 0, "set_intersection": 1, "set_difference": 2, "set_symmetric_difference": 3}


def _set_operation(where, a, b, checked):
    c = _Call(where, checked, a=a, b=b)
    a, b = c.common(("a", a), ("b", b), exact=True)
    na, nb = int(a.shape[0]), int(b.shape[0])
    capacity = na + nb if where in ("set_union", "set_symmetric_difference") else na
    out = c.empty(capacity, c.dtype_name(a))
    n = int(_core.set_operation(c.core, _SET_KINDS[where], c.core_array(a), c.core_array(b), c.core_array(out)))
    return c.result(out if n == capacity else out[:n])


def set_union(a, b, *, checked=False):
    """The sorted union of sorted multisets ``a`` and ``b``, as ``std::set_union``.

    Of a key held m times in ``a`` and n times in ``b``: ``a``'s m copies, then ``b``'s last
    max(n - m, 0). The call waits for the output's size; the result may be a view of a buffer of
    ``len(a) + len(b)`` elements. Replaces ``np.union1d`` (which drops duplicates).

    >>> import numpy as np, mergepath
    >>> mergepath.set_union(np.array([1, 2, 2, 4]), np.array([2, 3, 3]))
    array([1, 2, 2, 3, 3, 4])
    """
    return _set_operation("set_union", a, b, checked)


def set_intersection(a, b, *, checked=False):
    """The sorted intersection of sorted multisets ``a`` and ``b``, as ``std::set_intersection``.

    Of a key held m times in ``a`` and n times in ``b``: ``a``'s first min(m, n) copies.
    Replaces ``np.intersect1d`` (which drops duplicates).

    >>> import numpy as np, mergepath
    >>> mergepath.set_intersection(np.array([1, 2, 2, 4]), np.array([2, 2, 2, 3, 4]))
    array([2, 2, 4])
    """
    return _set_operation("set_intersection", a, b, checked)


def set_difference(a, b, *, checked=False):
    """The elements of sorted ``a`` not matched in sorted ``b``, as ``std::set_difference``.

    Of a key held m times in ``a`` and n times in ``b``: ``a``'s last max(m - n, 0) copies.
    Replaces ``np.setdiff1d`` (which drops duplicates).

    >>> import numpy as np, mergepath
    >>> mergepath.set_difference(np.array([1, 2, 2, 4]), np.array([2, 3]))
    array([1, 2, 4])
    """
    return _set_operation("set_difference", a, b, checked)


def set_symmetric_difference(a, b, *, checked=False):
    """The elements of sorted ``a`` or ``b`` unmatched in the other, as ``std::set_symmetric_difference``.

    Of a key held m times in ``a`` and n times in ``b``: ``a``'s last m - n copies or ``b``'s
    last n - m, in sorted order. Replaces ``np.setxor1d`` (which drops duplicates).

    >>> import numpy as np, mergepath
    >>> mergepath.set_symmetric_difference(np.array([1, 2, 2, 4]), np.array([2, 3]))
    array([1, 2, 3, 4])
    """
    return _set_operation("set_symmetric_difference", a, b, checked)
