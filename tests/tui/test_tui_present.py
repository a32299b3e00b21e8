#!/usr/bin/env python3
"""redscope present in a real terminal, from the shipped H200 recording (no
GPU). At 80x24, 100x30 and 120x40 every slide of the shipped decks fits or
carries a "more" mark that Up/k and Down/j follow; a step's slide builds up
in its order; the racy step names racecheck's finding; the digits have an
ASCII twin; the notes pane in a second terminal follows the deck.
`test_tui_present.py NAME...` runs only those."""
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import Checks, run  # noqa: E402
from tuitest import UTF8, Tmux  # noqa: E402

EXE = os.environ["REDSCOPE"]
REC = os.path.join(os.environ["REDSCOPE_SOURCE"], "conf", "recordings", "h200-demo.jsonl")
check = Checks("test_tui_present")
DECKS = {  # the shipped decks: the lecture's two ladders, Harris 2007, the student lab
    "int32": "",
    "float32": "--type float32",
    "harris": "--preset harris-2007",
    "lab": "--preset student-lab",
}


def present(args="", cols=80, rows=24, env=UTF8):
    t = Tmux(f"{EXE} present --replay {REC} {args}", cols=cols, rows=rows, env=env)
    t.wait_for("0/")
    return t


def slide_no(s):
    m = re.search(r"^ (\d+)/(\d+) ", s, re.M)
    return (int(m.group(1)), int(m.group(2))) if m else (None, None)


def mark(s):
    m = re.search(r"([v^]) (\d+)-(\d+)/(\d+) more: (Down/j|Up/k)", s)
    return m


def every_slide_fits(deck, cols, rows):
    """From the closing slide back to the title, each slide whole: where it
    is cut a mark says so, and Up/k reaches its top; where no mark is shown,
    Up/k and Down/j change nothing (nothing hidden)."""
    t = present(DECKS[deck], cols, rows)
    try:
        t.keys("End")
        seen, n = 0, None
        for i in range(40):
            if i:
                t.keys("Left")
            s = t.wait_quiet("/") or t.screen()
            k, last = slide_no(s)
            n = last if last is not None else n
            if k is None:
                check(False, f"{deck} {cols}x{rows}: the slide's number is shown", s)
                break
            seen += 1
            lines = s.splitlines()
            check(len(lines) <= rows and all(len(l) <= cols for l in lines),
                  f"{deck} {cols}x{rows} slide {k}: drawn within the terminal", s)
            m = mark(s)
            if m is None:
                t.keys("k")
                check(t.screen() == s, f"{deck} {cols}x{rows} slide {k}: no mark, nothing above", s)
            else:
                check(m.group(1) == "^" and m.group(3) == m.group(4),
                      f"{deck} {cols}x{rows} slide {k}: shown whole from its end, marked", s)
                for _ in range(30):
                    t.keys("k")
                    top = t.screen()
                    if mark(top) and mark(top).group(2) == "1":
                        break
                m2 = mark(top)
                check(m2 is not None and m2.group(1) == "v" and m2.group(2) == "1",
                      f"{deck} {cols}x{rows} slide {k}: Up/k reaches its top, marked below", top)
            if k == 0:
                break
        check(n is not None and seen == n + 1, f"{deck} {cols}x{rows}: every slide seen ({seen})")
    finally:
        t.close()


def fits():
    for cols, rows in ((80, 24), (100, 30), (120, 40)):
        for deck in DECKS:
            every_slide_fits(deck, cols, rows)


