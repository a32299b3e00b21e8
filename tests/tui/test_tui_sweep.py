#!/usr/bin/env python3
"""The Sweep screen in a real terminal (tmux): a chart with nothing to plot
never hangs the explorer (S y t Enter, a recorded sweep with no usable row,
a live sweep before its first result); at 80x24, 100x30 and 160x50 (one
session, resized), in UTF-8, monochrome and ASCII, the x labels stay inside
the plot and apart, the cursor is a vertical line that moves, every series
keeps a mark of its own that the legend explains, the crossovers name the
CPU, nothing in the frame is cut, and the title shows the current settings
while a note names the chart's own when they differ. Every check names what
a user would see go wrong."""
import json
import math
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tuitest import Tmux  # noqa: E402

EXE = os.environ["REDSCOPE"]
REC = os.path.join(os.environ["REDSCOPE_SOURCE"], "conf", "recordings", "h200-demo.jsonl")
UTF8 = {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color"}
ASCII = {"LANG": "C", "LC_ALL": "C", "TERM": "xterm-256color"}
MONO = dict(UTF8, NO_COLOR="1")
SIZES = [(80, 24), (100, 30), (160, 50)]
NAMES = ["atomic", "first_add", "multi_element", "vectorized", "cub", "cpu"]
MARKS = {"utf8": "\u25cf\u25cb\u25a0\u25a1\u25b2\u25b3", "ascii": "oxs+ad"}
BARS = "\u2502|"
LABEL_ROW = re.compile(r"^\s*2\^\d+(?:\s+2\^\d+)*\s*$")
Y_MARGIN = re.compile(r"^\s*(?:[\d.e+]+(?: (?:\u00b5s|us|ns|ms|s))?)?\s*$")
UNIT = {"s": 1, "ms": 1e-3, "\u00b5s": 1e-6, "us": 1e-6, "ns": 1e-9, None: 1}
MARGIN = 11  # inside the frame: a blank, the y labels (8), two blanks; then the plot
failures, checks = [], 0


def check(cond, what, screen=None):
    global checks
    checks += 1
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)
        if screen:
            print(screen, file=sys.stderr)


def colors(escapes):
    """SGR color parameters in a capture."""
    found = []
    for params in re.findall(r"\x1b\[([0-9;]*)m", escapes):
        for p in params.split(";"):
            if p.isdigit() and (30 <= int(p) <= 38 or 40 <= int(p) <= 48 or 90 <= int(p) <= 107):
                found.append(p)
    return found


def box(s):
    """The Sweep screen's rows, frame included, from its title to its bottom edge."""
    lines = (s or "").splitlines()
    top = next((i for i, l in enumerate(lines) if re.match(r"^(\u250c\u2500|\+-) Sweep", l)), None)
    if top is None:
        return []
    bottom = next((i for i in range(top + 1, len(lines)) if lines[i][:1] in "\u2514+"), None)
    return lines[top:bottom + 1] if bottom is not None else []


def chart(rows):
    """(plot rows, x-label row, rows below) of the chart, inside the frame."""
    inner = [r[1:-1] for r in rows[1:-1]]
    at = next((i for i, r in enumerate(inner) if "2^" in r and not any(
        k in r for k in ("range", "measured", "fastest", "n =", "crossovers"))), None)
    if at is None:
        return [], "", []
    top = at
    while top > 0 and Y_MARGIN.match(inner[top - 1][:MARGIN]):
        top -= 1
    return inner[top:at], inner[at], inner[at + 1:]


def y_labels_whole(plot):
    """The y labels, top to bottom: each a power of ten (two labels on one
    row would read "101.00 s"), each below the one above."""
    values = []
    for r in plot:
        label = r[:MARGIN].strip()
        m = re.fullmatch(r"([\d.]+)(?: (s|ms|\u00b5s|us|ns))?", label)
        if label and not m:
            return False
        if m and m.group(2) and "." in m.group(1):  # 1 ms and 10 \u00b5s, not 1.00 ms
            return False
        if m:
            v = float(m.group(1))
            if v <= 0 or abs(math.log10(v) - round(math.log10(v))) > 1e-9:
                return False
            values.append(v * UNIT[m.group(2)])
    return len(values) >= 2 and all(a > b for a, b in zip(values, values[1:]))


