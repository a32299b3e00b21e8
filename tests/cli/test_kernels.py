#!/usr/bin/env python3
"""User kernels without a GPU: NVRTC compiles the template and the examples
for every type and operation (and the finishes that change the header);
a compile error is file:line with the line and a caret, exit 2; files that
are not kernels get clear errors; the header's rules refuse requests before
any GPU work; presets carry the kernel; a recorded kernel replays with its
source."""
import csv
import io
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import Checks, run  # noqa: E402

check = Checks("test_kernels")
SRC = os.environ["REDSCOPE_SOURCE"]
K = os.path.join(SRC, "conf", "kernels")
T = os.path.join(SRC, "tests", "data", "kernels")
TYPES = ["int32", "int64", "float32", "float64", "float16", "bfloat16"]
OPS = ["sum", "min", "max", "product"]
tmp = tempfile.mkdtemp(prefix="rs_kernels_")

# 1. Every shipped kernel compiles for every type and op; the template also
#    with the finishes that change what rs_block_result does.
shipped = sorted(f for f in os.listdir(K) if f.endswith(".cu"))
check({"template.cu", "fast.cu", "lab-barrier.cu", "lab-tail.cu"} <= set(shipped),
      f"shipped kernels: {shipped}")
for name in shipped:
    for t in TYPES:
        for op in OPS:
            rc, out, err = run("compile", os.path.join(K, name), "--type", t, "--op", op)
            check(rc == 0 and "registers" in out and "compiled for sm_90" in out,
                  f"compile {name} {t} {op}: exit {rc} {err.strip()[:400]}")
for fin in ("atomic", "single_pass"):
    for t in TYPES:
        for op in OPS:
            rc, out, err = run("compile", os.path.join(K, "template.cu"), "--type", t, "--op", op,
                               "--finish", fin)
            check(rc == 0, f"compile template.cu {t} {op} finish {fin}: {err.strip()[:400]}")

# 2. What compile reports: entry, registers, spills; JSON; another arch.
rc, out, err = run("compile", os.path.join(K, "fast.cu"), "--format", "json", "--arch", "sm_80")
j = json.loads(out) if rc == 0 else {}
check(rc == 0 and j.get("ok") and j.get("entry") == "reduce_fast" and j.get("registers", 0) > 0
      and j.get("arch") == 80 and "spill_store_bytes" in j, f"compile json: {out} {err}")
rc, out, err = run("compile", os.path.join(K, "fast.cu"), "--format", "csv")
rows = list(csv.DictReader(io.StringIO(out)))
check(rc == 0 and len(rows) == 1 and rows[0]["entry"] == "reduce_fast" and rows[0]["ok"] == "yes",
      f"compile csv: {out}")
rc, out, err = run("compile", os.path.join(K, "fast.cu"), "--arch", "sm_9")
check(rc == 2 and "sm_XX" in err, f"bad --arch: {err}")

# 3. A syntax error: file:line, the line and a caret, exit 2.
rc, out, err = run("compile", os.path.join(T, "syntax.cu"))
check(rc == 2 and "syntax.cu:7: error:" in err, f"syntax error is file:line: {err}")
lines = err.splitlines()
at = next((i for i, l in enumerate(lines) if "syntax.cu:7: error:" in l), -1)
check(at >= 0 and at + 2 < len(lines) and "rs_block_result" in lines[at + 1]
      and lines[at + 2].strip() == "^", f"source line and caret under the error: {lines}")
check("did not compile" in err, "one closing line says it did not compile")
# a warning is shown with its line and caret, without NVRTC's hint of an
# option redscope does not take (-diag-suppress)
tmpw = tempfile.mkdtemp(prefix="rs_warn_")
warn = os.path.join(tmpw, "w.cu")
with open(warn, "w") as f:
    f.write("extern \"C\" __global__ void reduce(const RS_T *in, RS_ACC *out, unsigned long long n)"
            "\n{\n    int unused = 3;\n    rs_block_result(out, RS_IDENTITY);\n}\n")
