#!/usr/bin/env python3
"""Charts of mergepath-bench's JSON: throughput (Gkeys/s) against size, ours beside CUB and Thrust.

    python3 bench/plot.py                        # every bench/results/*.json -> the same name .png
    python3 bench/plot.py bench/results/merge-h200.json -o /tmp/merge.png

One PNG a file, one panel a group of rows (key type, values, input), one line an algorithm; the
copy of the same bytes, where the suite times one, is the dashed grey line (the memory's ceiling).
The JSON is what `mergepath-bench --json` writes (bench/bench_util.cu, write_json): a header
(device, date, commit, command) and `rows`, each with algorithm, backend, key_type, value_type,
input, n, a_count, b_count, ms_median, gkeys_per_s, pct_copy, ratio_cub, ratio_thrust, ...
Needs matplotlib (`pip install matplotlib`).
"""
import argparse
import glob
import json
import os
import re

import matplotlib
import matplotlib.ticker

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def mean_of(row):
    """The mean segment length of a row whose input reads 'segments mean 300' or 'mean 1e4'."""
    m = re.search(r"mean (\d+(?:e\d+)?)", row.get("input") or "")
    return float(m.group(1)) if m else None


# Per suite: its panels. A panel: title, which GPU rows (a predicate), the x of a row, the x axis'
# label, and the algorithms drawn (label, algorithm name), ours first. A suite not named here (a
# new one) gets one panel per (key type, values, input) with every algorithm against n.
def is_(key, values=None, inp=None, shape=None):
    def pred(r):
        if r["key_type"] != key or r.get("value_type") != values:
            return False
        if inp is not None and r.get("input") != inp:
            return False
        if shape is not None and (r.get("a_count"), r.get("b_count")) != (None, None):
            a, b = r["a_count"], r["b_count"]
            return shape == ("1:1" if a == b else "1:16" if a < b else "16:1")
        return True

    return pred


n_of = (lambda r: r["n"], "n (log2 scale)")
SUITES = {
    "merge": [
        ("merge, int32 keys (n + n)", is_("int32"), n_of,
         [("mergepath::merge", "mergepath::merge"), ("CUB MergeKeys", "cub::DeviceMerge::MergeKeys"),
          ("thrust::merge", "thrust::merge"), ("copy", "copy")]),
        ("merge_pairs, int32 keys + int32 values", is_("int32", "int32"), n_of,
         [("mergepath::merge_pairs", "mergepath::merge_pairs"), ("CUB MergePairs", "cub::DeviceMerge::MergePairs"),
          ("thrust::merge_by_key", "thrust::merge_by_key"), ("copy", "copy (keys+values)")]),
        ("merge, int64 keys", is_("int64"), n_of,
         [("mergepath::merge", "mergepath::merge"), ("CUB MergeKeys", "cub::DeviceMerge::MergeKeys"),
          ("thrust::merge", "thrust::merge"), ("copy", "copy")]),
    ],
    "sorted_search": [
        ("lower bound of A in B, |A| = |B| = n, int32", is_("int32", shape="1:1"), n_of,
         [("mergepath::sorted_search", "mergepath::sorted_search"),
          ("thrust::lower_bound (sorted needles)", "thrust::lower_bound (sorted needles)"),
          ("thrust::lower_bound (shuffled needles)", "thrust::lower_bound (shuffled needles)"),
          ("copy", "copy (same bytes: A+B in, |A| out)")]),
        ("both directions, match flags, |A| = |B| = n", is_("int32", shape="1:1"), n_of,
         [("mergepath::sorted_search (both, index_match)", "mergepath::sorted_search (both, index_match)"),
          ("thrust lower_bound + upper_bound", "thrust::lower_bound + upper_bound"),
          ("copy", "copy (same bytes: A+B in, |A|+|B| out)")]),
    ],
    "mergesort": [
        ("mergesort, random int32 keys", is_("int32", inp="random"), n_of,
         [("mergepath::mergesort", "mergepath::mergesort"), ("CUB merge sort", "cub::DeviceMergeSort::StableSortKeys"),
          ("CUB radix sort", "cub::DeviceRadixSort::SortKeys")]),
        ("mergesort_pairs, random int32 keys + int32 values", is_("int32", "int32", inp="random"), n_of,
         [("mergepath::mergesort_pairs", "mergepath::mergesort_pairs"),
          ("CUB merge sort", "cub::DeviceMergeSort::StableSortPairs"),
          ("CUB radix sort", "cub::DeviceRadixSort::SortPairs")]),
        ("mergesort, random int64 keys", is_("int64", inp="random"), n_of,
         [("mergepath::mergesort", "mergepath::mergesort"), ("CUB merge sort", "cub::DeviceMergeSort::StableSortKeys"),
          ("CUB radix sort", "cub::DeviceRadixSort::SortKeys")]),
    ],
    "segmented_sort": [
        ("segmented_sort, 2^26 int32 keys", lambda r: is_("int32")(r) and mean_of(r), (mean_of, "mean segment length"),
         [("mergepath::segmented_sort", "mergepath::segmented_sort"),
          ("CUB SortKeys", "cub::DeviceSegmentedSort::SortKeys")]),
        ("segmented_sort_pairs, 2^26 int32 keys + values", lambda r: is_("int32", "int32")(r) and mean_of(r),
         (mean_of, "mean segment length"),
         [("mergepath::segmented_sort_pairs", "mergepath::segmented_sort_pairs"),
          ("CUB StableSortPairs", "cub::DeviceSegmentedSort::StableSortPairs")]),
    ],
    "load_balance": [
        ("load balancing, 2^26 int32 items", lambda r: is_("int32")(r) and mean_of(r), (mean_of, "mean segment length"),
         [("mergepath::load_balancing_search", "mergepath::load_balancing_search"),
          ("mergepath::interval_expand", "mergepath::interval_expand"),
          ("mergepath::segmented_reduce", "mergepath::segmented_reduce"),
          ("thrust::upper_bound (items in starts)", "thrust::upper_bound (items in starts)"),
          ("cub::DeviceSegmentedReduce::Sum", "cub::DeviceSegmentedReduce::Sum")]),
    ],
    "binary_search": [
        ("random needles into 2^26 keys, int32", lambda r: r.get("input") == "crossover: random needles"
         and r["b_count"] == 2**26, (lambda r: r["a_count"], "needles (log2 scale)"),
         [("batch_search (sort_then_search)", "mergepath::batch_search (sort_then_search)"),
          ("batch_search (per_needle)", "mergepath::batch_search (per_needle)"),
          ("thrust::lower_bound", "thrust::lower_bound")]),
        ("random needles into 2^20 keys, int32", lambda r: r.get("input") == "crossover: random needles"
         and r["b_count"] == 2**20, (lambda r: r["a_count"], "needles (log2 scale)"),
         [("batch_search (sort_then_search)", "mergepath::batch_search (sort_then_search)"),
          ("batch_search (per_needle)", "mergepath::batch_search (per_needle)"),
          ("thrust::lower_bound", "thrust::lower_bound")]),
    ],
}


