#!/usr/bin/env python3
"""Which estimator repeats better here: python3 estimators.py REPORT.json

REPORT is `kbench validate --json` with two rounds or more of native runs
("native_round_runs").  For each estimator (the minimum and the median of
a round's runs) it computes every pair's speedup in each round, as kbench
validate does, and prints how well the rounds agree with each other
(Spearman over the pairs, the mean absolute difference in points) and how
many pairs each estimator finds measured (kbench validate's rule: at
least 5 % and three times the round's noise in every round, one sign)."""
import itertools
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import spearman  # noqa: E402


def quartile_distance(v):
    q = statistics.quantiles(v, n=4, method="inclusive")
    return q[2] - q[0]


def speedup(p, base):
    return 100 * (base / p - 1)


def study(d, name, estimate):
    progs = {p["name"]: p["native_round_runs"] for p in d["programs"]}
    rounds = len(next(iter(progs.values())))
    per_round, measured = [[] for _ in range(rounds)], 0
    for q in d["pairs"]:
        p, b = progs[q["name"]], progs[q["baseline"]]
        pcts, ok = [], True
        for r in range(rounds):
            pct = speedup(estimate(p[r]), estimate(b[r]))
            noise = quartile_distance([speedup(x, y) for x, y in zip(p[r], b[r])])
            per_round[r].append(pct)
            pcts.append(pct)
            ok = ok and abs(pct) >= 5 and abs(pct) >= 3 * noise
        measured += ok and len({x > 0 for x in pcts}) == 1
    rho = [spearman(a, b) for a, b in itertools.combinations(per_round, 2)]
    diff = [statistics.mean(abs(x - y) for x, y in zip(a, b))
            for a, b in itertools.combinations(per_round, 2)]
    print("| %s | %.3f | %.2f | %d of %d |" % (name, statistics.mean(rho), statistics.mean(diff),
                                               measured, len(d["pairs"])))


def main(args):
    if len(args) != 1:
        sys.exit(__doc__)
    try:
        with open(args[0]) as f:
            d = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit("estimators.py: %s: %s" % (args[0], e))
    if not d.get("programs") or "native_round_runs" not in d["programs"][0]:
        sys.exit("estimators.py: %s: no native rounds (kbench validate --rounds)" % args[0])
    print("| estimator | rounds' Spearman | mean difference, points | measured pairs |")
    print("|---|---:|---:|---:|")
    study(d, "min", min)
    study(d, "median", statistics.median)


if __name__ == "__main__":
    main(sys.argv[1:])
