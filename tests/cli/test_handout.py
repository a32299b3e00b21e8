#!/usr/bin/env python3
"""ladder --format md|html: the lecture handout, from a recording (no GPU).
Its table holds every step with the figures of the same ladder's JSON, one
paragraph per step with the Why's sentences (the stall line with its text
under --stalls) and the counter that explains it; the HTML is one
well-formed file with the GB/s drawn inline as SVG; other commands refuse
the format."""
import html.parser
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import Checks, run  # noqa: E402

DEMO = os.path.join(os.environ["REDSCOPE_SOURCE"], "conf", "recordings", "h200-demo.jsonl")
check = Checks("test_handout")

rc, out, err = run("ladder", "--replay", DEMO, "--stalls", "--format", "json")
rows = json.loads(out)["rows"] if rc == 0 else []
check(len(rows) == 14, f"the ladder's JSON: {rc} {err}")

# Markdown
rc, md, err = run("ladder", "--replay", DEMO, "--stalls", "--format", "md")
lines = md.splitlines()
check(rc == 0 and lines and lines[0] == "# The reduction ladder on NVIDIA H200",
      f"md: the title names the GPU: {rc} {lines[:1]} {err}")
check("int32 sum, n 2^24 (16,777,216 elements), block 256, median of 20 repetitions" in md
      and "theoretical peak 4814 GB/s, the streaming read 4448 GB/s measured" in md,
      "md: the configuration, the peak and the limit", md[:600])
table = [l for l in lines if l.startswith("| ") and not l.startswith("| # ")]
check(len(table) == 14, f"md: a table row per step ({len(table)})")
cells = [[c.strip() for c in l.strip("|").split(" | ")] for l in table]
got = {c[1]: (float(c[5]), c[6]) for c in cells if len(c) == 9}
# the % column: of the ceiling each row names (cold: the DRAM read)
want = {r["request"]["variant"]: (round(r["gbps"], 1), f"{r['pct_ceiling']:.1f}% DRAM")
        for r in rows}
check(all(r["ceiling"] == "dram_read" for r in rows), "the demo's rows are cold: the DRAM read")
check(got == want, f"md: every step's GB/s and % of its ceiling as the recording says: {got} {want}")
plain = re.sub(r"\\(.)", r"\1", md)  # as it reads rendered: its escapes undone
heads = [l for l in plain.splitlines() if l.startswith("## ")]
check(len(heads) == 15 and heads[3] == "## 4. sequential: sequential addressing: stride halves, "
      "tid < s" and heads[-1] == "## The whole ladder against the wall",
      f"md: a section per slide, named with its idea, then the closing slide: {heads[:4]}")
seq = plain.split(heads[3], 1)[-1].split("\n## ", 1)[0] if len(heads) > 4 else ""
check("Bank conflicts 7,096,816 \u2192 80,006" in seq and "classic.cu:69 (s[threadIdx.x] = load_one" in seq
      and "The counter that explains it: bank conflicts 80.0 k \u25bc99% against the step "
      "above." in seq, "md: sequential's why, its stall line with its text, its counter", seq)
# the deck in print: each part of the slide in its order, the code change, the answer
order = [seq.find(p) for p in ("**The idea:**", "+ for (unsigned stride = blockDim.x / 2",
                               "**The question:**", "**The answer: 87.5 \u00b5s**",
                               "**\u00d71.24** against interleaved_strided",
                               "**Where warps wait:**")]
check(all(o >= 0 for o in order) and order == sorted(order),
      f"md: sequential's slide in print, part by part: {order}", seq)
times = {c[1]: c[2] for c in cells if len(c) == 9}
answers = dict(re.findall(r"\n## \d+\. (\w+):.*?\*\*The answer: ([^*]+)\*\*", plain, re.S))
check(answers and all(times.get(k) == v for k, v in answers.items()) and len(answers) == 14,
      f"md: every step's answer is its time in the table: {answers}")
# every speedup told in an answer is the recorded times' ratio, against the step named
med = {r["request"]["variant"]: r["time_ms"]["median"] for r in rows if "time_ms" in r}
told = []
for sec in plain.split("\n## ")[1:]:
    m = re.match(r"\d+\. (\w+):", sec)
    x = re.search(r"\*\*\u00d7([\d.]+)\*\* against (\w+)", sec)
    if m and x:
        told.append((m.group(1), x.group(1), x.group(2)))
