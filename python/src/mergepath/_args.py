"""Argument handling shared by every public function.

A call's array arguments come from one library and one device (``_Call``); each is converted the
same way: arrays of a library as they are, Python values (numbers, numpy scalars, lists) by
numpy's own inference, and never cast lossily. Arrays of different dtypes meet in numpy's
promoted dtype (``np.result_type``) or raise TypeError; index arguments must be integers;
flags must be bools; counts must be integers (``operator.index``). Every error names the call and
the argument.
"""

import numbers
import operator

import numpy as np

from . import _core
from ._arrays import DTYPE_NAMES, _CODES, _BorrowedInt64, _FreedOnStream, _Numpy, _adapter, adapter_for, to_cupy

_INT64 = np.dtype(np.int64)
_NAMES = {}  # dtype -> its name (numpy's dtype.name takes microseconds)
# Python values a call takes where it takes an array: numpy reads them as it reads np.asarray's input.
_VALUE_TYPES = (numbers.Number, np.generic, list, tuple, range)


def _name(dtype):
    name = _NAMES.get(dtype)
    if name is None:
        name = _NAMES[dtype] = dtype.name
    return name


def _place(device):
    return "host memory" if device < 0 else f"GPU {device}"


def _kind_of(x):
    return "None" if x is None else type(x).__name__


