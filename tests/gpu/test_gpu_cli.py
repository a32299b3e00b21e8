#!/usr/bin/env python3
"""The command line on a GPU: run and ladder in every format, and the
hardware counters. Skips (77) where no CUDA device is usable."""
import csv
import io
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import Checks, run, skip_without_gpu  # noqa: E402

print(skip_without_gpu().strip())
check = Checks("test_gpu_cli")

# --version on a GPU machine: the driver (its CUDA version and its own
# version), CUPTI and NVRTC all found
rc, out, err = run("--version", "--format", "json")
v = json.loads(out) if rc == 0 else {}
print("--version:", v)
check(rc == 0 and all(v.get(k) for k in ("cuda_driver", "driver", "cupti", "nvrtc")),
      f"--version finds the driver, CUPTI and NVRTC here: {rc} {v} {err}")

# One run, table and JSON.
rc, out, err = run("run", "--variant", "sequential", "--n", "2^22", "--reps", "5")
check(rc == 0 and "exact" in out and "GB/s" in out and "of the theoretical peak" in out,
      f"run table: {err}")
rc, out, err = run("run", "--variant", "vectorized", "--type", "float32", "--n", "2^24",
                   "--format", "json")
j = json.loads(out) if rc == 0 else {}
check(rc == 0 and j["correct"] and j["gbps"] > 100 and j["pct_peak"] > 5, f"vectorized json: {err}")
check(j.get("speedup_cpu", 0) > 1, "the GPU beats one CPU thread at 2^24")

# devices and metrics, answered by the GPU process: every device measured
# (its limit and floors), every counter's passes on this GPU.
rc, out, err = run("devices", "--measure", "--format", "json")
devs = json.loads(out) if rc == 0 else []
devs = devs.get("devices", devs) if isinstance(devs, dict) else devs
print("devices --measure:", [(d["name"], round(d["measured_gbps"]), d["floor_empty_ms"]) for d in devs])
check(rc == 0 and devs and all(d["measured_gbps"] > 100 and d["measured_gbps"] < d["peak_gbps"]
                               and d["floor_empty_ms"] > 0 and d["floor_launch_ms"] > 0
                               for d in devs),
      f"devices --measure: each device's limit under its peak, and both floors: {rc} {err} {out[:300]}")
rc, out, err = run("metrics", "--format", "json")
mj = json.loads(out) if rc == 0 else {}
# default: the one-pass set, then the L2's hits in a pass of their own (issue 43)
check(rc == 0 and mj.get("available") is True and mj.get("default_passes") == 2
      and mj.get("full_passes", 0) > 1 and all(m["passes"] >= 1 for m in mj.get("metrics", [])),
      f"metrics on the GPU: available, default two passes, every counter's passes read: {rc} {err} "
      f"{out[:300]}")

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

# A short live sweep: every cell measured and right; a size beyond the
# device's memory is skipped with a note, not a crash.
rc, out, err = run("sweep", "--variants", "atomic,first_add,vectorized", "--type", "int64",
                   "--range", "2^10..2^16:4,", "--reps", "3")
check(rc == 2 and "bad sweep range" in err, "a bad range is refused")
rc, out, err = run("sweep", "--variants", "atomic,first_add,vectorized", "--type", "int64",
                   "--range", "2^10..2^20:4", "--reps", "3", "--format", "json")
j = json.loads(out) if rc == 0 else {"rows": []}
check(rc == 0 and len(j["rows"]) == 18 and all(r.get("correct") for r in j["rows"]),
      f"a live sweep: 6 sizes x 3 variants, all right: {len(j['rows'])} rows {err}")
check("fastest" in j.get("crossovers", ""), "the sweep names its crossovers")
rc, out, err = run("sweep", "--variants", "sequential", "--type", "int64", "--range",
                   "1000,2^40", "--reps", "2")
check(rc == 0 and "skip" in out and "out of device memory" in out,
      f"a size beyond device memory is skipped with a note: {out} {err}")

# Counters in every format.
rc, out, err = run("run", "--variant", "sequential", "--n", "2^22", "--block", "256",
                   "--metrics", "--format", "json")
j = json.loads(out) if rc == 0 else {"metrics": {}}
mt = j["metrics"]
check(rc == 0 and mt.get("passes") == 2, f"default set is two passes: {mt.get('passes')} {err}")
vals = mt.get("values", {})
dram = vals.get("dram_read", {})
check(dram.get("valid") is True and 0.9 * 2**24 < dram.get("value", 0) < 1.5 * 2**24,
      f"sequential reads about 16.8 MB of DRAM: {dram}")
check(vals.get("bank_ld", {}).get("valid") is True, "bank conflicts collected")
check(len(mt.get("launches", [])) >= 2, "per-launch rows for the relaunch passes")
check([l["name"] for l in mt.get("launches", [])][:2] == ["k_sequential", "k_sequential (pass 2)"],
      f"launches named after the plan: {[l['name'] for l in mt.get('launches', [])]}")
rc, out, err = run("run", "--variant", "cub", "--n", "2^22", "--metrics", "--format", "json")
names = [l["name"] for l in json.loads(out)["metrics"]["launches"]] if rc == 0 else []
check(names and all(n.startswith("cub::DeviceReduce kernel ") for n in names),
      f"CUB's own kernels are numbered under its name: {names} {err}")
rc, out, err = run("run", "--variant", "sequential", "--n", "2^22", "--metrics=full")
check(rc == 0 and "4 replay passes" in out and "achieved occupancy" in out,
      f"full set table: {err} {out[-400:]}")
rc, out, err = run("ladder", "--variants", "interleaved..first_add", "--n", "2^22", "--metrics",
                   "--format", "csv")
table = list(csv.DictReader(io.StringIO(out)))
check(rc == 0 and len(table) == 4 and all(t["bank_ld"] for t in table), f"ladder csv counters: {err}")

# the lecture handout from a live ladder: measured now, every step a row and
# a paragraph, the counter that explains it read, the stall line with its text
rc, out, err = run("ladder", "--n", "2^22", "--metrics", "--stalls", "--format", "md")
rows = [l for l in out.splitlines() if l.startswith("| ") and not l.startswith("| # ")]
check(rc == 0 and re.search(r"; measured 20\d\d-\d\d-\d\d \d\d:\d\d UTC on ", out)
      and len(rows) == 14 and out.count("\n## ") == 15
      and "The counter that explains it: bank conflicts" in out
      and "PC sampling: classic.cu:" in out, f"ladder --format md, live: {rc} {out[:600]} {err}")

check.finish()