def cursor_cols(plot):
    return {i for r in plot for i, ch in enumerate(r) if i >= MARGIN and ch in BARS}


def quits(t, what, screen=None):
    t.keys("q")
    code = t.exit_code(5)
    if code is None:  # a run may ask first: q again
        t.keys("q")
        code = t.exit_code(5)
    check(code in (0, 130), f"{what}: q quits within seconds (exit {code})", screen or t.screen())
    if code is None:  # hung: leave no process spinning behind the test
        shell = t.tmux("list-panes", "-F", "#{pane_pid}", "-t", t.name).split()
        kids = subprocess.run(["pgrep", "-P", shell[0]], capture_output=True,
                              text=True).stdout.split() if shell else []
        for pid in kids:
            os.kill(int(pid), signal.SIGKILL)


def recording(path, edit):
    """The shipped recording's sweep rows, each changed by edit(row), after its header."""
    lines = open(REC).read().splitlines()
    rows = [json.loads(l) for l in lines[1:] if json.loads(l).get("command") == "sweep"]
    with open(path, "w") as f:
        f.write(lines[0] + "\n")
        for r in rows:
            for out in edit(r):
                f.write(json.dumps(out) + "\n")
    return path


# --- (1) no input makes a drawing loop unbounded --------------------------

def hang_keys():
    """S y t Enter once hung the chart (GB/s, no plottable point)."""
    t = Tmux(f"{EXE} --replay {REC}", cols=80, rows=24, env=UTF8)
    try:
        t.wait_for("REPLAY")
        t.keys("S", "y", "t", "Enter")
        time.sleep(0.5)
        t.keys("y")
        s = t.wait_for("Sweep \u00b7 time", 5)
        check(s is not None, "after S y t Enter the screen still redraws (y back to time)",
              t.screen())
        quits(t, "after S y t Enter")
    finally:
        t.close()


def no_usable_row():
    """A recorded sweep where every row is wrong and no CPU time was taken:
    the chart opens with nothing to plot, in both views."""
    def wrong(r):
        r["correct"] = False
        r["bad_reps"] = r["time_ms"]["reps"]  # a wrong row missed on its repetitions
        r["cpu_ms"] = 0
        return [r]
    path = recording(os.path.join(tempfile.mkdtemp(), "wrong.jsonl"), wrong)
    t = Tmux(f"{EXE} --replay {path}", cols=80, rows=24, env=UTF8)
    try:
        s = t.wait_quiet("Sweep \u00b7 time")
        check(s is not None and "crossovers appear" in s, "a sweep with no usable row opens",
              t.screen())
        t.keys("y")
        s = t.wait_quiet("Sweep \u00b7 GB/s", 5)
        check(s is not None, "y on an empty chart redraws in GB/s", t.screen())
        plot, labels, _ = chart(box(s))
        ylabels = [r[:MARGIN].strip() for r in plot if r[:MARGIN].strip()]
        check(len(ylabels) >= 2 and labels.strip().startswith("2^10"),
              f"the empty chart has its axes ({ylabels})", s)
        check(len(cursor_cols(plot)) == 1, "the empty chart shows the cursor line", s)
        quits(t, "empty chart")
    finally:
        t.close()


