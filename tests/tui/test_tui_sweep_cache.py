#!/usr/bin/env python3
"""The Sweep screen with a sweep recorded in both cache states
(conf/recordings/h200-warm.jsonl, an H200's; RS_WARM_RECORDING names
another): picked on the Recording screen (R), whose line names the warm
one's cache, it shows both states on one chart: each variant cold and warm
in the legend, a pair of marks of one shape (warm filled, cold hollow;
in ASCII two letters), the crossovers of each state, and in GB/s (y) the
L2's read beside the DRAM's, a warm value within the L2 held against the
L2. While that recording is not shipped the test says SKIP and passes."""
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tuitest import UTF8, Tmux  # noqa: E402

EXE = os.environ["REDSCOPE"]
SRC = os.environ["REDSCOPE_SOURCE"]
WARM = os.environ.get("RS_WARM_RECORDING") or os.path.join(SRC, "conf", "recordings",
                                                           "h200-warm.jsonl")
ASCII = {"LANG": "C", "LC_ALL": "C", "TERM": "xterm-256color"}
failures, checks = [], 0


def check(cond, what, screen=None):
    global checks
    checks += 1
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)
        if screen:
            print(screen, file=sys.stderr)


if not os.path.exists(WARM):
    print(f"SKIP: {WARM} is not there yet (a sweep in both cache states of an H200)")
    sys.exit(0)

# the recording's configurations: the last sweep, and the one beside it in the other state
configs = json.loads(subprocess.run([EXE, "recording", WARM, "--format", "json"],
                                    capture_output=True, text=True).stdout)
last = max(i for i, c in enumerate(configs) if c["command"] == "sweep")
twin = configs[last - 1] if last > 0 else {}
check(twin.get("command") == "sweep" and {twin.get("cache"), configs[last]["cache"]} == {"cold", "warm"},
      f"{WARM}: its last sweep is recorded in both states: {configs[last - 1:last + 1]}")
if failures:
    sys.exit(1)
rows = [json.loads(l) for l in open(WARM) if '"command":"sweep"' in l.replace(" ", "")]
rows = [r for r in rows if (r["request"]["type"], r["request"]["range"]) ==
        (rows[-1]["request"]["type"], rows[-1]["request"]["range"])]  # the last sweep's
variants = sorted({r["request"]["variant"] for r in rows} - {"cpu"})
# the L2's read the chart holds: its first cold row's (the cold state comes first)
l2 = next(r["device"]["l2_gbps"] for r in rows if r["request"]["cache"] == "cold" and
          r["request"]["n"] == configs[last]["n_min"] and r["request"]["variant"] in variants)


def sweep_screen(env, cols, rows):
    """The explorer on the recording, the last sweep picked on R."""
    t = Tmux(f"{EXE} --replay {WARM}", cols=cols, rows=rows, env=env)
    t.wait_quiet("REPLAY")
    t.keys("R")
    s = t.wait_quiet("Recording")
    warm_lines = [l for l in (s or "").splitlines() if "cache warm" in l]
    check(len(warm_lines) == sum(c["cache"] == "warm" for c in configs if c["command"] != "check"),
          "the Recording screen names each warm configuration's cache", s)
    for _ in range(last):
        t.keys("Down")
    t.keys("Enter")
    return t, t.wait_quiet("Sweep")


def legend(s):
    """{series name: its mark} of the legend's items."""
    found = {}
    for line in (s or "").splitlines():
        for mark, name in re.findall(r"(\S) ([a-z_]+ \((?:cold|warm)\))", line):
            found[name] = mark
    return found


for env, cols, rows in ((UTF8, 100, 30), (ASCII, 80, 24)):
    what = f"{env['LC_ALL']} {cols}x{rows}"
    t, s = sweep_screen(env, cols, rows)
    try:
        marks = legend(s)
        for v in variants:
            cold, warm = marks.get(f"{v} (cold)"), marks.get(f"{v} (warm)")
            check(cold and warm and cold != warm, f"{what}: {v} cold and warm in the legend, "
                  f"each its own mark: {cold} {warm}", s)
        check(s and "cold:" in s and "warm:" in s, f"{what}: the crossovers of each state", s)
        if env is UTF8:  # a variant's pair: one shape, filled warm and hollow cold
            pairs = {"\u25cf": "\u25cb", "\u25a0": "\u25a1", "\u25b2": "\u25b3", "\u25c6": "\u25c7"}
            check(all(pairs.get(marks.get(f"{v} (warm)")) == marks.get(f"{v} (cold)")
                      for v in variants), f"{what}: warm filled, cold hollow: {marks}", s)
        t.keys("y")
        s = t.wait_quiet("Sweep \u00b7 GB/s" if env is UTF8 else "Sweep - GB/s", 5) or t.screen()
        check(f"L2 read {l2:.0f} GB/s" in s, f"{what}: GB/s: the L2's read beside the DRAM's", s)
        check(re.search(r"GB/s \d+% L2", s) is not None,
              f"{what}: a warm value within the L2 is held against the L2's read", s)
        t.keys("q")
        code = t.exit_code(5)
        check(code == 0, f"{what}: q quits (exit {code})", t.screen())
    finally:
        t.close()

print(f"test_tui_sweep_cache: {checks} checks, {len(failures)} failed")
sys.exit(1 if failures else 0)
