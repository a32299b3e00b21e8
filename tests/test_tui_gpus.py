#!/usr/bin/env python3
"""Several GPUs in the explorer, in a real terminal (tmux), from a recording
of one H200 (conf/recordings/h200-demo.jsonl): c steps the cross-GPU finish
and says what it does; G says a recording of one GPU has nothing to spread
over; the help lists G and c; q quits with the terminal restored. The header and a run
over several GPUs are tested live where there are two (test_gpu_split.py):
a recording of one GPU cannot hold them."""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from clitest import Checks  # noqa: E402
from tuitest import Tmux, status_line  # noqa: E402

EXE = os.environ["REDSCOPE"]
REC = os.path.join(os.environ["REDSCOPE_SOURCE"], "conf", "recordings", "h200-demo.jsonl")
UTF8 = {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color"}
check = Checks("test_tui_gpus")

t = Tmux(f"{EXE} --replay {REC}", cols=140, rows=36, env=UTF8)
try:
    check(t.wait_for("Ladder", 20) is not None, "the explorer starts on the recording")
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

check.finish()
