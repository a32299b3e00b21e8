#!/usr/bin/env python3
"""Tables of scripts/bench-speed.sh: the best variant against CUB, per part.

usage: bench_table.py DEVICES.csv BENCH.csv BEST

BENCH.csv rows: part,type,block,<the columns of 'redscope sweep --format csv'>.
The ratio is CUB's median time over ours (above 1: ours is faster). The
targets are issue 11's: >= 1.05 at 2^10..2^20, >= 1.01 from 2^24 up (int32,
float32, float64), >= 0.98 everywhere else; >= 97% of the limit from 2^28.
"""
import csv
import sys


def target(part, n):
    if part == "pow2" and 2**10 <= n <= 2**20:
        return 1.05
    if part == "pow2" and n >= 2**24:
        return 1.01
    return 0.98


def n_label(n):
    if n & (n - 1) == 0 and n >= 1024:
        return f"2^{n.bit_length() - 1}"
    return str(n)


def load(path, best):
    rows = {}
    with open(path, newline="") as f:
        for rec in csv.reader(f):
            if len(rec) < 13:
                continue
            # docs/formats.md "CSV: sweep": ..., pct_measured, cpu_ms, cpu_from, correct, error
            part, typ, block, n, variant, status, t, gbps, _, pct_measured = rec[:10]
            key = (part, typ, int(block), int(n))
            slot = rows.setdefault(key, {})
            if status != "0" or not t:
                slot[variant] = None
                continue
            slot[variant] = (float(t), float(gbps), float(pct_measured), rec[12])
    return rows


def table(rows, part, best, misses):
    keys = sorted(k for k in rows if k[0] == part)
    if not keys:
        return
    print(f"\n== {part}: {best} against cub (ratio = cub time / {best} time)")
    print(f"{'type':8} {'block':>5} {'n':>11} {best + ' us':>14} {'cub us':>10} {'ratio':>7} "
          f"{'GB/s':>7} {'% limit':>8}  target")
    for k in keys:
        _, typ, block, n = k
        ours, cub = rows[k].get(best), rows[k].get("cub")
        if not ours or not cub:
            print(f"{typ:8} {block:>5} {n_label(n):>11}  (a run failed: {best} {ours}, cub {cub})")
            misses.append((k, "failed"))
            continue
        ratio = cub[0] / ours[0] if ours[0] > 0 else float("nan")
        want = target(part, n)
        ok = ratio >= want and ours[3] == "yes"
        lim = ours[2]
        if part == "pow2" and n >= 2**28 and lim < 97.0:
            ok = False
        mark = "ok" if ok else "MISS"
        if not ok:
            misses.append((k, f"{ratio:.3f} < {want}" if ratio < want else f"{lim:.1f}% < 97%"))
        print(f"{typ:8} {block:>5} {n_label(n):>11} {ours[0] * 1e3:>14.2f} {cub[0] * 1e3:>10.2f} "
              f"{ratio:>7.3f} {ours[1]:>7.0f} {lim:>7.1f}%  >={want} {mark}")


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    with open(sys.argv[1], newline="") as f:
        dev = list(csv.DictReader(f))
    if dev:
        d = dev[0]
        print(f"limit:  {float(d['measured_gbps']):.0f} GB/s measured streaming read "
              f"(theoretical {float(d['peak_gbps']):.0f})")
    rows = load(sys.argv[2], sys.argv[3])
    misses = []
    for part in ("pow2", "odd", "block"):
        table(rows, part, sys.argv[3], misses)
    total = len(rows)
    print(f"\nsummary: {total - len(misses)} of {total} configurations meet their target")
    for k, why in misses:
        print(f"  miss: {k[1]} block {k[2]} n {n_label(k[3])}: {why}")


if __name__ == "__main__":
    main()
