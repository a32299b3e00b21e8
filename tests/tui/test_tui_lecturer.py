#!/usr/bin/env python3
"""What the second lecturer's trial met in the explorer on the shipped H200
recording (no GPU), each as a lecturer would see it. The CPU time: the
cpu step of a recording that holds GPU runs only reads the CPU time
recorded beside them, says so, and is the figure every "vs CPU" is
against. Counters: the header and the panel say what the recording holds,
with no advice a replay cannot follow. `test_tui_lecturer.py NAME...` runs only those."""
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import Checks  # noqa: E402
from tuitest import UTF8, Tmux, replay_demo  # noqa: E402

EXE = os.environ["REDSCOPE"]
REC = os.path.join(os.environ["REDSCOPE_SOURCE"], "conf", "recordings", "h200-demo.jsonl")
check = Checks("test_tui_lecturer")


def replay(cols=120, rows=40, env=UTF8):
    return replay_demo(cols, rows, env)


def cpu_time():
    """15 cpu has the recorded CPU time in the list and the result panel,
    Enter answers it, and sequential's vs CPU is against that figure."""
    t = replay()
    try:
        s = t.screen()
        m = re.search(r"4 sequential +([\d.]+) µs", s)
        v = re.search(r"×([\d.]+) vs CPU", s)
        check(m and v, "sequential's time and vs CPU are shown", s)
        t.keys(*["Down"] * 11)
        s = t.wait_for("cpu \u00b7") or t.screen()
        row = re.search(r"15 cpu +([\d.]+) ms", s)
        check(row is not None, "the list shows the cpu step's time", s)
        check("best of up to 3, timed beside the GPU runs" in s,
              "the result panel says where the CPU time comes from", s)
        if m and v and row:
            ratio = float(row.group(1)) * 1e3 / float(m.group(1))
            check(abs(ratio - float(v.group(1))) < 0.06 * ratio,
                  f"sequential's vs CPU ({v.group(1)}) is against the cpu step's time "
                  f"({row.group(1)} ms / {m.group(1)} µs = {ratio:.1f})", s)
        t.keys("Enter")
        s = t.wait_quiet("done") or t.screen()
        check("not recorded" not in s and re.search(r"15 cpu +[\d.]+ ms", s),
              "Enter on cpu answers from the recording", s)
    finally:
        t.close()


def counters_in_replay():
    """The header says what the recording holds; a row recorded without
    counters gives no advice a replay cannot follow."""
    bare = os.path.join(os.path.dirname(REC), "h200x2-ladder.jsonl")
    t = Tmux(f"{EXE} --replay {bare}", cols=120, rows=40, env=UTF8)
    try:
        t.wait_for("Recorded without counters")
        s = t.wait_quiet("Counters") or t.screen()
        head = s.splitlines()[0] if s else ""
        check("no counters recorded" in head, "a recording without counters says so", s)
        check("Recorded without counters" in s and "m picks a set" not in s,
              "the Counters panel says the recording has none, not 'm picks a set'", s)
    finally:
        t.close()
    t = replay()
    try:
        head = (t.wait_quiet("reps") or t.screen()).splitlines()[0]
        check(" counters recorded" in head and "no counters" not in head,
              "a recording with counters says counters recorded", head)
    finally:
        t.close()

    # asked for more counters than recorded: the status says so, not "done"
    t = replay()
    try:
        t.wait_quiet("reps")
        t.keys("t", "t", "m", "m", "m")  # float32 (recorded with 'default'), counters full
        s = t.wait_for("counters full") or t.screen()
        t.keys("Enter")
        s = t.wait_for("not all of 'full'") or t.screen()
        check("sequential as recorded: the recording holds counters 'default' for it, not all of "
              "'full'" in s, "Enter with counters the recording lacks says so", s)
    finally:
        t.close()