def live_before_first_result():
    """A live sweep (the CPU variant runs anywhere) in GB/s before its first result."""
    t = Tmux(f"{EXE} --variant cpu --variants cpu", cols=80, rows=24, env=UTF8)
    try:
        time.sleep(1.0)
        t.keys("S", "y", "g", "C-u", *"2^24..2^26", "Enter")
        check(t.wait_for("Sweep \u00b7 GB/s", 10) is not None, "the live Sweep screen in GB/s",
              t.screen())
        t.keys("Enter")
        time.sleep(0.3)
        t.keys("Left")
        s = t.wait_for("crossovers appear", 5) or t.screen()
        check(box(s) and LABEL_ROW.match(chart(box(s))[1] or "x"),
              "the live chart is drawn before its first result", s)
        quits(t, "live sweep")
    finally:
        t.close()


def enter_while_running():
    """Enter on another range while a sweep runs: refused, and the running
    sweep fills its own chart to the end (it used to be replaced under it)."""
    t = Tmux(f"{EXE} --variant cpu --variants cpu --reps 3", cols=100, rows=30, env=UTF8)
    try:
        time.sleep(1.0)
        t.keys("S", "g", "C-u", *"2^24..2^28", "Enter", "Enter")
        check(t.wait_for("working", 10) is not None, "the CPU sweep runs", t.screen())
        t.keys("g", "C-u", *"2^10", "Enter", "Enter")
        s = t.wait_for("n = 2^28:", 90) or t.screen()
        for _ in range(100):  # the last row lands a moment before the job's end (2 loaded cores)
            if s.splitlines()[-2].strip() == "done":
                break
            time.sleep(0.2)
            s = t.screen()
        check("n = 2^28:" in s and "(2^24 to 2^28)" in s and s.splitlines()[-2].strip() == "done",
              "the running sweep ends whole, then says done", s)
        quits(t, "after a refused sweep")
    finally:
        t.close()


# --- (5) the chart at three sizes, in colour, monochrome and ASCII --------

def legend_marks(below):
    """{name: mark} from the legend rows (those before the crossovers)."""
    text = []
    for r in below:
        if "fastest" in r or "crossovers" in r:
            break
        text.append(r)
    text = "  ".join(text)
    found = {m.group(2): m.group(1)
             for m in re.finditer(r"(?:^|\s)(\S) (" + "|".join(NAMES) + r")\b", text)}
    return found, text


def unexplained(body, marks, several):
    """Characters in the plot that are neither a legend mark, '*' (when the
    legend says "several"), a line (braille, '.', '-') nor the cursor."""
    lines = {".", "-", " "} | set(BARS) | ({"*"} if several else set())
    return {c for c in body if c not in marks and c not in lines and
            not 0x2800 <= ord(c) <= 0x28ff}


def check_chart(t, where, marks):
    s = t.wait_quiet("fastest") or t.screen()
    rows = box(s)
    check(len(rows) > 10, f"{where}: the Sweep screen", s)
    if len(rows) <= 10:
        return
    width = len(rows[0])
    check(all(len(r) == width and r[0] in BARS and r[-1] in BARS for r in rows[1:-1]),
          f"{where}: nothing leaves the frame or overwrites it", s)
    check(not any("\u2026" in r or "~" in r for r in rows),
          f"{where}: nothing in the Sweep screen is cut", s)
    title = rows[0]
    check(all(k in title for k in ("float64", "sum", "256", "atomic", "5 reps")),
          f"{where}: the title shows type, op, block, finish and reps", title)
    check("counters none" in title or "counters none" in rows[1],
          f"{where}: the counters set is shown", "\n".join(rows[:2]))
    plot, labels, below = chart(rows)
    check(len(plot) >= 6, f"{where}: a plot of {len(plot)} rows with whole y labels", s)
    check(labels[:MARGIN].strip() == "", f"{where}: no x label left of the plot", labels)
    check(y_labels_whole(plot), f"{where}: y labels whole, one a row, decreasing", s)
    tokens = [(m.start(), m.group()) for m in re.finditer(r"\S+", labels)]
    check(len(tokens) >= 4 and all(re.fullmatch(r"2\^\d+", w) for _, w in tokens),
          f"{where}: x labels never touch or overlap ({[w for _, w in tokens]})", labels)
    found, legend = legend_marks(below)
    check([found.get(n) for n in NAMES] == list(marks),
          f"{where}: the legend gives each series its own mark ({found})", legend)
    body = "".join(r[MARGIN:] for r in plot)
    seen = {m for m in marks if m in body}
    check(len(seen) >= 4 and {marks[0], marks[1], marks[5]} <= seen,
          f"{where}: the series' marks are in the plot ({''.join(sorted(seen))})", s)
    if where.startswith("80x24"):  # multi_element, vectorized and cub share cells there
        check("*" in body and "* several" in legend, f"{where}: shared cells say '*'", s)
    odd = unexplained(body, set(marks), "* several" in legend)
    check(not odd, f"{where}: every mark in the plot is in the legend {odd}", s)
    joined = re.sub(r"\s+", " ", " ".join(below))
    check("cpu (1 thread) fastest up to 2^13; multi_element from 2^14 to 2^18; cub from 2^19 on"
          in joined, f"{where}: the crossovers cover the CPU series", joined)
    return plot, tokens


