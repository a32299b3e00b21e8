#!/usr/bin/env python3
"""`redscope diff A B`: two recordings side by side, without a GPU. The
shipped H100 and H200 recordings hold the same int32 ladder: matched by
configuration, B's time against A's, a verdict from both runs' min..max,
rows on one side only named. Copies of the H200 recording with one row's
times or stall view changed check the verdicts, the gate (--fail-slower,
exit 10) and the stall line that moved; table, CSV and JSON."""
import csv
import io
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import Checks, run  # noqa: E402

check = Checks("test_diff")
RECS = os.path.join(os.environ["REDSCOPE_SOURCE"], "conf", "recordings")
H100 = os.path.join(RECS, "h100-kernels.jsonl")
H200 = os.path.join(RECS, "h200-demo.jsonl")
tmp = tempfile.mkdtemp(prefix="rs_diff_")

# the same ladder on two GPUs
rc, out, err = run("diff", H100, H200)
check(rc == 0, f"diff of the shipped pair: exit {rc} {err}")
check("A: " + H100 + " (NVIDIA H100 80GB HBM3)" in out and "(NVIDIA H200)" in out,
      "both files and their GPUs are named", out)
check("14 in both: 10 faster in B, 0 slower, 4 the same within both runs' min..max" in out,
      "14 steps matched, each with a verdict", out)
vec = next((l for l in out.splitlines() if l.startswith("vectorized int32 sum 2^24 b256")), "")
check("27.7 µs" in vec and "20.6 µs" in vec and "×1.34" in vec and "faster" in vec,
      f"a step's two times, their ratio and its verdict: {vec!r}")
check("only in A (6 rows): template.cu, fast.cu, lab-barrier.cu, lab-tail.cu at int32 sum 2^24"
      in out, "rows of one side only are named", out)
check(max(len(l) for l in out.splitlines()[:20]) <= 120, "the pairs fit 120 columns", out)

# a copy of the H200 ladder (int32 2^24) with rows changed on purpose
rows = [json.loads(l) for l in open(H200)]
header = [r for r in rows if "request" not in r]
ladder = [r for r in rows if "request" in r and r["request"]["type"] == "int32"
          and r["request"]["n"] == 2 ** 24]


def scaled(row, k):
    """The row as if every repetition took k times as long."""
    r = json.loads(json.dumps(row))
    for key in ("median", "min", "max"):
        r["time_ms"][key] *= k
    for key in ("gbps", "pct_peak", "pct_measured", "speedup_cpu"):
        if isinstance(r.get(key), (int, float)):
            r[key] /= k
    return r


def write(name, rows_out):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        for r in header + rows_out:
            f.write(json.dumps(r) + "\n")
    return path


base = write("a.jsonl", ladder)
by = {r["request"]["variant"]: r for r in ladder}
slow = write("b.jsonl", [scaled(r, 1.5) if r["request"]["variant"] == "sequential" else
                         scaled(r, 1.001) if r["request"]["variant"] == "first_add" else r
                         for r in ladder])
rc, out, err = run("diff", base, slow)
seq = next((l for l in out.splitlines() if l.startswith("sequential ")), "")
fa = next((l for l in out.splitlines() if l.startswith("first_add ")), "")
check(rc == 0 and "slower" in seq and "same" in fa,
      f"1.5x the time is slower; 0.1% within the recorded min..max is the same: {seq!r} {fa!r}")
rc, out, err = run("diff", base, slow, "--fail-slower", "10")
check(rc == 10 and "sequential int32 sum 2^24 b256, +50.0%" in err and err.count("slower") == 1,
      f"--fail-slower 10: exit 10 and the step named: {rc} {err}")
rc, out, err = run("diff", base, slow, "--fail-slower", "60")
check(rc == 0, f"--fail-slower 60 lets a 50% step pass: {rc} {err}")
rc, out, err = run("diff", base, base, "--fail-slower", "0")
check(rc == 0 and "0 faster in B, 0 slower" in out, f"a run against itself: {rc} {out[-200:]}")

# the stall line that moved: samples taken from one line and put on another
moved = json.loads(json.dumps(by["sequential"]))
lines = moved["stalls"]["lines"]
src = max(lines, key=lambda l: l["samples"])
dst = min(lines, key=lambda l: l["samples"])
for why, n in list(src["reasons"].items()):  # half of each reason's samples move
    src["reasons"][why] -= n // 2
    dst["reasons"][why] = dst["reasons"].get(why, 0) + n // 2
src["samples"] = sum(src["reasons"].values())
dst["samples"] = sum(dst["reasons"].values())
for k in moved["stalls"].get("links", []):  # a link holds no more than its line (issue 41)
    if (k["file"], k["line"]) == (src["file"], src["line"]):
        k["samples"] = min(k["samples"], src["samples"])
