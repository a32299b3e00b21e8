#!/usr/bin/env python3
"""Every hint the explorer gives is one the current source can honour
(issue 40): in a replay nothing new runs, so no hint says "press m, then
Enter", "Run both sides first" or "Enter to run this one"; without a GPU
your kernel only compiles, so none says "Enter runs it". Replays of the
shipped recordings of real GPUs; this machine's own lack of a GPU for the
rest (a GPU machine skips those)."""
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import Checks  # noqa: E402
from tuitest import UTF8, Tmux, status_line  # noqa: E402

EXE = os.environ["REDSCOPE"]
RECS = os.path.join(os.environ["REDSCOPE_SOURCE"], "conf", "recordings")
KERNELS = os.path.join(os.environ["REDSCOPE_SOURCE"], "conf", "kernels")
check = Checks("test_tui_hints")


def explorer(args, cols=120, rows=40):
    t = Tmux(f"{EXE} {args}", cols=cols, rows=rows, env=UTF8)
    return t


def settle(t, wait=0.6):
    time.sleep(wait)
    return t.screen()


def replay_counters():
    """Config 2 of the kernels' recording holds no counters: the Why says
    so as a replay can (record with --metrics on a GPU), not "press m"."""
    t = explorer("--replay " + os.path.join(RECS, "h100-kernels.jsonl"))
    try:
        t.wait_for("REPLAY")
        t.keys("R")
        s = t.wait_for("Recording") or t.screen()
        rows = [l for l in s.splitlines() if " run " in l]
        check(len(rows) == 2 and "lab-tail.cu" in rows[0] and "fault.cu" in rows[1],
              "the Recording screen tells its two kernel runs apart by file", s)
        t.keys("Down", "Enter")
        s = t.wait_for("Counters were not collected") or t.screen()
        why = " ".join(s.split())
        check("recorded without them: record with --metrics" in why and "press m" not in why,
              "replay: the Why's counters hint is one a replay can honour", s)
        check(" n size " in s.splitlines()[-1] and " n n " not in s.splitlines()[-1],
              "the footer names n's key 'size', not 'n n'", s)
        check(" Enter show " in s.splitlines()[-1] and "Enter run" not in s.splitlines()[-1],
              "replay: the footer's Enter shows what was recorded, it runs nothing", s)
    finally:
        t.close()


def replay_ladder_and_compare():
    """The Ladder screen at settings the recording lacks, and Compare with
    an empty side, in a replay: what Enter shows, never that it runs."""
    t = explorer("--replay " + os.path.join(RECS, "h200-demo.jsonl"))
    try:
        t.wait_for("REPLAY")
        t.wait_for("reps")
        t.keys("L")
        t.wait_for("Ladder")
        t.keys("Enter")
        t.wait_for("sequential")
        t.keys("n")
        t.keys("C-u", *"2^12", "Enter")
        s = settle(t)
        check("Enter to run this one" not in s and "Enter runs every variant" not in s
              and ("recorded rows" in s or "recording holds" in s),
              "replay Ladder at new settings: Enter shows what was recorded", s)
        t.keys("C")
        s = t.wait_for("Compare") or t.screen()
        s = settle(t)
        check("Run both sides first" not in s, "replay Compare: no 'Run both sides first'", s)
    finally:
        t.close()
    # the float64 sweep: atomic recorded, the step before it not; Compare shows
    # atomic's side beside an empty one, not two empty ones (a newcomer's trial)
    t = explorer("--replay " + os.path.join(RECS, "h200-demo.jsonl") + " --type float64"
                 " --n 2^28 --variant atomic")
    try:
        t.wait_for("REPLAY")
        t.keys("Escape", "Enter")  # from the Sweep screen it opens on, atomic's run
        t.wait_for("472 ms")
        t.keys("C")
        s = settle(t)
        med = next((l for l in s.splitlines() if "time (median)" in l), "")
        check("472 ms" in med and " - " in med and "not in the recording here" in s,
              "Compare: a recorded side beside an empty one, and why it is empty", s)
    finally:
        t.close()


