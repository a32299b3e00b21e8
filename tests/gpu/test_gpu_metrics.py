#!/usr/bin/env python3
"""The counters tell the story, and agree with Nsight Compute.

On a GPU: the directions the explanations rely on (bank conflicts,
instructions, DRAM bytes, bandwidth), and, when ncu is on PATH, redscope's
in-process CUPTI counts against `ncu --clock-control none` on the same
kernels, within 2%. Skips (77) where no CUDA device is usable. Prints the
comparison table (markdown) for docs/results.md."""
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import EXE, Checks, skip_without_gpu  # noqa: E402
from clitest import run as redscope  # noqa: E402

check = Checks("test_gpu_metrics")


def counters(variant, n="2^22", block="256", extra=()):
    rc, out, err = redscope("run", "--variant", variant, "--type", "int32", "--n", n, "--block",
                            block, "--reps", "3", "--metrics", "default", "--format", "json", *extra)
    if rc != 0:
        check(False, f"{variant}: {err.strip()}")
        return {}
    vals = json.loads(out)["metrics"]["values"]
    return {k: v["value"] for k, v in vals.items() if v.get("valid")}


skip_without_gpu()

c = {v: counters(v) for v in ("interleaved", "interleaved_strided", "sequential", "first_add",
                               "multi_element")}
conf = {v: c[v].get("bank_ld", 0) + c[v].get("bank_st", 0) for v in c}
check(conf["interleaved_strided"] >= 10 * max(conf["sequential"], 1),
      f"bank conflicts: interleaved_strided {conf['interleaved_strided']:.0f} >= 10x sequential "
      f"{conf['sequential']:.0f}")
check(c["interleaved"].get("warp_inst", 0) >= 1.5 * c["interleaved_strided"].get("warp_inst", 1),
      "warp instructions: interleaved >= 1.5x interleaved_strided")
rd_seq, rd_fa = c["sequential"].get("dram_read", 0), c["first_add"].get("dram_read", 0)
check(rd_seq > 0 and abs(rd_fa - rd_seq) <= 0.05 * rd_seq,
      f"first_add reads the same DRAM bytes as sequential ({rd_fa:.0f} vs {rd_seq:.0f})")
check(c["first_add"].get("warp_inst", 1e18) < c["sequential"].get("warp_inst", 0),
      "first_add needs fewer warp instructions than sequential")
big_fa = counters("first_add", n="2^26")
big_me = counters("multi_element", n="2^26")
check(big_me.get("dram_pct", 0) > big_fa.get("dram_pct", 1e9),
      f"at 2^26 multi_element reaches a higher % of peak DRAM bandwidth "
      f"({big_me.get('dram_pct', 0):.1f}% vs {big_fa.get('dram_pct', 0):.1f}%)")
print("directions: bank conflicts", {k: int(v) for k, v in conf.items()})
# A reduction writes almost nothing: no write-backs of lines other work left
# dirty may be charged to it, even when its input outgrows the L2.
big_seq = counters("sequential", n="2^24", extra=("--metrics", "dram_read,dram_write"))
check(big_seq.get("dram_write", 1e18) < 0.05 * big_seq.get("dram_read", 0),
      f"sequential at 2^24 writes {big_seq.get('dram_write', -1):.0f} DRAM bytes for "
      f"{big_seq.get('dram_read', -1):.0f} read")

# ---- against Nsight Compute -------------------------------------------------------
NCU = {"dram_read": "dram__bytes_read.sum", "bank_ld":
       "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "bank_st":
       "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "warp_inst":
       "smsp__inst_executed.sum", "thread_inst_pred_on": "smsp__thread_inst_executed_pred_on.sum",
       "wavefronts_ld": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
       "wavefronts_st": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"}
# A ladder reads its counters after all its timings, the one-pass set of
# every step, then the rest (core/runner.h): the same counts as a run of
# each step alone, every metric of the full set valid and a number, and a
# recording holds them.
LADDER = ("--variants", "sequential,multi_element,vectorized", "--type", "int32", "--n", "2^22")


def ladder_rows(*extra):
    rc, out, err = redscope("ladder", *LADDER, "--reps", "3", "--format", "json", *extra)
    check(rc == 0, f"ladder {' '.join(extra)}: {err.strip()[-200:]}")
    return {r["request"]["variant"]: r for r in json.loads(out)["rows"]} if rc == 0 else {}


rec = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"rs-metrics-ladder-{os.getpid()}.jsonl")
full = ladder_rows("--metrics", "full", "--record", rec, "--force")
for v, r in full.items():
    vals = r["metrics"]["values"]
    bad = [k for k, x in vals.items() if not x.get("valid") or not isinstance(x.get("value"),
                                                                               (int, float))]
    check(len(vals) >= 18 and not bad, f"ladder --metrics full, {v}: every counter read ({bad})")
    check(r["time_ms"]["median"] > 0, f"ladder --metrics full, {v}: timed as well")
    alone = counters(v)
    for k in ("warp_inst", "dram_read"):
        a, b = vals.get(k, {}).get("value") or 0, alone.get(k, 0)
        check(b and abs(a - b) <= 0.02 * b, f"{v} {k}: in the ladder {a} as in a run alone {b}")