def builds_up():
    """Slide 6 (the racy step) a part a key, in order, with its race."""
    t = present("", 100, 30)
    try:
        t.keys("6", "Enter")
        s = t.wait_for("6/15") or t.screen()
        check("unroll_warp_volatile" in s and "The idea" in s and not re.search(r"^ The question", s, re.M),
              "6 Enter: slide 6 with its idea alone", s)
        order = ["The question", "The answer", "Where warps wait", "The ladder so far", "Caveats"]
        for name in order:
            check(f"Right/Space: {name}" in s, f"the footer names the next part: {name}", s)
            t.keys("Right")
            t.wait_quiet(name)
            s = t.screen()
            check(re.search(rf"^ {name}", s, re.M), f"Right shows {name}", s)
        check("data race" in s and "racecheck" in s and "hazards" in s,
              "the caveat names racecheck's finding", s)
        t.keys("Right")
        s = t.wait_for("7/15") or t.screen()
        check("7/15" in s and "unroll_warp:" in s, "Right on a built slide: the next slide", s)
        t.keys("Left")
        s = t.wait_for("6/15") or t.screen()
        check("Caveats" in s, "Left: the slide before, whole", s)
        t.keys("Home")
        s = t.wait_for("0/15") or t.screen()
        check("The reduction ladder on NVIDIA H200" in s, "Home: the title slide", s)
        t.keys("q")
        check(t.exit_code() == 0 and t.terminal_restored(), "q ends, the terminal restored")
    finally:
        t.close()


def answer_digits():
    """The answer in block digits; without UTF-8, '#' cells."""
    t = present("", 100, 30)
    try:
        t.keys("4", "Enter", "Right", "Right")
        s = t.wait_for("median time") or t.screen()
        check("\u2588" in s and "median time" in s and "against interleaved_strided" in s,
              "sequential's answer: its time and speedup in block digits", s)
    finally:
        t.close()
    t = present("", 100, 30, env={"LANG": "C", "LC_ALL": "C", "TERM": "xterm"})
    try:
        s = t.wait_for("GB/s") or t.screen()
        check("###" in s and "\u2588" not in s, "the ASCII twin: # cells", s)
    finally:
        t.close()


def contrast():
    """--contrast: the projector's theme, bright on black, the text bold;
    without it the terminal's own background and plain text."""
    for args, want in (("--contrast", True), ("", False)):
        t = present(args, 80, 24)
        try:
            t.wait_for("What is measured")
            s = t.screen(escapes=True)
            line = next((l for l in s.splitlines() if "int32 sum of n 2^24" in l), "")
            black = "\x1b[40m" in s or "[40m" in line
            check(black == want and ("\x1b[1mint32 sum of n" in line) == want,
                  f"present {args or '(default theme)'}: black background {black}, bold text",
                  repr(line))
        finally:
            t.close()


def no_gpu():
    """Live without a GPU: a step's slide says nothing runs here and how to
    replay one; R does it, and the deck is the recording's."""
    if run("devices")[0] == 0:
        return  # a GPU here: gpu_present runs the live deck
    t = Tmux(f"{EXE} present --n 2^24", cols=80, rows=24, env=UTF8)
    try:
        t.wait_for("1. atomic", 5) or t.wait_for("/15", 30)
        t.keys("1", "Enter", "Right")
        s = t.wait_for("no GPU here") or t.screen()
        check("nothing runs; R replays a recording of one" in s,
              "live without a GPU: the slide says nothing runs and what R does", s)
        t.keys("R")
        s = t.wait_for("REPLAY") or t.screen()
        check("REPLAY" in s and re.search(r"^ \d+/15 ", s, re.M),
              "R on the deck: the shipped recording's deck", s)
    finally:
        t.close()


def notes_follow():
    """present --notes in a second terminal follows the deck."""
    run = tempfile.mkdtemp(prefix="rs_xdg_")
    env = dict(UTF8, XDG_RUNTIME_DIR=run)
    notes = Tmux(f"{EXE} present --notes", cols=80, rows=24, env=env)
    try:
        s = notes.wait_for("waiting for a deck") or notes.screen()
        check("waiting for a deck" in s, "notes before a deck: waiting, named where", s)
        deck = present("", 80, 24, env)
        try:
            s = notes.wait_for("slide 0/15") or notes.screen()
            check("The reduction ladder on NVIDIA H200" in s and "Next: 1. atomic" in s,
                  "notes follow the title slide, with the next slide's title", s)
            check(re.search(r"\d+:\d\d elapsed", s), "notes show the clock", s)
            deck.keys("4", "Enter")
            s = notes.wait_for("slide 4/15") or notes.screen()
            check("4. sequential" in s and "Ask the room" in s and "The textbook" in s,
                  "slide 4: what to ask and what the textbook says", s)
            deck.keys("Right", "Right")
            s = notes.wait_for("part 3/") or notes.screen()
            check("part 3/" in s and "Numbers: 87.5" in s, "the notes follow the build", s)
            deck.keys("q")
            s = notes.wait_for("waiting for a deck") or notes.screen()
            check("waiting for a deck" in s, "the deck ended: the notes wait again", s)
        finally:
            deck.close()
    finally:
        notes.close()