check(len(told) == 13 and all(abs(med[b] / med[v] - float(x)) <= 0.006 * float(x) + 0.006
                              for v, x, b in told if v in med and b in med),
      f"md: every step's speedup is its recorded times' ratio: {told}")
step6 = plain.split("\n## 6. ", 1)[-1].split("\n## ", 1)[0]
check("| unroll_warp_volatile |" in md and "| yes (race) |" in md
      and "A data race, as racecheck found it (int32, n 2^24)" in step6 and "hazards" in step6,
      "md: step 6 is marked racy in the table and its section names racecheck's finding", step6)
check("__syncwarp" in plain.split("\n## 7. ", 1)[-1].split("\n## ", 1)[0],
      "md: step 7 follows with its fix")
check(all(all(x.strip() for x in c) and len(c) == 9 for c in cells), "md: every cell holds a figure")
check("\\<" in md and "\\[" in md and "tid < s" not in md.split("\n## 4", 1)[-1][:80],
      "md: source text escaped where it would be markup (<, [)")

# HTML: well formed, the same numbers, the chart inline
rc, page, err = run("ladder", "--replay", DEMO, "--stalls", "--format", "html")


class Tags(html.parser.HTMLParser):
    EMPTY = {"meta", "rect", "line", "br", "polyline"}

    def __init__(self):
        super().__init__()
        self.open, self.bad, self.cells = [], [], []

    def handle_starttag(self, tag, attrs):
        if tag not in self.EMPTY:
            self.open.append(tag)

    def handle_endtag(self, tag):
        if tag in self.EMPTY:
            return
        if self.open and self.open[-1] == tag:
            self.open.pop()
        else:
            self.bad.append(tag)

    def handle_data(self, data):
        if self.open and self.open[-1] == "td":
            self.cells.append(data)


p = Tags()
p.feed(page)
check(rc == 0 and page.startswith("<!DOCTYPE html>") and not p.open and not p.bad,
      f"html: every tag closed: open {p.open} bad {p.bad} {err}")
check(page.count("<svg") == 2 and page.count("<rect") == 28
      and "the streaming read, 4448 GB/s" in page,
      "html: the GB/s of each step drawn inline, above and on the closing slide")
gbps = [float(c) for c in p.cells if re.fullmatch(r"\d+\.\d", c)]
check(gbps == [round(r["gbps"], 1) for r in rows], f"html: the table's GB/s: {gbps}")
check(page.count("<h2>") == 15 and "&lt;" in page and "<b>The answer: 87.5 \u00b5s</b>" in page,
      "html: a section per slide, source text escaped")

# the lab's fastest step is the racy one: the closing slide says so
rc, lab, err = run("ladder", "--replay", DEMO, "--preset", "student-lab", "--format", "md")
close = lab.split("## The whole ladder against the wall", 1)[-1]
check(rc == 0 and "unroll_warp_volatile is the fastest here but relies on a data race" in close,
      f"md: the lab's closing slide marks its racy fastest step: {close[:400]} {err}")

# present --export: the same deck, to a file, as one HTML or Markdown file
with tempfile.TemporaryDirectory() as tmp:
    for ext, want in (("md", md), ("html", page)):
        f = os.path.join(tmp, "deck." + ext)
        rc, out, err = run("present", "--replay", DEMO, "--export", f)
        got = open(f, encoding="utf-8").read() if os.path.exists(f) else ""
        check(rc == 0 and got == want and out == "",
              f"present --export deck.{ext} writes what ladder --format {ext} prints: {rc} {err}")
    rc, out, err = run("present", "--replay", DEMO, "--export", os.path.join(tmp, "deck.txt"))
    check(rc == 2 and "--export needs a file ending in .md or .html" in err,
          f"present --export refuses another ending: {rc} {err}")
    rc, out, err = run("present", "--replay", DEMO, "--export", os.path.join(tmp, "deck.md"))
    check(rc == 2 and "--force" in err, f"present --export keeps an existing file: {rc} {err}")

