#!/usr/bin/env python3
"""The stall view as the command line prints it, from a recording of a real
H100 (conf/recordings/h100-stalls.jsonl: `redscope ladder --variants
sequential,interleaved,cooperative_groups,vectorized --n 2^24 --stalls
--record`, 2026-11-23): table, CSV, JSON, by function, cooperative groups'
inlined code on its caller's lines, the ladder's line per step, and the
refusals. No GPU needed."""
import csv
import io
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from clitest import Checks, run  # noqa: E402

check = Checks("test_stalls_cli")
REC = os.path.join(os.environ["REDSCOPE_SOURCE"], "conf", "recordings", "h100-stalls.jsonl")
ARGS = ("--replay", REC, "--variant", "sequential", "--n", "2^24", "--stalls")

rc, out, err = run("run", *ARGS)
check(rc == 0, f"run --stalls from the recording: {err}")
lines = out.splitlines()
head = [l for l in lines if l.startswith("stalls ")]
check(head and "166,490 samples, 337 dropped" in head[0] and "2^12 cycles" in head[0],
      f"the sample count, the drops and the period: {head}")
hot = [l for l in lines if l.startswith(">")]
check(len(hot) == 1 and "classic.cu:69" in hot[0] and "waiting for global memory (long scoreboard)" in hot[0],
      f"the hottest line (the load into shared memory) and its reason: {hot}")
bar = [l for l in lines if "classic.cu:58" in l]
check(bar and "waiting at __syncthreads (barrier)" in bar[0], f"the tree loop's barrier: {bar}")
reasons = [l for l in lines if l.startswith("reasons")]
check(reasons and "long scoreboard" in reasons[0] and "short scoreboard" in reasons[0],
      f"the run's totals by reason: {reasons}")
fn = out[out.find("by function"):] if "by function" in out else ""
tree = [l for l in fn.splitlines() if "tree_sequential" in l]
check(tree and "waiting at __syncthreads (barrier)" in tree[0] and "SumOp::operator()" in fn,
      f"by function: the tree's barrier, the operation's add: {fn}")

# cooperative groups' code (its headers) shows on the lines that call it
rc, out, err = run("run", "--replay", REC, "--variant", "cooperative_groups", "--n", "2^24",
                   "--stalls")
table = out[out.find("\nstalls "):out.find("\nreasons ")].splitlines()[2:]
rows = [l for l in table if l[:1] in (" ", ">")]
check(rc == 0 and rows and all(("modern.cu:" in l or "common.cuh:" in l) for l in rows),
      f"cooperative_groups: every line is in its own sources: {rows}")
call = [l for l in rows if "modern.cu:60 " in l]
check(call and "[100% in inlined library code]" in call[0],
      f"cooperative_groups: its cg::reduce line holds the inlined code: {call}")
check("cg::reduce" in out[out.find("by function"):], f"cg::reduce by function: {out[-600:]}")

rc, out, err = run("run", *ARGS, "--format", "csv")
parts = out.split("\n\n")
check(rc == 0 and len(parts) == 3, f"csv: the result row, the lines, the functions: {out[:200]}")
if len(parts) == 3:
    fns = list(csv.DictReader(io.StringIO(parts[2])))
    names = {r["function"]: r for r in fns}
    check("tree_sequential" in names and names["tree_sequential"]["reason1"] == "barrier"
          and abs(sum(float(r["share"]) for r in fns) - 100.0) < 1.0,
          f"csv by function: {list(names)[:6]}")
    rows = list(csv.DictReader(io.StringIO(parts[1])))
    by = {(r["file"], int(r["line"])): r for r in rows}
    r69 = by.get(("classic.cu", 69))
    check(r69 is not None and r69["reason1"] == "long_scoreboard" and float(r69["reason1_share"]) > 80,
          f"csv row of classic.cu:69: {r69}")
    check(abs(sum(float(r["share"]) for r in rows) - 100.0) < 1.0, "csv shares add up to 100%")

rc, out, err = run("run", *ARGS, "--format", "json")
j = json.loads(out) if rc == 0 else {}
st = j.get("stalls", {})
check(st.get("samples", 0) > 100000 and st.get("dropped", 1e9) * 100 < st.get("samples", 0),
      f"json: samples, under 1% dropped: {st.get('samples')} / {st.get('dropped')}")
files = {(l.get("file"), l.get("line")) for l in st.get("lines", [])}
check(("classic.cu", 69) in files and ("classic.cu", 58) in files, f"json lines: {sorted(files)[:6]}")

rc, out, err = run("ladder", "--replay", REC, "--n", "2^24", "--stalls", "--variants", "sequential")
waits = [l for l in out.splitlines() if "waits:" in l]
check(rc == 0 and waits and "classic.cu:69 holds 27% of the samples" in waits[0]
      and "long scoreboard" in waits[0], f"ladder: the step's hottest line: {waits} {err}")

rc, out, err = run("run", "--variant", "cpu", "--n", "1000", "--stalls")
check(rc == 0 and "stalls     none: the cpu variant runs on the host" in out, f"cpu: {out[-200:]}")
rc, out, err = run("run", "--variant", "cpu", "--n", "1000", "--stalls=2")
check(rc == 2 and "expected a whole number from 0 to 1" in err, f"--stalls=2: {rc} {err}")
rc, out, err = run("sweep", "--variants", "cpu", "--range", "2^10,2^12", "--stalls")
check(rc == 2 and "stalls" in err, f"sweep takes no --stalls: {rc} {err}")
check.finish()
