#!/usr/bin/env python3
"""The command line on a GPU: run and ladder in every format, and the
hardware counters. Skips (77) where no CUDA device is usable."""
import csv
import io
import json
import os
import subprocess
import sys

EXE = os.environ["REDSCOPE"]
failures = []
checks = 0


def run(*args, timeout=600):
    p = subprocess.run([EXE, *args], capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def check(cond, what):
    global checks
    checks += 1
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


rc, out, err = run("devices")
if rc != 0:
    print("skipped:", err.strip())
    sys.exit(77)
print(out.strip())

# One run, table and JSON.
rc, out, err = run("run", "--variant", "sequential", "--n", "2^22", "--reps", "5")
check(rc == 0 and "exact" in out and "GB/s" in out and "of peak" in out, f"run table: {err}")
rc, out, err = run("run", "--variant", "vectorized", "--type", "float32", "--n", "2^24",
                   "--format", "json")
j = json.loads(out) if rc == 0 else {}
check(rc == 0 and j["correct"] and j["gbps"] > 100 and j["pct_peak"] > 5, f"vectorized json: {err}")
check(j.get("speedup_cpu", 0) > 1, "the GPU beats one CPU thread at 2^24")

# The ladder: every row runs and is right (the racy volatile step may not be).
rc, out, err = run("ladder", "--n", "2^20+7", "--reps", "3", "--format", "json")
check(rc in (0, 1), f"ladder: {err}")
rows = json.loads(out)["rows"] if out else []
check(len(rows) == 14, f"ladder has 14 rows, got {len(rows)}")
for r in rows:
    v = r["request"]["variant"]
    check("error" not in r, f"ladder row {v}: {r.get('error')}")
    if v != "unroll_warp_volatile":
        check(r.get("correct") is True, f"ladder row {v} correct")
rc, out, err = run("ladder", "--variants", "sequential..unrolled", "--type", "float64",
                   "--n", "1M", "--reps", "3", "--format", "csv")
table = list(csv.DictReader(io.StringIO(out)))
check(rc in (0, 1) and len(table) == 5, f"ladder csv: {err}")
check(all(float(t["cumulative_speedup"]) > 0 for t in table if t["status"] == "0"), "speedups in csv")

# Refusals inside a ladder are rows, not failures.
rc, out, err = run("ladder", "--variants", "atomic,sequential", "--op", "product", "--n", "1000")
check(rc == 0 and "refused" in out and "no atomic multiply" in out, f"refusal row: {out} {err}")

# Counters in every format.
rc, out, err = run("run", "--variant", "sequential", "--n", "2^22", "--block", "256",
                   "--metrics", "--format", "json")
j = json.loads(out) if rc == 0 else {"metrics": {}}
mt = j["metrics"]
check(rc == 0 and mt.get("passes") == 1, f"default set is one pass: {mt.get('passes')} {err}")
vals = mt.get("values", {})
dram = vals.get("dram_read", {})
check(dram.get("valid") is True and 0.9 * 2**24 < dram.get("value", 0) < 1.5 * 2**24,
      f"sequential reads about 16.8 MB of DRAM: {dram}")
check(vals.get("bank_ld", {}).get("valid") is True, "bank conflicts collected")
check(len(mt.get("launches", [])) >= 2, "per-launch rows for the relaunch passes")
rc, out, err = run("run", "--variant", "sequential", "--n", "2^22", "--metrics=full")
check(rc == 0 and "3 replay passes" in out and "achieved occupancy" in out, f"full set table: {err}")
rc, out, err = run("ladder", "--variants", "interleaved..first_add", "--n", "2^22", "--metrics",
                   "--format", "csv")
table = list(csv.DictReader(io.StringIO(out)))
check(rc == 0 and len(table) == 4 and all(t["bank_ld"] for t in table), f"ladder csv counters: {err}")

print(f"test_gpu_cli: {checks} checks, {len(failures)} failed")
sys.exit(1 if failures else 0)
