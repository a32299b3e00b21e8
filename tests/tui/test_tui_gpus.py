#!/usr/bin/env python3
"""Several GPUs in the explorer, in a real terminal (tmux), from a recording
of one H200 (conf/recordings/h200-demo.jsonl): c steps the cross-GPU finish
and says what it does; G says a recording of one GPU has nothing to spread
over; the help lists G and c; q quits with the terminal restored. Then a
recording of `ladder --gpus 0` over two "GPUs" (the test-only
REDSCOPE_TEST_GPUS=2 on one H100, tests/data/h100-test-gpus2-ladder.jsonl):
G steps to its two, the header names them, and the host and p2p finishes'
runs replay with their slowest GPU and finish. Live without a driver, G
says why there is no GPU. Live over real GPUs: test_gpu_split.py."""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import Checks  # noqa: E402
from tuitest import Tmux, run_row, status_line  # noqa: E402

EXE = os.environ["REDSCOPE"]
REC = os.path.join(os.environ["REDSCOPE_SOURCE"], "conf", "recordings", "h200-demo.jsonl")
VG = os.path.join(os.environ["REDSCOPE_SOURCE"], "tests", "data",
                  "h100-test-gpus2-ladder.jsonl")
UTF8 = {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color"}
check = Checks("test_tui_gpus")

t = Tmux(f"{EXE} --replay {REC}", cols=140, rows=36, env=UTF8)
try:
    check(t.wait_for("Ladder", 20) is not None, "the explorer starts on the recording")
    s = t.wait_for("thread inst (pred on)", 10) or t.screen()
    ti = [l for l in s.splitlines() if "thread inst (pred on)" in l]
    check(ti and re.search(r"thread inst \(pred on\) +[\d,.]+ [GM]?", ti[0])
          and "\u2026" not in ti[0],
          "a wide counters panel shows a counter of ten digits, not an ellipsis", s)
    t.keys("c")
    s = t.screen()
    check("cross-GPU finish p2p: peer copies" in status_line(s)
          and "(G spans several GPUs first)" in status_line(s),
          "c: the next finish, what it does, and that it needs several GPUs", s)
    t.keys("G")
    s = t.screen()
    check("this recording has runs on one GPU only" in status_line(s),
          "G on a recording of one GPU says so", s)
    check("GPUs" not in s.splitlines()[0], "the header names no GPUs while a run spans one", s)
    t.keys("?")
    t.wait_for("Help", 5)
    s = t.screen()
    for _ in range(60):  # scrolled down to the G line, if below
        if "next GPU count" in s and "next cross-GPU finish" in s:
            break
        t.keys("j")
        s = t.screen()
    check("next GPU count" in s and "next cross-GPU finish" in s, "the help lists G and c", s)
    t.keys("q")
    check(t.exit_code() == 0 and t.terminal_restored(), "q quits, the terminal restored")
finally:
    t.close()

# A recording of `ladder --gpus 0` over two "GPUs" (the test-only
# REDSCOPE_TEST_GPUS=2 on one H100): G steps to the two it spans, the
# header names them and what they are, Enter shows the host finish's
# recorded run with its slowest GPU and finish, c then Enter the p2p one's.
t = Tmux(f"{EXE} --replay {VG}", cols=160, rows=40, env=UTF8)
try:
    check(t.wait_for("Ladder", 20) is not None, "the explorer starts on the recording")
    t.keys("G")
    s = t.wait_for("2 GPUs: n split evenly", 5) or t.screen()
    check("2 GPUs: n split evenly" in status_line(s) and "2 GPUs, host: every GPU CUDA device 0"
          in (s.splitlines() or [""])[0], "G: the recording's two GPUs, named in the header", s)
    s = run_row(t, 0, "slowest GPU", 10)
    check("2 GPUs host" in s and "39.5 µs" in s and "slowest GPU 26.0 µs" in s,
          "Enter: the host finish's recorded run, its slowest GPU and finish", s)
    t.keys("p")  # pinned with its GPUs and finish
    s = t.wait_for("pinned vectorized on 2 GPUs, host:", 5) or t.screen()
    check("pinned vectorized on 2 GPUs, host:" in status_line(s), "p: the pin names its GPUs", s)
    t.keys("c")
    s = run_row(t, 0, "34.9 µs", 10)
    check("34.9 µs" in s and "2 GPUs p2p" in s and "2 GPUs, p2p" in s,
          "c, Enter: the p2p finish's recorded run", s)
    t.keys("C")
    s = t.wait_for("pinned vectorized on 2 GPUs, host", 5) or t.screen()
    check("Compare" in s and "pinned vectorized on 2 GPUs, host" in s and "39.5 µs" in s
          and "34.9 µs" in s, "C: the p2p run beside the pinned host one, named", s)
    t.keys("Escape")
    t.keys("c")  # nccl: refused when recorded, and the result panel says so
    t.wait_for("cross-GPU finish nccl", 5)
    t.keys("Enter")
    s = t.wait_for("Recorded as failed: NCCL needs 2 distinct GPUs", 5) or t.screen()
    check("Recorded as failed: NCCL needs 2 distinct GPUs" in s and "Not run with" not in s,
          "c, Enter on nccl: the recorded failure in the result panel", s)
    t.keys("L")  # the ladder on nccl: both rows refused; each variant keeps its own reason
    t.wait_for("Enter runs every variant", 5)
    t.keys("Enter")
    t.wait_for("cub: NCCL needs 2 distinct GPUs", 10)
    t.keys("Escape")
    s = t.wait_for("Recorded as failed", 5) or t.screen()
    check("Recorded as failed: NCCL needs 2 distinct GPUs" in s,
          "after a ladder of two failures, vectorized's panel still says its own", s)
    t.keys("c", "c")  # host, then p2p again
    t.keys("L")  # the ladder over the two: each variant's p2p row, % of both GPUs' limits
    t.wait_for("Enter runs every variant", 5)
    t.keys("Enter")
    s = t.wait_for("38.5 µs", 10) or t.screen()
    lad = [l for l in s.splitlines() if "vectorized " in l or "cub " in l]
    check(len(lad) == 2 and "34.9 µs" in lad[0] and "31.1%" in lad[0] and "38.5 µs" in lad[1]
          and "×0.91" in lad[1] and "2 GPUs p2p" in s.splitlines()[1],
          "L, Enter: the ladder over 2 GPUs, cub stepping from vectorized's p2p row", s)
    if len(lad) == 2:  # the mark at both GPUs' limit: right of vectorized's 31% bar, not inside it
        bar = lad[0].rstrip()[:-1].rstrip()  # the panel's border off
        bar = bar[bar.index("✓") + 3:]
        fill = len(bar.rstrip("░│"))
        mark = bar.rfind("│")
        check(mark > 2 * fill, f"the limit's mark over 2 GPUs at their sum: {bar!r}", s)
    t.keys("R")  # the recording: one ladder, on one GPU and over every one
    s = t.wait_for("1 configuration", 5) or t.screen()
    check("1 configuration" in s and re.search(r"ladder +2 variants +1, all +int32 sum", s),
          "R: the ladder over GPUs is one configuration, its GPUs named", s)
    t.keys("Escape", "Escape", "t")  # int64: not recorded, and it says only that
    t.wait_for("type int64", 5)
    t.keys("Enter")
    s = t.wait_for("not in the recording", 5) or t.screen()
    check("not in the recording" in s and "Recorded as failed" not in s,
          "Enter on what was not recorded: said so, not as a recorded failure", s)
    t.keys("q")
    check(t.exit_code() == 0 and t.terminal_restored(), "q quits, the terminal restored")
finally:
    t.close()

# Live on a machine without a driver (or a GPU): G says that, not "one GPU"
drc = subprocess.run([EXE, "devices"], capture_output=True, text=True)
if drc.returncode in (3, 4):
    why = drc.stderr.strip().removeprefix("redscope: ")[:40]
    t = Tmux(EXE, cols=160, rows=40, env=UTF8)
    try:
        check(t.wait_for("Ladder", 20) is not None, "the explorer starts without a GPU")
        t.wait_for(why, 10)
        t.keys("c")  # another status first, so what G writes is not the start's
        t.wait_for("cross-GPU finish p2p", 5)
        t.keys("G")
        s = t.wait_for(why, 5) or t.screen()
        check(why in status_line(s) and "one GPU" not in status_line(s),
              f"G without a GPU: why there is none ({why})", s)
        t.keys("q")
        check(t.exit_code() == 0 and t.terminal_restored(), "q quits, the terminal restored")
    finally:
        t.close()

check.finish()
