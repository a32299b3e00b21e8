#!/usr/bin/env python3
"""User kernels on a GPU: the shipped correct kernels are right for every
type and operation at the odd sizes of the variant tests, with several
blockDims and every finish, timed and profiled; the lab kernels are
reported WRONG (or their race is found); a kernel that faults or never
ends is reported with its name and the next run works; several files on
one ladder; a recording keeps the source. Skips (77) without a GPU."""
import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import Checks, run, skip_without_gpu  # noqa: E402

print(skip_without_gpu().strip())
check = Checks("test_gpu_kernels")
SRC = os.environ["REDSCOPE_SOURCE"]
K = os.path.join(SRC, "conf", "kernels")
T = os.path.join(SRC, "tests", "data", "kernels")
TYPES = ["int32", "int64", "float32", "float64", "float16", "bfloat16"]
OPS = ["sum", "min", "max", "product"]
ODD = "1,31,1000,2^20+7,1024*65535"


def sweep_rows(*args):
    rc, out, err = run("sweep", "--variants", "kernel", "--reps", "2", "--warmup", "1",
                       "--format", "json", *args)
    try:
        return rc, json.loads(out)["rows"], err
    except (ValueError, KeyError):
        return rc, [], err


# 1. Right for every type x op at the odd sizes (template: tree, 1 element
#    per thread, relaunch; fast: grid-stride, shuffles).
for name in ("template.cu", "fast.cu"):
    for t in TYPES:
        for op in OPS:
            rc, rows, err = sweep_rows("--kernel", os.path.join(K, name), "--type", t, "--op", op,
                                       "--range", ODD)
            bad = [(r["request"]["n"], r.get("error") or r.get("result")) for r in rows
                   if not r.get("correct")]
            check(rc == 0 and len(rows) == 5 and not bad,
                  f"{name} {t} {op}: exit {rc}, {len(rows)} rows, wrong {bad} {err.strip()[:300]}")

# 2. blockDims and finishes.
for name, block in (("template.cu", 32), ("template.cu", 1024), ("fast.cu", 96), ("fast.cu", 1024)):
    for t, op in (("int32", "sum"), ("float32", "max")):
        rc, rows, err = sweep_rows("--kernel", os.path.join(K, name), "--type", t, "--op", op,
                                   "--block", str(block), "--range", ODD)
        check(rc == 0 and len(rows) == 5 and all(r.get("correct") for r in rows),
              f"{name} block {block} {t} {op}: exit {rc} {err.strip()[:300]}")
for name in ("template.cu", "fast.cu"):
    for fin in ("cpu", "atomic", "single_pass"):
        for t, op in (("int64", "sum"), ("float64", "min"), ("float32", "product")):
            rc, rows, err = sweep_rows("--kernel", os.path.join(K, name), "--finish", fin,
                                       "--type", t, "--op", op, "--range", ODD)
            check(rc == 0 and len(rows) == 5 and all(r.get("correct") for r in rows),
                  f"{name} finish {fin} {t} {op}: exit {rc} {err.strip()[:300]}")

# 3. Timed and profiled like a built-in step.
rc, out, err = run("run", "--kernel", os.path.join(K, "fast.cu"), "--n", "2^24", "--metrics",
                   "--format", "json")
j = json.loads(out) if rc == 0 else {}
check(rc == 0 and j.get("correct") and j["time_ms"]["median"] > 0 and j["gbps"] > 100,
      f"fast.cu timed: {err.strip()}")
m = j.get("metrics", {}).get("values", {})
check(any(v.get("valid") for v in m.values()), f"fast.cu counters: {j.get('metrics', {}).get('reason')}")
kb = j.get("kernel_build", {})
check(kb.get("entry") == "reduce_fast" and kb.get("registers", 0) > 0 and kb.get("arch", 0) >= 70,
      f"fast.cu build facts: {kb}")
rc, out, err = run("run", "--kernel", os.path.join(K, "template.cu"), "--n", "2^20+7")
check(rc == 0 and "template.cu" in out and "exact" in out and "registers" in out,
      f"template.cu table: {out} {err}")

# 4. The lab kernels: WRONG (the tail); WRONG or a race (the barrier).
rc, out, err = run("run", "--kernel", os.path.join(K, "lab-tail.cu"), "--input", "ones",
                   "--n", "1000")