def kernel_no_run():
    """K in a replay and without a GPU: the prompt takes the path (no letter
    of it acts as a key), Enter compiles the file, a save compiles it
    again, and the screen says running needs a GPU."""
    tmp = tempfile.mkdtemp(prefix="rs_lecturer_")
    mine = os.path.join(tmp, "own.cu")  # an 'o': once the op key
    shutil.copy(os.path.join(os.environ["REDSCOPE_SOURCE"], "conf", "kernels", "template.cu"),
                mine)
    for cmd, why in ((f"{EXE} --replay {REC}", "a replay"), (EXE, "needs an NVIDIA GPU")):
        t = Tmux(f"cd {tmp} && {cmd}", cols=120, rows=40, env=UTF8)
        try:
            t.wait_for("reps")
            t.keys("K")
            t.wait_for("kernel file:")
            t.keys("C-u", "own.cu", "Enter")
            s = t.wait_for("Enter compiles it") or t.screen()
            check("o sum" in s, f"{why}: the 'o' of own.cu typed in the prompt, not the op key", s)
            t.keys("Enter")
            s = t.wait_for("compiled, not run") or t.screen()
            check(f"own.cu compiled, not run ({why}): 12 registers" in s
                  and "Compiled, not run" in s and "Built: entry reduce" in s,
                  f"{why}: Enter compiles, the build under Why", s)
            with open(mine, "a", encoding="utf-8") as f:
                f.write("this is no C++;\n")
            s = t.wait_for("own.cu:57: error") or t.screen()
            check("own.cu:57: error" in s, f"{why}: a save compiles again, the error shown", s)
            shutil.copy(os.path.join(os.environ["REDSCOPE_SOURCE"], "conf", "kernels",
                                     "template.cu"), mine)
        finally:
            t.close()


def cut_recording():
    """A recording whose last line was cut short opens on what is whole and
    says which line it left out."""
    lines = open(REC, encoding="utf-8").read().splitlines()
    path = os.path.join(tempfile.mkdtemp(prefix="rs_lecturer_"), "cut.jsonl")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines[:6]) + "\n" + lines[6][:400])
    t = Tmux(f"{EXE} --replay {path}", cols=120, rows=40, env=UTF8)
    try:
        s = t.wait_for("cut short") or t.screen()
        check("cut.jsonl:7: the last line is cut short" in s and "5 first_add" in s,
              "the explorer opens what is whole and names the cut line", s)
    finally:
        t.close()


def help_per_screen():
    """? on a screen lists that screen's keys first, each once (Esc too), and
    folds a back-step into its key (t ... (T: previous))."""
    t = replay(cols=120, rows=60)
    try:
        for key, screen, want in (("P", "Presets", ("Enter", "s", "Up/k", "Esc")),
                                  ("L", "Ladder", ("Enter", "Up/k", "Esc")),
                                  ("W", "Source", ("Up/k", "Down/j", "p", "Esc"))):
            t.keys(key)
            t.wait_quiet(screen)
            t.keys("?")
            s = t.wait_quiet("every key") or t.screen()
            rows = [l.strip("\u2502").rstrip() for l in s.splitlines()]  # "  Enter  run ..."
            at = next((i for i, l in enumerate(rows) if l == f" {screen} (this screen)"), -1)
            end = next((i for i in range(at + 1, len(rows)) if rows[i][:2] == " " + rows[i][1:2]
                        and rows[i][1:2].isupper()), len(rows))
            keys = [l.split()[0] for l in rows[at + 1:end] if l[:3] == "   " and l[3:4] != " "]
            check(at >= 0 and all(k in keys for k in want) and len(keys) == len(set(keys)),
                  f"? on {screen}: its keys first, each once: {keys}", s)
            check(not any(l.split()[:2] == ["T", "previous"] for l in rows),
                  f"? on {screen}: no line of its own for T", s)
            t.keys("Escape", "Escape")
            t.wait_quiet("reps")
    finally:
        t.close()