stalled = write("c.jsonl", [moved if r["request"]["variant"] == "sequential" else r
                            for r in ladder])
rc, out, err = run("diff", base, stalled, "--format", "json")
pairs = json.loads(out)["pairs"] if rc == 0 else []
seqj = next((p for p in pairs if p["variant"] == "sequential"), {})
mv = seqj.get("stall_line_moved", {})
check(mv.get("line") in (src["line"], dst["line"]) and abs(mv["pct_before"] - mv["pct_after"]) > 5,
      f"the stall line that moved most: {mv}")
others = [p for p in pairs if p["variant"] != "sequential" and "stall_line_moved" in p]
check(all(abs(p["stall_line_moved"]["pct_before"] - p["stall_line_moved"]["pct_after"]) < 1e-9
          for p in others), "views that did not change move no line")
rc, out, err = run("diff", base, stalled)
check(f"stalls: {src['file']}:" in out, "the table says which stall line moved", out)

# CSV and JSON hold the same pairs
rc, out, err = run("diff", H100, H200, "--format", "csv")
table = list(csv.DictReader(io.StringIO(out))) if rc == 0 else []
check(len(table) == 14 + 6 + 137 and sum(r["verdict"] == "faster" for r in table) == 10,
      f"CSV: every pair, one row each ({len(table)})")
vrow = next((r for r in table if r["variant"] == "vectorized" and r["type"] == "int32"), {})
check(vrow and abs(float(vrow["speedup"]) - 1.34) < 0.01 and vrow["n"] == str(2 ** 24),
      f"CSV row: {vrow}")
# the program's own names bare, its counters by key (docs/formats.md)
lines = out.splitlines()
quoted = [l.split(",")[0] for l in lines[1:] if l.startswith('"')]
check(any(l.startswith("vectorized,int32,sum,") for l in lines)
      and all(q.endswith('.cu"') for q in quoted),
      f"CSV: variants bare, only a kernel's file quoted: {lines[1:3]} {quoted[:3]}")
moved = [m.rsplit(" ", 1)[0] for r in table for m in r["counters_moved"].split(", ") if m]
check(moved and all(re.fullmatch(r"[a-z_]+", m) for m in moved),
      f"CSV: the counters that moved by their keys: {moved[:6]}")
rc, out, err = run("diff", H100, H200, "--format", "json")
pairs = json.loads(out)["pairs"] if rc == 0 else []
check(len(pairs) == len(table) and sum(p["verdict"] == "only_b" for p in pairs) == 137,
      "JSON: the same pairs, one side named")

# refused
rc, out, err = run("diff", H100)
check(rc == 2 and "diff needs two recordings" in err, f"one file: {rc} {err}")
rc, out, err = run("diff", H100, os.path.join(tmp, "none.jsonl"))
check(rc != 0 and "none.jsonl" in err and not out, f"a missing file: {rc} {err}")
rc, out, err = run("diff", H100, H200, "--fail-slower", "-3")
check(rc == 2 and "--fail-slower" in err, f"a bad percent: {rc} {err}")
# ladder --against FILE: FILE is A, the baseline, and the ladder B, as
# diff FILE LADDER prints them; FILE's other configurations left out, FILE
# checked before any work
rc, out, err = run("ladder", "--replay", H100, "--variants", "atomic..cub", "--against", H200)
tail = out.split("\nA: ", 1)[-1]
check(rc == 0 and out.startswith("int32 sum, n 2^24") and tail.startswith(H200)
      and f"B: {H100} (NVIDIA H100" in tail
      and "13 in both: 0 faster in B, 9 slower, 4 the same" in tail
      and "only in A (1 row): thrust at int32 sum 2^24 b256" in tail,
      f"ladder --against: the ladder held against A: {rc} {tail[-600:]} {err}")
# steps the replayed recording lacks are not paired: they did not run
rc, out, err = run("ladder", "--replay", os.path.join(RECS, "h100-mine-after.jsonl"), "--against",
                   H100)
tail = out.split("\nA: ", 1)[-1]
check(rc == 0 and "2 in both: 0 faster in B, 0 slower, 2 the same" in tail and "failed" not in tail,
      f"ladder --against, a replay of two steps: {rc} {tail[-500:]} {err}")
rc, out, err = run("ladder", "--replay", H100, "--against", os.path.join(tmp, "none.jsonl"))
check(rc == 7 and out == "" and "none.jsonl" in err, f"ladder --against a missing file: {rc} {err}")
rc, out, err = run("ladder", "--replay", H100, "--against", H200, "--format", "json")
check(rc == 2 and out == "" and "redscope diff" in err, f"ladder --against --format json: {rc} {err}")