rc, out, err = run("compile", warn)
check(rc == 0 and "w.cu:3: warning" in out + err and "diag-suppress" not in out + err,
      f"a warning without -diag-suppress: {rc} {out} {err}")

# 4. Files that are not kernels.
empty = os.path.join(tmp, "empty.cu")
open(empty, "w").close()
binary = os.path.join(tmp, "binary.cu")
open(binary, "wb").write(b"\x7fELF\x00\x01\x02" * 100)
huge = os.path.join(tmp, "huge.cu")
open(huge, "w").write("// padding\n" * 200000)
cases = [
    (empty, 2, "is empty"),
    (binary, 2, "binary file"),
    (huge, 2, "a kernel file is at most"),
    (tmp, 2, "is a directory"),
    (os.path.join(tmp, "missing.cu"), 7, "No such file"),
    (os.path.join(T, "noentry.cu"), 2, "no extern \"C\" __global__ function"),
    (os.path.join(T, "mangled.cu"), 2, "not extern \"C\""),
    (os.path.join(T, "two.cu"), 2, "keep one entry point"),
    (os.path.join(T, "badheader.cu"), 2, "badheader.cu:3: unknown directive 'blocksize'"),
]
# ... and kernels that break the contract where the compiler does not look
TEMPLATE = open(os.path.join(K, "template.cu"), encoding="utf-8").read()


def variant(name, old, new):
    path = os.path.join(tmp, name)
    assert old in TEMPLATE
    open(path, "w", encoding="utf-8").write(TEMPLATE.replace(old, new))
    return path


cases += [
    (variant("int_n.cu", "unsigned long long n)", "int n)"), 2,
     "reduce takes 3 parameters (8, 8, 4 bytes): the contract is (const RS_T *in, RS_ACC *out, "
     "unsigned long long n)"),
    (variant("four.cu", "unsigned long long n)", "unsigned long long n, int k)"), 2,
     "reduce takes 4 parameters"),
    (variant("no_result.cu", "    rs_block_result(out, rs_shared[0]);",
             "    if (tid == 0) out[blockIdx.x] = rs_shared[0]; // not rs_block_result"), 2,
     "reduce never calls rs_block_result(out, v)"),
    (variant("types.cu", "// redscope: block pow2", "// redscope: block pow2\n// redscope: types "
             "float32"), 2, "types.cu does not take int32 (its header says types: float32)"),
]
for path, code, words in cases:
    rc, out, err = run("compile", path)
    check(rc == code and words in err, f"compile {os.path.basename(path)}: exit {rc}, {err.strip()}")
# ... and what the contract checks must not refuse: rs_block_result called in
# an included helper, a digit separator before it, a block the header fixes
os.makedirs(os.path.join(tmp, "inc"), exist_ok=True)
open(os.path.join(tmp, "inc", "help.cuh"), "w").write(
    "__device__ inline void finish(RS_ACC *out, RS_ACC v) { rs_block_result(out, v); }\n")
for name, text in (
        ("via_include.cu", '#include "inc/help.cuh"\nextern "C" __global__ void k(const RS_T *in, '
         'RS_ACC *out, unsigned long long n)\n{ finish(out, RS_IDENTITY); }\n'),
        ("separator.cu", 'extern "C" __global__ void k(const RS_T *in, RS_ACC *out, unsigned long '
         "long n)\n{ if (n > 1'000) {} rs_block_result(out, RS_IDENTITY); }\n"),
        ("block128.cu", '// redscope: block 128\nextern "C" __global__ void k(const RS_T *in, '
         'RS_ACC *out, unsigned long long n)\n{ rs_block_result(out, RS_IDENTITY); }\n')):
    path = os.path.join(tmp, name)
    open(path, "w").write(text)
    rc, out, err = run("compile", path)
    check(rc == 0, f"compile {name}: a kernel within the contract compiles: {rc} {err.strip()}")