rc, out, err = redscope("ladder", *LADDER, "--replay", rec, "--metrics", "full", "--format",
                        "json")
got = {r["request"]["variant"]: r["metrics"]["values"].get("thread_inst", {}).get("value")
       for r in json.loads(out)["rows"]} if rc == 0 else {}
check(rc == 0 and all(got.get(v) for v in full), f"the recording keeps every counter: {got} {err}")
if os.path.exists(rec):
    os.remove(rec)

ncu = shutil.which("ncu")
# Nsight Compute ships with the toolkit: on a GPU machine its absence is a
# set-up failure, not a reason to skip the comparison.
check(ncu is not None, "ncu (Nsight Compute) is on PATH for the comparison")
if ncu:
    rows = []
    for v in ("interleaved", "interleaved_strided", "sequential", "first_add", "multi_element"):
        ours = counters(v, extra=("--metrics", ",".join(NCU)))
        p = subprocess.run([ncu, "--clock-control", "none", "--csv", "--print-units", "base",
                            "--kernel-name", f"regex:k_{v}([<I(]|$)",
                            "--metrics", ",".join(NCU.values()), EXE, "run", "--variant", v,
                            "--type", "int32", "--n", "2^22", "--block", "256", "--reps", "1",
                            "--warmup", "0"], capture_output=True, text=True, timeout=600)
        check(p.returncode == 0, f"ncu on {v}: {p.stderr[-300:]}")
        text = p.stdout[p.stdout.find('"ID"'):]
        theirs = {k: 0.0 for k in NCU}
        for r in csv.DictReader(io.StringIO(text)):
            if not re.search(rf"k_{v}([<I(]|$)", r.get("Kernel Name", "")):
                continue
            for k, name in NCU.items():
                if r["Metric Name"] == name:
                    theirs[k] += float(r["Metric Value"].replace(",", ""))
        waves = theirs["wavefronts_ld"] + theirs["wavefronts_st"]
        for k in NCU:
            a, b = ours.get(k, -1), theirs[k]
            diff = abs(a - b) / b if b else (0.0 if a == 0 else 1.0)
            # The few conflicts left in conflict-free kernels (a percent or so
            # of the wavefronts) differ between any two runs by a few percent,
            # ncu against ncu too (sequential bank_ld in three ncu runs:
            # 10,712, 10,767, 10,904): those are held to 0.1% of the
            # shared-memory wavefronts instead of 2% of themselves.
            residual = k.startswith("bank") and b < 0.05 * waves
            ok = diff <= 0.02 or (residual and abs(a - b) <= 0.001 * waves)
            check(ok, f"{v} {k}: redscope {a:.0f} vs ncu {b:.0f} ({100 * diff:.2f}%)")
            note = " (residual: within 0.1% of wavefronts)" if residual and diff > 0.02 else ""
            rows.append(f"| {v} | {k} | {a:,.0f} | {b:,.0f} | {100 * diff:.2f}%{note} |")
    # DRAM writes at 2^24 (input beyond the L2), reported beside ncu's.
    ours = counters("sequential", n="2^24", extra=("--metrics", "dram_read,dram_write"))
    p = subprocess.run([ncu, "--clock-control", "none", "--csv", "--print-units", "base",
                        "--kernel-name", "regex:k_sequential([<I(]|$)", "--metrics",
                        "dram__bytes_read.sum,dram__bytes_write.sum", EXE, "run", "--variant",
                        "sequential", "--n", "2^24", "--reps", "1", "--warmup", "0"],
                       capture_output=True, text=True, timeout=600)
    tot = {"dram__bytes_read.sum": 0.0, "dram__bytes_write.sum": 0.0}
    for r in csv.DictReader(io.StringIO(p.stdout[p.stdout.find('"ID"'):])):
        if r.get("Metric Name") in tot:
            tot[r["Metric Name"]] += float(r["Metric Value"].replace(",", ""))
    print(f"sequential 2^24: DRAM read {ours.get('dram_read', -1):,.0f} (ncu "
          f"{tot['dram__bytes_read.sum']:,.0f}), written {ours.get('dram_write', -1):,.0f} "
          f"(ncu {tot['dram__bytes_write.sum']:,.0f})")
    print("| variant | counter | redscope (CUPTI) | ncu --clock-control none | difference |")
    print("| --- | --- | ---: | ---: | ---: |")
    print("\n".join(rows))

check.finish()
