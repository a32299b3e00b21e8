#!/usr/bin/env python3
"""The explorer in a real terminal (tmux), replaying the shipped H200
recording: start, move, change type and n, every screen, resize, quit, the
ASCII and monochrome fallbacks, and a terminal restored after SIGTERM."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(__file__))
from tuitest import Tmux  # noqa: E402

EXE = os.environ["REDSCOPE"]
REC = os.path.join(os.environ["REDSCOPE_SOURCE"], "conf", "recordings", "h200-demo.jsonl")
failures, checks = [], 0
UTF8 = {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color"}


def colors(escapes):
    """SGR color parameters (30-37, 40-47, 38, 48, 90-97, 100-107) in a capture."""
    found = []
    for params in re.findall(r"\x1b\[([0-9;]*)m", escapes):
        for p in params.split(";"):
            if p.isdigit() and (30 <= int(p) <= 38 or 40 <= int(p) <= 48 or 90 <= int(p) <= 107):
                found.append(p)
    return found


def check(cond, what, screen=None):
    global checks
    checks += 1
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)
        if screen:
            print(screen, file=sys.stderr)


def main_session():
    t = Tmux(f"{EXE} --replay {REC}", cols=120, rows=44, env=UTF8)
    try:
        s = t.wait_for("REPLAY")
        check(s is not None, "starts and shows the recording's device", t.screen())
        check("NVIDIA H" in (s or ""), "the header names the GPU", s)
        check("\u25b6 4 sequential" in (s or ""), "the ladder list, sequential selected", s)
        t.keys("Enter")
        s = t.wait_for("\u2713")
        check(s and "GB/s" in s and "of 48" in s, "Enter shows the recorded result", s)
        t.keys("k", "Enter", "j")
        s = t.wait_for("Counters (vs interleaved_strided)")
        check(s and "Bank conflicts" in s and "32 different banks" in s,
              "why quotes the bank conflicts against the previous step", s)
        t.keys("j", "Enter")
        s = t.wait_for("Counters (vs sequential)")
        check(s is not None, "first_add's counters against sequential", t.screen())
        check(s and "warp instructions" in s and "\u25bc" in s, "a drop is marked", s)
        t.resize(80, 24)
        s = t.wait_for("Counters (vs sequential)")
        check(s and "warp instructions" in s, "at 80x24 the step's own counter comes first", s)
        t.resize(120, 44)
        t.keys("t", "t")
        s = t.wait_for("float32")
        check(s is not None, "t changes the type", t.screen())
        t.keys("n")
        check(t.wait_for("n (16777216") is not None, "n opens a prompt", t.screen())
        t.keys("BSpace", "BSpace", "BSpace", "BSpace", "x", "Enter")
        s = t.wait_for("bad value")
        check(s is not None, "a bad n is refused in the prompt", t.screen())
        t.keys("BSpace", "2", "^", "2", "8", "Enter")
        s = t.wait_for("2^28")
        check(s and "bad value" not in s, "n 2^28 set", s)
        t.keys("Enter")
        s = t.wait_for("\u2713")
        check(s is not None and "2^28" in s, "the float32 2^28 result from the recording", t.screen())
        t.keys("L")
        check(t.wait_for("Ladder \u00b7 float32") is not None, "the ladder screen", t.screen())
        t.keys("Enter")
        s = t.wait_for("vectorized", 10)
        s = t.wait_for("thrust", 10)
        check(s and s.count("\u2713") >= 10, "the ladder fills in from the recording", s)
        check(s and "\u00d71.00" in s, "cumulative speedups", s)
        t.keys("C")
        s = t.wait_for("ratio a/b")
        check(s is not None, "the compare screen", t.screen())
        t.keys("S")
        s = t.wait_for("crossover", 5) or t.wait_for("fastest", 5)
        check(s is not None and "a atomic" in s, "the sweep chart with its legend", t.screen())
        check(s and any(chr(c) in s for c in range(0x2801, 0x2900)), "braille dots", s)
        t.keys("y")
        check(t.wait_for("GB/s \u2500") is not None or "GB/s" in t.screen(), "y shows GB/s")
        t.keys("Right", "Right")
        check("n = " in t.screen(), "the cursor reads values")
        t.keys("Escape", "P")
        s = t.wait_for("harris-2007")
        check(s is not None and "shipped" in s, "the presets list", t.screen())
        t.keys("Escape", "?")
        s = t.wait_for("every key")
        check(s is not None and "quit" in s, "the help screen", t.screen())
        t.keys("Escape")
        t.resize(60, 15)
        s = t.wait_for("too small")
        check(s is not None, "a too small window says so", t.screen())
        t.resize(100, 30)
        check(t.wait_for("Ladder") is not None, "back after resizing", t.screen())
        t.keys("q")
        check(t.exit_code() == 0, "q quits with 0")
        check(t.terminal_restored(), "the terminal is restored after q")
    finally:
        t.close()


def ascii_and_mono():
    t = Tmux(f"{EXE} --replay {REC} --no-color", env={"LANG": "C", "LC_ALL": "C",
                                                      "TERM": "xterm-256color"})
    try:
        s = t.wait_for("REPLAY")
        check(s and "+-" in s and "\u2500" not in s and "\u2502" not in s,
              "ASCII boxes when the locale is not UTF-8", s)
        esc = t.screen(escapes=True)
        check(not colors(esc), "no colors under --no-color", str(colors(esc)))
        t.keys("q")
        check(t.exit_code() == 0, "ascii session quits")
    finally:
        t.close()
    t = Tmux(f"{EXE} --replay {REC}", env=UTF8)
    try:
        t.wait_for("REPLAY")
        check(colors(t.screen(escapes=True)), "colors by default")
        t.close()
    finally:
        t.close()
    t = Tmux(f"{EXE} --replay {REC}", env=dict(UTF8, NO_COLOR="1"))
    try:
        t.wait_for("REPLAY")
        esc = t.screen(escapes=True)
        check(not colors(esc), "no colors under NO_COLOR", str(colors(esc)))
    finally:
        t.close()


def sigterm():
    t = Tmux(f"{EXE} --replay {REC}", env=UTF8)
    try:
        t.wait_for("REPLAY")
        pid = t.pid()
        check(pid is not None, "found the process")
        if pid:
            os.kill(pid, 15)
        check(t.exit_code() == 143, "SIGTERM exits with 143")
        check(t.terminal_restored(), "the terminal is restored after SIGTERM")
    finally:
        t.close()


def no_gpu():
    if os.system(f"{EXE} devices >/dev/null 2>&1") == 0:
        return  # a GPU is here: test_gpu_tui.py covers the live explorer
    t = Tmux(f"{EXE}", env=UTF8)
    try:
        s = t.wait_for("no CUDA device")
        check(s is not None and "press R to replay" in s, "without a GPU it says why and offers "
              "replay", t.screen())
        t.keys("R")
        check(t.wait_for("REPLAY") is not None, "R replays the shipped recording", t.screen())
        t.keys("q")
        check(t.exit_code() == 0, "quits")
    finally:
        t.close()


main_session()
ascii_and_mono()
sigterm()
no_gpu()
print(f"test_tui: {checks} checks, {len(failures)} failed")
sys.exit(1 if failures else 0)
