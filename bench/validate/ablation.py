#!/usr/bin/env python3
"""The cost model's parts, each off in turn: python3 ablation.py NAME=FILE.json...

Each FILE is `kbench validate --json` of one manifest against the same
native figures (--native-from), under a profile that differs from the
first FILE's by the part NAME says is off.  Prints each profile's summary
(the measured pairs' goals, the ranking of all pairs, the cycle error)
and, for each part, the measured pairs its removal moves most."""
import json
import sys


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


def summaries(runs):
    print("| profile | measured pairs | signs right | slope | Pearson r | median error / native "
          "| Spearman, all pairs | median cycle error |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, d in runs:
        s = d["summary"]
        print("| %s | %d | %d | %s | %s | %s | %s | %s |" % (
            name, s["measured_pairs"], s["measured_signs_agree"],
            fmt(s["measured_slope"], "%.2f"), fmt(s["measured_pearson"], "%.2f"),
            fmt(s["measured_median_rel_error_pct"], "%.0f", " %"),
            fmt(s["spearman"], "%.2f"), fmt(s["median_abs_cycle_error_pct"], "%.1f", " %")))
    s = runs[0][1]["summary"]
    print("\nthe rounds against each other: Spearman %s, %s points apart on average" % (
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
