#!/usr/bin/env python3
"""On the GPU: 500 runs in one explorer session (36 ladders of 14 GPU
variants at n 2^16) leave the GPU process's device memory where it was after
the first ladders, and the explorer quits cleanly. Run on the ASan build
(scripts/sanitize-test.sh -R gpu_soak), any leak or memory error of the
explorer or its GPU process is a report that fails the run. Skips (77) only
without a driver or device."""
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import EXE, Checks, skip_without_gpu  # noqa: E402
from tuitest import Tmux  # noqa: E402

skip_without_gpu()
check = Checks("test_gpu_soak")
LADDERS = 36


def status(t):
    lines = t.screen().splitlines()
    return lines[-2] if len(lines) >= 2 else ""


def device_mib(pid):
    out = subprocess.run(["nvidia-smi", "--query-compute-apps=pid,used_memory",
                          "--format=csv,noheader,nounits"], capture_output=True, text=True).stdout
    for line in out.splitlines():
        p, _, mib = line.partition(",")
        if p.strip() == str(pid):
            return int(mib)
    return None


t = Tmux(f"{EXE} --n 2^16 --reps 1 --warmup 0 --metrics none", cols=120, rows=32,
         env={"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color"})
try:
    check(t.wait_for("peak", 120) is not None, "the explorer starts")
    t.keys("L")
    gpu_pid, levels, t0, runs = None, [], time.time(), 0
    for k in range(LADDERS):
        t.keys("Enter")
        end = time.time() + 2
        while time.time() < end and " done" in status(t):
            time.sleep(0.05)
        end = time.time() + 120
        while time.time() < end and " done" not in status(t):
            time.sleep(0.1)
        s = t.screen()
        ok = s.count("\u2713") + s.count("\u2717")
        check(" done" in status(t) and ok >= 14, f"ladder {k + 1}: 14 rows, done ({ok})\n{s}")
        runs += 15
        if gpu_pid is None:
            kids = subprocess.run(["pgrep", "-P", str(t.pid())], capture_output=True,
                                  text=True).stdout.split()
            gpu_pid = int(kids[0]) if kids else None
        if k in (1, LADDERS - 1):
            levels.append(device_mib(gpu_pid))
    print(f"{runs} runs in {time.time() - t0:.0f} s; GPU process {gpu_pid} device memory "
          f"after ladder 2 and {LADDERS}: {levels} MiB")
    check(len(levels) == 2 and None not in levels and levels[1] <= levels[0] + 2,
          f"device memory back to its level: {levels} MiB")
    t.keys("q")
    if t.wait_for("q again", 2):
        t.keys("q")
    code = t.exit_code(60)
    check(code == 0 and t.terminal_restored(), f"q quits with 0 after {runs} runs: {code}")
finally:
    t.close()
check.finish()
