#!/usr/bin/env python3
"""The kernels a recording holds, shown as it holds them (issue 40, points
2 and 14): a recorded run or failure of your kernel shows at once, not
"Not run" until a second Enter; a file the recording never ran is not
"recorded from"; the Ladder screen lists every kernel file the recorded
ladder ran, and picking one shows its row; a file here that is not the
version recorded is named as changed, in the explorer and the CLI.
Replays of the shipped recording of a real H100."""
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import Checks, run  # noqa: E402
from tuitest import UTF8, Tmux, status_line  # noqa: E402

EXE = os.environ["REDSCOPE"]
SRC = os.environ["REDSCOPE_SOURCE"]
REC = os.path.join(SRC, "conf", "recordings", "h100-kernels.jsonl")
check = Checks("test_tui_replay_kernels")
FILES = ["template.cu", "fast.cu", "lab-barrier.cu", "lab-tail.cu"]


def why(s):
    """The Why panel's text, joined over its wrapped lines."""
    lines = s.splitlines()
    at = next((i for i, l in enumerate(lines) if "Why" in l and "─" in l), len(lines))
    return " ".join(" ".join(l.split("│")[-2].split()) for l in lines[at + 1:-2] if "│" in l)


def explorer(cwd=SRC, rec=REC):
    return Tmux(f"cd {cwd} && {EXE} --replay {rec}", cols=120, rows=40, env=UTF8)


def recorded_failure():
    """R, config 3: fault.cu's recorded fault shows with the pick itself."""
    t = explorer()
    try:
        t.wait_for("REPLAY")
        t.keys("R")
        t.wait_for("Recording")
        t.keys("Down", "Down", "Enter")
        s = t.wait_quiet("fault.cu")
        w = why(s or "")
        check("stopped on the GPU" in w and "illegal memory access" in w and "Not run" not in w,
              "R then Enter on a recorded fault: the Why shows it at once", s)
        check("recorded from conf/kernels/fault.cu" in w, "the fault's file is the one recorded", s)
        check("(cudaErrorIllegalAddress)" in w and "(cudaErrorIllegalAddress);" not in w
              and "Its recorded run stopped" in w,
              "a replay's fault: recorded, without the live advice about the next run", s)
        check("source not recorded; the file here:" in w and "11 lines as it is now" in w,
              "no recorded source: the file here, said to be so", s)
    finally:
        t.close()


def k_recorded_and_not():
    """K picks a file the recording ran: its run shows at once; a file it
    never ran is a file, not "recorded from"."""
    tmp = tempfile.mkdtemp(prefix="rs_tui_rk_")
    mine = os.path.join(tmp, "mine.cu")
    shutil.copy(os.path.join(SRC, "conf", "kernels", "template.cu"), mine)
    t = explorer()
    try:
        t.wait_for("REPLAY")
        t.keys("K", "C-u", "conf/kernels/fast.cu", "Enter")
        s = t.wait_quiet("fast.cu")
        w = why(s or "")
        check("recorded from conf/kernels/fast.cu" in w and "88.5 µs → 29.5 µs" in w and
              "Not run" not in w, "K fast.cu: its recorded run in the Why at once", s)
        check("its recorded run shown" in status_line(s or ""), "the status says it is shown", s)
        t.keys("K", "C-u", mine, "Enter")
        s = t.wait_quiet("mine.cu")
        w = why(s or "")
        check("file " + mine in w and "recorded from" not in w and "holds no run of it" in w,
              "K of a file never recorded: not 'recorded from', and what Enter does", s)
    finally:
        t.close()
        shutil.rmtree(tmp, ignore_errors=True)