def no_gpu_kernel():
    """Without a GPU, your kernel only compiles: after K, the Why and the
    status say Enter compiles it, never that it runs it."""
    t = explorer("")
    try:
        s = t.wait_for("R replays the shipped", timeout=30) or t.screen()
        if "R replays the shipped" not in s:
            print("test_tui_hints: a GPU is here; the no-GPU hints are for CI")
            return
        top = s.splitlines()[0]
        check("Enter run" not in s.splitlines()[-1],
              "no GPU, a GPU variant selected: the footer offers no Enter run", s)
        rc = subprocess.run([EXE, "devices"], capture_output=True, text=True)
        said = rc.stderr.split(": ")[1].split(" (")[0] if ": " in rc.stderr else "?"
        check(said in top, f"the header names the state as the command line does ({said})", s)
        t.keys("K")
        time.sleep(0.3)
        t.keys("C-u", *os.path.join(KERNELS, "template.cu"), "Enter")
        s = settle(t, 1.0)
        line = status_line(s)
        check("Enter compiles it" in line and "Enter runs it" not in line,
              "no GPU: K's status says Enter compiles it", s)
        check(" Enter compile " in s.splitlines()[-1], "no GPU, your kernel: Enter compile", s)
        check("Enter compiles and runs it" not in s and "running it needs an NVIDIA GPU" in " ".join(s.split()),
              "no GPU: the Why says running needs a GPU, Enter compiles", s)
        t.keys("n")
        t.keys("C-u", *"2^20", "Enter")
        s = settle(t)
        check("Enter runs it" not in status_line(s), "no GPU: n set, no 'Enter runs it'", s)
    finally:
        t.close()


def preset_kind():
    """A preset of the user's is of kind "user" on the Presets screen, as
    `presets` says in its table, CSV and JSON."""
    home = tempfile.mkdtemp(prefix="rs_hints_")
    os.makedirs(os.path.join(home, "redscope", "presets"))
    with open(os.path.join(home, "redscope", "presets", "mine.ini"), "w") as f:
        f.write("[run]\nvariant = sequential\nn = 2^20\n")
    rc = subprocess.run([EXE, "presets", "--format", "csv"], capture_output=True, text=True,
                        env=dict(os.environ, XDG_CONFIG_HOME=home))
    t = Tmux(f"env XDG_CONFIG_HOME={home} {EXE} --replay " + os.path.join(RECS, "h200-demo.jsonl"),
             cols=120, rows=40, env=UTF8)
    try:
        t.wait_for("REPLAY")
        t.keys("P")
        s = t.wait_for("mine") or t.screen()
        row = next((l for l in s.splitlines() if " mine " in l), "")
        check("Enter load" in s.splitlines()[-1] and "Enter run" not in s.splitlines()[-1],
              "Presets: the footer says Enter loads, as the title does", s)
        check(",user," in rc.stdout and " user " in row and "yours" not in row,
              "a user's preset: 'user' on the screen as in presets' CSV", s)
    finally:
        t.close()
        shutil.rmtree(home, True)


def pinned_elsewhere():
    """A result held against a pin measured at other settings says which
    (issue 40: "x76.7 vs pinned atomic" with the pin at 2^24 and the row at
    67,107,840, unsaid)."""
    t = explorer("--replay " + os.path.join(RECS, "h200-demo.jsonl"))
    try:
        t.wait_for("REPLAY")
        t.wait_for("reps")
        t.keys("Enter")
        time.sleep(0.5)
        t.keys("p")
        time.sleep(0.3)
        t.keys("t", "t", "n")
        time.sleep(0.3)
        t.keys("C-u", *"1024*65535", "Enter")
        time.sleep(0.3)
        t.keys("B", "Down", "Enter")
        s = t.wait_for("vs pinned") or t.screen()
        line = next((l for l in s.splitlines() if "vs pinned" in l), "")
        check(" at type int32, n 2^24, block 256" in line,
              "a pin at other settings: the settings it was measured at, said", s)
    finally:
        t.close()


def title_keeps_variant():
    """At projector sizes (80 and 100 columns) the result's title keeps the
    variant and drops reps and finish first."""
    for cols in (80, 100):
        t = explorer("--replay " + os.path.join(RECS, "h200-demo.jsonl"), cols=cols, rows=30)
        try:
            t.wait_for("REPLAY")
            t.wait_for("reps")
            t.keys("Down", "Down", "Enter")  # from sequential (4) to unroll_warp_volatile (6)
            s = settle(t)
            title = s.splitlines()[1].split("\u2510\u250c", 1)[-1]
            check("unroll_warp_volatile" in title and "int32 sum" in title,
                  f"{cols} columns: the result's title names the variant", s)
        finally:
            t.close()


