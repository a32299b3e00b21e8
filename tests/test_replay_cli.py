#!/usr/bin/env python3
"""Replaying recordings a user may have edited, cut or mixed up, without a
GPU: every recorded figure checked for its type and range (the file, line
and field named), binary files called binary, an all-reduce recording sent
to the command that reads it, and a replay that finds nothing asked for
said so with exit 2."""
import atexit
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from clitest import Checks, run  # noqa: E402

check = Checks("test_replay_cli")
RECS = os.path.join(os.environ["REDSCOPE_SOURCE"], "conf", "recordings")
DEMO = os.path.join(RECS, "h200-demo.jsonl")
AR = os.path.join(RECS, "h200x2-allreduce.json")
TMP = tempfile.mkdtemp(prefix="rs_replay_")
atexit.register(shutil.rmtree, TMP, True)


def demo_row():
    """The header and the recorded int32 sequential row at 2^24 of the demo."""
    lines = open(DEMO, encoding="utf-8").read().splitlines()
    for line in lines[1:]:
        j = json.loads(line)
        if j.get("request", {}).get("variant") == "sequential" and "time_ms" in j:
            return lines[0], j
    raise SystemExit("no sequential row in " + DEMO)


def write(name, text, mode="w"):
    path = os.path.join(TMP, name)
    with open(path, mode) as f:
        f.write(text)
    return path


HEADER, ROW = demo_row()


def edited(name, change):
    """A copy of the demo's header and sequential row, the row changed."""
    j = json.loads(json.dumps(ROW))
    change(j)
    return write(name, HEADER + "\n" + json.dumps(j) + "\n")


def replay_run(path, *extra):
    return run("run", "--variant", "sequential", "--replay", path, *extra)


# 1. a recorded figure of the wrong type or out of range is refused, line and field named
rc, out, err = replay_run(edited("same.jsonl", lambda j: None))
check(rc == 0 and "87.9 µs median" in out, f"the row as recorded replays: {rc} {err}")
BAD = (("median_text", lambda j: j["time_ms"].update(median="fast"), 'time_ms.median is "fast"'),
       ("median_zero", lambda j: j["time_ms"].update(median=0), "time_ms.median is 0"),
       ("median_huge", lambda j: j["time_ms"].update(median=1e308), "time_ms.median is 1e+308"),
       ("no_time", lambda j: j.pop("time_ms"), "time_ms is missing"),
       ("reps_zero", lambda j: j["time_ms"].update(reps=0), "time_ms.reps is 0"),
       ("correct_text", lambda j: j.update(correct="yes"), 'correct is "yes"'),
       ("bad_reps", lambda j: j.update(bad_reps=21), "bad_reps is 21"),
       ("grid_text", lambda j: j.update(grid="x"), 'grid is "x"'))
for name, change, want in BAD:
    path = edited(name + ".jsonl", change)
    rc, out, err = replay_run(path)
    check(rc == 7 and f"{path}:2: {want}: expected" in err and out == "",
          f"{name}: refused with line and field: {rc} {err.strip()} {out[:200]}")
rc, out, err = run("ladder", "--replay", edited("ladder_text.jsonl",
                                                lambda j: j["time_ms"].update(max="slow")))
check(rc == 7 and ':2: time_ms.max is "slow"' in err, f"ladder: {rc} {err.strip()}")
# a recorded failure keeps loading; its status must be a failure's
failed = {"request": ROW["request"], "status": 2, "error": "refused here", "command": "run"}
rc, out, err = replay_run(write("failed.jsonl", HEADER + "\n" + json.dumps(failed) + "\n"))
check(rc == 2 and "refused here" in err, f"a recorded refusal replays: {rc} {err.strip()}")
failed["status"] = 0
rc, out, err = replay_run(write("status0.jsonl", HEADER + "\n" + json.dumps(failed) + "\n"))
check(rc == 7 and ":2: status is 0: expected an exit status" in err, f"status 0: {rc} {err}")
for name in sorted(os.listdir(RECS)):  # every shipped recording still loads
    if name.endswith(".jsonl"):
        rc, out, err = run("ladder", "--replay", os.path.join(RECS, name))
        check(rc in (0, 1, 2) and "expected" not in err, f"{name} loads: {rc} {err.strip()}")

# 2. a binary file is not "an empty recording" nor an empty preset
for name, data, what in (("bin.jsonl", b"\x00\x01\x02", "a NUL byte"),
                         ("latin1.jsonl", HEADER.encode() + b"\n{\"caf\xe9\": 1}\n",
                          "bytes that are not UTF-8")):
    path = write(name, data, "wb")
    line = 1 if name == "bin.jsonl" else 2
    rc, out, err = replay_run(path)
    check(rc == 7 and f"{path}:{line}: not a text recording: the line holds {what}" in err,
          f"{name}: {rc} {err.strip()}")
    rc, out, err = run("ladder", "--replay", path)
    check(rc == 7 and "not a text recording" in err and "empty" not in err,
          f"ladder {name}: {rc} {err.strip()}")
path = write("bin.ini", b"\x00\x01\x02", "wb")
rc, out, err = run("run", "--variant", "cpu", "--n", "2^10", "--preset", path)
check(rc == 2 and f"{path}:1: not a text preset: the line holds a NUL byte" in err and out == "",
      f"binary preset: {rc} {err.strip()} {out[:100]}")
path = write("latin1.ini", b"[run]\nn = 2^10\n; caf\xe9\n", "wb")
rc, out, err = run("run", "--variant", "cpu", "--preset", path)
check(rc == 2 and f"{path}:3: not a text preset: the line holds bytes that are not UTF-8" in err,
      f"latin-1 preset: {rc} {err.strip()}")
path = write("utf8.ini", "[preset]\nnote = café µs\n[run]\nn = 2^10\n")
rc, out, err = run("run", "--variant", "cpu", "--preset", path)
check(rc == 0, f"a UTF-8 preset still reads: {rc} {err.strip()}")

check.finish()
