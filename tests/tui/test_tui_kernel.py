#!/usr/bin/env python3
"""Your own kernel in the explorer, in a real terminal (tmux), without a GPU.

Live (runs fail with "no NVIDIA driver"): the kernel row before a file is
picked and Enter on it; K opens the file prompt; Tab completes a path, shows
several matches, goes into a directory; a directory, an empty file and a
bad header keep the prompt open with the reason; a good file puts its name
in the list and the Ladder screen, its source with line numbers in Why,
scrolled to its last line; saves are seen (the source follows the file, an
empty save says so); an empty answer clears the kernel; a preset with
`kernel = path` shows the kernel row; ASCII fallback for a source with
UTF-8 in it.

Replay of conf/recordings/h100-kernels.jsonl (made on an H100): the kernel
row named by its file, with its recorded result and recorded source in
Why; K is refused. Every check names what a user would see go wrong."""
import json
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import Checks  # noqa: E402
from tuitest import Tmux, status_line  # noqa: E402

check = Checks("test_tui_kernel")
EXE = os.environ["REDSCOPE"]
SRC = os.environ["REDSCOPE_SOURCE"]
REC = os.path.join(SRC, "conf", "recordings", "h100-kernels.jsonl")
TEMPLATE = os.path.join(SRC, "conf", "kernels", "template.cu")
UTF8 = {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color"}
ASCII = {"LANG": "C", "LC_ALL": "C", "TERM": "xterm-256color"}


def selected(s):
    """The selected row of the explorer's list (its left panel)."""
    for line in (s or "").splitlines():
        if "\u25b6" in line[:4] or line[1:2] == ">":
            return line[:40]
    return ""


def settle(t, pause=0.4):
    time.sleep(pause)
    return t.screen()


def live(cwd, env=UTF8, cols=100, rows=30, extra=""):
    t = Tmux(f"sh -c 'cd {cwd} && exec {EXE} {extra}'", cols=cols, rows=rows, env=env)
    s = t.wait_for("Ladder", 20)
    time.sleep(1.0)  # the worker has tried the GPU
    return t, s


def pick_kernel_row(t):
    """Up from the start wraps to the last row, the kernel's."""
    for _ in range(20):
        s = t.screen()
        if " 16 " in selected(s) or "16 " in selected(s):
            return s
        t.keys("Up")
    return t.screen()


def prompt_and_completion(t):
    s = pick_kernel_row(t)
    check("kernel (K: your .cu)" in s, "without a file the kernel row says how to pick one", s)
    t.keys("Enter")
    s = settle(t)
    check("press K" in status_line(s), "Enter on the empty kernel row says to press K, runs nothing",
          s)
    t.keys("K")
    s = settle(t)
    check("kernel file:" in status_line(s), "K opens the 'kernel file:' prompt", s)
    t.keys(*"conf/kernels/tem", "Tab")
    s = settle(t)
    check("kernel file: conf/kernels/template.cu" in status_line(s),
          "Tab completes conf/kernels/tem to conf/kernels/template.cu", s)
    t.keys("C-u", *"conf/kernels/", "Tab")
    s = settle(t)
    line = status_line(s)
    check("5 matches" in line and "fast.cu" in line and "lab-barrier.cu" in line,
          "Tab with several matches shows them beside the prompt", s)
    t.keys("C-u", *"conf/ker", "Tab")
    s = settle(t)
    check("kernel file: conf/kernels/ " in status_line(s) + " ",
          "Tab completes a directory with a trailing '/'", s)


def bad_files(t, tmp):
    empty = os.path.join(tmp, "empty.cu")
    open(empty, "w").close()
    # a path wider than the terminal: the reason must still show, beside it or
    # in full on the rows above it
    deep = os.path.join(tmp, "a-course-folder-with-a-long-name", "week-03-reductions", "labs")
    os.makedirs(deep)
    bad = os.path.join(deep, "badheader.cu")
    shutil.copy(os.path.join(SRC, "tests", "data", "kernels", "badheader.cu"), bad)
    cases = [("conf/kernels", "is a directory"), (empty, "is empty"),
             (bad, "badheader.cu:3: unknown directive"),
             ("nothere.cu", "nothere.cu: No such file")]
    for path, reason in cases:
        t.keys("C-u", *path, "Enter")
        s = settle(t)
        line = status_line(s)
        rows = s.splitlines()[-5:-2]  # the reason's rows above the prompt, not a panel's
        above = " ".join(r.strip() for r in rows if r[:1] == " ")
        check("kernel file:" in line and (reason in line or reason in above),
              f"a bad file ({os.path.basename(path)}) keeps the prompt open with '{reason}'", s)


def good_file(t):
    t.keys("C-u", *"conf/kernels/template.cu", "Enter")
    s = settle(t)
    check("kernel file:" not in status_line(s), "a good file closes the prompt", s)
    check("kernel template.cu: Enter compiles it (running needs an NVIDIA GPU)"
          in status_line(s), "the status says the kernel is set and Enter compiles it", s)
    check("16 template.cu" in selected(s), "the kernel row is named by its file and selected", s)
    check("file conf/kernels/template.cu" in s, "Why names the kernel's path", s)
    check(" 1  // redscope kernel template" in s, "Why shows the source with line numbers", s)
    nlines = len(open(TEMPLATE).read().splitlines())
    for _ in range(30):
        t.keys("]")
    s = settle(t)
    check(f"{nlines}  }}" in s, f"] scrolls Why to the source's last line ({nlines})", s)
    t.keys("[")
    s2 = settle(t)
    check(f"{nlines}  }}" not in s2, "[ scrolls back up at once from the end", s2)
    t.keys("Enter")
    s = t.wait_for("compiled, not run") or t.screen()
    check("template.cu compiled, not run (needs an NVIDIA GPU): 12 registers" in status_line(s),
          "Enter without a GPU compiles the kernel and says running needs one", s)
    t.keys("L")
    s = settle(t)
    check("Your kernel, template.cu, is its last row (16)" in s,
          "the Ladder screen says the kernel is its last row", s)
    t.keys("Escape")


def watching(t, tmp):
    mine = os.path.join(tmp, "mine.cu")
    shutil.copy(TEMPLATE, mine)
    t.keys("K", "C-u", *mine, "Enter")
    s = settle(t)
    check("16 mine.cu" in selected(s), "K on a copy names it in the list", s)
    with open(mine, "a") as f:  # a save: the explorer sees it and tries to run it
        f.write("// saved once more: the explorer notices\n")
    time.sleep(1.2)
    s = t.screen()
    check("mine.cu changed" in status_line(s), "a save is seen and the kernel compiled again", s)
    open(mine, "w").close()  # half a save: empty
    time.sleep(1.0)
    s = t.screen()
    check("is empty" in status_line(s) and "is empty" in s,
          "an empty save says so (status and Why), and runs nothing", s)
    shutil.copy(TEMPLATE, mine)
    time.sleep(1.0)
    s = t.screen()
    check("mine.cu changed" in status_line(s) and " 1  // redscope kernel template" in s,
          "the next good save reads the file again", s)
    t.keys("K", "C-u", "Enter")
    s = settle(t)
    check("kernel (K: your .cu)" in s and "mine.cu" not in s, "an empty answer clears the kernel",
          s)


def test_live():
    tmp = tempfile.mkdtemp(prefix="rs_tui_kernel_")
    t, s = live(SRC)
    try:
        check(s is not None, "the explorer starts", t.screen())
        prompt_and_completion(t)
        bad_files(t, tmp)
        good_file(t)
        watching(t, tmp)
        t.keys("q")
        check(t.exit_code() == 0, "q quits with 0 after all that", t.screen())
    finally:
        t.close()
        shutil.rmtree(tmp, ignore_errors=True)


def test_preset():
    cfg = tempfile.mkdtemp(prefix="rs_tui_kcfg_")
    folder = os.path.join(cfg, "redscope", "presets")
    os.makedirs(folder)
    with open(os.path.join(folder, "mykernel.ini"), "w") as f:
        f.write(f"[preset]\nnote = my kernel\n[run]\nvariant = kernel\nkernel = {TEMPLATE}\n")
    t, s = live(SRC, env=dict(UTF8, XDG_CONFIG_HOME=cfg))
    try:
        t.keys("P")
        for _ in range(40):
            s = t.screen()
            if any("\u25b6" in l and "mykernel" in l for l in s.splitlines()):
                break
            t.keys("Down")
        t.keys("Enter")
        s = settle(t)
        check("16 template.cu" in selected(s),
              "a preset with kernel = path shows the kernel row, named and selected", s)
        check(" 1  // redscope kernel template" in s, "and Why shows the preset's kernel source", s)
        s = settle(t, 1.0)
        check("preset mykernel" in status_line(s) and "changed" not in status_line(s),
              "a kernel from a preset is looked at, not run as if it had been saved", s)
        t.keys("q")
    finally:
        t.close()
        shutil.rmtree(cfg, ignore_errors=True)


def test_ascii():
    tmp = tempfile.mkdtemp(prefix="rs_tui_kascii_")
    k = os.path.join(tmp, "utf.cu")
    with open(k, "w", encoding="utf-8") as f:
        f.write("// sum \u2192 one value per block\n" + open(TEMPLATE).read())
    t, s = live(SRC, env=ASCII)
    try:
        t.keys("K", *k, "Enter")
        s = settle(t)
        check("16 utf.cu" in selected(s), "ASCII: the kernel row", s)
        check("1  // sum ? one value per block" in s,
              "ASCII: a UTF-8 character of the source shows as '?'", s)
        t.keys("q")
    finally:
        t.close()
        shutil.rmtree(tmp, ignore_errors=True)


def recorded_kernels():
    """The kernel rows of the recording and the sources it holds by hash."""
    rows, sources = [], {}
    with open(REC) as f:
        for line in f:
            j = json.loads(line)
            if j.get("command") == "kernel":
                sources[j["hash"]] = j["source"]
            elif j.get("request", {}).get("variant") == "kernel":
                rows.append(j)
    return rows, sources


def find_kernel_config(t, name):
    """R, then each recorded configuration in turn until the list shows name."""
    for k in range(60):
        t.keys("R")
        time.sleep(0.2)
        t.keys(*(["Down"] * k), "Enter")
        s = settle(t, 0.3)
        if "Ladder \u00b7" in s.splitlines()[1]:  # a ladder opens on its screen
            t.keys("Escape")
            s = settle(t, 0.3)
        if any(name in l[:40] for l in s.splitlines()):
            return s
    return None


def test_replay():
    if not os.path.exists(REC):
        check(False, f"{REC} is missing: the recording of user kernels made on the GPU")
        return
    rows, sources = recorded_kernels()
    check(rows and sources, "the recording holds kernel rows and their sources")
    if not rows:
        return
    row = next((r for r in rows if "kernel_build" in r), rows[0])
    name = os.path.basename(row["request"]["kernel"])
    t = Tmux(f"{EXE} --replay {REC}", cols=120, rows=44, env=UTF8)
    try:
        check(t.wait_for("REPLAY") is not None, "the recording opens", t.screen())
        s = find_kernel_config(t, name)
        check(s is not None, f"a recorded configuration shows the kernel row '{name}'", t.screen())
        for _ in range(20):
            s = t.screen()
            if name in selected(s):
                break
            t.keys("Up")
        s = settle(t)
        check(name in selected(s) and "16" in selected(s), "the kernel row is step 16, by file", s)
        check("\u2713" in selected(s) or "\u2717" in selected(s) or "failed" in selected(s),
              "the kernel row shows its recorded result", s)
        check("recorded from" in s, "Why says where the kernel was recorded from", s)
        src = sources.get(row.get("kernel_build", {}).get("hash", ""), "")
        first = next((l for l in src.splitlines() if l.strip()), "")[:40]
        check(first and f" 1  {first}" in s, "Why shows the recorded source with line numbers", s)
        t.keys("K")  # a file the recording lacks is compiled, not run (test_tui_lecturer)
        s = settle(t)
        check("kernel file:" in status_line(s), "K opens the prompt in a replay too", s)
        t.keys("Escape")
        s = settle(t)
        check("kernel file:" not in status_line(s) and "recorded from" in s,
              "Esc closes it, the recorded kernel still shown", s)
        t.keys("q")
        check(t.exit_code() == 0, "q quits the replay with 0", t.screen())
    finally:
        t.close()


for test in (test_live, test_preset, test_ascii, test_replay):
    test()
check.finish()
