#!/usr/bin/env python3
"""What a new user met in a trial of the explorer on the shipped H200
recording (no GPU), each as the user would see it: keys that acted unseen
while the window was too small, help lines cut short, an input error whose
bound was cut, Ladder columns out of line, the race mark over "ok", titles
that disagreed with the configuration, a ratio of x0.00, and the notation
of numbers and device memory. `test_tui_trial.py NAME...` runs only those."""
import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import Checks  # noqa: E402
from tuitest import UTF8, Tmux, replay_demo, status_line  # noqa: E402

EXE = os.environ["REDSCOPE"]
REC = os.path.join(os.environ["REDSCOPE_SOURCE"], "conf", "recordings", "h200-demo.jsonl")
ASCII = {"LANG": "C", "LC_ALL": "C", "TERM": "xterm-256color"}
check = Checks("test_tui_trial")


def replay(cols=80, rows=24, env=UTF8):
    return replay_demo(cols, rows, env)


def config_panel(s):
    """The Configuration panel's cells, one string."""
    lines = s.splitlines()
    top = next((i for i, l in enumerate(lines) if "Configuration" in l), None)
    return " ".join(l.split("\u2502")[1] for l in lines[top + 1:top + 6]
                    if l.count("\u2502") >= 2) if top is not None else ""


def too_small():
    """Below 80x20 the screen says so, and a key does nothing unseen."""
    t = replay()
    try:
        before = config_panel(t.screen())
        check("t int32" in before, "the first configuration is int32", t.screen())
        t.resize(40, 10)
        s = t.wait_for("too small") or t.screen()
        check("ignored" in s, "the small screen says other keys are ignored", s)
        t.keys("t", "Enter", "L")
        t.resize(80, 24)
        s = t.wait_for("Configuration") or t.screen()
        check(config_panel(s) == before and "Ladder \u00b7" not in s,
              "t, Enter and L while too small changed nothing", s)
        t.resize(40, 10)
        t.keys("q")
        check(t.exit_code() == 0, "q still quits while too small")
    finally:
        t.close()


def box_lines(s):
    """The text inside the screen's main box, one string a line."""
    return [l.split("\u2502")[1].strip() for l in s.splitlines()[2:-3] if l.count("\u2502") == 2]


def help_wraps():
    """Every word of the help can be read at 80x24: lines wrap, none ends cut."""
    t = replay()
    try:
        t.keys("?")
        s = t.wait_for("every key") or t.screen()
        seen = []
        for _ in range(80):  # Down until the last line shows
            seen += [l for l in box_lines(s) if l not in seen[-30:]]
            if "more" not in s.splitlines()[1]:
                break
            t.keys("Down")
            s = t.screen()
        cut = [l for l in seen if l.endswith("\u2026")]
        check(not cut, f"no help line ends in an ellipsis: {cut[:3]}", s)
        text = " ".join(seen)
        for words in ("(compute-sanitizer racecheck; X: memcheck and initcheck)",
                      "the selected result's PC samples beside its source",
                      "with the GPU's own counters."):
            check(words in re.sub(r" +", " ", text), f"the help reads in full: '{words}'", s)
        check("samples (needs nvdisasm on PATH)" in text, "the help's last lines are reached", s)
    finally:
        t.close()


def prompt_area(s):
    """The prompt's row and the rows above it that a long reason takes."""
    rows = s.splitlines()[-5:-1]
    return " ".join(r.strip() for r in rows if r[:1] == " ")


def input_bounds():
    """A refused value's bound is never cut, beside the field or above it."""
    t = replay()
    try:
        for key, typed, bound in (("e", "-1", "from 0 to 16777216"), ("D", "9999", "32 to 1024"),
                                  ("r", "0", "from 1 to 10000"), ("n", "x", "from 1 to 2^40")):
            t.keys(key, *typed, "Enter")
            s = t.wait_for("expected") or t.screen()
            area = prompt_area(s)
            check(bound in area and "\u2026" not in area,
                  f"{key} {typed}: the reason reads '{bound}' in full", s)
            t.keys("Escape")
    finally:
        t.close()


def ladder_rows(s):
    """The Ladder screen's variant rows."""
    return [l for l in s.splitlines() if re.match(r"^[\u2502|] +\d+ \w", l)]


def ladder_columns():
    """On float32 2^28 (values like 114M and x1622) the Ladder's columns stay
    in line at 80x24 and every row keeps its bar; in ASCII the race mark
    follows "ok" instead of covering it."""
    for env, ok, bar in ((UTF8, "\u2713", "\u2588\u2591"), (ASCII, "ok", "#.")):
        t = replay(env=env)
        try:
            t.keys("R", "Down", "Down", "Down", "Down", "Enter")  # float32 2^28
            s = t.wait_for("thrust") or t.screen()
            rows = ladder_rows(s)
            check(len(rows) == 14, f"14 ladder rows, {len(rows)} seen", s)
            for what, find in (("%", lambda l: l.index("%")),
                               ("ok", lambda l: max(l.rfind(ok), l.rfind("\u2717"), l.rfind("XX"))),
                               ("time", lambda l: re.search(r"\d (ms|s|\u00b5s|us) ", l).end())):
                cols = {find(l) for l in rows}
                check(len(cols) == 1, f"{env['LANG']}: the {what} column is in line ({cols})", s)
            bare = [l.split()[2] for l in rows if not any(c in l[-8:] for c in bar)]
            check(not bare, f"{env['LANG']}: every row has its bar, not {bare}", s)
            racy = [l for l in rows if "unroll_warp_volatile" in l]
            mark = "ok!" if env is ASCII else "\u2713\u26a0"
            check(racy and mark in racy[0], f"{env['LANG']}: the racy row reads '{mark}'", s)
        finally:
            t.close()


