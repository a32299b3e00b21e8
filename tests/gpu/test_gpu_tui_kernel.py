#!/usr/bin/env python3
"""On the GPU: your own kernel in the live explorer (tmux), edited while it
runs. K loads a copy of conf/kernels/template.cu from a temporary folder,
Enter runs it (exact); the copy is rewritten (conf/kernels/fast.cu's text)
and the explorer runs it again by itself, showing the previous version
against the new one; a syntax error shows "file:LINE: error" with its line
and caret in Why and its first line in the status; an out-of-bounds store
(tests/data/kernels/oob.cu) shows the fault in the status line and Why; a
built-in variant still runs after it; q quits cleanly. Prints the time
from each save to its result on screen ("save-to-result: X.XX s")."""
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import Checks, skip_without_gpu  # noqa: E402
from tuitest import Tmux, status_line  # noqa: E402

check = Checks("test_gpu_tui_kernel")
EXE = os.environ["REDSCOPE"]
SRC = os.environ["REDSCOPE_SOURCE"]
KERNELS = os.path.join(SRC, "conf", "kernels")
skip_without_gpu()


def save(path, text):
    """A save as an editor makes it: a new file renamed over the old one."""
    tmp = path + ".part"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)
    return time.time()


def wait_screen(t, cond, timeout):
    end = time.time() + timeout
    while time.time() < end and not t.exited():
        s = t.screen()
        if cond(s):
            return s
        time.sleep(0.05)
    return None


def idle(s):
    line = status_line(s)
    return "running" not in line and "working" not in line


tmp = tempfile.mkdtemp(prefix="rs_gpu_kernel_")
mine = os.path.join(tmp, "mine.cu")
template = open(os.path.join(KERNELS, "template.cu")).read()
shutil.copy(os.path.join(KERNELS, "template.cu"), mine)
t = Tmux(f"{EXE} --n 2^24", cols=120, rows=44,
         env={"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color"})
try:
    s = t.wait_for("peak", 90)
    check(s is not None, "the live explorer opens the GPU", t.screen())
    t.keys("K", "C-u", *mine, "Enter")
    s = wait_screen(t, lambda x: "kernel mine.cu: Enter runs it" in status_line(x), 5)
    check(s is not None, "K sets the copy of the template", t.screen())

    # 1. Enter compiles and runs it: exact, with its build facts
    t.keys("Enter")
    s = wait_screen(t, lambda x: "exact" in x and idle(x), 180)
    check(s is not None and "Built: entry reduce" in s,
          "Enter runs the kernel: exact, and Why says how it built", s or t.screen())
    print(s or t.screen())

    # 2. a new version: run by itself on save, compared with the one before
    fast = open(os.path.join(KERNELS, "fast.cu")).read()
    t0 = save(mine, fast)
    s = wait_screen(t, lambda x: "Previous version:" in x and idle(x), 180)
    dt = time.time() - t0
    check(s is not None and "exact" in s and "Built: entry reduce_fast" in s,
          "a save runs the new version by itself and compares it with the previous one",
          s or t.screen())
    print(s or t.screen())
    print(f"save-to-result: {dt:.2f} s (the template rewritten as fast.cu, counters on)")

    # 3. the same version with a comment changed: runs again, still compared
    t0 = save(mine, fast + "// a comment changed\n")
    s = wait_screen(t, lambda x: "mine.cu changed" in status_line(x) or not idle(x), 10)
    s = wait_screen(t, lambda x: "Previous version:" in x and idle(x) and "exact" in x, 180)
    dt = time.time() - t0
    check(s is not None, "a comment changed runs it again", t.screen())
    print(f"save-to-result: {dt:.2f} s (a comment changed)")

    # 4. a syntax error: file:LINE: error, its line and caret in Why
    lines = template.splitlines()
    at = next(i for i, l in enumerate(lines) if "__syncthreads();" in l)
    lines[at] = lines[at].replace("__syncthreads();", "__syncthreads()")
    t0 = save(mine, "\n".join(lines) + "\n")
    s = wait_screen(t, lambda x: "error" in status_line(x) and idle(x), 120)
    dt = time.time() - t0
    print(s or t.screen())
    want = "mine.cu:%d: error" % (at + 2)  # NVRTC names the line after the missing ';'
    check(s is not None and want in status_line(s), f"the status shows '{want}'", s or t.screen())
    check(s is not None and want in s.split("Why")[-1] and "^" in s.split("Why")[-1],
          "Why shows the whole error: file:line, the source line and the caret", s)
    print(f"save-to-result: {dt:.2f} s (a syntax error)")

    # 5. a fault: said in the status and Why; the explorer goes on
    t0 = save(mine, open(os.path.join(SRC, "tests", "data", "kernels", "oob.cu")).read())
    s = wait_screen(t, lambda x: "reduce_oob" in status_line(x) and idle(x), 180)
    print(s or t.screen())
    check(s is not None, "a faulting kernel: the status line names the fault", t.screen())
    check(s is not None and "stopped on the GPU" in s, "Why shows the fault", s)
    print(f"save-to-result: {time.time() - t0:.2f} s (a fault)")
    for _ in range(12):  # up to sequential (step 4): a built-in variant after the fault
        t.keys("Up")
        if "4 sequential" in "".join(l[:40] for l in t.screen().splitlines() if "\u25b6" in l):
            break
    t.keys("Enter")
    s = wait_screen(t, lambda x: "exact" in x and idle(x) and "sequential" in x.splitlines()[1],
                    180)
    check(s is not None, "a built-in variant runs after the fault (a fresh GPU process)",
          t.screen())
    t.keys("q")
    if t.wait_for("q again", 2):
        t.keys("q")
    code = t.exit_code(60)
    check(code == 0, f"q quits with 0, not {code}", t.screen())
    if code == 0:
        check(t.terminal_restored(), "the terminal is restored after q")
finally:
    t.close()
    shutil.rmtree(tmp, ignore_errors=True)
check.finish()
