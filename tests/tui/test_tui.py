#!/usr/bin/env python3
"""The explorer in a real terminal (tmux), as a lecturer meets it without a
GPU: the shipped H200 recording end to end (open on its first
configuration, list the configurations, pick one, every screen, the sweep
chart in GB/s, quit), the status line, the quit question, the keys that
step back, prompts, columns and cuts at 80x24, 100x30 and 160x50, the ASCII
and monochrome fallbacks, a user's own CPU recording, the CPU row without a
GPU, R while CUDA is slow to start, and a terminal restored after SIGTERM
and Ctrl-\\. Every check names what a user
would see go wrong."""
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tuitest import Tmux  # noqa: E402

EXE = os.environ["REDSCOPE"]
REC = os.path.join(os.environ["REDSCOPE_SOURCE"], "conf", "recordings", "h200-demo.jsonl")
failures, checks = [], 0
UTF8 = {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color"}
ASCII = {"LANG": "C", "LC_ALL": "C", "TERM": "xterm-256color"}
SIZES = [(80, 24), (100, 30), (160, 50)]


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


def status_line(s):
    return s.splitlines()[-2] if s else ""


VALUE = re.compile(r"\s*[\d,.]+(?: ?(?:\u00b5s|us|ms|s|MiB|KiB|GiB|B|%|GB/s)\b|%)?")


def right_edges(s, panel_left, labels):
    """The column where the first value after each label ends, inside a panel."""
    edges = {}
    for line in s.splitlines():
        for lab in labels:
            i = line.find(lab, panel_left)
            if i >= 0:
                m = VALUE.match(line[i + len(lab):])
                if m:
                    edges[lab] = i + len(lab) + m.end()
    return edges


def replay_end_to_end():
    t = Tmux(f"{EXE} --replay {REC}", cols=120, rows=44, env=UTF8)
    try:
        s = t.wait_for("REPLAY")
        check(s is not None and "NVIDIA H" in s, "starts and names the recording's GPU", t.screen())
        # opens on the first configuration: its results are there before any key
        s = t.wait_for("\u2713 exact")
        check(s is not None and "\u25b6 4 sequential" in s,
              "replay opens on the recording's first configuration (sequential's result shown)",
              t.screen())
        check(s and "20 reps" in s and "finish auto" in s, "the result title shows finish and reps",
              s)
        check(s and "6 configurations" in s, "the status says how many configurations", s)
        t.keys("k")
        s = t.wait_for("Counters (vs interleaved)")
        check(s is not None, "interleaved_strided's counters against interleaved", t.screen())
        t.keys("j")
        s = t.wait_for("Counters (vs interleaved_strided)")
        check(s and "32 different banks" in s, "why quotes the bank conflicts", s)
        # the configurations a recording holds, and picking one
        t.keys("R")
        s = t.wait_for("6 configurations (Enter")
        check(s is not None, "R lists the recording's configurations", t.screen())
        rows = [l for l in (s or "").splitlines() if re.search(r"\b(ladder|sweep)\b", l)]
        check(len(rows) == 6, f"6 configurations listed, {len(rows)} seen", s)
        sweep_row = [l for l in rows if "sweep" in l]
        check(sweep_row and "atomic" in sweep_row[0] and re.search(r"\b5\b", sweep_row[0])
              and "2^10..2^28" in sweep_row[0], "the sweep row shows finish atomic, 5 reps, range",
              s)
        t.keys("Down", "Down", "Down", "Down", "Down", "Enter")  # the sixth: the sweep
        s = t.wait_for("Sweep \u00b7")
        check(s is not None, "picking the sweep opens the Sweep screen", t.screen())
        title = (s or "").splitlines()[1] if s else ""
        check("float64" in title and "finish atomic" in title and "5 reps" in title,
              "the sweep title shows type, finish and reps", title)
        check(s and any(chr(c) in s for c in range(0x2801, 0x2900)), "the chart is drawn", s)
        # y: the y axis changes from times to bandwidths
        axis = lambda sc: [l[1:10] for l in sc.splitlines()[3:-6]]  # noqa: E731
        before = " ".join(axis(s or ""))
        check(re.search(r"\d (\u00b5s|ms|s)\b", before), "time view: the y axis is in time", before)
        t.keys("y")
        s = t.wait_for("Sweep \u00b7 GB/s") or t.screen()
        after = " ".join(axis(s))
        check(not re.search(r"\d (\u00b5s|ms)\b", after) and re.search(r"\d", after)
              and "GB/s" in s.splitlines()[1], "y: the axis shows GB/s, not times", s)
        # the cursor reads values at the n it is on, and moves
        m1 = re.search(r"n = (\S+):", s)
        t.keys("Right", "Right")
        s = t.wait_for("n = 2^12:") or t.screen()
        m2 = re.search(r"n = (\S+):", s)
        check(m1 and m2 and m1.group(1) == "2^10" and m2.group(1) == "2^12",
              "Right moves the cursor and its values (2^10 to 2^12)", s)
        # another type: not recorded, and said plainly (no invented sweep)
        t.keys("t", "Enter")
        s = t.wait_for("not recorded", 10)
        check(s is not None and "fastest" not in s, "Enter on an unrecorded sweep says so",
              t.screen())
        t.keys("T", "Enter")
        s = t.wait_for("the recorded sweep", 10)
        check(s is not None, "back to float64: Enter shows the recorded sweep again", t.screen())
        t.keys("L")
        s = t.wait_for("Ladder \u00b7 float64")
        check(s is not None and "other settings" in s,
              "the ladder screen does not show another configuration's rows", t.screen())
        t.keys("R")
        s = t.wait_for("\u25b6* 6 sweep")
        check(s is not None, "R marks and selects the configuration shown", t.screen())
        t.keys("Down", "Enter")  # wraps to the first
        s = t.wait_for("Ladder \u00b7 int32")
        check(s and s.count("\u2713") >= 14 and "\u00d71.00" in s,
              "the first configuration's ladder, with speedups", s)
        check(s and re.search(r"%(read|rd) ", s) and
              re.search(r"the streaming read: 4\d\d\d GB/s", s),
              "the ladder reads against the recorded limit (the H200's streaming read)", s)
        vec = re.search(r"12 vectorized .* (\d+(\.\d)?)% ", s or "")
        check(vec and 50.0 <= float(vec.group(1)) <= 105.0,
              "vectorized's % of the limit is on its row", s)
        t.keys("C")
        s = t.wait_for("Compare")
        check(s is not None and "a/b" in s, "the compare screen", t.screen())
        t.keys("Escape", "P")
        s = t.wait_for("harris-2007")
        check(s is not None and "shipped" in s, "the presets list", t.screen())
        t.keys("Escape", "?")
        s = t.wait_for("every key")
        check(s is not None and "quit" in s and "next element type (T: previous)" in s
              and not re.search(r"\n\S*\s+T\s+previous element type", s), "the help screen",
              t.screen())
        t.keys("Escape")
        t.resize(60, 15)
        check(t.wait_for("too small") is not None, "a too small window says so", t.screen())
        t.resize(100, 30)
        check(t.wait_for("Ladder") is not None, "back after resizing", t.screen())
        t.keys("q")
        check(t.exit_code() == 0, "q quits with 0")
        check(t.terminal_restored(), "the terminal is restored after q")
    finally:
        t.close()


XDG = tempfile.mkdtemp(prefix="rs_tui_cfg_")


def status_and_keys():
    t = Tmux(f"{EXE} --replay {REC}", cols=100, rows=30, env=dict(UTF8, XDG_CONFIG_HOME=XDG))
    try:
        t.wait_for("\u2713 exact")
        t.keys("n")
        s = t.wait_for("n (16777216")
        check(s and "2^24" in status_line(s), "n opens a prompt pre-filled with n", s)
        t.keys("x")
        s = t.screen()
        check("): 2^24" not in status_line(s) and "): x " in status_line(s),
              "typing replaces the pre-filled value", status_line(s))
        t.keys("Enter")
        s = t.wait_for("expected a count")
        check(s is not None and "n (16777216" in s, "a bad n keeps the prompt open with why",
              t.screen())
        t.keys("C-u", "2", "^", "2", "2", "Enter")
        s = t.wait_for("n set to 2^22")
        check(s is not None and "4,194,304" in s, "the status says what n became", t.screen())
        t.keys("Escape")
        t.keys("t")
        check(t.wait_for("type int64") is not None, "t: the status names the new type",
              t.screen())
        t.keys("T", "T")
        check(t.wait_for("type bfloat16") is not None, "T steps back (int32 to bfloat16)",
              t.screen())
        t.keys("t", "b")
        check(t.wait_for("blockDim 512") is not None, "b steps to the next blockDim", t.screen())
        t.keys("B", "B")
        check(t.wait_for("blockDim 128") is not None, "B steps back", t.screen())
        t.keys("F")
        check(t.wait_for("finish single_pass") is not None, "F steps back through finishes",
              t.screen())
        t.keys("r")
        t.wait_for("timed repetitions")
        t.keys("BSpace", "5", "C-w")
        s = t.screen()
        check("timed repetitions: " in s and "timed repetitions: 2" not in s,
              "Ctrl-W deletes the word", status_line(s))
        t.keys("Escape")
        check("unchanged" in status_line(t.screen()), "Esc leaves the prompt: unchanged")
        t.keys("s")
        t.wait_for("save preset as")
        t.keys("C-u", "b", "a", "d", "/", "n", "a", "m", "e", "Enter")
        s = t.wait_for("save preset as", 10)
        time.sleep(0.3)
        s = t.screen()
        check("save preset as" in s and "bad/name" in s, "a bad preset name keeps the prompt open",
              status_line(s))
        # a shipped preset's name: asked before the user's shadows it
        t.keys("C-u", *"harris-2007", "Enter")
        s = t.wait_for("its note", 10)
        check(s is not None and "(Enter: none)" in s and "keeps it as shown" not in s,
              "a good name asks for its note; none to keep, it says so", t.screen())
        t.keys("Enter")
        s = t.wait_for("type yes to save yours over it", 10)
        check(s is not None, "saving under a shipped preset's name asks first", t.screen())
        t.keys("n", "o", "Enter")
        check(t.wait_for("not saved", 10) is not None, "anything but yes keeps the shipped one",
              t.screen())
        check(not os.path.exists(os.path.join(XDG, "redscope", "presets", "harris-2007.ini")),
              "nothing was saved")
        t.keys("q")
        check(t.exit_code() == 0, "quits")
    finally:
        t.close()


def layout_at_sizes():
    for cols, rows in SIZES:
        t = Tmux(f"{EXE} --replay {REC}", cols=cols, rows=rows, env=UTF8)
        try:
            s = t.wait_quiet("\u2713 exact")
            where = f"{cols}x{rows}"
            check(s is not None, f"{where}: opens with a result", t.screen())
            s = s or ""
            header = s.splitlines()[0]
            check("counters recorded" in header, f"{where}: the header keeps the counter state",
                  header)
            check(not re.search(r"block 25(?!6)|\b25\u2026|\b2\^2\u2026", s),
                  f"{where}: no number is cut", s)
            # counters: values end in one column, \u00b5s or not
            left = s.splitlines()[2].find("\u2502\u2502") + 2
            e = right_edges(s, left, ["kernel time", "DRAM read", "shared ld bank conflicts"])
            check(len(e) == 3 and len(set(e.values())) == 1,
                  f"{where}: counter values aligned {e}", s)
            if cols >= 120:
                line = [l for l in s.splitlines() if "unroll_warp_volatile" in l]
                check(line and "\u00b5s" in line[0], f"{where}: long ids keep their time", s)
            t.keys("L")
            s = t.wait_quiet("Ladder \u00b7") or ""
            times = [l for l in s.splitlines() if "\u00b5s" in l]
            ends = {l.index("\u00b5s") for l in times}
            check(len(times) >= 12 and len(ends) == 1, f"{where}: ladder times aligned", s)
            t.keys("C")
            s = t.wait_quiet("a/b") or ""
            hdr = [l for l in s.splitlines() if "a/b" in l]
            check(hdr and "interleaved_strided" in hdr[0] or "sequential" in hdr[0],
                  f"{where}: compare names its sides whole", s)
            e = right_edges(s, 0, ["time (median)", "DRAM read", "launches"])
            check(len(set(e.values())) == 1, f"{where}: compare columns aligned {e}", s)
            t.keys("q")
            t.exit_code()
        finally:
            t.close()


def notation():
    t = Tmux(f"{EXE} --replay {REC}", cols=120, rows=40, env=UTF8)
    try:
        s = t.wait_for("\u2713 exact") or ""
        t.keys("L")
        s += t.wait_for("thrust") or ""
        check("\u00d7" in s and not re.search(r"\bx\d|\d us\b| -> ", s),
              "UTF-8: one notation (\u00d7, \u00b5s, \u2192)", s)
        t.keys("q")
    finally:
        t.close()
    t = Tmux(f"{EXE} --replay {REC} --no-color", cols=120, rows=40, env=ASCII)
    try:
        s = t.wait_for("exact") or ""
        check(s and "+-" in s and "\u2500" not in s and "\u2502" not in s,
              "ASCII boxes when the locale is not UTF-8", s)
        check(not colors(t.screen(escapes=True)), "no colors under --no-color")
        t.keys("L")
        s = t.wait_for("thrust") or ""
        check(re.search(r"\bx\d", s) and " us" in s and "\u00d7" not in s,
              "ASCII: the same notation's twins (x, us)", s)
        t.keys("q")
        check(t.exit_code() == 0, "ascii session quits")
    finally:
        t.close()
    t = Tmux(f"{EXE} --replay {REC}", env=UTF8)
    try:
        t.wait_for("REPLAY")
        check(colors(t.screen(escapes=True)), "colors by default")
    finally:
        t.close()
    t = Tmux(f"{EXE} --replay {REC}", env=dict(UTF8, NO_COLOR="1"))
    try:
        t.wait_for("REPLAY")
        check(not colors(t.screen(escapes=True)), "no colors under NO_COLOR")
    finally:
        t.close()


def own_cpu_recording():
    path = os.path.join(tempfile.mkdtemp(), "cpu.jsonl")
    r = subprocess.run([EXE, "run", "--variant", "cpu", "--n", "2^16", "--reps", "3", "--record",
                        path], capture_output=True, text=True)
    check(r.returncode == 0, "a CPU run records without a GPU", r.stderr)
    t = Tmux(f"{EXE} --replay {path}", cols=100, rows=30, env=UTF8)
    try:
        s = t.wait_for("\u2713 exact")
        check(s is not None and re.search("\u25b6 ?15 cpu", s), "a user's CPU recording replays",
              t.screen())
        check(s and "0 SMs" not in s and "peak 0" not in s, "no device figures for a CPU recording",
              s)
        s = s or ""
        check("of 0" not in s and "vs CPU" not in s, "the CPU row shows no peak or self-speedup",
              s)
        check("no GPU counters" in s and "not collected: not collected" not in s,
              "the CPU row's counters panel says why it is empty", s)
        t.keys("q")
        check(t.exit_code() == 0, "quits")
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
    # SIGQUIT (Ctrl-\\, sent to the process alone: the test's shell would quit
    # too) leaves the terminal as it found it: 131, no core
    t = Tmux(f"{EXE} --replay {REC}", env=UTF8)
    try:
        t.wait_for("REPLAY")
        pid = t.pid()
        if pid:
            os.kill(pid, 3)
        check(t.exit_code() == 131 and t.terminal_restored(),
              "SIGQUIT exits with 131 and the terminal restored", t.screen())
    finally:
        t.close()
    # SIGHUP as a preset is saved: the save finishes whole, then the explorer
    # leaves (129) with the terminal restored and no temporary file
    cfg = tempfile.mkdtemp(prefix="rs_tui_hup_")
    t = Tmux(f"{EXE} --replay {REC}", env=dict(UTF8, XDG_CONFIG_HOME=cfg))
    try:
        t.wait_for("REPLAY")
        pid = t.pid()
        t.keys("s")
        t.wait_for("save preset as")
        t.tmux("send-keys", "-t", t.name, "-l", "hup-test")
        t.tmux("send-keys", "-t", t.name, "Enter")
        t.wait_for("its note", 30)
        t.tmux("send-keys", "-t", t.name, "Enter")
        if pid:
            os.kill(pid, 1)
        check(t.exit_code() == 129 and t.terminal_restored(),
              "SIGHUP at a preset save: exit 129, terminal restored")
        folder = os.path.join(cfg, "redscope", "presets")
        names = os.listdir(folder) if os.path.isdir(folder) else []
        text = open(os.path.join(folder, "hup-test.ini")).read() if "hup-test.ini" in names else ""
        check(names in ([], ["hup-test.ini"]) and (not names or "[run]" in text),
              f"the preset is whole or absent, no temporary file: {names}")
    finally:
        t.close()


def no_gpu():
    if os.system(f"{EXE} devices >/dev/null 2>&1") == 0:
        return  # a GPU is here: test_gpu_tui.py covers the live explorer
    t = Tmux(f"{EXE} --variant cpu", cols=100, rows=30, env=UTF8)
    try:
        s = t.wait_for("R replays the shipped")
        check(s is not None and "press R to replay" in s, "without a GPU it says why and offers "
              "replay", t.screen())
        # the CPU runs here: a long run, then q asks, and the question is seen
        t.keys("n")
        t.wait_for("n (16777216")
        t.keys("2", "^", "2", "8", "Enter", "r")
        t.wait_for("timed repetitions")
        t.keys("5", "0", "Enter", "Enter")
        check(t.wait_for("running", 10) is not None, "the CPU run starts", t.screen())
        t.keys("q")
        s = t.wait_for("q again quits", 10)
        check(s is not None, "q during a run asks, over the progress bar", t.screen())
        t.keys("x")
        s = t.wait_for("running", 10) or t.screen()
        check("q again" not in s and "running" in s,
              "another key answers the question: the run goes on", s)
        t.keys("q", "q")
        check(t.exit_code(20) is not None, "q q quits during a run", t.screen())
    finally:
        t.close()
    t = Tmux(f"{EXE} --variant cpu --n 2^16", cols=100, rows=30, env=UTF8)
    try:
        t.wait_for("R replays the shipped")
        t.keys("Enter")
        s = t.wait_for("\u2713 exact")
        check(s is not None, "the CPU row runs without a GPU", t.screen())
        s = s or ""
        check("of 0" not in s and "\u00d70" not in s and "Unavailable here: \n" not in s,
              "the CPU row without a GPU shows nothing broken", s)
        t.keys("R")
        check(t.wait_for("REPLAY") is not None, "R replays the shipped recording", t.screen())
        t.keys("q")
        check(t.exit_code() == 0, "quits")
    finally:
        t.close()


def replay_as_asked():
    """--replay with a preset or settings opens on that configuration when it
    is recorded, and says so when it is not; R without a GPU keeps what the
    screen showed."""
    for args, want, status in (("--preset harris-2007", "n 2^22 \u00b7 block 128", "replaying"),
                               ("--n 2^22 --block 128", "n 2^22 \u00b7 block 128", "replaying"),
                               ("--type float32", "float32 sum", "replaying"),
                               ("--type float16", "int32 sum \u00b7 n 2^24 \u00b7 block 256",
                                "not recorded: float16 as asked; configuration 1 of 6")):
        t = Tmux(f"{EXE} --replay {REC} {args}", cols=120, rows=40, env=UTF8)
        try:
            s = t.wait_for("\u2713 exact") or t.screen()
            check(want in s.splitlines()[1] and status_line(s).strip().startswith(status),
                  f"--replay {args}: opens on {want}, says {status!r}", s)
            t.keys("q")
            check(t.exit_code() == 0, "q quits")
        finally:
            t.close()
    if os.system(f"{EXE} devices >/dev/null 2>&1") == 0:
        return  # R replays only without a GPU
    t = Tmux(f"{EXE} --preset harris-2007", cols=120, rows=40, env=UTF8)
    try:
        t.wait_for("R replays the shipped")
        t.keys("R")
        s = t.wait_for("\u2713 exact") or t.screen()
        check("n 2^22 \u00b7 block 128" in s.splitlines()[1],
              "R without a GPU replays the configuration shown", s)
        t.keys("q")
    finally:
        t.close()


def slow_cuda_start():
    """R while CUDA is still starting (a driver slow to answer): the replay
    opens at once and runs; the GPU's start ends on its own."""
    fake = os.environ.get("RS_FAKE_LIBCUDA_DIR")
    check(fake is not None, "the slow stand-in libcuda is built")
    if not fake:
        return
    env = dict(UTF8, LD_LIBRARY_PATH=fake, RS_FAKE_CUDA_DELAY_MS="8000")
    t = Tmux(EXE, cols=120, rows=40, env=env)
    try:
        time.sleep(0.5)
        t.keys("R")
        s = t.wait_for("REPLAY", 4)
        check(s is not None, "R while CUDA starts opens the replay, not 'still busy'", t.screen())
        t.keys("Enter")
        s = t.wait_for("\u2713 exact", 4) or t.screen()
        check(status_line(s).strip() == "done" and "\u2713 exact" in s,
              "Enter then runs from the recording, not 'running' for ever", s)
        t.keys("q")
        check(t.exit_code() == 0 and t.terminal_restored(), "q quits, CUDA still starting")
    finally:
        t.close()


def racy_step():
    """The racy step is marked in the list and the ladder, its Why says how to
    see the race, and x in replay says a check needs the GPU."""
    for env, mark in ((UTF8, "\u26a0"), (ASCII, "!")):
        t = Tmux(f"{EXE} --replay {REC}", cols=120, rows=40, env=env)
        try:
            s = t.wait_for("REPLAY")
            lines = (s or "").splitlines()
            racy = [l for l in lines if "unroll_warp_volatile " + mark in l]
            check(racy and not any("unroll_warp " + mark in l for l in lines),
                  f"{env['LANG']}: only the racy step is marked {mark} in the list", s)
            t.keys("Down", "Down")  # from sequential (4) to unroll_warp_volatile (6)
            s = t.wait_for("A data race") or t.screen()
            check("racecheck" in s and "6 unroll_warp_volatile" in s,
                  f"{env['LANG']}: the Why panel says how to see the race", s)
            t.keys("x")
            s = t.wait_for("recorded racecheck") or t.screen()
            check("recorded racecheck:" in s and "hazards" in s,
                  "x in a replay that holds the racecheck shows what it found", s)
            t.keys("q")
            check(t.exit_code() == 0, "q quits")
        finally:
            t.close()


def recorded_check():
    """x in replay shows the check recorded on an H100, quoted in Why."""
    rec = os.path.join(os.environ["REDSCOPE_SOURCE"], "conf", "recordings", "h100-checks.jsonl")
    t = Tmux(f"{EXE} --replay {rec}", cols=140, rows=44, env=UTF8)
    try:
        t.wait_for("REPLAY")
        t.keys("Down", "Down", "x")
        s = t.wait_for("recorded racecheck") or t.screen()
        flat = " ".join(l.strip(" \u2502") for l in s.splitlines())
        check("\u26a0 racecheck (n 2^20): The result is right on this GPU" in flat
              and "1,059,348 hazards" in flat, "x in replay quotes the recorded race in Why", s)
        t.keys("Down", "x")
        s = t.wait_for("No shared-memory hazard") or t.screen()
        check("No shared-memory hazard" in s, "the recorded clean check of unroll_warp", s)
        t.keys("q")
        check(t.exit_code() == 0, "q quits")
    finally:
        t.close()


replay_end_to_end()
racy_step()
recorded_check()
status_and_keys()
layout_at_sizes()
notation()
own_cpu_recording()
sigterm()
replay_as_asked()
slow_cuda_start()
no_gpu()
print(f"test_tui: {checks} checks, {len(failures)} failed")
sys.exit(1 if failures else 0)