def cut_panels():
    """Every cut panel says so and scrolls: the Counters panel at 120x40
    ({ }), Compare at 80x24 (PgDn), the Source screen with a pin where it
    cannot stand beside (a hint) and where it can (the by-function table
    stays), and a refusal in the result panel wraps over its rows."""
    t = replay()
    try:
        s = t.screen()
        check("1-15/18 v more { }" in s and "branch uniformity" not in s,
              "the Counters panel at 120x40 says three more rows are below", s)
        t.keys("}")
        s = t.wait_quiet("^ more { }") or t.screen()
        check("branch uniformity" in s and "barrier stalls" in s,
              "} shows the counters' last rows", s)
        t.keys("{")
        s = t.wait_quiet("v more { }") or t.screen()
        check("shared ld bank conflicts" in s, "{ goes back to the first rows", s)
        t.keys("W")
        s = t.wait_quiet("samples") or t.screen()
        check("return i < n ? to_acc<A>(in[i]) : Op::identity();" in s and "(mio throttle)" in s and
              "by function:" in s, "W at 120x40: the cursor line's causes, reasons and functions "
              "whole where the rows allow", s)
        t.keys("Escape", "k", "p", "j", "W")
        s = t.wait_quiet("samples") or t.screen()
        check("beside this from 154 columns" in s,
              "at 120 columns the Source screen says where the pinned view stands", s)
        t.resize(220, 50)
        s = t.wait_quiet("pinned interleaved_strided:") or t.screen()
        check("by function:" in s and "pinned interleaved_strided:" in s,
              "at 220 columns both views stand side by side and the functions stay", s)
        t.keys("Escape", "p")
        t.resize(80, 24)
        t.keys("C")
        s = t.wait_quiet("a/b") or t.screen()
        check("more [ ]" in s and "branch uniformity" not in s,
              "Compare at 80x24 says more rows are below", s)
        t.keys("NPage")
        s = t.wait_quiet("^ more [ ]") or t.screen()
        check("branch uniformity" in s, "PgDn shows Compare's last rows", s)
        t.keys("a")
        s = t.wait_quiet("left (a): now") or t.screen()
        check("left (a): now first_add against" in s, "a says what it changed", s)
        t.keys("Escape", "D", "C-u", "96", "Enter", "j", "j", "j", "j")
        s = t.wait_quiet("not a power of two") or t.screen()
        check("96 is not a power of two" in s,
              "a refusal wraps over the result panel's rows, its end shown", s)
        t.keys("?")
        top = t.wait_quiet("Help: every key") or t.screen()
        check("(this screen)" in top and "one variant at a time: pick it" in top,
              "the help names the screen it came from and says what it shows", top)
        t.keys("NPage")
        s = t.wait_quiet("Help: every key") or t.screen()
        check("does nothing" not in s and s != top, "PgDn pages the help", s)
    finally:
        t.close()


def preset_notes():
    """s asks for a note after the name; the Presets screen shows the
    selected preset's note whole (a shipped one's is longer than its row)."""
    cfg = tempfile.mkdtemp(prefix="rs_tui_note_")
    t = Tmux(f"{EXE} --replay {REC}", cols=80, rows=24, env=dict(UTF8, XDG_CONFIG_HOME=cfg))
    try:
        t.wait_for("reps")
        t.keys("s")
        t.wait_for("save preset as")
        t.keys("C-u")
        t.tmux("send-keys", "-t", t.name, "-l", "lecture")
        t.keys("Enter")
        s = t.wait_for("its note") or t.screen()
        check("its note" in s, "a name asks for its note", s)
        t.tmux("send-keys", "-t", t.name, "-l", "sequential for the second lecture")
        t.keys("Enter")
        s = t.wait_for("saved preset") or t.screen()
        ini = os.path.join(cfg, "redscope", "presets", "lecture.ini")
        text = open(ini).read() if os.path.exists(ini) else ""
        check("note = sequential for the second lecture" in text, f"the note is saved: {text!r}")
        t.keys("P")
        s = t.wait_quiet("lecture:") or t.screen()
        check("sequential for the second lecture" in s, "the preset just saved is selected", s)
        t.keys("j")  # from the last row to the first
        s = t.wait_quiet("atomic-vs-tree:") or t.screen()
        check("--preset atomic-vs-tree)" in s, "the selected preset's note is shown whole", s)
        t.keys("s")
        t.wait_for("save preset as")
        t.keys("C-u")
        t.tmux("send-keys", "-t", t.name, "-l", "lecture2")
        t.keys("Enter")
        t.wait_for("its note")
        t.keys("Enter")
        s = t.wait_quiet("saved preset") or t.screen()
        check("lecture2" in s and "lecture2:" in s,
              "a preset saved on the Presets screen is listed and selected at once", s)
        # the same name again: asked to replace it (not told to add --force)
        t.keys("s")
        t.wait_for("save preset as")
        t.keys("C-u")
        t.tmux("send-keys", "-t", t.name, "-l", "lecture2")
        t.keys("Enter")
        t.wait_for("its note")
        t.tmux("send-keys", "-t", t.name, "-l", "the second version")
        t.keys("Enter")
        s = t.wait_quiet("type yes") or t.screen()
        check("it exists; type yes to replace it" in s and "--force" not in s,
              "saving over a preset asks to replace it", s)
        t.tmux("send-keys", "-t", t.name, "-l", "yes")
        t.keys("Enter")
        s = t.wait_quiet("saved preset") or t.screen()
        ini2 = os.path.join(cfg, "redscope", "presets", "lecture2.ini")
        text = open(ini2).read() if os.path.exists(ini2) else ""
        check("saved preset" in s and "note = the second version" in text,
              f"yes replaces it, with its new note: {text!r}", s)
    finally:
        t.close()
        shutil.rmtree(cfg, ignore_errors=True)