def slow_step_ratios():
    """A step 220 times slower (a cpu row after thrust) keeps the narrow
    Ladder's columns in line: \u00f7220, not x0.0045 pushing the row right."""
    import json
    import tempfile
    lines = open(REC, encoding="utf-8").read().splitlines()
    at = next(i for i, l in enumerate(lines) if '"variant":"thrust"' in l.replace(" ", ""))
    row = json.loads(lines[at])
    row["request"]["variant"] = "cpu"
    slow = 220 * row["time_ms"]["median"]  # 220 times thrust's recorded time
    row["time_ms"] |= {"median": slow, "min": 0.99 * slow, "max": 1.01 * slow}
    for k in ("gbps", "pct_peak", "pct_measured"):  # every figure from its parts
        row[k] /= 220
    rec = os.path.join(tempfile.mkdtemp(prefix="rs_trial_"), "cpu.jsonl")
    with open(rec, "w", encoding="utf-8") as f:
        f.write("\n".join(lines[:at + 1] + [json.dumps(row)] + lines[at + 1:]) + "\n")
    t = Tmux(f"{EXE} --replay {rec}", cols=80, rows=24, env=UTF8)
    try:
        t.wait_for("REPLAY")
        t.keys("L")
        s = t.wait_for("thrust") or t.screen()
        rows = ladder_rows(s)
        cpu = [l for l in rows if " cpu " in l]
        cols = {l.index("%") for l in rows}
        check(len(rows) == 15 and len(cols) == 1 and cpu and "\u00f7220" in cpu[0]
              and "\u2591" in cpu[0][-8:], f"the cpu row's ratios fit their columns ({cols})", s)
    finally:
        t.close()


def titles_agree():
    """A title says what the shown result was measured with, and says so
    where that is not the configuration."""
    t = replay(120, 30)
    try:
        t.keys("R", "Down", "Down", "Down", "Down", "Down", "Enter")
        t.wait_for("Sweep \u00b7")
        t.keys("Escape")
        s = t.wait_for("Configuration") or t.screen()
        title = s.splitlines()[1]
        check("f atomic" in config_panel(s) and "atomic \u00b7" in title
              and "finish auto" not in title and "no finish step" in title,
              "atomic's title says it has no finish step, not 'finish auto' beside 'f atomic'", s)
        t.keys("P", "Down", "Down", "Down", "Enter", "L", "Enter")  # harris-2007
        s = t.wait_for("multi_element") or t.screen()
        title = s.splitlines()[1]
        check("m none" not in s and "counters none" not in title and "counters default" in title
              and "other settings" in title, "the Ladder's title names the counters its rows "
              "were measured with (bank and instruction columns filled)", s)
        check("the configuration says 20 reps \u00b7 counters none" in s,
              "the Ladder says its rows are not from the configuration's counters", s)
    finally:
        t.close()


def memory_in_gib():
    """The header gives the H200's memory in GiB, as the driver counts it."""
    t = replay(120, 30)
    try:
        s = t.screen()
        check("140 GiB" in s.splitlines()[0] and " GB \u00b7" not in s.splitlines()[0],
              "the header says 140 GiB, not 150 GB", s)
    finally:
        t.close()


def singulars():
    """One repetition and one size are written in the singular."""
    t = replay(120, 30)
    try:
        t.keys("r", "C-u", "1", "Enter")
        s = t.wait_for("set to 1") or t.screen()
        check("r 1 rep " in config_panel(s) + " " and "1 reps" not in s,
              "r 1: the configuration says '1 rep'", s)
        t.keys("S", "g", "C-u", *"2^20", "Enter")
        s = t.wait_for("sweep range") or t.screen()
        check("1 size;" in status_line(s), "a one-size sweep range says '1 size'", s)
        t.keys("Escape", "L")
        s = t.wait_for("Ladder") or t.screen()
        check("1 reps" not in s and "says 1 rep " in s, "the Ladder's other settings: '1 rep'", s)
    finally:
        t.close()


def keys_said():
    """A key that does nothing says so, named as the help names it (Down,
    F5), and the note goes with the next key that acts; s saves on the
    Presets screen, as its title says."""
    t = replay(120, 30)
    try:
        t.keys("C", "Down")
        s = t.screen()
        check("Down does nothing on the Compare screen" in status_line(s), "Down on Compare", s)
        t.keys("Escape")
        s = t.screen()
        check("does nothing" not in status_line(s), "Esc takes the note away", s)
        t.keys("F5")
        check("F5 does nothing on the Explorer screen" in status_line(t.screen()), "F5 named")
        t.keys("P", "s")
        s = t.wait_for("save preset as") or t.screen()
        check("save preset as" in status_line(s), "s on the Presets screen opens the save", s)
        t.keys("Escape")
    finally:
        t.close()


TESTS = [too_small, help_wraps, input_bounds, ladder_columns, slow_step_ratios, titles_agree,
         memory_in_gib, singulars, keys_said]
for test in TESTS:
    if len(sys.argv) < 2 or test.__name__ in sys.argv[1:]:
        test()
check.finish()
