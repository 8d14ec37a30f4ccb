"""numpy references and input generators shared by the host and GPU tests."""

import numpy as np

DTYPES = ["int32", "int64", "uint32", "uint64", "float32", "float64"]
# 0, 1, around the host backend's chunk (2^15) and GPU tile sizes (powers of two times small
# factors), primes, and one large size.
SIZES = [0, 1, 2, 17, 255, 256, 257, 1919, 1920, 1921, 4095, 4096, 4097, 32767, 32768, 32769, 100003]
LARGE = 1 << 21


def random_keys(rng, n, dtype, distinct=None, nans=False):
    """Random keys of dtype; `distinct` limits the number of distinct values (ties)."""
    dt = np.dtype(dtype)
    hi = distinct if distinct is not None else max(n, 1) * 4
    if dt.kind == "f":
        x = rng.integers(-hi, hi, n).astype(dt) / dt.type(4)
        if nans and n:
            x[rng.random(n) < 0.05] = np.nan
        return x.astype(dt)
    if dt.kind == "u":
        x = rng.integers(0, hi, n, dtype=np.uint64)
        if n and distinct is None:
            x[rng.random(n) < 0.1] += np.uint64(np.iinfo(dt).max - 4 * hi)  # values near the top
        return x.astype(dt)
    x = rng.integers(-hi, hi, n, dtype=np.int64)
    return x.astype(dt)


def stable_order(keys, descending=False):
    """The stable (descending: stable reverse) sort permutation, NaNs last (first descending)."""
    if not descending:
        return np.argsort(keys, kind="stable")
    n = len(keys)
    order = np.argsort(keys[::-1], kind="stable")[::-1]
    return (n - 1 - order).astype(np.int64)


def segment_ids(starts, count):
    return np.searchsorted(starts, np.arange(count), side="right") - 1


def random_starts(rng, count, num_segments, empty=True):
    """Sorted segment starts from 0, with repeats (empty segments) when `empty`."""
    if num_segments == 0:
        return np.zeros(0, dtype=np.int64)
    if empty:
        s = np.sort(rng.integers(0, count + 1, num_segments))
    else:
        s = np.sort(rng.choice(np.arange(1, max(count, 1)), size=min(num_segments, max(count - 1, 0)), replace=False))
    s = np.asarray(s, dtype=np.int64)
    if len(s):
        s[0] = 0
    return s


def segmented_order(keys, starts, descending=False):
    seg = segment_ids(starts, len(keys)) if len(starts) else np.zeros(len(keys), dtype=np.int64)
    o1 = stable_order(keys, descending)
    o2 = np.argsort(seg[o1], kind="stable")
    return o1[o2]


def sum_dtype(dtype, library="numpy"):
    """The dtype of a sum or product of dtype's values in the library: np.sum's rule (CuPy's too),
    or torch.sum's (int64 for every integer dtype and bool)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return dtype
    if library == "torch":
        return np.dtype(np.int64)
    return np.sum(np.zeros(0, dtype)).dtype


def segmented_reduce(values, starts, op, library="numpy"):
    """Each segment's reduction; sums and products in the library's sum dtype (sum_dtype)."""
    count = len(values)
    numpy_dtype = sum_dtype(values.dtype) if op in ("sum", "prod") else values.dtype
    out = np.empty(len(starts), dtype=numpy_dtype)
    ends = np.append(starts[1:], count) if len(starts) else starts
    f = {"sum": np.add, "prod": np.multiply, "min": np.minimum, "max": np.maximum}[op]
    for s, (b, e) in enumerate(zip(starts, ends)):
        if e > b:
            with np.errstate(over="ignore"):
                out[s] = f.reduce(values[b:e], dtype=numpy_dtype)
        elif op == "sum":
            out[s] = 0
        elif op == "prod":
            out[s] = 1
        elif values.dtype.kind == "f":
            out[s] = np.inf if op == "min" else -np.inf
        else:
            info = np.iinfo(values.dtype)
            out[s] = info.max if op == "min" else info.min
    if op in ("sum", "prod"):
        return out.astype(sum_dtype(values.dtype, library))  # uint64 -> int64 for torch: the same bits
    return out


def assert_same(got, want):
    got = np.asarray(got)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_array_equal(got, want)


def key_codes(a, b):
    """Integer codes of a's and b's keys, equal where the keys are equivalent (NaNs equal, -0.0 == 0.0)."""
    both = np.concatenate([np.asarray(a), np.asarray(b)])
    _, inverse = np.unique(both, return_inverse=True)  # collapses NaNs (equal_nan)
    inverse = inverse.reshape(-1).astype(np.int64)
    return inverse[: len(a)], inverse[len(a):]


def join_reference(a, b, how):
    """(a_rows, b_rows) of the join (a_rows alone for semi / anti), rows ordered by key, a row, b row."""
    ca, cb = key_codes(a, b)
    k = int(max(ca.max(initial=-1), cb.max(initial=-1))) + 1
    count_b = np.bincount(cb, minlength=k)
    count_a = np.bincount(ca, minlength=k)
    b_sorted = np.lexsort((np.arange(len(b)), cb))  # b rows by (key, row)
    b_start = np.concatenate([[0], np.cumsum(count_b)])[:-1]
    ai = np.arange(len(a), dtype=np.int64)
    if how in ("semi", "anti"):
        keep = count_b[ca] > 0 if how == "semi" else count_b[ca] == 0
        rows = ai[keep]
        return rows[np.lexsort((rows, ca[rows]))]
    rep = count_b[ca]
    total = int(rep.sum())
    pair_a = np.repeat(ai, rep)
    within = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(rep) - rep, rep)
    pair_b = b_sorted[np.repeat(b_start[ca], rep) + within].astype(np.int64)
    code = ca[pair_a]
    parts_a, parts_b, parts_code = [pair_a], [pair_b], [code]
    if how in ("left", "outer"):
        lone = ai[count_b[ca] == 0]
        parts_a.append(lone)
        parts_b.append(np.full(len(lone), -1, np.int64))
        parts_code.append(ca[lone])
    if how in ("right", "outer"):
        bj = np.arange(len(b), dtype=np.int64)
        lone = bj[count_a[cb] == 0]
        parts_a.append(np.full(len(lone), -1, np.int64))
        parts_b.append(lone)
        parts_code.append(cb[lone])
    ra, rb, rc = (np.concatenate(p).astype(np.int64) for p in (parts_a, parts_b, parts_code))
    order = np.lexsort((rb, ra, rc))
    return ra[order], rb[order]


def _nan_last_less(x, y):
    if x != x:
        return False
    if y != y:
        return True
    return x < y


def set_reference(kind, a, b):
    """std::set_union / _intersection / _difference / _symmetric_difference on sorted a and b."""
    xa, xb = np.asarray(a).tolist(), np.asarray(b).tolist()
    i = j = 0
    out = []
    while i < len(xa) and j < len(xb):
        if _nan_last_less(xa[i], xb[j]):
            if kind in ("union", "difference", "symmetric_difference"):
                out.append(xa[i])
            i += 1
        elif _nan_last_less(xb[j], xa[i]):
            if kind in ("union", "symmetric_difference"):
                out.append(xb[j])
            j += 1
        else:
            if kind in ("union", "intersection"):
                out.append(xa[i])
            i += 1
            j += 1
    if kind != "intersection":
        out.extend(xa[i:])
    if kind in ("union", "symmetric_difference"):
        out.extend(xb[j:])
    return np.array(out, dtype=np.asarray(a).dtype)