# a command without a document refuses one, naming those that write it;
# a recording that holds nothing asked says so
# every command writes md and html: run's report as a block of the document
rc, out, err = run("run", "--replay", DEMO, "--variant", "sequential", "--n", "2^24", "--format",
                   "md")
check(rc == 0 and out.startswith("# redscope run: ") and "\n```text\nvariant    sequential" in out
      and out.rstrip().endswith("```"), f"run --format md: a document: {rc} {out[:300]} {err}")
rc, out, err = run("run", "--replay", DEMO, "--variant", "sequential", "--n", "2^24", "--format",
                   "html")
check(rc == 0 and "<pre>variant    sequential" in out and out.endswith("</body>\n</html>\n"),
      f"run --format html: a document: {rc} {out[-200:]} {err}")
rc, out, err = run("metrics", "--format", "md")
check(rc == 0 and "| " not in out and "```text\nHardware counters" in out, f"metrics md: {out[:200]}")
# a command that fails writes no document, only its reason
rc, out, err = run("run", "--replay", DEMO, "--variant", "sequential", "--n", "2^12", "--format",
                   "html")
check(rc != 0 and out == "" and "redscope:" in err, f"a failed run writes no document: {rc} {out}")
rc, out, err = run("ladder", "--replay", DEMO, "--format", "md", "--n", "2^12")
check(rc == 2 and out == "" and "nothing asked for is in" in err,
      f"a handout of nothing recorded: {rc} {out[:100]} {err}")
# a replay that holds two steps of the ladder and your kernel: their rows, no
# gaps; the settings and the kernel as recorded (issue 40)
rc, out, err = run("ladder", "--replay", os.path.join(os.path.dirname(DEMO), "h100-mine-after.jsonl"),
                   "--format", "md")
table = [l for l in out.splitlines() if l.startswith("| ") and not l.startswith("| # ")]
check(rc == 0 and len(table) == 3 and "not in the recording" not in out
      and "| mine.cu |" in table[2] and out.count("\n## ") == 4,
      f"a handout of what a recording holds: {rc} {table} {err}")
rc, out, err = run("ladder", "--help")
check("md or html: the lecture handout" in out, "ladder --help names the handout")
check("## The sweep" not in md, "md: no sweep section where the recording holds none of its kind")

# a recording that holds a sweep of the ladder's kind: its times, as sweep says them, and a chart
EN = os.path.join(os.path.dirname(DEMO), "h100-energy.jsonl")
rc, sweep, err = run("sweep", "--replay", EN)
times = sweep.split("energy per GB read", 1)[0]  # the times' grid, not the J/GB one under it
grid = [l.split() for l in times.splitlines() if re.match(r" +2\^\d+ ", l)]
want = [[c[0]] + [f"{c[i]} {c[i + 1]}" for i in range(1, len(c), 2)] for c in grid]
rc, out, err = run("ladder", "--replay", EN, "--n", "2^24", "--format", "md")
part = out.split("## The sweep: n from 2^16 to 2^28", 1)
rows_ = [[x.strip() for x in l.strip("|").split(" | ")] for l in part[-1].splitlines()
         if re.match(r"\| 2\^\d+ \|", l)]
check(rc == 0 and len(part) == 2 and rows_ == want and len(rows_) == 7
      and "Who leads: cpu (1 thread) fastest up to 2^16; vectorized from 2^18 on." in part[-1],
      f"md: the recorded sweep's times as sweep prints them: {rows_} {want}")
rc, page, err = run("ladder", "--replay", EN, "--n", "2^24", "--format", "html")
p = Tags()
p.feed(page)
svg = page.split("<h2>The sweep", 1)[-1]
lines = re.findall(r'<polyline [^>]*points="([^"]*)"', svg)
check(rc == 0 and not p.open and not p.bad and page.count("<svg") == 3 and len(lines) == 4
      and all(len(l.split()) == 7 for l in lines)
      and all(f">{v}</text>" in svg for v in ("atomic", "sequential", "vectorized", "cpu (1 thread)")),
      f"html: the sweep drawn, a line of 7 points per series, named: {len(lines)} {p.bad}")

check.finish()