def flag(where, name, value):
    """A True / False argument: bools only (a string such as "no" is not taken as True)."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise TypeError(f"mergepath.{where}: {name} must be True or False, got {value!r}")


def choice(where, name, value, options):
    """options[value] for a string argument (side, op, how); ValueError naming the options otherwise."""
    if isinstance(value, str) and value in options:
        return options[value]
    raise ValueError(f"mergepath.{where}: {name} must be one of {', '.join(map(repr, options))}, got {value!r}")


MISSING = object()  # an argument not passed (None is a value some arguments take)


def alias(where, name, value, other, other_value):
    """(name, value) of an argument that numpy and torch spell differently (a / sorted_sequence):
    exactly one of the two spellings must be passed."""
    if value is MISSING and other_value is MISSING:
        raise TypeError(f"mergepath.{where}: missing the argument {name} (or {other}=)")
    if value is not MISSING and other_value is not MISSING:
        raise TypeError(f"mergepath.{where}: {name} and {other}= are the same argument, passed twice")
    return (name, value) if value is not MISSING else (other, other_value)


def count(where, value, name="count"):
    """A non-negative integer: what operator.index takes (not bools, not 2.0)."""
    if isinstance(value, (bool, np.bool_)) or str(getattr(value, "dtype", "")) in ("bool", "torch.bool"):
        raise TypeError(f"mergepath.{where}: {name} must be an integer, got {value!r}")
    try:
        n = operator.index(value)
    except TypeError:
        raise TypeError(f"mergepath.{where}: {name} must be an integer, got {_kind_of(value)} {value!r}") from None
    if n < 0:
        raise ValueError(f"mergepath.{where}: {name} must be >= 0, got {n}")
    return n


def check_length(where, name, x, expected_name, n):
    if int(x.shape[0]) != n:
        raise ValueError(f"mergepath.{where}: {name} has {int(x.shape[0])} elements but {expected_name} has {n}")


def _values(where, name, x):
    """Python values (a number, a numpy scalar, nested lists) as a numpy array, as np.asarray reads them."""
    if not isinstance(x, _VALUE_TYPES):
        raise TypeError(f"mergepath.{where}: {name} must be an array or a list of numbers, got {_kind_of(x)}")
    try:
        return np.asarray(x)
    except (ValueError, TypeError, OverflowError) as e:
        raise ValueError(f"mergepath.{where}: {name} does not convert to an array: {e}") from None


def shape(where, name, x):
    """The shape of an array argument, or of Python values as numpy reads them."""
    if adapter_for(x) is not None:
        return tuple(x.shape)
    return _values(where, name, x).shape


def _holds(dst, src):
    """Whether dtype dst holds every value of dtype src exactly (np.can_cast calls int64 -> float64
    safe; it rounds beyond 2^53)."""
    if src == dst or src.kind == "b":
        return True
    if dst.kind == "f" and src.kind in "iu":
        return src.itemsize * 8 - (src.kind == "i") <= np.finfo(dst).nmant + 1
    return np.can_cast(src, dst, "safe")


def _values_fit(x, dtype):
    """Whether every element of host array x is exactly a value of dtype (x came from Python values)."""
    if x.dtype == dtype or x.size == 0:
        return True
    if x.dtype.kind not in "biuf":
        return False
    if dtype.kind in "iu":
        if x.dtype.kind == "f" and not np.all(np.isfinite(x) & (x == np.trunc(x))):
            return False
        info = np.iinfo(dtype)
        return info.min <= x.min().item() and x.max().item() <= info.max  # Python compares ints and floats exactly
    with np.errstate(all="ignore"):  # to a float: exact when the value comes back unchanged
        return bool(np.array_equal(x.astype(dtype).astype(x.dtype), x, equal_nan=x.dtype.kind == "f"))


class _Call:
    """The arrays of one call: one library, one device, and the context passed to _core.

    ``home`` (name, adapter, device) fixes the library and device beforehand (an index's)."""

    def __init__(self, where, checked, home=None, **arrays):
        self.where = where
        first, self.adapter, self.device = home if home is not None else (None, None, -1)
        for name, x in arrays.items():
            a = adapter_for(x)
            if a is None:
                continue
            d = a.device(x)
            if self.adapter is None:
                self.adapter, self.device, first = a, d, name
                continue
            if (d < 0) != (self.device < 0):
                raise ValueError(
                    f"mergepath.{where}: {first} is in {_place(self.device)} but {name} is in {_place(d)} "
                    "(host and device arrays mixed)"
                )
            if d != self.device:
                raise ValueError(
                    f"mergepath.{where}: {first} is on GPU {self.device} but {name} is on GPU {d} "
                    "(arrays on two different GPUs)"
                )
            if a.name != self.adapter.name:
                raise TypeError(
                    f"mergepath.{where}: {first} is a {self.adapter.name} array but {name} is a {a.name} array "
                    "(mixed array libraries)"
                )
        if self.adapter is None:
            self.adapter = _adapter("numpy", _Numpy)
        stream = self.adapter.stream(self.device) if self.device >= 0 else 0
        self.core = _core.Call(self.device, stream, flag(where, "checked", checked))

    # ---- conversion: take an argument, settle its dtype, then make it an array of the call ----
    def _take(self, name, x, flatten=False):
        """(x, from_values): an array of the call's library, or Python values as a host numpy
        array that stays on the host until its dtype is settled."""
        a = adapter_for(x)
        if a is None:
            x, from_values = _values(self.where, name, x), True
        elif isinstance(x, np.ma.MaskedArray):
            raise TypeError(
                f"mergepath.{self.where}: {name} is a numpy masked array, whose mask mergepath would ignore: "
                f"pass {name}.compressed() or {name}.filled(value)"
            )
        elif isinstance(a, _Numpy):
            x, from_values = (x if isinstance(x, np.ndarray) else np.asarray(x)), False
        else:
            x, from_values = to_cupy(a, x), False
        if flatten:
            if x.ndim != 1:
                x = x.reshape(-1)
        elif x.ndim != 1:
            raise ValueError(f"mergepath.{self.where}: {name} must be 1-d, got {x.ndim}-d (shape {tuple(x.shape)})")
        return x, from_values

    def _dtype_of(self, name, x, from_values):
        dt = x.dtype if from_values else self.adapter.np_dtype(x)
        if dt is None:
            raise TypeError(f"mergepath.{self.where}: {name} has dtype {x.dtype}, not supported "
                            f"(supported: {', '.join(DTYPE_NAMES)})")
        return dt

    def _finish(self, x, from_values, dtype):
        """x in dtype, a contiguous array of the call's library on its device."""
        if from_values:
            return self.adapter.asarray(x, _name(dtype), self.device)
        if self.adapter.np_dtype(x) != dtype:
            x = self.adapter.astype(x, _name(dtype))
        if not self.adapter.is_contiguous(x):
            x = self.adapter.contiguous(x)
        return x

    def _unsupported(self, names_dtypes, promoted=None):
        given = " and ".join(f"{n} has dtype {dt}" for n, dt in names_dtypes)
        mixed = promoted is not None and any(dt != promoted for _, dt in names_dtypes)
        via = f", which numpy promotes to {promoted}" if mixed else ""
        return TypeError(f"mergepath.{self.where}: {given}{via}: not supported (supported: {', '.join(DTYPE_NAMES)})")

    def array(self, name, x, dtypes=DTYPE_NAMES, flatten=False):
        """x as a contiguous 1-d array of the call's library, in its own dtype (which must be one of
        dtypes: TypeError otherwise). Python values take numpy's dtype for them (int64, float64)."""
        x, from_values = self._take(name, x, flatten)
        dt = self._dtype_of(name, x, from_values)
        if _name(dt) not in dtypes:
            raise self._unsupported([(name, dt)])
        return self._finish(x, from_values, dt)

    def common(self, *named, exact, weak_values=False, flatten=()):
        """The (name, x) arguments as arrays of one dtype: numpy's promotion of theirs (np.result_type).

        exact=True (merge, join, set operations): TypeError unless that dtype holds every value of
        each input exactly: every value of an array's dtype (int64 with float64 would meet in
        float64, rounding beyond 2^53), every value given of Python values.
        exact=False (the searches): numpy's promotion as np.searchsorted takes it.
        weak_values: Python values take the arrays' dtype where all their values are exact in it
        (for calls whose result does not show the dtype: the answer is the same, the arrays stay)."""
        taken = [(name,) + self._take(name, x, name in flatten) for name, x in named]
        dtypes = [self._dtype_of(name, x, v) for name, x, v in taken]
        if weak_values:
            arrays = [dt for (_, _, v), dt in zip(taken, dtypes) if not v]
            if arrays:
                target = np.result_type(*arrays)
                dtypes = [target if v and _values_fit(x, target) else dt for (_, x, v), dt in zip(taken, dtypes)]
        names_dtypes = [(name, dt) for (name, _, _), dt in zip(taken, dtypes)]
        try:
            common = dtypes[0] if all(dt == dtypes[0] for dt in dtypes) else np.result_type(*dtypes)
        except TypeError:  # no common dtype at all (numbers and strings)
            raise self._unsupported(names_dtypes) from None
        if _name(common) not in DTYPE_NAMES:
            raise self._unsupported(names_dtypes, common)
        if exact:
            for (name, x, v), dt in zip(taken, dtypes):
                if not (_values_fit(x, common) if v else _holds(common, dt)):
                    given = " and ".join(f"{n} has dtype {d}" for n, d in names_dtypes)
                    raise TypeError(
                        f"mergepath.{self.where}: {given}; numpy would promote them to {common}, which does not "
                        f"hold every {dt} value {'given ' if v else ''}exactly: convert one of them first"
                    )
        return [self._finish(x, v, common) for (_, x, v) in taken]

    def indices(self, name, x, within=None):
        """An index argument (segment starts, a sorter) as int64: integers of any dtype, as numpy
        takes indices. Floats and bools raise TypeError (numpy's rule), never truncated.
        within=(n, of): ValueError unless every index is in [0, n) (one read-back on a GPU)."""
        x, from_values = self._take(name, x)
        dt = self._dtype_of(name, x, from_values)
        if from_values and x.size == 0:
            dt = _INT64  # [] reads as float64, and numpy takes it as an empty index
        if dt.kind not in "iu":
            raise TypeError(f"mergepath.{self.where}: {name} must hold integers, got dtype {dt}")
        if within is not None and int(x.shape[0]) > 0:
            n, of = within
            lo, hi = (int(x.min()), int(x.max())) if from_values else self.adapter.min_max(x)
            if lo < 0 or hi >= n:
                raise ValueError(f"mergepath.{self.where}: {name} holds {lo if lo < 0 else hi}, out of range "
                                 f"for {of} of {n} elements")
        return self._finish(x, from_values, _INT64)

    def disjoint(self, *named):
        """ValueError when two of the (name, array) arguments share memory (arrays written in place)."""
        spans = []
        for name, x in named:
            if x is None or int(x.shape[0]) == 0:
                continue
            start = self.adapter.address(x)
            spans.append((name, start, start + self.adapter.nbytes(x)))
        for i, (n1, s1, e1) in enumerate(spans):
            for n2, s2, e2 in spans[i + 1:]:
                if s1 < e2 and s2 < e1:
                    raise ValueError(f"mergepath.{self.where}: {n1} and {n2} share memory")

    # ---- results ----
    def dtype_name(self, x):  # one of DTYPE_NAMES, or None
        return self.adapter.dtype_name(x)

    def np_dtype(self, x):
        return self.adapter.np_dtype(x)

    def core_array(self, x):
        if x is None:
            return _core.Array()
        name = self.adapter.dtype_name(x)
        return _core.Array(self.adapter.address(x), int(x.shape[0]), _CODES[name])

    def empty(self, n, dtype_name):
        return self.adapter.empty(int(n), dtype_name, self.device)

    def borrow_int64(self, owner, address, n):
        """An int64 array of the call's library over n elements at address, owned by owner."""
        if n == 0:
            return self.empty(0, "int64")
        if self.device >= 0:  # freed on the call's stream: keep that stream alive until then
            owner = _FreedOnStream(owner, self.adapter.stream_object(self.device))
        return self.adapter.borrow(_BorrowedInt64(owner, address, n, self.device >= 0), self.device)

    def result(self, x):
        return self.adapter.wrap_result(None, x)