# run --against FILE: the one run beside B's, B's other rows left out;
# run --against VARIANT without --stalls says what it needs
rc, out, err = run("run", "--replay", H100, "--variant", "vectorized", "--n", "2^24", "--against",
                   H200)
tail = out.split("\nA: ", 1)[-1]
check(rc == 0 and out.startswith("variant    vectorized") and
      re.search(r"vectorized int32 sum 2\^24 b256 +20\.6 µs +27\.7 µs +×0\.74 +slower", tail)
      and "1 in both: 0 faster in B, 1 slower" in tail and "only in" not in tail,
      f"run --against: the run held against A's: {rc} {tail[-500:]} {err}")
rc, out, err = run("run", "--replay", H100, "--variant", "vectorized", "--n", "2^24", "--against",
                   "interleaved")
check(rc == 2 and not out and "add --stalls" in err and "takes a recording" in err,
      f"run --against a variant without --stalls: {rc} {err}")
rc, out, err = run("run", "--replay", H100, "--variant", "vectorized", "--n", "2^24", "--against",
                   H200, "--format", "csv")
check(rc == 2 and not out and "redscope diff" in err, f"run --against --format csv: {rc} {err}")
# sweep --against: every cell beside B's; B's sizes beyond the sweep's left out
EN = os.path.join(RECS, "h100-energy.jsonl")
rc, out, err = run("sweep", "--replay", EN, "--range", "2^16..2^20:4", "--against", EN)
tail = out.split("\nA: ", 1)[-1]
check(rc == 0 and "9 in both: 0 faster in B, 0 slower, 9 the same" in tail and "only in" not in tail
      and tail.count(" same ") + tail.count(" same\n") >= 9,
      f"sweep --against itself: every cell the same: {rc} {tail[-700:]} {err}")
rc, out, err = run("sweep", "--replay", H200, "--type", "float64", "--against", EN)
tail = out.split("\nA: ", 1)[-1]
check(rc == 0 and "nothing in both: no configuration" in tail and "only in B (95 rows)" in tail
      and "only in A" not in tail,
      f"sweep --against a recording of other sweeps: the sweep's rows named, A's not: {rc} "
      f"{tail[-400:]}")

# A holding a configuration twice (its ladder's and its sweep's run): the
# ladder's step paired with A's ladder's, the other run not "only in A"
sections = []  # B with its sweep recorded before its ladders
for line in open(EN):
    if '"redscope_recording"' in line:
        sections.append([])
    sections[-1].append(line)
swept_first = os.path.join(tmp, "sweep_first.jsonl")
open(swept_first, "w").write("".join(l for sec in reversed(sections) for l in sec))
rc, out, err = run("ladder", "--replay", EN, "--n", "2^24", "--variants", "atomic,sequential,vectorized",
                   "--against", swept_first)
tail = out.split("\nA: ", 1)[-1]
same = re.findall(r"^(\w+) int32 sum 2\^24 b256 +(\S+ \S+) +(\S+ \S+) +×1\.00 +same", tail, re.M)
check(rc == 0 and len(same) == 3 and all(a == b for _, a, b in same)
      and "only in A (11 rows): 11 variants" in tail,
      f"ladder --against B that holds a step twice: paired with its ladder's: {rc} {tail[-500:]}")

# the shipped before/after pair of one kernel file: the kernel faster beyond
# the spread, the built-in steps the same, the stall line that is new named
BEFORE = os.path.join(RECS, "h100-mine-before.jsonl")
AFTER = os.path.join(RECS, "h100-mine-after.jsonl")
rc, out, err = run("diff", BEFORE, AFTER, "--format", "json")
pairs = {p["variant"]: p for p in json.loads(out)["pairs"]} if rc == 0 else {}
check(set(pairs) == {"sequential", "vectorized", "mine.cu"}
      and pairs["mine.cu"]["verdict"] == "faster" and pairs["mine.cu"]["speedup"] > 2.5
      and pairs["sequential"]["verdict"] == "same" and pairs["vectorized"]["verdict"] == "same",
      f"before/after of mine.cu: {[(k, p['verdict']) for k, p in pairs.items()]} {err}")
moved = {m["metric"]: m for m in pairs.get("mine.cu", {}).get("counters_moved", [])}
check("bank_ld" in moved and moved["bank_ld"]["ratio"] == 0 and moved["bank_ld"]["b"] == 0
      and moved["bank_ld"]["a"] > 40000,
      f"a counter that went to zero is said (bank ld 46,149 -> 0): {moved}")