def header_counters():
    """The header's "counters recorded" is of the settings shown: after the
    recorded sweep (no counters), the harris-2007 preset's ladder shows bank
    conflicts, and the header says they were recorded."""
    t = explorer("--replay " + os.path.join(RECS, "h200-demo.jsonl"))
    try:
        t.wait_for("REPLAY")
        t.wait_for("reps")
        t.keys("R")  # the recorded sweep, configuration 6: no counters
        t.wait_for("Recording")
        t.keys(*["Down"] * 5, "Enter")
        s = t.wait_for("no counters recorded") or t.screen()
        check("no counters recorded" in s.splitlines()[0], "the recorded sweep: no counters", s)
        t.keys("P")
        t.wait_for("harris-2007")
        for _ in range(12):
            if "\u25b6 harris-2007" in t.screen():
                break
            t.keys("Down")
            time.sleep(0.1)
        t.keys("Enter")
        time.sleep(0.3)
        t.keys("Enter")
        s = t.wait_for("bank conflicts") or t.screen()
        top = s.splitlines()[0]
        check("bank conflicts" in s and "no counters recorded" not in top
              and "counters recorded" in top, "the header: counters recorded, as shown", s)
    finally:
        t.close()


def cpu_source():
    """W on the cpu row: it runs on a host thread, which PC sampling never
    sees; not "the recording holds no PC samples of it"."""
    t = explorer("--replay " + os.path.join(RECS, "h200-demo.jsonl"))
    try:
        t.wait_for("REPLAY")
        t.wait_for("reps")
        t.keys(*["Down"] * 11, "Enter")  # from sequential (4) to cpu (15)
        time.sleep(0.4)
        t.keys("W")
        s = t.wait_for("stall view") or t.screen()
        check("cpu: no stall view: the CPU baseline runs on a host thread" in s
              and "holds no PC samples" not in s, "the cpu row's stall view says why none", s)
    finally:
        t.close()


def replay_opened_on():
    """--replay with --n opens the first configuration that holds it (the
    float64 sweep of the demo for 2^20) and says which, not silently."""
    t = explorer("--replay " + os.path.join(RECS, "h200-demo.jsonl") + " --n 2^20", cols=200)
    try:
        t.wait_for("REPLAY")
        s = t.wait_for("configuration 6 of 6") or t.screen()
        line = status_line(s)
        check("replaying configuration 6 of 6, the first with n 2^20: sweep" in line
              and "float64 sum" in line, "the configuration a setting opened, said", s)
    finally:
        t.close()


def ladder_not_recorded():
    """A replayed ladder at settings the recording lacks: the status names
    the ladder, not its last row ("thrust: not in the recording")."""
    t = explorer("--replay " + os.path.join(RECS, "h200-demo.jsonl"))
    try:
        t.wait_for("REPLAY")
        t.keys("L", "t", "Enter")
        s = t.wait_for("not in the recording") or t.screen()
        s = settle(t)
        line = status_line(s)
        check("no step of this ladder with these settings" in line and "thrust" not in line,
              "a ladder the recording lacks: said of the ladder", s)
    finally:
        t.close()


def peak_note():
    """The speed-of-light preset in a replay that lacks its rows: the note
    under the table names the % column as its head does (%peak, not %pk)."""
    t = explorer("--replay " + os.path.join(RECS, "h200-demo.jsonl"))
    try:
        t.wait_for("REPLAY")
        t.keys("P")
        t.wait_for("speed-of-light")
        t.keys(*["Down"] * 6, "Enter")  # the shipped presets in order: speed-of-light 7th
        t.wait_for("n 2^28")
        t.keys("Enter")
        s = t.wait_quiet("not in the recording") or t.screen()
        head = next((l for l in s.splitlines() if " variant " in l), "")
        check(" %peak " in head and "│ %peak: each row's share of the theoretical peak" in s
              and "%pk" not in s, "the % column named one way in its head and its note", s)
    finally:
        t.close()


TESTS = [ladder_not_recorded, peak_note, replay_opened_on, cpu_source, header_counters, replay_counters, replay_ladder_and_compare, no_gpu_kernel, preset_kind, pinned_elsewhere,
         title_keeps_variant]
for fn in TESTS:
    if len(sys.argv) < 2 or fn.__name__ in sys.argv[1:]:
        fn()
check.finish()
