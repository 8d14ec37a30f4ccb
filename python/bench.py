"""What Python users call today against mergepath, from Python, on one GPU (issue 22's table).

    python3 python/bench.py [--log2n 26] [--reps 15] [--overhead]

CUDA events on torch's current stream, median of --reps runs after a warm-up."""

import argparse
import statistics
import time

import torch

import mergepath as mp


def timed(f, reps):
    f()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        f()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    return statistics.median(times)


def wall_us(f, reps=2000, enqueue=False):
    """Wall time a call over reps back-to-back calls: until the last returns (enqueue=True: the
    host's share), or until the GPU has finished them all."""
    f()
    torch.cuda.synchronize()
    t = time.perf_counter()
    for _ in range(reps):
        f()
    queued = time.perf_counter()
    torch.cuda.synchronize()
    return ((queued if enqueue else time.perf_counter()) - t) / reps * 1e6


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--log2n", type=int, default=26)
    p.add_argument("--reps", type=int, default=15)
    p.add_argument("--segment", type=int, default=300, help="mean segment length")
    p.add_argument("--overhead", action="store_true", help="only where mergepath.sort's per-call time goes at 2^10")
    args = p.parse_args()
    if args.overhead:
        return overhead()
    n, reps = 1 << args.log2n, args.reps
    g = torch.Generator(device="cuda").manual_seed(1)
    keys = torch.randint(0, 2**31 - 1, (n,), device="cuda", dtype=torch.int32, generator=g)
    rows = []

    def row(what, ms, base=None, base_ms=None):
        rows.append((what, ms, f"{base_ms / ms:.2f}x {base}" if base else ""))

    # sort
    t_torch = timed(lambda: torch.sort(keys, stable=True), reps)
    row("torch.sort(stable=True)", t_torch)
    try:
        import cupy

        ck = cupy.from_dlpack(keys)
        t_cupy = timed(lambda: cupy.sort(ck), reps)
        row("cupy.sort", t_cupy)
    except ImportError:
        t_cupy = None
    scratch = keys.clone()
    t_mp = timed(lambda: (scratch.copy_(keys), mp.sort(scratch, inplace=True)), reps)
    t_copy = timed(lambda: scratch.copy_(keys), reps)
    row("mergepath.sort (inplace, minus the copy)", t_mp - t_copy, "torch.sort", t_torch)
    row("mergepath.sort (a sorted copy)", timed(lambda: mp.sort(keys), reps), "torch.sort", t_torch)

    # segmented sort at mean segment length args.segment
    sizes = torch.randint(1, 2 * args.segment, (n // args.segment + 1,), device="cuda", generator=g)
    starts = torch.cumsum(sizes, 0) - sizes
    starts = starts[starts < n].contiguous()
    seg = mp.load_balancing_search(n, starts)
    packed = (seg << 32) | keys.to(torch.int64)
    t_packed = timed(lambda: torch.sort(packed, stable=True), reps)
    row(f"torch.sort((segment << 32) | key), mean segment {args.segment}", t_packed)
    row("mergepath.segmented_sort", timed(lambda: mp.segmented_sort(keys, starts), reps), "packed torch.sort",
        t_packed)

    # searches
    hay = torch.sort(keys).values
    needles = torch.randint(0, 2**31 - 1, (n,), device="cuda", dtype=torch.int32, generator=g)
    sorted_needles = torch.sort(needles).values
    t_ss = timed(lambda: torch.searchsorted(hay, needles), reps)
    row("torch.searchsorted, random needles", t_ss)
    row("mergepath.searchsorted, random needles", timed(lambda: mp.searchsorted(hay, needles), reps),
        "torch.searchsorted", t_ss)
    t_sss = timed(lambda: torch.searchsorted(hay, sorted_needles), reps)
    row("torch.searchsorted, sorted needles", t_sss)
    row("mergepath.sorted_search, sorted needles", timed(lambda: mp.sorted_search(sorted_needles, hay), reps),
        "torch.searchsorted", t_sss)
    # The same call 20 times between one pair of events: without the host's time to launch one
    # call, which a single call's events include.
    back_to_back = timed(lambda: [mp.sorted_search(sorted_needles, hay) for _ in range(20)], 3) / 20
    index = mp.EytzingerIndex(hay)
    row("mergepath.EytzingerIndex.searchsorted, random needles", timed(lambda: index.searchsorted(needles), reps),
        "torch.searchsorted", t_ss)

    # merge
    a = torch.sort(keys[: n // 2]).values
    b = torch.sort(keys[n // 2 :]).values
    t_cat = timed(lambda: torch.sort(torch.cat([a, b]), stable=True), reps)
    row("torch.sort(torch.cat([a, b]))", t_cat)
    row("mergepath.merge", timed(lambda: mp.merge(a, b), reps), "torch.sort(cat)", t_cat)

    # load balancing
    t_rep = timed(lambda: torch.repeat_interleave(torch.arange(len(sizes), device="cuda"), sizes), reps)
    row("torch.repeat_interleave(arange(S), sizes)", t_rep)
    total = int(sizes.sum())
    starts_all = torch.cumsum(sizes, 0) - sizes
    row("mergepath.load_balancing_search", timed(lambda: mp.load_balancing_search(total, starts_all), reps),
        "repeat_interleave", t_rep)
    vals = torch.rand(n, device="cuda")
    lengths = torch.diff(torch.cat([starts, torch.tensor([n], device="cuda")]))
    try:
        t_red = timed(lambda: torch.segment_reduce(vals, "sum", lengths=lengths), reps)
        row("torch.segment_reduce(sum)", t_red)
    except (RuntimeError, NotImplementedError) as e:
        print(f"torch.segment_reduce failed: {e}")
        t_red = None
    t_mp_red = timed(lambda: mp.segmented_reduce(vals, starts), reps)
    if t_red is None:
        row("mergepath.segmented_reduce(sum)", t_mp_red)
    else:
        row("mergepath.segmented_reduce(sum)", t_mp_red, "torch.segment_reduce", t_red)

    # join: |A| = |B| = n / 2, keys in [0, n / 2) (about one match a row)
    half = n // 2
    ja = torch.randint(0, half, (half,), device="cuda", dtype=torch.int32, generator=g)
    jb = torch.randint(0, half, (half,), device="cuda", dtype=torch.int32, generator=g)

    def torch_join():
        sb, ob = torch.sort(jb, stable=True)
        lo = torch.searchsorted(sb, ja)
        cnt = torch.searchsorted(sb, ja, right=True) - lo
        a_rows = torch.repeat_interleave(torch.arange(half, device="cuda"), cnt)
        first = torch.cumsum(cnt, 0) - cnt
        b_rows = ob[torch.repeat_interleave(lo - first, cnt) + torch.arange(a_rows.numel(), device="cuda")]
        return a_rows, b_rows

    t_join = timed(torch_join, reps)
    row("torch join (sort + searchsorted x2 + repeat_interleave), |A| = |B| = n/2", t_join)
    row("mergepath.join (inner)", timed(lambda: mp.join(ja, jb), reps), "torch join", t_join)

    small = keys[:1024].clone()
    print(f"# {torch.cuda.get_device_name()}, n = 2^{args.log2n} int32, median of {reps}, CUDA events")
    print("| call | ms | speed-up |")
    print("| --- | ---: | --- |")
    for what, ms, su in rows:
        print(f"| {what} | {ms:.3f} | {su} |")
    print(f"\nmergepath.sorted_search, 20 calls back to back: {back_to_back:.3f} ms a call")
    print(f"per-call wall time at 2^10 elements: mergepath.sort {wall_us(lambda: mp.sort(small)):.1f} us, "
          f"torch.sort {wall_us(lambda: torch.sort(small, stable=True)):.1f} us, "
          f"mergepath.searchsorted {wall_us(lambda: mp.searchsorted(small, small)):.1f} us")


def overhead():
    """Wall time of each step of mergepath.sort (a sorted copy) on 2^10 int32, back to back: until
    the GPU has run them, and the host's share alone (enqueue)."""
    small = torch.randint(0, 1 << 30, (1024,), device="cuda", dtype=torch.int32)
    call = mp._Call("sort", False, keys=small)
    result = torch.empty_like(small)
    keys, out, none = call.core_array(small), call.core_array(result), mp._core.Array()
    steps = [
        ("mergepath.sort (a sorted copy)", lambda: mp.sort(small)),
        ("mergepath.sort(inplace=True)", lambda: mp.sort(small, inplace=True)),
        ("  _Call (adapter, device, stream, context)", lambda: mp._Call("sort", False, keys=small)),
        ("  call.array (checks)", lambda: call.array("keys", small)),
        ("  call.empty (the result)", lambda: call.empty(1024, "int32")),
        ("  call.core_array", lambda: call.core_array(small)),
        ("  _core.sort (into the result, the kernels)", lambda: mp._core.sort(call.core, out, none, keys, none, False,
                                                                                False)),
        ("  _core.sort (in place, the kernels)", lambda: mp._core.sort(call.core, keys, none, none, none, False,
                                                                         False)),
        ("torch.sort(stable=True)", lambda: torch.sort(small, stable=True)),
        ("torch.empty(1024)", lambda: torch.empty(1024, dtype=torch.int32, device="cuda")),
    ]
    print(f"{'':45s} {'with the GPU':>12s} {'enqueue':>9s}")
    for what, f in steps:
        print(f"{what:45s} {wall_us(f):9.1f} us {wall_us(f, enqueue=True):6.1f} us")


if __name__ == "__main__":
    main()
