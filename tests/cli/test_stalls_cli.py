#!/usr/bin/env python3
"""The stall view as the command line prints it, from a recording of a real
H200 (conf/recordings/h200-demo.jsonl: the int32 and float32 ladders at
2^24 with a stall view of every step): every line with its source text,
what its waits stand on (sequential: its __syncthreads; vectorized: its
16-byte loads), the code inside it, by function, CSV and JSON with the
same fields, the ladder's line per step, two steps line by line
(--against), and the refusals. Expected figures are read from the
recording itself. No GPU needed."""
import csv
import io
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import Checks, line_of, run  # noqa: E402

check = Checks("test_stalls_cli")
SRC = os.environ["REDSCOPE_SOURCE"]
REC = os.path.join(SRC, "conf", "recordings", "h200-demo.jsonl")
ARGS = ("--replay", REC, "--type", "int32", "--n", "2^24", "--stalls")


def recorded(variant, typ="int32"):
    """The stall view the recording holds for a step at 2^24."""
    with open(REC) as f:
        for l in f:
            j = json.loads(l)
            r = j.get("request", {})
            if r.get("variant") == variant and r.get("type") == typ and r.get("n") == 2 ** 24 \
                    and j.get("stalls", {}).get("valid"):
                return j["stalls"]
    return {}


SYNC = line_of("src/kernels/classic.cu", "for (unsigned stride = blockDim.x / 2; stride > last") + 2
seq = recorded("sequential")
check(seq and seq.get("causes") and all(l.get("text") for l in seq.get("lines", [])),
      "the recording holds sequential's view with its texts and causes")

rc, out, err = run("run", *ARGS, "--variant", "sequential")
check(rc == 0, f"run --stalls from the recording: {err}")
lines = out.splitlines()
head = [l for l in lines if l.startswith("stalls ")]
check(head and f"{seq.get('samples', 0):,} samples" in head[0] and "cycles" in head[0],
      f"the sample count and the period: {head}")
hot = max(seq.get("lines", []), key=lambda l: l["samples"], default={})
row = [l for l in lines if l.startswith(">")]
check(len(row) == 1 and f"{hot.get('file')}:{hot.get('line')} " in row[0]
      and hot.get("text", "?")[:30] in row[0], f"the hottest line with its text: {row} {hot}")
every = [l for l in lines if l[:1] in (" ", ">") and ".cu" in l.split("%")[0]]
check(len(every) == len(seq.get("lines", [])) and all(
    any(t["text"][:20] in l for t in seq["lines"]) for l in every),
      f"every line carries its source text: {every[:3]}")
waits = [l for l in lines if f"wait for the barrier (BAR.SYNC" in l and f"classic.cu:{SYNC}: __syncthreads();" in l]
check(waits, f"sequential's barrier waits stand at its __syncthreads (classic.cu:{SYNC}): {out[:1500]}")
check(any(l.startswith("waits      ") and "% of the samples wait for the " in l for l in lines),
      f"the sentence of what the samples wait for: {lines[-12:]}")
fn = out[out.find("by function"):] if "by function" in out else ""
check("tree_sequential" in fn, f"by function: {fn[:300]}")

rc, out, err = run("run", *ARGS, "--variant", "vectorized")
check(rc == 0 and "wait for the 16-byte global load (LDG.E.128" in out and "__ldg(vin + i" in out,
      f"vectorized's memory waits name its 16-byte loads, with their text: {out[-1500:]}")
check("> SumOp::operator() (common.cuh:65)" in out and "common.cuh:65  " not in out,
      f"vectorized: the shared add is inside its line, never a line of its own: {out[-1500:]}")

# cooperative groups' code (its headers) shows on the lines of its own kernel
rc, out, err = run("run", *ARGS, "--variant", "cooperative_groups")
table = out[out.find("\nstalls "):out.find("\nreasons ")].splitlines()[2:]
rows = [l for l in table if l[:1] in (" ", ">") and "%" in l[:32] and ":" in l[:26]]
check(rc == 0 and rows and all("modern.cu:" in l for l in rows),
      f"cooperative_groups: every line is in its own kernel file: {rows}")