# a file that is no kernel: its first errors, not a hundred
rc, out, err = run("compile", os.path.join(os.environ["REDSCOPE_SOURCE"], "README.md"))
check(rc == 2 and err.count(": error:") == 10 and "more errors not shown" in err
      and "is it a kernel?" in err, f"compile README.md: {rc} {err.count(': error:')} errors shown")
# the caret stands under the error when UTF-8 text comes before it
utf = variant("utf8.cu", "    const unsigned tid = threadIdx.x;",
              "    /* µs éè */ const unsigned tid = threadIdx_x;")
rc, out, err = run("compile", utf)
lines = err.splitlines()
at = next((i for i, l in enumerate(lines) if "utf8.cu:" in l and ": error:" in l), -1)
check(at >= 0 and at + 2 < len(lines) and lines[at + 2].index("^") == lines[at + 1].index(
      "threadIdx_x"), f"the caret under threadIdx_x after 'µs éè': {lines[at:at + 3]}")
rc, out, err = run("compile")
check(rc == 2 and "needs a file" in err, f"compile without a file: {err}")
rc, out, err = run("compile", "", "")
check(rc == 2 and "no kernel file given" in err, f"compile of empty words: {rc} {err}")

# Several files: one CSV header, one JSON array.
two = [os.path.join(K, "template.cu"), os.path.join(K, "fast.cu")]
rc, out, err = run("compile", *two, "--format", "csv")
rows = list(csv.DictReader(io.StringIO(out)))
check(rc == 0 and [r["entry"] for r in rows] == ["reduce", "reduce_fast"], f"csv of two: {out}")
rc, out, err = run("compile", empty, *two, "--format", "json")
try:
    arr = json.loads(out)
except ValueError:
    arr = None
check(rc == 2 and isinstance(arr, list) and len(arr) == 2 and arr[1]["entry"] == "reduce_fast"
      and "is empty" in err, f"json of two after an empty file: {rc} {out[:300]} {err}")
# A failure that is not the compiler's (two entry points) says why even after warnings.
rc, out, err = run("compile", os.path.join(T, "two.cu"), "--format", "csv")
check(rc == 2 and "keep one entry point" in err, f"csv of a refused file: {err}")

# 5. run/ladder/sweep check the file and its header before the GPU.
for args, code, words in [
    (["run", "--kernel", empty], 2, "is empty"),
    (["ladder", "--kernel", tmp], 2, "is a directory"),
    (["sweep", "--kernel", os.path.join(T, "badheader.cu")], 2, "unknown directive"),
    (["run", "--kernel", os.path.join(K, "template.cu"), "--block", "96"], 2,
     "power-of-two blockDim"),
    (["run", "--kernel", os.path.join(K, "template.cu"), "--grid", "64"], 2, "takes no --grid"),
    (["run", "--kernel", os.path.join(K, "template.cu"), "--variant", "sequential"], 2,
     "not both"),
    (["run", "--kernel", os.path.join(K, "template.cu"), "--kernel", os.path.join(K, "fast.cu")],
     2, "run takes one --kernel"),
    (["run", "--variant", "kernel"], 2, "give it with --kernel"),
]:
    rc, out, err = run(*args)
    check(rc == code and words in err and len(err.strip().splitlines()) == 1,
          f"{' '.join(args)}: exit {rc}, {err.strip()}")

# A preset's kernel file is checked only where the kernel runs.
gone = os.path.join(tmp, "gone.ini")
open(gone, "w").write("[run]\nkernel = " + os.path.join(tmp, "no-such.cu") + "\n")
rc, out, err = run("run", "--preset", gone, "--variant", "cpu", "--n", "1000", "--reps", "2")
check(rc == 0 and "exact" in out, f"a built-in run ignores the preset's missing kernel: {rc} {err}")
rc, out, err = run("run", "--preset", gone, "--variant", "kernel")
check(rc == 7 and "no-such.cu" in err, f"the kernel run says the file is missing: {rc} {err}")