check(rc == 1 and "WRONG" in err, f"lab-tail.cu is reported WRONG: exit {rc} {err.strip()}")
rc, out, err = run("run", "--kernel", os.path.join(K, "lab-barrier.cu"), "--n", "2^24",
                   "--block", "1024")
if rc == 0:
    rc2, out2, err2 = run("run", "--kernel", os.path.join(K, "lab-barrier.cu"), "--n", "2^16",
                          "--block", "1024", "--check", "race")
    check(rc2 == 9 and "hazard" in out2 and "no hazard" not in out2,
          f"lab-barrier.cu: right here, so racecheck must find its race: {out2} {err2}")
else:
    check(rc == 1 and "WRONG" in err, f"lab-barrier.cu is reported WRONG: exit {rc} {err.strip()}")

# A compile error on the GPU path: file:line with the line and the caret, exit 2.
rc, out, err = run("run", "--kernel", os.path.join(T, "syntax.cu"), "--n", "1000")
lines = err.splitlines()
check(rc == 2 and "syntax.cu:7: error:" in err and len(lines) >= 3 and lines[2].strip() == "^",
      f"run of a file that does not compile: exit {rc}, {err.strip()}")

# 5. A fault and an endless loop: reported with the kernel's name, exit 8.
rc, out, err = run("run", "--kernel", os.path.join(T, "oob.cu"), "--n", "1000")
check(rc == 8 and "oob.cu" in err and "reduce_oob" in err and len(err.strip().splitlines()) == 1,
      f"oob.cu: exit {rc}, {err.strip()}")
t0 = time.time()
rc, out, err = run("run", "--kernel", os.path.join(T, "hang.cu"), "--n", "1000", "--timeout", "2")
took = time.time() - t0
check(rc == 8 and "did not finish within 2 s" in err and took < 20,
      f"hang.cu: exit {rc} after {took:.1f} s, {err.strip()}")

# 6. Several files on one ladder, beside the classic steps; a fault mid-ladder
#    leaves the rows after it right.
rc, out, err = run("ladder", "--kernel", os.path.join(K, "template.cu"), "--kernel",
                   os.path.join(T, "oob.cu"), "--kernel", os.path.join(K, "fast.cu"),
                   "--variants", "sequential,vectorized", "--n", "2^20", "--format", "json")
rows = json.loads(out)["rows"] if out.strip() else []
names = [os.path.basename(r["request"].get("kernel", "")) or r["request"]["variant"] for r in rows]
check(names == ["sequential", "vectorized", "template.cu", "oob.cu", "fast.cu"],
      f"ladder rows: {names} {err.strip()}")
if len(rows) == 5:
    check(rows[2].get("correct") and rows[4].get("correct") and rows[3].get("status") == 8,
          f"ladder with a faulting kernel: {[r.get('status', 0) for r in rows]}")

# 7. A recording keeps the source; its replay shows the same rows.
tmp = tempfile.mkdtemp(prefix="rs_kern_")
rec = os.path.join(tmp, "k.jsonl")
rc, out, err = run("ladder", "--kernel", os.path.join(K, "fast.cu"), "--variants", "vectorized",
                   "--n", "2^22", "--record", rec)
lines = [json.loads(l) for l in open(rec)] if os.path.exists(rec) else []
src = [l for l in lines if l.get("command") == "kernel"]
check(rc == 0 and len(src) == 1 and "reduce_fast" in src[0]["source"], f"recorded source: {err}")
rc2, out2, err2 = run("ladder", "--kernel", os.path.join(K, "fast.cu"), "--variants",
                      "vectorized", "--n", "2^22", "--replay", rec)
check(rc2 == 0 and "fast.cu" in out2, f"replayed ladder: {out2} {err2}")

# 8. A run that faults is recorded with the version of the source it began
#    with (issue 40: a replay's Why showed "source not recorded").
rec2 = os.path.join(tmp, "fault.jsonl")
rc, out, err = run("run", "--kernel", os.path.join(T, "oob.cu"), "--n", "1000", "--record", rec2)
lines = [json.loads(l) for l in open(rec2)] if os.path.exists(rec2) else []
src = [l for l in lines if l.get("command") == "kernel"]
row = [l for l in lines if l.get("command") == "run"]
check(rc == 8 and len(src) == 1 and len(row) == 1 and row[0].get("status") == 8 and
      row[0].get("kernel_build", {}).get("hash") == src[0].get("hash") and
      "reduce_oob" in src[0].get("source", ""),
      f"a faulting run is recorded with its source: exit {rc} {err.strip()} {lines}")
check.finish()