rc, out, err = run("diff", BEFORE, AFTER)
check("bank ld to 0" in out, f"the table says it went to 0: {out[-500:]}")
rc, out, err = run("diff", BEFORE, AFTER, "--fail-slower", "5")
check(rc == 0 and "mine.cu:22 (a = rs_op(a, rs_load(in[i]));) is new" in out,
      f"the gate passes a faster kernel; its new stall line named: {rc} {out[-400:]}")
rc, out, err = run("diff", AFTER, BEFORE, "--fail-slower", "5")
check(rc == 10 and "mine.cu" in err, f"the other way round the gate fails it: {rc} {err}")

# the gate does not pass what B failed to run, nor a B that compares nothing
lines = open(AFTER).read().splitlines()
failed = []
for l in lines:
    o = json.loads(l)
    if o.get("request", {}).get("kernel") == "mine.cu" and "time_ms" in o:
        o = {"command": o["command"], "request": o["request"], "status": 8,
             "error": "mine.cu faulted: an illegal memory access"}
    failed.append(json.dumps(o))
bad = os.path.join(tmp, "after_failed.jsonl")
open(bad, "w").write("\n".join(failed) + "\n")
rc, out, err = run("diff", BEFORE, bad, "--fail-slower", "5")
check(rc == 10 and "failed in B: mine.cu" in err, f"the gate fails a step B could not run: {rc} {err}")
# nor a kernel that became wrong in B, one B lost, or a slow second row of
# one configuration B holds twice; the CSV and JSON say each side's result
def after_with(name, change):
    out_lines = []
    for l in lines:
        o = json.loads(l)
        if o.get("request", {}).get("kernel") == "mine.cu" and "time_ms" in o:
            o = change(o)
        out_lines += [json.dumps(x) for x in (o if isinstance(o, list) else [o] if o else [])]
    path = os.path.join(tmp, name)
    open(path, "w").write("\n".join(out_lines) + "\n")
    return path


def wrong(o):  # an int32 sum one off
    want = int(o["expected"])
    o["result"], o["abs_err"], o["rel_err"] = str(want + 1), 1, 1 / abs(want)
    o["correct"], o["bad_reps"] = False, o["time_ms"]["reps"]
    return o


bad = after_with("after_wrong.jsonl", wrong)
rc, out, err = run("diff", BEFORE, bad, "--fail-slower", "5")
check(rc == 10 and "WRONG in B: mine.cu" in err, f"the gate fails a kernel now wrong: {rc} {err}")
rc, out, err = run("diff", BEFORE, bad)
check(rc == 0 and any(l.startswith("mine.cu") and "WRONG B" in l for l in out.splitlines()),
      f"the table says B is wrong, not faster: {out[-600:]}")
rc, out, err = run("diff", BEFORE, bad, "--format", "csv")
row = next((l for l in out.splitlines() if l.startswith('"mine.cu"')), "")
check(rc == 0 and "a_correct,b_correct" in out.splitlines()[0] and ",yes,no," in row,
      f"the CSV carries both sides' correctness: {row}")
rc, out, err = run("diff", BEFORE, bad, "--format", "json")
mine = next(p for p in json.loads(out)["pairs"] if p["variant"] == "mine.cu")
check(mine["a"]["correct"] is True and mine["b"]["correct"] is False, f"the JSON too: {mine}")
rc, out, err = run("diff", BEFORE, after_with("after_lost.jsonl", lambda o: None),
                   "--fail-slower", "5")
check(rc == 10 and "missing in B: mine.cu" in err, f"the gate fails a kernel B lost: {rc} {err}")
# many rows lost: five named, the rest counted, not 137 lines (a newcomer's trial)
rc, out, err = run("diff", os.path.join(RECS, "h200-demo.jsonl"),
                   os.path.join(RECS, "h100-kernels.jsonl"), "--fail-slower", "5")
named = [l for l in err.splitlines() if l.startswith("redscope: missing in B: ") and "(A ran it)" in l]
check(rc == 10 and len(named) == 5 and "missing in B: 132 more rows A ran" in err,
      f"the gate names five rows B lost and counts the rest: {rc} {err[-400:]}")
twice = after_with("after_twice.jsonl", lambda o: [o, scaled(o, 9.0)])
rc, out, err = run("diff", BEFORE, twice, "--fail-slower", "5")
check(rc == 10 and "slower in B" in err and "mine.cu" in err,
      f"the gate checks every row of a configuration B holds twice: {rc} {err}")
head = os.path.join(tmp, "header_only.jsonl")
open(head, "w").write(lines[0] + "\n")
rc, out, err = run("diff", BEFORE, head, "--fail-slower", "5")
check(rc == 2 and "nothing compared" in err, f"the gate with nothing in both: {rc} {err}")

check.finish()
