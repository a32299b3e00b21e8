#!/usr/bin/env python3
"""No reader on the UI thread (issue 41, point 1): a large recording held
against (A on the Recording screen) is read while the explorer goes on
drawing and taking keys, then held; one that cannot be read says why in
the status line. The recording is the shipped H200 demo's ladder rows,
repeated under other seeds to about 90 MB."""
import json
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import Checks  # noqa: E402
from tuitest import UTF8, Tmux, status_line  # noqa: E402

EXE = os.environ["REDSCOPE"]
DEMO = os.path.join(os.environ["REDSCOPE_SOURCE"], "conf", "recordings", "h200-demo.jsonl")
check = Checks("test_tui_reader")
tmp = tempfile.mkdtemp(prefix="rs_reader_")
big = os.path.join(tmp, "big.jsonl")
lines = open(DEMO, encoding="utf-8").read().splitlines()
rows = [json.loads(l) for l in lines[1:] if json.loads(l).get("command") == "ladder"]
with open(big, "w", encoding="utf-8") as f:
    f.write(lines[0] + "\n")
    for k in range(10000 // len(rows) + 1):
        for r in rows:
            r["request"]["seed"] = str(1000 + k)
            f.write(json.dumps(r) + "\n")
bad = os.path.join(tmp, "bad.jsonl")
with open(bad, "w", encoding="utf-8") as f:
    f.write(lines[0] + "\n{\"request\": 5}\n")

t = Tmux(f"{EXE} --replay {DEMO}", cols=120, rows=40, env=UTF8)
try:
    t.wait_for("REPLAY")
    t.keys("R")
    t.wait_for("Recording")
    t.keys("A", "C-u", big, "Enter")
    s = t.wait_for("reading big.jsonl", 5) or t.screen()
    check("reading big.jsonl to hold against" in status_line(s),
          "A: the file is read off the UI thread, and the status says so", s)
    t.keys("Escape", "t")  # keys work while it is read: the type steps on
    s = t.wait_for("type int64", 5) or t.screen()
    reading = "against big.jsonl" not in status_line(s)
    check("type int64" in status_line(s) and reading,
          "a key during the read is taken at once, before the file is held", s)
    s = t.wait_for("against big.jsonl:", 120) or t.screen()
    check("against big.jsonl: the Ladder screen's vs A column" in status_line(s),
          "once read, the file is held against", s)
    t.keys("R", "A", "C-u", bad, "Enter")
    s = t.wait_for("not held against", 10) or t.screen()
    check("not held against:" in status_line(s) and "bad.jsonl" in status_line(s),
          "a file that cannot be read: said in the status line", s)
    t.keys("q")
    check(t.exit_code() == 0 and t.terminal_restored(), "q quits, the terminal restored")
finally:
    t.close()
    shutil.rmtree(tmp, ignore_errors=True)
check.finish()