def cursor_moves(t, where):
    before = chart(box(t.screen()))[0]
    m1 = re.search(r"n = (2\^\d+):", t.screen())
    t.keys("Right", "Right")
    s = t.wait_quiet("fastest") or t.screen()
    plot, labels, _ = chart(box(s))
    m2 = re.search(r"n = (2\^\d+):", s)
    c1, c2 = cursor_cols(before), cursor_cols(plot)
    check(len(c1) == 1 and len(c2) == 1 and min(c2) > min(c1),
          f"{where}: the cursor is a vertical line that moves right ({c1} to {c2})", s)
    if len(c2) == 1 and m1 and m2:
        col = min(c2)
        column = "".join(r[col] for r in plot)
        check(any(ch not in BARS and ch != " " for ch in column),
              f"{where}: the data's marks at the cursor's n stay over its line ({column})", s)
        under = next((w for w in re.finditer(r"2\^\d+", labels)
                      if w.start() <= col < w.end()), None)
        check(under is not None and under.group() == m2.group(1) and m1.group(1) != m2.group(1),
              f"{where}: the cursor line stands on its n ({m1.group(1)} to {m2.group(1)})", s)


def chart_sizes():
    for env, kind, name in [(UTF8, "utf8", "UTF-8"), (MONO, "utf8", "NO_COLOR"),
                            (ASCII, "ascii", "LANG=C")]:
        t = Tmux(f"{EXE} --replay {REC}", cols=80, rows=24, env=env)
        try:
            t.wait_for("REPLAY")
            t.keys("R", "Up", "Enter")
            for cols, rows in SIZES:
                t.resize(cols, rows)
                where = f"{cols}x{rows} {name}"
                check_chart(t, where, MARKS[kind])
                cursor_moves(t, where)
            painted = colors(t.screen(escapes=True))
            check(bool(painted) == (env is not MONO),
                  f"{name}: colors as an extra cue, none under NO_COLOR ({len(painted)} codes)")
            quits(t, name)
        finally:
            t.close()


def other_settings():
    """After t the title shows the new type and a note the chart's own."""
    for cols, rows in SIZES:
        t = Tmux(f"{EXE} --replay {REC}", cols=cols, rows=rows, env=UTF8)
        try:
            t.wait_for("REPLAY")
            t.keys("R", "Up", "Enter")
            t.wait_quiet("fastest")
            t.keys("t")
            s = t.wait_quiet("chart measured with", 5)
            rows_ = box(s)
            where = f"{cols}x{rows}"
            check(rows_ and "float16" in rows_[0] and "float64" not in rows_[0],
                  f"{where}: after t the title shows the current type", s)
            text = re.sub(r"\s+", " ", " ".join(r[1:-1] for r in rows_[1:4]))
            check("chart measured with float64 sum" in text and "finish atomic" in text
                  and "5 reps" in text and "Enter looks up the current configuration" in text,
                  f"{where}: a note names the chart's settings", text)
            check(not any("\u2026" in r for r in rows_), f"{where}: the note is not cut", s)
            t.keys("T")
            s = t.wait_quiet("float64", 5) or ""
            check("chart measured" not in s, f"{where}: back to float64, no note", s)
            quits(t, where)
        finally:
            t.close()


