#!/usr/bin/env python3
"""A hostile corpus made fresh from every shipped recording, field by
field, and run through the readers (issue 41's closing trial).

For each recording in conf/recordings/, each row (up to ROWS of each
command) and each field path in it (every top-level and request field, and
a sample of the deep ones: stall lines, links, launches, GPUs), every
mutation below is written as the header plus that one row, and read with
`recording`, `ladder --replay` (table, CSV, JSON) or `allreduce --replay`.
Each run is classed:

  clean     exit 0, or a documented exit with one "redscope: ..." line
  crash     a signal, a sanitizer report, or an exit the docs do not list
  hang      past TIMEOUT seconds
  loss      the input changed, or a file left beside it
  injection an escape byte, a bidi control or a forged "redscope:" line
            reaching stdout or stderr raw
  wrong     exit 0 while stderr says an error, or a failure without a
            "redscope:" line

  scripts/hostile-mutate.py [--exe build/redscope] [--jobs 2] [--limit N] [--count]
"""
import argparse
import concurrent.futures as cf
import hashlib
import json
import os
import random
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIMEOUT = 20
ROWS = 2             # rows of each command per recording
DEEP = 60            # deep paths sampled per row
EXITS = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
FORGE = "\nredscope: FORGED line"
MUTATIONS = [
    ("delete", None), ("null", None), ("zero", 0), ("neg", -1), ("neg_big", -1e300),
    ("huge", 1e308), ("inf_text", "1e999"), ("tiny", 1e-300), ("frac", 0.5),
    ("int_max", 2 ** 64 + 1), ("empty_text", ""), ("long_text", "x" * 70000),
    ("escape", "\x1b[31mred\x1b[0m"), ("forge", "a" + FORGE), ("bidi", "\u202eevil"),
    ("list", [1, 2]), ("object", {"a": 1}), ("bool", True), ("number_text", "12"),
]


def paths(o, pre=()):
    """Every path to a value in o, leaves and containers alike."""
    out = []
    if isinstance(o, dict):
        for k, v in o.items():
            out.append(pre + (k,))
            out += paths(v, pre + (k,))
    elif isinstance(o, list):
        for i, v in enumerate(o[:4]):  # the first few of a list
            out.append(pre + (i,))
            out += paths(v, pre + (i,))
    return out


def mutate(row, path, how, value):
    r = json.loads(json.dumps(row))
    o = r
    for k in path[:-1]:
        o = o[k]
    last = path[-1]
    if how == "delete":
        if isinstance(o, dict):
            del o[last]
        else:
            del o[last]
    else:
        o[last] = value
    return r


def chosen_paths(row, rnd):
    ps = paths(row)
    shallow = [p for p in ps if len(p) <= 2]
    deep = [p for p in ps if len(p) > 2]
    rnd.shuffle(deep)
    return shallow + deep[:DEEP]


def inputs(rnd):
    """(name, text, argv-maker) of every mutated input."""
    rec_dir = os.path.join(ROOT, "conf", "recordings")
    for f in sorted(os.listdir(rec_dir)):
        path = os.path.join(rec_dir, f)
        if f.endswith(".jsonl"):
            lines = open(path, encoding="utf-8").read().splitlines()
            head, rows = lines[0], [json.loads(l) for l in lines[1:]]
            seen = {}
            for row in rows:
                cmd = row.get("command", "?")
                if seen.get(cmd, 0) >= ROWS:
                    continue
                seen[cmd] = seen.get(cmd, 0) + 1
                for p in chosen_paths(row, rnd):
                    for how, value in MUTATIONS:
                        text = head + "\n" + json.dumps(mutate(row, p, how, value)) + "\n"
                        yield f"{f}:{cmd}:{'.'.join(map(str, p))}:{how}", ".jsonl", text
            hj = json.loads(head)
            for p in chosen_paths(hj, rnd):  # the header too
                for how, value in MUTATIONS:
                    text = json.dumps(mutate(hj, p, how, value)) + "\n" + "\n".join(lines[1:3]) + "\n"
                    yield f"{f}:header:{'.'.join(map(str, p))}:{how}", ".jsonl", text
        elif f.endswith(".json"):
            j = json.load(open(path, encoding="utf-8"))
            for p in chosen_paths(j, rnd):
                for how, value in MUTATIONS:
                    yield f"{f}:{'.'.join(map(str, p))}:{how}", ".json", json.dumps(mutate(j, p, how, value))


ESC = re.compile(r"\x1b|[\u202a-\u202e\u2066-\u2069]")


def judge(rc, out, err, before, after, left):
    if rc is None:
        return "hang"
    if rc < 0 or rc not in EXITS or "Sanitizer" in err or "runtime error" in err:
        return "crash"
    if before != after or left:
        return "loss"
    text = out + err
    if ESC.search(text) or re.search(r"^redscope: FORGED", text, re.M):
        return "injection"
    says = [l for l in err.splitlines() if l.startswith("redscope: ")]
    if rc == 0 and any("error" in l or "refused" in l or "is not" in l for l in says):
        return "wrong"
    if rc not in (0, 1) and not says:
        return "wrong"
    return "clean"


def run_one(exe, name, ext, text):
    d = tempfile.mkdtemp(prefix="rs_mut_")
    p = os.path.join(d, "in" + ext)
    with open(p, "w", encoding="utf-8", errors="surrogatepass") as f:
        f.write(text)
    before = hashlib.sha256(open(p, "rb").read()).hexdigest()
    argvs = ([["allreduce", "--replay", p, "--algo", "all"]] if ext == ".json" else
             [["recording", p], ["ladder", "--replay", p], ["ladder", "--replay", p, "--format", "csv"],
              ["ladder", "--replay", p, "--format", "json"]])
    results = []
    for argv in argvs:
        try:
            c = subprocess.run([exe, *argv], capture_output=True, timeout=TIMEOUT, cwd=d,
                               env={**os.environ, "LC_ALL": "C.UTF-8"})
            rc, out, err = c.returncode, c.stdout.decode("utf-8", "replace"), c.stderr.decode(
                "utf-8", "replace")
        except subprocess.TimeoutExpired:
            rc, out, err = None, "", ""
        after = hashlib.sha256(open(p, "rb").read()).hexdigest() if os.path.exists(p) else "gone"
        left = sorted(set(os.listdir(d)) - {"in" + ext})
        results.append((" ".join(argv[:2]), rc, judge(rc, out, err, before, after, left),
                        err.strip()[:200]))
    for f in os.listdir(d):
        os.remove(os.path.join(d, f))
    os.rmdir(d)
    return name, results


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--exe", default=os.path.join(ROOT, "build", "redscope"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--count", action="store_true", help="count the inputs, run nothing")
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    todo = list(inputs(rnd))
    if a.limit:
        rnd.shuffle(todo)  # a sample of every recording, not the first file's
        todo = todo[:a.limit]
    if a.count:
        print(len(todo))
        return 0
    counts, bad = {}, []
    runs = 0
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        for name, results in ex.map(lambda t: run_one(a.exe, *t), todo):
            for cmd, rc, verdict, err in results:
                runs += 1
                counts[verdict] = counts.get(verdict, 0) + 1
                if verdict != "clean":
                    bad.append((verdict, name, cmd, rc, err))
    print(f"inputs {len(todo)}, runs {runs}")
    for k in ("clean", "crash", "hang", "loss", "injection", "wrong"):
        print(f"  {k:10s} {counts.get(k, 0)}")
    for b in bad[:40]:
        print("  ", b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