def ladder_explains():
    """The Ladder screen shows, per step, the counter its Why names with
    its change against the row above: sequential's bank conflicts fall 99%
    at 80 columns and at 120 (with the value)."""
    # the names are the metric table's: its column title at 80, its label at 120
    for cols, rows, want, inst in ((80, 24, "conflicts \u25bc99%", "warp inst \u25bc46%"),
                                   (120, 40, "bank conflicts 80.0 k \u25bc99%",
                                    "warp instructions 33.0 M \u25bc46%")):
        t = replay(cols, rows)
        try:
            t.keys("L")
            s = t.wait_quiet("14 thrust") or t.screen()
            seq = next((l for l in s.splitlines() if " 4 sequential" in l), "")
            check(want in seq, f"{cols}x{rows}: sequential's row says what explains it: {seq!r}", s)
            check("explains" in s, f"{cols}x{rows}: the column is named", s)
            inter = next((l for l in s.splitlines() if " 5 first_add" in l), "")
            check(inst in inter, f"{cols}x{rows}: first_add's warp instructions fall 46%: {inter!r}",
                  s)
        finally:
            t.close()


def cut_lists():
    """At 80x24 the explorer's list says its last rows are below, and the
    Ladder screen's note on %rd is whole over the rows under the table."""
    t = replay(80, 24)
    try:
        s = t.screen()
        check("1-12/16 v more (Up/Down)" in s, "the list at 80x24 says four rows are below", s)
        t.keys("L")
        s = t.wait_quiet("14 thrust") or t.screen()
        check("(theoretical peak 4814)" in s and "above 100%" in s,
              "the Ladder screen's note is whole at 80x24", s)
        t.keys("Escape")
        t.resize(120, 50)
        t.keys("j", "j")  # unroll_warp_volatile: the demo recording holds its racecheck at 2^24
        s = t.wait_quiet("A data race") or t.screen()
        check("x shows what racecheck (compute-sanitizer) found, as" in s,
              "the race's advice names what the replay holds: the recorded racecheck", s)
    finally:
        t.close()


def why_pages():
    """A step's Why panel pages by PgDn to its last line and no further: the
    first PgUp after many PgDn moves it back at once (it was kept scrolling
    out of sight, up to 96 lines)."""
    t = replay(120, 40)
    try:
        check(t.wait_quiet("v more [ ]") is not None, "sequential's Why at 120x40 says more is below",
              t.screen())
        for _ in range(12):
            t.keys("NPage")
        s = t.wait_quiet("^ more [ ]") or t.screen()
        check("^ more [ ]" in s and "__syncthreads();" in s,
              "PgDn reaches the panel's last line, its code", s)
        t.keys("PPage")
        s = t.wait_quiet("v more [ ]") or t.screen()
        check("v more [ ]" in s, "one PgUp after many PgDn moves the panel back", s)
        t.keys("NPage")
        s = t.wait_quiet("^ more [ ]") or t.screen()
        check("^ more [ ]" in s, "and one PgDn brings the last line back", s)
    finally:
        t.close()


TESTS = [cpu_time, counters_in_replay, kernel_no_run, cut_recording, help_per_screen, cut_panels,
         preset_notes, ladder_explains, cut_lists, why_pages]
for test in TESTS:
    if len(sys.argv) < 2 or test.__name__ in sys.argv[1:]:
        test()
check.finish()
