#!/usr/bin/env python3
"""On the GPU, faults survived: a kernel fault in the middle of a ladder, of
an all-reduce sweep and in the explorer (REDSCOPE_TEST_FAULT, the documented test-only switch) is
reported, the context rebuilt, and the next run is right; SIGTERM and SIGHUP
during a live run in the explorer restore the terminal and exit 128+signal.
Skips (77) only without a driver or device."""
import json
import os
import signal
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import EXE, Checks, run, skip_without_gpu  # noqa: E402
from tuitest import Tmux  # noqa: E402

skip_without_gpu()
check = Checks("test_gpu_faults")
UTF8 = {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color"}

# A ladder whose second run faults: that row says so, the others are right.
rc, out, err = run("ladder", "--variants", "sequential,first_add,unroll_warp,cub", "--n", "2^20",
                   "--format", "json", env={"REDSCOPE_TEST_FAULT": "2"})
rows = json.loads(out)["rows"] if out.strip().startswith("{") else []
print(f"ladder with a fault in run 2: exit {rc}")
for r in rows:
    print("  ", r["request"]["variant"], r.get("status", 0), r.get("error", "")[:110],
          r.get("correct"))
check(len(rows) == 4, f"four rows: {out[:300]} {err}")
if len(rows) == 4:
    check("illegal memory access" in rows[1].get("error", "") and "fresh GPU context" in rows[1]["error"],
          f"row 2 names the fault and the rebuild: {rows[1]}")
    check(all(rows[i].get("correct") for i in (0, 2, 3)),
          "the runs before and after the fault are right")

# An all-reduce whose second point faults: that point is named, the GPU
# process replaced, and the sizes before and after it measured and exact.
rc, out, err = run("allreduce", "--gpus", "1", "--algo", "nccl", "--range", "2^10..2^12",
                   "--reps", "3", "--warmup", "1", "--format", "json",
                   env={"REDSCOPE_TEST_FAULT": "2"})
pts = json.loads(out)["points"] if out.strip().startswith("{") else []
print(f"all-reduce with a fault at its second size: exit {rc}, points",
      [(p["n"], p["wrong"]) for p in pts], err.strip()[:200])
check(rc != 0 and [p["n"] for p in pts] == [1024, 4096] and not any(p["wrong"] for p in pts),
      f"the first and third sizes measured and exact, the exit status says a point failed: "
      f"{rc} {out[:300]} {err[-300:]}")
check("nccl at n 2,048" in err and "illegal memory access" in err,
      f"the faulted point named with its fault: {err[-300:]}")

# The explorer: Enter faults, the status says so, Enter again runs right.
t = Tmux(f"{EXE} --variant sequential --n 2^20", cols=120, rows=32,
         env=dict(UTF8, REDSCOPE_TEST_FAULT="1"))
try:
    check(t.wait_for("counters default", 60) is not None, "the explorer starts")
    t.keys("Enter")
    s = t.wait_for("illegal memory access", 60)
    check(s is not None, "the fault is shown in the explorer")
    t.keys("Enter")
    s = t.wait_for(" done", 60)
    print(s or t.screen())
    check(s is not None and "wrong" not in s.lower(), "the next run in the explorer is right")
    t.keys("q")
    if t.wait_for("q again", 2):
        t.keys("q")
    check(t.exit_code(30) == 0 and t.terminal_restored(), "q quits cleanly after a fault")
finally:
    t.close()

# SIGTERM and SIGHUP while a live ladder runs: terminal back, exit 128+signal.
for sig in (signal.SIGTERM, signal.SIGHUP):
    t = Tmux(f"{EXE} --n 2^26 --reps 200", cols=120, rows=32, env=UTF8)
    try:
        t.wait_for("counters default", 60)
        t.keys("L", "Enter")
        time.sleep(3)  # 14 variants at 2^26, 200 repetitions each: seconds of work left
        pid = t.pid()
        check(pid and not t.exited(), f"{sig.name}: a ladder is running ({pid})")
        if pid:
            os.kill(pid, sig)
        code = t.exit_code(30)
        check(code == 128 + sig and t.terminal_restored(),
              f"{sig.name} during a run: exit {code}, terminal restored")
    finally:
        t.close()
check.finish()