def many_series():
    """Fourteen variants and the CPU: fifteen marks, all different, all explained."""
    names = ["atomic", "interleaved", "interleaved_strided", "sequential", "first_add",
             "unroll_warp_volatile", "unroll_warp", "unrolled", "multi_element", "warp_shuffle",
             "cooperative_groups", "vectorized", "cub", "thrust"]

    def clone(r):
        if r["request"]["variant"] != "atomic":
            return []
        out = []
        for j, name in enumerate(names):
            c = json.loads(json.dumps(r))
            c["request"]["variant"] = name
            c["request"]["variants"] = ",".join(names)
            f = 1.8 ** j  # apart, so most marks have cells of their own
            c["time_ms"] = {k: v * f if k != "reps" else v for k, v in c["time_ms"].items()}
            c["gbps"] /= f
            c["pct_peak"] /= f  # every figure from its parts, as a recording holds them
            c["pct_measured"] /= f
            out.append(c)
        return out
    path = recording(os.path.join(tempfile.mkdtemp(), "many.jsonl"), clone)
    for env, name in [(UTF8, "UTF-8"), (ASCII, "LANG=C")]:
        t = Tmux(f"{EXE} --replay {path}", cols=80, rows=24, env=env)
        try:
            for cols, rows in [(80, 24), (160, 50)]:
                t.resize(cols, rows)
                s = t.wait_quiet("fastest") or t.screen()
                rows_ = box(s)
                where = f"{cols}x{rows} {name}, 15 series"
                plot, _, below = chart(rows_)
                text = "  ".join(below)
                found = dict((m.group(2), m.group(1)) for m in re.finditer(
                    r"(?:^|\s)(\S) (" + "|".join(names + ["cpu"]) + r")\b", text))
                check(len(found) == 15 and len(set(found.values())) == 15,
                      f"{where}: fifteen different marks in the legend ({found})", s)
                check(not any("\u2026" in r or "~" in r for r in rows_),
                      f"{where}: legend and values wrap, nothing is cut", s)
                check(y_labels_whole(plot), f"{where}: y labels whole, one a row, decreasing", s)
                body = "".join(r[MARGIN:] for r in plot)
                seen = {m for m in found.values() if m in body}
                check(unexplained(body, set(found.values()), "* several" in text) == set(),
                      f"{where}: every mark in the plot is in the legend", s)
                if cols >= 160:  # at 80x24 fifteen series share most cells ('*')
                    check(len(seen) >= 12,
                          f"{where}: the plot carries the legend's marks ({len(seen)} seen)", s)
            quits(t, name)
        finally:
            t.close()


def limit_at_cursor():
    """In GB/s the legend names the measured limit and the cursor's values
    read as a share of it."""
    t = Tmux(f"{EXE} --replay {REC}", cols=140, rows=32, env=UTF8)
    try:
        t.wait_for("REPLAY")
        t.keys("R", "Up", "Enter")
        t.wait_quiet("fastest")
        t.keys("y")
        s = t.wait_quiet("Sweep \u00b7 GB/s") or t.screen()
        check(re.search(r"streaming read 4\d{3} GB/s \(measured\)", s),
              "GB/s: the legend names the recorded limit beside the peak", s)
        check(re.search(r"\d+ GB/s \d+%", s),
              "GB/s: the cursor's values carry their % of the limit", s)
        quits(t, "limit")
    finally:
        t.close()


hang_keys()
limit_at_cursor()
no_usable_row()
live_before_first_result()
enter_while_running()
chart_sizes()
other_settings()
many_series()
print(f"test_tui_sweep: {checks} checks, {len(failures)} failed")
sys.exit(1 if failures else 0)
