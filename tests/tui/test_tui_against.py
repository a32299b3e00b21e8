#!/usr/bin/env python3
"""The explorer with a recording held against what it shows (--against
FILE, A on the Recording screen), in a real terminal (tmux), no GPU: the
Ladder screen's vs A column (each step's time in the recording, A, over its time here, as
both recordings hold them) at 80 and 120 columns, B's steps the ladder
lacks named, the Compare screen's right side (z) with every figure's
ratio, the file set, refused and cleared from the Recording screen, and a
bad file refused before the screen is taken."""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import Checks, run  # noqa: E402
from tuitest import UTF8, Tmux, status_line  # noqa: E402

EXE = os.environ["REDSCOPE"]
RECS = os.path.join(os.environ["REDSCOPE_SOURCE"], "conf", "recordings")
A = os.path.join(RECS, "h100-kernels.jsonl")
B = os.path.join(RECS, "h200-demo.jsonl")
check = Checks("test_tui_against")


def medians(path, *args):
    rc, out, _ = run("ladder", "--replay", path, "--n", "2^24", *args, "--format", "json")
    return {r["request"]["variant"]: r["time_ms"]["median"]
            for r in json.loads(out)["rows"] if "time_ms" in r} if rc in (0, 1) else {}
    # (1: the recorded kernels the ladder shows include lab-tail.cu, WRONG)


def ratio(x):  # rs_fmt_ratio: two decimals below 10, one below 100
    return "×" + (f"{x:.2f}" if x < 10 else f"{x:.1f}")


ta, tb = medians(A), medians(B)


def start(cols, rows, *args):
    t = Tmux(f"{EXE} --replay {A} " + " ".join(args), cols=cols, rows=rows, env=UTF8)
    t.wait_for("REPLAY")
    t.wait_for("reps")
    return t


def ladder_screen(t):
    t.keys("L", "Enter")
    return t.wait_for("thrust") or t.screen()


# 1. The Ladder screen: vs A in cumul's place at 80 columns, beside it at 120.
for cols, rows in ((80, 24), (120, 32)):
    t = start(cols, rows, "--against", B)
    try:
        s = ladder_screen(t)
        head = next((l for l in s.splitlines() if " variant " in l), "")
        check("vs A" in head and ("cumul" in head) == (cols >= 100),
              f"{cols} columns: the vs A column (cumul only where there is room)", s)
        for v in ("atomic", "sequential", "vectorized"):
            line = next((l for l in s.splitlines() if re.search(rf"\d {v} ", l)), "")
            check(ratio(tb[v] / ta[v]) in line.split(),
                  f"{cols} columns: {v}'s vs A is B's time over A's, {ratio(tb[v] / ta[v])}", s)
        kernel = next((l for l in s.splitlines() if "template.cu" in l), "")
        check(re.search(r"µs( +×[\d.]+){1,2} +- ", kernel) is not None,
              f"{cols} columns: a step B lacks has - in vs A: {kernel}", s)
        check("vs A: the time in h200-demo.jsonl" in s,
              f"{cols} columns: the note says what vs A is against", s)
        check(all(len(l) <= cols for l in s.splitlines()), f"{cols} columns hold it", s)
    finally:
        t.close()

# 2. B's steps this ladder lacks, named.
t = Tmux(f"{EXE} --replay {os.path.join(RECS, 'h100-mine-after.jsonl')} --against {A}",
         cols=80, rows=24, env=UTF8)
try:
    t.wait_for("REPLAY")
    t.wait_for("reps")
    t.keys("L", "Enter")
    s = t.wait_for("mine.cu") or t.screen()
    flat = " ".join(l.strip("│ ") for l in s.splitlines())
    check("only in A: atomic, interleaved, interleaved_strided, first_add" in flat,
          "the recording's steps the ladder lacks are named", s)
finally:
    t.close()

# 3. Compare: z reaches B's run of the left variant; every figure with A/B.
t = start(100, 30, "--against", B)
try:
    ladder_screen(t)
    t.keys("Escape", "C")
    s = t.screen()
    for _ in range(20):
        if "in h200-demo.jsonl" in status_line(s):
            break
        t.keys("z")
        s = t.screen()
    left = re.search(r"now (\w+) against \1 in h200-demo\.jsonl", status_line(s))
    check(left is not None, "z: B's run of the left variant", s)
    if left:
        v = left.group(1)
        line = next((l for l in s.splitlines() if "time (median)" in l), "")
        check(ratio(ta[v] / tb[v]) in line.split(), f"Compare: A/B of {v}'s time", s)
        check("DRAM read" in s and "warp instructions" in s, "Compare: every counter", s)
        cpu = next((l for l in s.splitlines() if "CPU time (its own)" in l), "")
        check("8.60 ms" in cpu and "speedup vs CPU" in s,
              "Compare: each side's own CPU time beside its speedup (issue 40)", s)
finally:
    t.close()

# 4. The Recording screen: A sets a file, refuses a bad one, empty clears.
t = start(100, 30)
try:
    s = ladder_screen(t)
    check("vs A" not in s, "no vs A without a recording held", s)
    t.keys("Escape", "R")
    s = t.wait_for("A: a recording to hold against") or t.screen()
    check("A: a recording to hold against" in s, "the Recording screen names A", s)
    t.keys("A")
    t.wait_for("recording to hold against")
    t.keys("/nonexistent.jsonl", "Enter")
    s = t.wait_for("nonexistent") or t.screen()
    check("recording to hold against" in status_line(s) and "No such file" in s,
          "a missing file is refused in the prompt, which stays", s)
    t.keys("C-u", B, "Enter")
    s = t.wait_for("against h200-demo.jsonl") or t.screen()
    check("against h200-demo.jsonl: the Ladder screen's vs A" in status_line(s),
          "the file is held, said", s)
    t.keys("Escape", "L")
    s = t.wait_for("vs A") or t.screen()
    check("vs A" in s, "the Ladder screen shows vs A once a file is held", s)
    t.keys("R", "A", "C-u", "Enter")
    s = t.wait_for("nothing held against") or t.screen()
    t.keys("Escape", "L")
    s2 = t.wait_for("thrust") or t.screen()
    check("nothing held against" in s and "vs A" not in s2, "empty clears it", s2)
finally:
    t.close()

# 5. A bad --against is refused before the screen is taken.
rc, out, err = run("--replay", A, "--against", "/nonexistent.jsonl")
check(rc == 7 and "--against" in err and "nonexistent.jsonl" in err,
      f"--against a missing file: {rc} {err}")
check.finish()
