#!/usr/bin/env python3
"""validate-suite's results as markdown: python3 report.py NAME=FILE.json...

Each FILE is `kbench validate --json` of the same manifest under one
profile (NAME).  Prints the programs' cycle errors, every pair's speedup
over its baseline natively and under each profile, and the summaries with
item goals."""
import json
import statistics
import sys


def spearman(xs, ys):
    def ranks(v):
        order = sorted(range(len(v)), key=lambda i: v[i])
        r = [0.0] * len(v)
        i = 0
        while i < len(v):
            j = i
            while j + 1 < len(v) and v[order[j + 1]] == v[order[i]]:
                j += 1
            for k in range(i, j + 1):
                r[order[k]] = (i + j) / 2 + 1
            i = j + 1
        return r
    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.mean(rx), statistics.mean(ry)
    num = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    den = (sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry)) ** 0.5
    return num / den if den else float("nan")


def main(args):
    runs = []
    for a in args:
        name, _, path = a.partition("=")
        with open(path) as f:
            runs.append((name, json.load(f)))
    base = runs[0][1]
    names = [n for n, _ in runs]
    print("| program | instructions | native cycles | native IPC | spread | " +
          " | ".join("%s cycles | error" % n for n in names) + " |")
    print("|---|---:|---:|---:|---:|" + "---:|---:|" * len(names))
    progs = {n: {p["name"]: p for p in d["programs"]} for n, d in runs}
    for p in base["programs"]:
        ins = p["events"]["instructions"]
        cells = ["%.3g" % ins, "%.3g" % p["native_cycles"], "%.2f" % (ins / p["native_cycles"]),
                 "%.1f %%" % p["native_spread_pct"]]
        for n in names:
            q = progs[n][p["name"]]
            cells += ["%.3g" % q["model_cycles"], "%+.1f %%" % q["error_pct"]]
        print("| %s | %s |" % (p["name"], " | ".join(cells)))
    print()
    print("| pair | baseline | native | noise | beyond noise | " + " | ".join(names) + " |")
    print("|---|---|---:|---:|---|" + "---:|" * len(names))
    pairs = {n: {(q["name"], q["baseline"]): q for q in d["pairs"]} for n, d in runs}
    for q in base["pairs"]:
        k = (q["name"], q["baseline"])
        # PROGRAM/WAY over PROGRAM/BASE: BASE alone.
        prog, _, _ = q["name"].rpartition("/")
        cells = [q["baseline"][len(prog) + 1:] if prog and
                 q["baseline"].startswith(prog + "/") else q["baseline"],
                 "%+.1f %%" % q["native_speedup_pct"],
                 "%.1f" % q["native_noise_points"] if "native_noise_points" in q else "",
                 "yes" if q["beyond_noise"] else "no"]
        cells += ["%+.1f %%" % pairs[n][k]["model_speedup_pct"] for n in names]
        print("| %s | %s |" % (q["name"], " | ".join(cells)))
    print()
    print("| summary | goal | " + " | ".join(names) + " |")
    print("|---|---|" + "---:|" * len(names))
    rows = [("Spearman of the speedups", ">= 0.9"),
            ("mean abs speedup error (points)", "<= 2"),
            ("signs right, beyond noise and >= 3 %", "all"),
            ("signs right, beyond noise", ""),
            ("median abs cycle error", "<= 20 %")]
    cells = {r[0]: [] for r in rows}
    for n, d in runs:
        ps = d["pairs"]
        nat = [q["native_speedup_pct"] for q in ps]
        mod = [q["model_speedup_pct"] for q in ps]
        big = [q for q in ps if q["beyond_noise"] and abs(q["native_speedup_pct"]) >= 3]
        noisy = [q for q in ps if q["beyond_noise"]]
        agree = lambda qs: sum((q["native_speedup_pct"] > 0) == (q["model_speedup_pct"] > 0)
                               for q in qs)
        cells[rows[0][0]].append("%.2f" % spearman(nat, mod))
        cells[rows[1][0]].append("%.1f" % statistics.mean(abs(a - b) for a, b in zip(nat, mod)))
        cells[rows[2][0]].append("%d of %d" % (agree(big), len(big)))
        cells[rows[3][0]].append("%d of %d" % (agree(noisy), len(noisy)))
        cells[rows[4][0]].append("%.1f %%" % statistics.median(
            abs(p["error_pct"]) for p in d["programs"]))
    for r, goal in rows:
        print("| %s | %s | %s |" % (r, goal, " | ".join(cells[r])))


if __name__ == "__main__":
    main(sys.argv[1:])
