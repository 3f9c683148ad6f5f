#!/usr/bin/env python3
"""The cost model's parts, each off in turn: python3 ablation.py NAME=FILE.json...

Each FILE is `kbench validate --json` against the same native figures
(--native-from), under a profile that differs from the first FILE's by
the part NAME says is off; the others may hold a part of the first's
manifest (validate-suite --ablate: the measured pairs' builds).  Prints
each profile's summary over the pairs every FILE has (the measured
pairs' goals, their ranking, the cycle error of their builds) and, for
each part, the measured pairs its removal moves most."""
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import spearman  # noqa: E402


def fmt(v, spec, unit=""):
    return "-" if v is None else spec % v + unit


def load(args):
    runs = []
    for a in args:
        name, sep, path = a.partition("=")
        if not sep or not path:
            sys.exit("ablation.py: '%s' is not NAME=FILE.json" % a)
        try:
            with open(path) as f:
                runs.append((name, json.load(f)))
        except (OSError, ValueError) as e:
            sys.exit("ablation.py: %s: %s" % (path, e))
    return runs


def common_pairs(runs):
    """Each report's pairs that every report has, by name and baseline."""
    keys = None
    for _, d in runs:
        k = {(q["name"], q["baseline"]) for q in d["pairs"]}
        keys = k if keys is None else keys & k
    return [{(q["name"], q["baseline"]): q for q in d["pairs"]} for _, d in runs], sorted(keys)


def pearson(xs, ys):
    if len(xs) < 2:
        return None
    mx, my = statistics.mean(xs), statistics.mean(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / (sxx * syy) ** 0.5 if sxx and syy else None


def summary(pairs, keys, programs):
    """kbench validate's summary figures, over these pairs and programs alone."""
    meas = [pairs[k] for k in keys if pairs[k]["measured"]]
    nat = [q["native_speedup_pct"] for q in meas]
    mod = [q["model_speedup_pct"] for q in meas]
    sxx = sum(x * x for x in nat)
    return {
        "measured": len(meas),
        "signs": sum((x > 0) == (y > 0) for x, y in zip(nat, mod)),
        "slope": sum(x * y for x, y in zip(nat, mod)) / sxx if sxx else None,
        "pearson": pearson(nat, mod),
        "rel": statistics.median(100 * abs(y - x) / abs(x) for x, y in zip(nat, mod))
        if meas else None,
        "spearman": spearman([pairs[k]["native_speedup_pct"] for k in keys],
                             [pairs[k]["model_speedup_pct"] for k in keys]),
        "cycles": statistics.median(abs(p["error_pct"]) for p in programs),
    }


def summaries(runs):
    pairs, keys = common_pairs(runs)
    names = {n for k in keys for n in k}
    print("%d pairs in every report, %d of them measured\n" % (
        len(keys), sum(pairs[0][k]["measured"] for k in keys)))
    print("| profile | signs right | slope | Pearson r | median error / native "
          "| Spearman, these pairs | median cycle error, their builds |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for (name, d), p in zip(runs, pairs):
        s = summary(p, keys, [q for q in d["programs"] if q["name"] in names])
        print("| %s | %d of %d | %s | %s | %s | %s | %s |" % (
            name, s["signs"], s["measured"], fmt(s["slope"], "%.2f"), fmt(s["pearson"], "%.2f"),
            fmt(s["rel"], "%.0f", " %"), fmt(s["spearman"], "%.2f"), fmt(s["cycles"], "%.1f", " %")))
    s = runs[0][1]["summary"]
    print("\nthe rounds against each other (all pairs): Spearman %s, %s points apart on average" % (
        fmt(s.get("rounds_spearman"), "%.2f"), fmt(s.get("rounds_mean_abs_diff_points"), "%.1f")))


def moves(runs, top=5):
    full = {(q["name"], q["baseline"]): q for q in runs[0][1]["pairs"]}
    for name, d in runs[1:]:
        moved = []
        for q in d["pairs"]:
            f = full.get((q["name"], q["baseline"]))
            if f and f["measured"]:
                moved.append((abs(q["model_speedup_pct"] - f["model_speedup_pct"]), q, f))
        moved.sort(key=lambda m: -m[0])
        print("\n%s: the measured pairs it moves most (model's speedup, %s -> %s; native)" % (
            name, runs[0][0], name))
        for delta, q, f in moved[:top]:
            if delta < 0.05:
                break
            print("- %s over %s: %+.1f -> %+.1f %% (native %+.1f %%)" % (
                q["name"], q["baseline"], f["model_speedup_pct"], q["model_speedup_pct"],
                f["native_speedup_pct"]))


def main(args):
    if len(args) < 2:
        sys.exit(__doc__)
    runs = load(args)
    summaries(runs)
    moves(runs)


if __name__ == "__main__":
    main(sys.argv[1:])