def ladder_lists_kernels():
    """L: every kernel file of the recorded ladder a row; Down onto one
    shows that file's row in the explorer."""
    t = explorer()
    try:
        t.wait_for("REPLAY")
        t.keys("L")
        s = t.wait_quiet("thrust") or ""
        shown = [f for f in FILES if any(f" {f} " in l for l in s.splitlines())]
        check(shown == FILES, f"the Ladder screen lists the four kernels: {shown}", s)
        rows = [l for l in s.splitlines() if l.startswith("│") and " µs " in l]
        at = next((i for i, l in enumerate(rows) if " fast.cu " in l), -1)
        here = next((i for i, l in enumerate(rows) if " sequential " in l), -1)
        t.keys(*["Down"] * (at - here))
        t.keys("Escape")
        s = t.wait_quiet("fast.cu") or ""
        check("▶16 fast.cu" in s and "88.5 µs → 29.5 µs" in why(s),
              "picked on the Ladder screen: the explorer shows fast.cu's recorded row", s)
    finally:
        t.close()


def changed_file():
    """A file here that differs from the recorded version is named as
    changed, in the CLI's ladder and in the explorer's Why."""
    tmp = tempfile.mkdtemp(prefix="rs_tui_chg_")
    os.makedirs(os.path.join(tmp, "conf"))
    shutil.copytree(os.path.join(SRC, "conf", "kernels"), os.path.join(tmp, "conf", "kernels"))
    with open(os.path.join(tmp, "conf", "kernels", "fast.cu"), "a") as f:
        f.write("// a change after the recording\n")
    rc, out, err = run("ladder", "--replay", REC, cwd=tmp)
    check("conf/kernels/fast.cu has changed since it was recorded" in out and
          "template.cu has changed" not in out, f"ladder names the changed file: {out[-600:]}")
    t = explorer(cwd=tmp)
    try:
        t.wait_for("REPLAY")
        t.keys("K", "C-u", "conf/kernels/fast.cu", "Enter")
        s = t.wait_quiet("fast.cu")
        check("has changed since it was recorded" in why(s or ""),
              "the explorer's Why names the file as changed", s)
        t.keys("K", "C-u", "conf/kernels/template.cu", "Enter")
        s = t.wait_quiet("template.cu")
        check("has changed" not in why(s or ""), "an unchanged file is not called changed", s)
    finally:
        t.close()
        shutil.rmtree(tmp, ignore_errors=True)


def narrow():
    """At a projector's 80 columns nothing is cut without a trace: the
    Recording screen puts finish, reps and counters on a second line; the
    list keeps a racy step's mark and both ends of a long name."""
    t = Tmux(f"cd {SRC} && {EXE} --replay {REC}", cols=80, rows=24, env=UTF8)
    try:
        s = t.wait_quiet("REPLAY") or ""
        six = next((l for l in s.splitlines() if "  6 " in l), "")
        check("⚠" in six and "latile" in six, f"80 columns: step 6 keeps its ⚠: {six!r}", s)
        title = s.splitlines()[1]
        check("sequential · int32 sum" in title and "· … ─" in title,
              f"80 columns: a title that leaves settings out ends in an ellipsis: {title!r}", s)
        t.keys("R")
        s = t.wait_quiet("Recording") or ""
        check("finish auto · 20 reps · counters none, input ones" in s and
              "fault.cu" in s and "…" not in s.split("Recording")[1].split("└")[0],
              "80 columns: the Recording screen cuts nothing", s)
    finally:
        t.close()
    # the Ladder screen's 18 rows at 80x20: the cursor is followed, the cut said
    t = Tmux(f"cd {SRC} && {EXE} --replay {REC}", cols=80, rows=20, env=UTF8)
    try:
        t.wait_quiet("REPLAY")
        t.keys("L")
        t.wait_quiet("thrust")
        t.keys(*["Up"] * 6)  # from sequential, round past the first: fast.cu, the 17th
        s = t.wait_quiet("more (Up/Down)") or t.screen()
        check(" fast.cu " in s and "3-16/18 v more (Up/Down)" in s,
              "a Ladder screen taller than the terminal scrolls to its cursor and says so", s)
    finally:
        t.close()


narrow()
recorded_failure()
k_recorded_and_not()
ladder_lists_kernels()
changed_file()
check.finish()
