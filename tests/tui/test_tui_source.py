#!/usr/bin/env python3
"""The Source screen in a real terminal (tmux), from a recording of a real
H200 (conf/recordings/h200-demo.jsonl, int32 2^24 with a stall view of
every step): W opens it on the hottest line with the step's own source
text; the cursor's line shows what its waits stand on (sequential's for
loop: its __syncthreads), the code inside it and every reason, the
samples by function beside; s shows the line's SASS (or says nvdisasm is
missing); cooperative groups' code shows on cooperative_groups' own lines;
d compares two views line by line, the biggest change first (the pinned
result, else the previous step sampled), at 160 and at 80 columns; a
pinned result stands beside the current one on a wide terminal; Esc goes
back and q quits with the terminal restored. A configuration recorded
without samples says so, on the screen and on Enter; a view whose waits
were not traced says why. Expected figures come from the recording."""
import json
import os
import re
import shutil
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import line_of  # noqa: E402
from tuitest import Tmux  # noqa: E402

EXE = os.environ["REDSCOPE"]
SRC = os.environ["REDSCOPE_SOURCE"]
REC = os.path.join(SRC, "conf", "recordings", "h200-demo.jsonl")
NVDISASM = shutil.which("nvdisasm") or os.access("/usr/local/cuda/bin/nvdisasm", os.X_OK)
UTF8 = {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color"}
failures = []


def check(cond, what, screen=""):
    if not cond:
        failures.append(what)
        print(f"FAIL: {what}\n{screen}")


def recorded(variant):
    with open(REC) as f:
        for l in f:
            j = json.loads(l)
            r = j.get("request", {})
            if r.get("variant") == variant and r.get("type") == "int32" and r.get("n") == 2 ** 24:
                return j.get("stalls", {})
    return {}


SEQ = recorded("sequential")
HOT = max(SEQ.get("lines", []), key=lambda l: l["samples"], default={"file": "?", "line": 0})
FOR = line_of("src/kernels/classic.cu", "for (unsigned stride = blockDim.x / 2; stride > last")
FOR_ROW = next((i for i, l in enumerate(SEQ.get("lines", [])) if l["line"] == FOR), 0)
HOT_ROW = SEQ.get("lines", []).index(HOT) if HOT in SEQ.get("lines", []) else 0

t = Tmux(f"{EXE} --replay {REC} --type int32 --n 2^24", cols=160, rows=40, env=UTF8)
try:
    check(t.wait_for("Ladder", 20) is not None, "the explorer starts on the recording")
    t.keys("W")
    s = t.wait_for("where warps wait", 5) or t.screen()
    hot = [l for l in s.splitlines() if f"{HOT['file']}:{HOT['line']} " in l]
    check(hot and ">" in hot[0] and f"{100.0 * HOT['samples'] / SEQ['samples']:.1f}%" in hot[0]
          and HOT["text"][:40] in hot[0],
          "sequential's hottest line, its share and its source text", s)
    check(f"{HOT['file']}:{HOT['line']}, {HOT['samples']:,} samples:" in s,
          "the cursor's line: its samples", s)
    check(f"{SEQ['samples']:,} samples over {SEQ['runs']} runs, {SEQ['dropped']:,} dropped" in s,
          "the samples, the runs they came from and the drops", s)
    check("by function:" in s and "tree_sequential" in s, "the samples by function", s)
    # a reason is named as Nsight Compute names it, in the list and by function;
    # its key (short_scoreboard) is for CSV and JSON
    check("short scoreboard" in s and "long scoreboard" in s and "_scoreboard" not in s,
          "the reasons by their names, not their keys", s)
    t.keys(*(["k"] * (HOT_ROW - FOR_ROW) if HOT_ROW > FOR_ROW else ["j"] * (FOR_ROW - HOT_ROW)))
    s = t.screen()
    check(f"classic.cu:{FOR}, " in s and
          f"wait for the barrier on classic.cu:{FOR + 2}: __syncthreads();" in s,
          "the for loop's waits stand at its __syncthreads, with its text", s)
    t.keys("z")
    check("z does nothing on the Source screen" in t.screen(), "an unbound key is said", t.screen())
    t.keys("s")  # the SASS of the cursor's line: nvdisasm (in the worker) where it is, else why not
    if NVDISASM:
        s = t.wait_for(f"SASS of classic.cu:{FOR} (", 30) or t.screen()
        check(f"SASS of classic.cu:{FOR} (" in s, "s: the SASS of the cursor's line", s)
        t.keys("j")  # the panel follows the cursor, nvdisasm running off the screen's thread
        end, moved = time.time() + 30, None
        while time.time() < end and not moved:
            s = t.screen()
            moved = re.search(r"SASS of classic\.cu:(\d+) \(", s)
            moved = moved if moved and int(moved.group(1)) != FOR else None
            time.sleep(0.2)
        check(moved is not None, "j: the SASS of the next line", s)
        t.keys("k")
    else:
        s = t.wait_for("SASS:", 20) or t.screen()
        check("SASS: nvdisasm is not on PATH (the CUDA toolkit's cuda-nvdisasm" in s,
              "s without nvdisasm says what is missing", s)
        check("SASS: nvdisasm is not on PATH" in s.splitlines()[-2],
              "s without nvdisasm: the status line says it too", s)
    t.keys("s")
    s = t.screen()
    body = "\n".join(s.splitlines()[:-2])  # the panels, without the status and key lines
    check("SASS" not in body and "by function:" in s, "s again hides it; the functions show", s)
    # d without a pin: the previous step sampled (interleaved_strided)
    t.keys("d")
    s = t.wait_for("against interleaved_strided, the previous step sampled", 5) or t.screen()
    gone = [l for l in s.splitlines() if "is gone" in l or "fell from" in l or "rose from" in l
            or "is new" in l]
    check(gone and "→" in s, "d: line by line against the previous step, the biggest change in words",
          s)
    t.keys("d")
    check("against " not in t.screen(), "d again goes back to the lines", t.screen())
    t.keys("Escape", *["j"] * 7, "W")  # cooperative_groups (step 11)
    s = t.wait_for("cooperative_groups:", 5) or t.screen()
    rows = [l for l in s.splitlines() if "%" in l and (".cu:" in l or ".cuh:" in l or ".h:" in l)]
    check(rows and all("modern.cu:" in l for l in rows if "wait for" not in l and "inside" not in l)
          and "reduce.h" not in s.split("by function")[0],
          "cooperative groups' code shows on the kernel's own lines", s)
    check("cg::reduce" in s, "cg::reduce among the functions", s)
    t.keys("Escape", *["k"] * 7)  # back to sequential: pin it, then first_add against it
    t.keys("p", "j", "W")
    s = t.wait_for("pinned sequential", 5) or t.screen()
    row = [l for l in s.splitlines() if "first_add:" in l]
    check(row and "pinned sequential:" in row[0], "the pinned result stands beside the current one", s)
    t.keys("d")
    s = t.wait_for("against pinned sequential", 5) or t.screen()
    check("against pinned sequential" in s and "→" in s, "d: against the pinned result", s)
    t.resize(80, 24)
    s = t.wait_quiet("against pinned", 5) or t.screen()
    lines = s.splitlines()
    deltas = [l for l in lines if "→" in l and "%" in l]
    check(all(len(l) <= 80 for l in lines) and deltas and
          all(l.count("%") >= 1 and ("+" in l or "-" in l) for l in deltas),
          "at 80x24 one column of change per line, inside the frame", s)
    t.keys("Escape")
    s = t.screen()
    check("Ladder" in s and "where warps wait" not in s, "Esc goes back to the explorer", s)
    t.keys("q")
    check(t.exit_code(10) == 0 and t.terminal_restored(), "q quits with 0, terminal restored")
finally:
    t.close()

# A configuration recorded without PC samples: the view and Enter say so, and run nothing.
t = Tmux(f"{EXE} --replay {REC} --type float32 --n 2^28", cols=120, rows=40, env=UTF8)
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
# A view whose waits were not traced (no nvdisasm where it was sampled) says why.
import tempfile  # noqa: E402
lines = open(REC, encoding="utf-8").read().splitlines()
out = []
for l in lines:
    j = json.loads(l)
    st = j.get("stalls", {})
    if j.get("request", {}).get("variant") == "sequential" and st.get("valid"):
        st.update(causes=False, links=[], causes_why="nvdisasm is not on PATH (it comes with the "
                  "CUDA toolkit)")
        l = json.dumps(j)
    out.append(l)
untraced = os.path.join(tempfile.mkdtemp(prefix="rs_src_"), "untraced.jsonl")
with open(untraced, "w", encoding="utf-8") as f:
    f.write("\n".join(out) + "\n")
t = Tmux(f"{EXE} --replay {untraced} --type int32 --n 2^24", cols=120, rows=40, env=UTF8)
try:
    t.wait_for("Ladder", 20)
    t.keys("W")
    s = t.wait_for("waits not traced", 5) or t.screen()
    check("waits not traced: nvdisasm is not on PATH" in s
          and "wait for the" not in s, "a view without causes says what they need", s)
    t.keys("q")
finally:
    t.close()
# s from the comparison goes back to the lines with the cursor on the line
# it stood for there (sequential against interleaved_strided: its third
# row is the load, classic.cu:41->69, paired by role), not past the end of
# the shorter list of lines
t = Tmux(f"{EXE} --replay {REC} --type int32 --n 2^24", cols=120, rows=40, env=UTF8)
try:
    t.wait_for("Ladder", 20)
    t.keys("W")
    t.wait_for("where warps wait", 5)
    t.keys("d")
    t.wait_quiet("against interleaved_strided")
    t.keys("Down", "Down", "s")
    t.wait_quiet("the lines again")
    raw = t.screen(escapes=True)
    painted = [l for l in raw.splitlines() if "\x1b[43m" in l and "classic.cu:" in l]
    check(len(painted) == 1 and "classic.cu:69" in painted[0] and "the lines again" in t.screen(),
          "s from the comparison: the lines, the cursor on the line it stood for",
          t.screen())
finally:
    t.close()

print(f"test_tui_source: {len(failures)} failed")
sys.exit(1 if failures else 0)