check("cg::reduce  " in out[out.find("by function"):], f"cg::reduce by function: {out[-600:]}")
cg = recorded("cooperative_groups")
reduce_lines = {line_of("src/kernels/modern.cu", "    v = cg::reduce(tile, v, op);"),
                line_of("src/kernels/modern.cu", "        v = cg::reduce(tile, v, op);")}
inside = [k for k in cg.get("links", []) if k["link"] == "inside" and k["line"] in reduce_lines]
check(inside and any("cg::reduce" in k["chain"] for k in inside),
      f"cooperative_groups: cg::reduce's code is inside its cg::reduce lines: {inside[:2]}")

rc, out, err = run("run", *ARGS, "--variant", "sequential", "--format", "csv")
table = list(csv.DictReader(io.StringIO(out))) if rc == 0 else []
kinds = [r["table"] for r in table]
check(rc == 0 and "\n\n" not in out and kinds[:1] == ["run"] and set(kinds) == {"run", "line", "function"},
      f"csv: one table, the result row then the lines and the functions: {out[:200]}")
rows = [r for r in table if r["table"] == "line"]
check(rows and all(r["text"] for r in rows), "csv: every line's text")
sync = [r for r in rows if r["waits_for_line"] == str(SYNC) and r["waits_for_text"] == "__syncthreads();"]
check(sync and sync[0]["waits_for_instruction"].startswith("BAR"),
      f"csv: a line waiting at the barrier names it: {rows[:2]}")
check(abs(sum(float(r["share_pct"]) for r in rows) - 100.0) < 1.0, "csv shares add up to 100%")
hot = max(rows, key=lambda r: int(r["samples"])) if rows else {}
check(table and table[0]["hot_file"] == hot.get("file") and table[0]["hot_line"] == hot.get("line")
      and table[0]["hot_text"] == hot.get("text") and table[0]["hot_share_pct"] == hot.get("share_pct"),
      f"csv: the run's row names its hottest line: {table[:1]}")

rc, out, err = run("run", *ARGS, "--variant", "sequential", "--format", "json")
st = json.loads(out).get("stalls", {}) if rc == 0 else {}
check(st.get("causes") is True and st.get("lines") and all(l.get("text") for l in st["lines"]),
      f"json: causes traced, every line's text: {str(st)[:200]}")
links = [k for k in st.get("links", []) if k.get("link") == "waits" and k.get("reason") == "barrier"]
check(links and links[0].get("to_line") and "to_text" in links[0] and "instruction" in links[0],
      f"json: the wait links with their target's text and instruction: {links[:1]}")

rc, out, err = run("ladder", *ARGS, "--variants", "sequential,vectorized")
waits = [l for l in out.splitlines() if "waits:" in l]
check(rc == 0 and len(waits) == 2 and all("% of the samples wait for the " in w for w in waits)
      and "(if (tid < stride)" in waits[0] or "(s[threadIdx.x]" in waits[0],
      f"ladder: each step's hottest line with its text and what it waits for: {waits} {err}")

# two steps line by line
rc, out, err = run("run", *ARGS, "--variant", "sequential", "--against", "interleaved")
tail = out[out.find("\nagainst "):]
# the tree's add step pairs by its role (op() inlined), the modulo gone from it (issue 40)
check(rc == 0 and "against    interleaved, same settings" in tail and "change     " in tail
      and re.search(r"change +classic\.cu:28(→|->)59 .* fell from 54\.4% to 31\.9%", tail)
      and re.search(r"classic\.cu:24(→|->)69 ", tail),
      f"--against interleaved: sequential line by line: {tail[:800]} {err}")
