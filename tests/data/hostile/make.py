#!/usr/bin/env python3
"""Writes the hostile corpus of tests/cli/test_hostile.py from the shipped
recordings: each file is a real recording with one field made hostile
(escape sequences, C1 and bidirectional controls, newlines that would
forge output lines, figures out of range, totals that contradict their
parts), a preset and two kernels of the same kind. Run it again after a
shipped recording changes: python3 tests/data/hostile/make.py"""
import copy
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
RECS = os.path.join(HERE, "..", "..", "..", "conf", "recordings")
ESC = "\x1b]0;PWNED\x07\x1b[2J"
FORGE = "\n5 first_add 1.0 \u00b5s FORGED yes"


def demo():
    """The demo's first header and its int32 sequential row at 2^24 (counters, stalls)."""
    lines = open(os.path.join(RECS, "h200-demo.jsonl"), encoding="utf-8").read().splitlines()
    for line in lines[1:]:
        j = json.loads(line)
        r = j.get("request", {})
        if r.get("variant") == "sequential" and r.get("n") == 2 ** 24 and r.get("type") == "int32":
            return json.loads(lines[0]), j
    raise SystemExit("no sequential row in the demo")


def check_line():
    for line in open(os.path.join(RECS, "h100-checks.jsonl"), encoding="utf-8"):
        j = json.loads(line)
        if j.get("command") == "check" and j["request"]["variant"] == "unroll_warp_volatile":
            return j
    raise SystemExit("no check line")


def write(name, *objs):
    with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
        for o in objs:
            f.write(json.dumps(o) + "\n")


HEADER, ROW = demo()


def row(change):
    r = copy.deepcopy(ROW)
    change(r)
    return r


def header(change):
    h = copy.deepcopy(HEADER)
    change(h)
    return h


# the device and its figures
# a GPU's name, in the header and its row alike (one GPU per recording)
for name, gpu in (("device_escape.jsonl", "H200" + ESC), ("device_bidi.jsonl", "H200 \u202e002H"),
                  ("device_c1.jsonl", "H200\u009b31m")):
    write(name, header(lambda h, g=gpu: h["device"].update(name=g)),
          row(lambda r, g=gpu: r["device"].update(name=g)))
write("peak_huge.jsonl", header(lambda h: h["device"].update(peak_gbps=1e308)), ROW)
write("peak_negative.jsonl", HEADER, row(lambda r: r["device"].update(peak_gbps=-1)))
write("sm_count_text.jsonl", HEADER, row(lambda r: r["device"].update(sm_count="lots")))
# counters
write("metric_negative.jsonl", HEADER,
      row(lambda r: r["metrics"]["values"]["dram_read"].update(value=-5)))
write("metric_huge.jsonl", HEADER,
      row(lambda r: r["metrics"]["values"]["warp_inst"].update(value=1e300)))
write("metric_reason_newline.jsonl", HEADER, row(lambda r: r["metrics"].update(reason="x" + FORGE)))
write("launch_name_newline.jsonl", HEADER,
      row(lambda r: r["metrics"]["launches"][0].update(name="k" + FORGE)))
# the stall view
def rename_line_file(r):  # the line and the links on it: a view that agrees with itself
    first = r["stalls"]["lines"][0]
    for k in r["stalls"]["links"]:
        if (k["file"], k["line"]) == (first["file"], first["line"]):
            k["file"] = "classic.cu" + FORGE
    first["file"] = "classic.cu" + FORGE


write("stall_file_newline.jsonl", HEADER, row(rename_line_file))
write("stall_text_escape.jsonl", HEADER,
      row(lambda r: r["stalls"]["lines"][0].update(text="s[tid]" + ESC + "\u202e")))
write("stall_function_newline.jsonl", HEADER,
      row(lambda r: r["stalls"]["functions"][0].update(name="f" + FORGE)))
write("stall_link_newline.jsonl", HEADER,
      row(lambda r: r["stalls"]["links"][0].update(to_text="t" + FORGE, chain="c" + FORGE,
                                                   instruction="LDG" + FORGE)))
write("row_error_escape.jsonl", HEADER,
      {"request": ROW["request"], "status": 4, "error": "x" + ESC + FORGE})
write("command_bidi.jsonl", HEADER, row(lambda r: r.update(command="\u202eladder")))
# checks: totals that contradict their findings, a wrong result, a forged file
CHECK = check_line()


def check(change):
    c = copy.deepcopy(CHECK)
    change(c["check"])
    return c


write("check_total_zero.jsonl", HEADER, check(lambda c: c.update(total=0)))
write("check_total_negative.jsonl", HEADER, check(lambda c: c.update(total=-1)))
write("check_total_huge.jsonl", HEADER, check(lambda c: c.update(total=1e308)))
write("check_wrong.jsonl", HEADER, check(lambda c: c.update(total=0, correct=0, findings=[])))
write("check_not_ran_found.jsonl", HEADER, check(lambda c: c.update(ran=False)))
write("check_not_ran.jsonl", HEADER,
      check(lambda c: c.update(ran=False, total=0, findings=[], more_groups=0,
                               note="racecheck stopped")))
write("check_file_newline.jsonl", HEADER,
      check(lambda c: c["findings"][0].update(file="classic.cu" + FORGE)))
# the all-reduce
ar = json.load(open(os.path.join(RECS, "h200x2-allreduce.json"), encoding="utf-8"))
ar["links"] = "NVLink" + FORGE
ar["device"] = "NVIDIA H200" + ESC
write("allreduce_newline.json", ar)
ar = json.load(open(os.path.join(RECS, "h200x2-allreduce.json"), encoding="utf-8"))
ar["points"][3]["wrong"] = 3
write("allreduce_wrong.json", ar)
# a preset and kernels
with open(os.path.join(HERE, "evil.ini"), "w", encoding="utf-8") as f:
    f.write("[preset]\nnote = a note" + ESC + " \u202e \u009b\n[run]\nvariant = sequential\n")
with open(os.path.join(HERE, "escape_error.cu"), "w", encoding="utf-8") as f:
    f.write('#error "' + ESC + '"\nextern "C" __global__ void k() {}\n')
