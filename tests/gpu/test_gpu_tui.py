#!/usr/bin/env python3
"""On the GPU: the explorer in a real terminal (tmux) starts with counters
on (the default set), runs a live ladder (the rows appear, correct), a run
with counters against the previous step, and a live sweep whose chart and
crossovers appear, and the Source screen of a run sampled live; q quits
cleanly. Prints the screens."""
import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import skip_without_gpu  # noqa: E402
from tuitest import Tmux  # noqa: E402

EXE = os.environ["REDSCOPE"]
skip_without_gpu()
failures = []
t = Tmux(f"{EXE} --n 2^22", cols=120, rows=32,
         env={"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color"})
try:
    s = t.wait_for("counters default (2 passes)", 60)
    if not s:
        failures.append("the explorer starts with the default counter set, and says so")
        print(t.screen())
    t.keys("L", "Enter")
    end = time.time() + 240
    while time.time() < end and not t.exited():
        s = t.screen()
        if "thrust" in s and s.count("\u2713") + s.count("\u2717") >= 14 and "working" not in s:
            break
        time.sleep(0.5)
    print(s)
    rows = [l for l in s.splitlines() if "\u2713" in l or "\u2717" in l]
    if len(rows) < 14:
        failures.append(f"14 ladder rows expected, {len(rows)} shown")
    wrong = [l for l in rows if "\u2717" in l and "unroll_warp_volatile" not in l]
    if wrong:
        failures.append(f"wrong rows: {wrong}")
    t.keys("Escape", "j", "Enter")
    s = t.wait_for(" done", 90)
    if not s or "Counters (vs sequential)" not in s:
        failures.append("a live run in the explorer shows counters against the previous step")
    print(s or t.screen())
    # a live sweep over a short range: the chart, its legend and crossovers
    t.keys("S", "g")
    t.wait_for("sweep range")
    t.keys("C-u", *"2^12..2^22:4", "Enter", "Enter")
    end = time.time() + 240
    while time.time() < end and not t.exited():
        s = t.screen()
        if "fastest" in s and "working" not in s and "running" not in s:
            break
        time.sleep(0.5)
    print(s)
    if "fastest" not in s or not any(chr(c) in s for c in range(0x2801, 0x2900)):
        failures.append("a live sweep draws its chart and names the fastest variants")
    # the Source screen live: first_add sampled where its warps wait
    t.keys("Escape", "W")
    s = t.wait_for("Enter runs it with PC sampling", 10)
    if not s:
        failures.append("the Source screen says how to sample a result that has no view")
    t.keys("Enter")
    s = t.wait_for("dropped, every 2^", 90)
    print(s or t.screen())
    hot = [l for l in (s or "").splitlines() if ">" in l and "%" in l]
    if not hot or not any("long scoreboard" in l for l in hot):
        failures.append("a live Source screen marks first_add's load wait among its hottest lines")
    t.keys("s")  # the SASS of the hottest line, with nvdisasm (the GPU machines have it)
    s = t.wait_for("SASS of ", 20) or t.screen()
    print(s)
    at = s.find("SASS of ")
    rows = re.findall(r"│ ([0-9a-f]{4}) +([0-9.]+)%  (\S+)", s[at:]) if at >= 0 else []
    total = sum(float(r[1]) for r in rows)
    if not rows or not 99.0 <= total <= 101.0:
        failures.append(f"s shows the SASS of the cursor's line, its instructions' shares adding "
                        f"up to the line's samples: {len(rows)} rows, {total:.1f}%")
    t.keys("s")
    t.keys("Escape")
    t.keys("q")
    if t.wait_for("q again", 2):
        t.keys("q")
    code = t.exit_code(60)
    if code != 0:
        failures.append(f"q quits with 0, not {code}")
    elif not t.terminal_restored():
        failures.append("the terminal is restored after q")
finally:
    t.close()
for f in failures:
    print("FAIL:", f, file=sys.stderr)
print(f"test_gpu_tui: {len(failures)} failed")
sys.exit(1 if failures else 0)