def notes_robust():
    """A socket held by a process that never answers (its queue full) does
    not freeze the deck, nor is it taken from it; panes that came and went
    leave their places free for the next."""
    import socket
    run_dir = tempfile.mkdtemp(prefix="rs_xdg_")
    os.makedirs(os.path.join(run_dir, "redscope"), mode=0o700)
    path = os.path.join(run_dir, "redscope", "notes.sock")
    squat = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    squat.bind(path)
    squat.listen(0)
    filler = []
    for _ in range(4):  # the queue filled: a blocking connect would wait for ever
        c = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        c.setblocking(False)
        try:
            c.connect(path)
        except OSError:
            pass
        filler.append(c)
    env = dict(UTF8, XDG_RUNTIME_DIR=run_dir)
    t = Tmux(f"{EXE} present --replay {REC}", cols=80, rows=24, env=env)
    try:
        s = t.wait_for("0/15", 15) or t.screen()
        t.keys("Right")
        s = t.wait_for("1/15", 10) or t.screen()
        check("1/15" in s, "a squatted notes socket: the deck runs on", s)
        check(os.path.exists(path), "the squatter's socket is left where it was")
    finally:
        t.close()
        for c in filler:
            c.close()
        squat.close()
        os.unlink(path)
    deck = present("", 80, 24, env)
    try:
        for _ in range(5):  # panes that come and go while the slide stays
            c = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            c.connect(path)
            c.recv(16384)
            c.close()
        notes = Tmux(f"{EXE} present --notes", cols=80, rows=24, env=env)
        try:
            s = notes.wait_for("slide 0/15", 10) or notes.screen()
            check("slide 0/15" in s, "after five panes came and went, a new one is served", s)
        finally:
            notes.close()
    finally:
        deck.close()


def lecturer_trial():
    """What a lecturer's trial met: Esc keeps `present` on its deck; t in a
    replay finds the recording's ladder of the next type (int64: none, said
    with the settings; float32: its deck); code keeps its indentation;
    --notes with --export is refused."""
    t = present("", 80, 24)
    try:
        t.keys("6", "Enter", "Escape")
        s = t.wait_quiet("6/15") or t.screen()
        check("6/15" in s and "q ends the deck" in s, "Esc on `present`: the deck stays", s)
        check(re.search(r"^ {7}if \(tid < stride\)", s, re.M),
              "a key line keeps its indentation on the slide", s)
        t.keys("t")
        s = t.wait_for("No ladder in the recording") or t.screen()
        check("int64 sum" in s and "R lists what it holds" in s,
              "t to int64: no recorded ladder, the settings shown", s)
        t.keys("t")
        s = t.wait_for("float32 sum") or t.screen()
        t.wait_quiet("/15")
        s = t.screen()
        check(re.search(r"^ \d+/15 ", s, re.M) and "float32 sum" in s,
              "t again: the recording's float32 ladder as a deck", s)
    finally:
        t.close()
    rc, out, err = run("present", "--replay", REC, "--notes", "--export", "x.html")
    check(rc == 2 and "give one of them" in err, f"--notes with --export: refused: {rc} {err}")


TESTS = [fits, builds_up, answer_digits, contrast, no_gpu, notes_follow, notes_robust, lecturer_trial]
for f in TESTS:
    if len(sys.argv) < 2 or f.__name__ in sys.argv[1:]:
        f()
check.finish()