def generic_panels(rows):
    """One panel per (key type, values, input) of the GPU rows: every algorithm against n, or
    against the mean segment length when the inputs name one."""
    groups = {}
    for r in rows:
        if r["algorithm"].startswith(" "):  # --tunings rows: in the table, not the chart
            continue
        key = (r["key_type"], r.get("value_type"), None if mean_of(r) else r.get("input"))
        groups.setdefault(key, []).append(r)
    panels = []
    for (key, values, inp), rs in groups.items():
        by_mean = all(mean_of(r) for r in rs) and len({mean_of(r) for r in rs}) > 1
        x = (mean_of, "mean segment length") if by_mean else n_of
        names = list(dict.fromkeys(r["algorithm"] for r in rs))
        names.sort(key=lambda a: (not a.startswith("mergepath"), a.startswith("copy")))
        title = f"{key}" + (f" + {values} values" if values else "") + (f", {inp}" if inp else "")
        panels.append((title, lambda r, g=rs: r in g, x, [(a, a) for a in names]))
    return panels


def suites_of(doc):
    return [s["suite"] for s in doc.get("summaries", [])] or ["?"]


def plot(path, out):
    doc = json.load(open(path))
    rows = [r for r in doc["rows"] if r.get("backend") == "gpu" and r.get("gkeys_per_s")]
    panels = []
    for suite in suites_of(doc):
        panels += SUITES.get(suite, [])
    panels = [p for p in panels if any(p[1](r) for r in rows)] or generic_panels(rows)
    if not panels:
        print(f"{path}: no GPU rows to draw")
        return
    fig, axes = plt.subplots(1, len(panels), figsize=(5.2 * len(panels), 4.0), squeeze=False)
    for ax, (title, pred, (x_of, x_label), series) in zip(axes[0], panels):
        chosen = [r for r in rows if pred(r)]
        for i, (label, algorithm) in enumerate(series):
            pts = sorted((x_of(r), r["gkeys_per_s"]) for r in chosen if r["algorithm"] == algorithm)
            if not pts:
                continue
            copy = algorithm.startswith("copy")
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=None if copy else "o", markersize=4,
                    linestyle="--" if copy else "-", color="grey" if copy else None,
                    linewidth=2.2 if i == 0 else 1.4, label=label)
        ax.set_xscale("log", base=2 if x_label.startswith(("n", "needles")) else 10)
        ax.set_yscale("log")
        ax.yaxis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
        ax.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.set_title(title, fontsize=10)
        ax.set_xlabel(x_label)
        ax.set_ylabel("Gkeys/s")
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize=8)
    dev = doc.get("device", {}).get("name", "?")
    fig.suptitle(f"mergepath-bench {', '.join(suites_of(doc))}: {dev}, {doc.get('date', '?')[:10]}, "
                 f"commit {doc.get('commit', '?')} (median times)", fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=90)
    plt.close(fig)
    print(f"{path} -> {out}")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("json", nargs="*", help="bench JSON files (default: bench/results/*.json)")
    p.add_argument("-o", "--output", help="the PNG, with one JSON file (default: the JSON's name, .png)")
    a = p.parse_args()
    files = a.json or sorted(glob.glob(os.path.join(here, "results", "*.json")))
    if a.output and len(files) != 1:
        p.error("-o takes one JSON file")
    for f in files:
        plot(f, a.output or os.path.splitext(f)[0] + ".png")


if __name__ == "__main__":
    main()