# the same text on two lines (a __syncthreads() in each kernel): a row says both lines
syncs = [l.split()[0] for l in tail.splitlines() if l.rstrip().endswith("__syncthreads();")]
check(syncs and all(re.fullmatch(r"classic\.cu:\d+(\u2192|->)\d+", w) for w in syncs)
      and all(w.split(":")[1].replace("->", "\u2192").split("\u2192")[0] !=
              w.split(":")[1].replace("->", "\u2192").split("\u2192")[1] for w in syncs),
      f"--against: a pair of __syncthreads() lines names both: {syncs}")
rc, out, err = run("run", *ARGS, "--variant", "sequential", "--against", "interleaved",
                   "--format", "json")
ag = json.loads(out).get("against", {}) if rc == 0 else {}
check(ag.get("lines") and ag.get("biggest_change") and all(
    {"file", "line", "line_before", "text", "share_before", "share_after"} <= set(d) for d in ag["lines"]),
      f"--against in JSON: {str(ag)[:300]}")
rc, out, err = run("run", *ARGS, "--variant", "sequential", "--against", REC, "--format", "csv")
diff = [r for r in csv.DictReader(io.StringIO(out)) if r["table"] == "against"] if rc == 0 else []
check(diff and all(r["compared_with"].endswith("as recorded in " + os.path.basename(REC)) for r in diff),
      f"--against the recording itself, in CSV: {out[-400:]} {err}")
check(diff and all(r["change_pct"] == "0" and r["share_before_pct"] == r["share_after_pct"] for r in diff),
      f"a view against itself changes nothing: {diff[:3]}")
rc, out, err = run("run", *ARGS, "--variant", "sequential", "--against", "nothere")
check(rc != 0 and "--against nothere: not a variant, a .cu kernel or a recording" in err,
      f"--against a name that is nothing: {rc} {err}")
rc, out, err = run("run", "--replay", REC, "--variant", "sequential", "--n", "2^24", "--against",
                   "interleaved")
check(rc == 2 and "add --stalls" in err, f"--against without --stalls: {rc} {err}")

rc, out, err = run("run", "--variant", "cpu", "--n", "1000", "--stalls")
check(rc == 0 and "stalls     none: the cpu variant runs on the host" in out, f"cpu: {out[-200:]}")
rc, out, err = run("run", "--variant", "cpu", "--n", "1000", "--stalls=2")
check(rc == 2 and "expected a whole number from 0 to 1" in err, f"--stalls=2: {rc} {err}")
rc, out, err = run("sweep", "--variants", "cpu", "--range", "2^10,2^12", "--stalls")
check(rc == 2 and "stalls" in err, f"sweep takes no --stalls: {rc} {err}")
# the ladder's waits line: one whatever its text (none at all, or a word longer than the
# table is wide), each line within 120 columns and never inside a character
lines = open(REC, encoding="utf-8").read().splitlines()[:15]
a = json.loads(lines[1])
a["stalls"] = {"valid": False, "why": ""}
b = json.loads(lines[2])
b["stalls"] = {"valid": False, "why": "/home/lecturer/" + "p" * 77 + "\u00e9" * 40}
lines[1], lines[2] = json.dumps(a), json.dumps(b)
odd = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"rs_waits_{os.getpid()}.jsonl")
with open(odd, "w", encoding="utf-8") as f:
    f.write("\n".join(lines) + "\n")
try:
    p = __import__("subprocess").run([os.environ["REDSCOPE"], "ladder", "--replay", odd],
                                     capture_output=True, timeout=60)
finally:
    os.unlink(odd)
try:
    text = p.stdout.decode("utf-8")
except UnicodeDecodeError as e:
    text = ""
    check(False, f"ladder waits: the table is UTF-8 throughout: {e}")
rows = text.splitlines()
check(p.returncode == 0 and any(re.match(r"  2  interleaved ", l) for l in rows)
      and all(len(l) <= 120 for l in rows),
      "ladder waits: an empty reason ends its line; a long one wraps within 120 columns", text[:900])
check.finish()
