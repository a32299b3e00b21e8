#!/usr/bin/env python3
"""The Source screen in a real terminal (tmux), from a recording of a real
H100 (conf/recordings/h100-stalls.jsonl): W opens it on the hottest line
with the kernel's own source text and every reason of that line, the
samples by function beside; the cursor moves the reasons shown; s shows
the line's SASS (or says nvdisasm is missing); cooperative groups' inlined
code shows on cooperative_groups' cg::reduce lines; a pinned result stands
beside the current one on a wide terminal; at 80 columns nothing is cut
into the frame; Esc goes back and q quits with the terminal restored. A
recording without samples says so, on the screen and on Enter."""
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(__file__))
from tuitest import Tmux  # noqa: E402

EXE = os.environ["REDSCOPE"]
REC = os.path.join(os.environ["REDSCOPE_SOURCE"], "conf", "recordings", "h100-stalls.jsonl")
NVDISASM = shutil.which("nvdisasm") or os.access("/usr/local/cuda/bin/nvdisasm", os.X_OK)
UTF8 = {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color"}
failures = []


def check(cond, what, screen=""):
    if not cond:
        failures.append(what)
        print(f"FAIL: {what}\n{screen}")


t = Tmux(f"{EXE} --replay {REC}", cols=160, rows=40, env=UTF8)
try:
    check(t.wait_for("Ladder", 20) is not None, "the explorer starts on the recording")
    t.keys("W")
    s = t.wait_for("where warps wait", 5) or t.screen()
    hot = [l for l in s.splitlines() if "classic.cu:69" in l]
    check(hot and ">" in hot[0] and "26.6%" in hot[0] and "long_scoreboard" in hot[0]
          and "s[threadIdx.x] = load_one<T, A, Op>(in, n);" in hot[0],
          "sequential's hottest line, its share, its reason and its source text", s)
    check("classic.cu:69, 44,355 samples:" in s
          and "93.3%  waiting for global memory (long scoreboard)" in s,
          "every reason of the cursor's line, in words and Nsight Compute's names", s)
    check("166,490 samples, 337 dropped, every 2^12 cycles" in s, "the samples and the drops", s)
    check("by function:" in s and "tree_sequential" in s and "SumOp::operator()" in s,
          "the samples by function beside the line's reasons", s)
    t.keys("z")
    check("z does nothing on the Source screen" in t.screen(), "an unbound key is said", t.screen())
    t.keys("p")
    check("pinned sequential" in t.screen(), "p pins on the Source screen too", t.screen())
    t.keys("p")
    check("unpinned" in t.screen(), "p again unpins", t.screen())
    t.keys("j")
    s = t.screen()
    check("classic.cu:70, " in s, "Down moves the cursor: the next line's reasons", s)
    t.keys("k", "s")  # the SASS of the hottest line: nvdisasm where it is, else why not
    s = t.wait_for("SASS", 20) or t.screen()
    if NVDISASM:
        check("SASS of classic.cu:69" in s and ("STS" in s or "LDG" in s),
              "s: the SASS of the cursor's line, from this build's cubin", s)
    else:
        check("SASS: nvdisasm is not on PATH (it comes with the CUDA toolkit)" in s,
              "s without nvdisasm says what is missing", s)
    t.keys("s")
    s = t.screen()
    check("SASS" not in s and "by function:" in s, "s again hides it; the functions show", s)
    t.keys("Escape", *["j"] * 7, "W")  # cooperative_groups (step 11): cooperative groups inlined
    s = t.wait_for("cooperative_groups:", 5) or t.screen()
    red = [l for l in s.splitlines() if "modern.cu:60 " in l]
    check(red and "v = cg::reduce(tile, v, op);" in red[0] and "sm_" not in s and "reduce.h" not in s,
          "cooperative groups' code shows on the line that calls cg::reduce, no header lines", s)
    check("cg::reduce" in s, "cg::reduce among the functions", s)
    t.keys("Escape", *["k"] * 7)  # back to sequential
    t.keys("Escape", "p", "k", "k", "W")  # pin sequential, then interleaved beside it
    s = t.wait_for("pinned sequential", 5) or t.screen()
    row = [l for l in s.splitlines() if "interleaved:" in l]
    check(row and "pinned sequential:" in row[0], "the pinned result stands beside the current one", s)
    inter = [l for l in s.splitlines() if "classic.cu:28 " in l]
    check(inter and "49.9%" in inter[0] and "wait" in inter[0], "interleaved's tree step, 50%", s)
    t.resize(80, 24)
    s = t.screen()
    lines = s.splitlines()
    check(all(len(l) <= 80 for l in lines) and any("classic.cu:28" in l for l in lines),
          "at 80x24 one view, cut inside the frame", s)
    t.keys("Escape")
    s = t.screen()
    check("Ladder" in s and "where warps wait" not in s, "Esc goes back to the explorer", s)
    t.keys("q")
    check(t.exit_code(10) == 0 and t.terminal_restored(), "q quits with 0, terminal restored")
finally:
    t.close()

# A recording without PC samples: the view and Enter say so, and run nothing.
DEMO = os.path.join(os.environ["REDSCOPE_SOURCE"], "conf", "recordings", "h200-demo.jsonl")
t = Tmux(f"{EXE} --replay {DEMO}", cols=120, rows=40, env=UTF8)
try:
    t.wait_for("\u2713 exact", 20)
    t.keys("W")
    s = t.wait_for("where warps wait", 5) or t.screen()
    check("sequential: no stall view: the recording holds no PC samples of it" in s
          and "Enter runs it" not in s, "the view says the recording has no samples", s)
    t.keys("Enter")
    s = t.wait_for("not recorded: this recording holds no PC samples of sequential", 5)
    check(s is not None, "Enter says plainly that no samples were recorded", t.screen())
    t.keys("q")
    check(t.exit_code(10) == 0, "q quits")
finally:
    t.close()
print(f"test_tui_source: {len(failures)} failed")
sys.exit(1 if failures else 0)