# 6. A preset names the kernel file; it loads back.
env = {"XDG_CONFIG_HOME": tmp}
rc, out, err = run("run", "--kernel", os.path.join(K, "fast.cu"), "--n", "2^20",
                   "--save-preset", "mine", "--replay", os.path.join(T, "..", "..", "conf",
                                                                     "recordings",
                                                                     "h200-demo.jsonl"), env=env)
ini = os.path.join(tmp, "redscope", "presets", "mine.ini")
text = open(ini).read() if os.path.exists(ini) else ""
check("kernel = " + os.path.join(K, "fast.cu") in text and "variant = kernel" in text,
      f"preset holds the kernel: {text!r} {err}")
# 7. Replay of a real recording (an H100: conf/recordings/h100-kernels.jsonl),
#    from a folder where the files are not: the recording answers.
REC = os.path.join(SRC, "conf", "recordings", "h100-kernels.jsonl")
files = ["template.cu", "fast.cu", "lab-barrier.cu", "lab-tail.cu"]
args = ["ladder", "--replay", REC, "--format", "json"]
for f in files:
    args += ["--kernel", "conf/kernels/" + f]
rc, out, err = run(*args, cwd=tmp)
rows = json.loads(out)["rows"] if out.strip() else []
names = [os.path.basename(r["request"].get("kernel", "")) for r in rows[-4:]]
check(rc == 1 and len(rows) == 18 and names == files, f"replayed ladder: exit {rc} {names} {err}")
if len(rows) == 18:
    check([r["correct"] for r in rows[-4:]] == [True, True, False, False],
          "template and fast right, the lab kernels WRONG, as recorded")
    kb = rows[-3].get("kernel_build", {})
    check(kb.get("entry") == "reduce_fast" and kb.get("registers", 0) > 0, f"build facts: {kb}")
# Recording what a replay answers keeps each file's source, once.
again = os.path.join(tmp, "again.jsonl")
rc, out, err = run("ladder", "--replay", REC, "--kernel", "conf/kernels/template.cu",
                   "--kernel", "conf/kernels/fast.cu", "--record", again, cwd=SRC)
kept = [json.loads(l) for l in open(again)] if os.path.exists(again) else []
kept = [l["path"] for l in kept if l.get("command") == "kernel"]
check(rc == 0 and [os.path.basename(p) for p in kept] == ["template.cu", "fast.cu"],
      f"a re-recorded replay keeps the sources: {kept} {err}")
# every kernel a shipped recording names is shipped with it (conf/, not tests/), or is a
# bare name whose source the recording holds (the before/after pair's mine.cu)
RECS = os.path.dirname(REC)
named, sourced = set(), set()  # a kernel a recording runs; one whose source it holds
for f in os.listdir(RECS):
    for line in open(os.path.join(RECS, f)):
        try:
            o = json.loads(line)
        except ValueError:
            continue
        if not isinstance(o, dict):
            continue
        named.add((f, o.get("request", {}).get("kernel", "")))
        if o.get("command") == "kernel" and o.get("source"):
            sourced.add((f, o.get("path", "")))
named = {n for n in named if n[1]}
# a path into the tree must be shipped; a bare name (mine.cu) must be recorded
lost = [n for n in named if (not (n[1].startswith("conf/") and os.path.exists(
    os.path.join(SRC, n[1]))) if "/" in n[1] else n not in sourced)]
check(named and not lost,
      f"the kernels the shipped recordings run are shipped, or their source recorded: {lost}")
rc, out, err = run("run", "--replay", REC, "--kernel", "conf/kernels/fault.cu", "--n", "1000",
                   cwd=tmp)
check(rc == 8 and "reduce_oob" in err and "illegal memory access" in err,
      f"a recorded fault replays: exit {rc} {err}")
rc, out, err = run("run", "--replay", REC, "--kernel", "conf/kernels/fast.cu", "--n", "2^20",
                   cwd=tmp)
check(rc == 2 and "fast.cu with this configuration was not recorded" in err,
      f"not recorded: {rc} {err}")
check.finish()
