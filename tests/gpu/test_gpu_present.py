#!/usr/bin/env python3
"""On the GPU: the deck live. present --export runs the ladder at 2^24 and
writes its table and its slides from the same rows in one process: every
step's answer is its time in the table, the racy step names its race; and
in a real terminal `redscope present` runs a step as its slide opens."""
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import Checks, run, skip_without_gpu  # noqa: E402
from tuitest import UTF8, Tmux  # noqa: E402

EXE = os.environ["REDSCOPE"]
skip_without_gpu()
check = Checks("test_gpu_present")

with tempfile.TemporaryDirectory() as tmp:
    f = os.path.join(tmp, "deck.md")
    rc, out, err = run("present", "--n", "2^24", "--metrics", "--export", f)
    md = open(f, encoding="utf-8").read() if os.path.exists(f) else ""
    print(md[:3000])
    plain = re.sub(r"\\(.)", r"\1", md)
    cells = [[c.strip() for c in l.strip("|").split(" | ")] for l in md.splitlines()
             if l.startswith("| ") and not l.startswith("| # ")]
    times = {c[1]: c[2] for c in cells if len(c) >= 9}
    answers = dict(re.findall(r"\n## \d+\. (\w+):.*?\*\*The answer: ([^*]+)\*\*", plain, re.S))
    check(rc == 0 and len(answers) == 14 and all(times.get(k) == v for k, v in answers.items()),
          f"live: every step's answer is its time in the same run's table: {answers} {times} {err}")
    check("measured" in md and "The counter that explains it:" in plain,
          "live: measured now, with the counter that explains each step")
    check("A data race" in plain.split("\n## 6. ", 1)[-1].split("\n## ", 1)[0],
          "live: the racy step carries its race")

t = Tmux(f"{EXE} present --n 2^22", cols=100, rows=30, env=UTF8)
try:
    s = t.wait_for("0/", 60) or t.screen()
    t.keys("1", "Enter")  # atomic runs as its slide opens; its answer is the next part
    t.wait_for("Right/Space: The answer", 180)
    t.keys("Right")
    s = t.wait_for("median time", 30) or t.screen()
    check(s and "1/" in s and "atomic" in s, "live: slide 1 runs atomic as it opens", t.screen())
    t.keys("b")  # block 512: the slide says what changed and runs again
    s = t.wait_for("block 512", 60) or t.screen()
    check("block 512" in s, "live: b changes the block on the slide", s)
    t.keys("q")
    code = t.exit_code(15)
    if code is None:  # the step runs again at block 512: q asks first
        t.keys("q")
        code = t.exit_code(20)
    check(code == 0 and t.terminal_restored(), f"live: q ends, the terminal restored ({code})")
finally:
    t.close()
check.finish()
