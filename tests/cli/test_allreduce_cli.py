#!/usr/bin/env python3
"""redscope allreduce without a GPU: its options and refusals (bad
--gpus and --algo, NCCL missing, no GPU), and a recording of two real
H200s (conf/recordings/h200x2-allreduce.json: `redscope allreduce --gpus 2
--type float32 --algo all --range 2..2^30 --record`, 2026-11-23) replayed
as table, CSV and JSON: every point exact, busbw = algbw x 2(G-1)/G, the
latency/bandwidth crossover of each algorithm named, sizes filtered; and a
recording of one H100 with nccl-tests beside (h100-allreduce-1gpu.json:
`redscope allreduce --gpus 1 --algo all --range 8..2^28:8 --nccl-tests
.nccl-tests --record`, 2026-11-23): its time and busbw beside each NCCL
point in the table, CSV and JSON, none beside the ring by hand."""
import csv
import io
import json
import os
import re
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import Checks, run  # noqa: E402

check = Checks("test_allreduce_cli")
REC = os.path.join(os.environ["REDSCOPE_SOURCE"], "conf", "recordings", "h200x2-allreduce.json")

rc, out, err = run("allreduce", "--help")
check(rc == 0 and "--gpus N" in out and "--algo LIST" in out and "peer_ring" in out,
      f"allreduce --help: {out[:300]}")
for args, want in ((("--algo", "bogus"), "bad --algo 'bogus'"), (("--algo", ","), "bad --algo"),
                   (("--gpus", "99"),
                    "bad value '99' for --gpus: expected a whole number from 0 to 16"),
                   (("--gpus", "two"), "bad value 'two' for --gpus"),
                   (("--gpus", "-1"), "bad value '-1' for --gpus")):
    rc, out, err = run("allreduce", *args)
    check(rc == 2 and want in err, f"allreduce {' '.join(args)}: {rc} {err.strip()}")
rc, out, err = run("allreduce", "--help")
gl = out.split("  --gpus N")[1].split("\n")[0] if "  --gpus N" in out else ""
check("[1]" not in gl and "each holding the vector" in gl and "split" not in gl
      and "the mean is reported" in out,
      f"allreduce --help: --gpus as the all-reduce reads it, no one-GPU default: {out[:900]}")

rc, out, err = run("allreduce", "--gpus", "2", env={"REDSCOPE_NCCL": "/nonexistent/libnccl.so.2"})
check(rc == 3 and "NCCL not found at /nonexistent/libnccl.so.2 (REDSCOPE_NCCL)" in err,
      f"without NCCL: {rc} {err.strip()}")
drc, _, derr = run("devices")
if drc in (3, 4):  # this machine has no GPU: the command says why, as `devices` does
    rc, out, err = run("allreduce", "--gpus", "2")
    check(rc == drc and (err == derr or "no usable CUDA device" in err),
          f"without a GPU: {rc} {err.strip()} (devices: {derr.strip()})")
    with tempfile.TemporaryDirectory() as d:  # a rank 0 that fails takes its id back
        rc, out, err = run("allreduce", "--rank", "0", "--ranks", "2", "--rendezvous",
                           os.path.join(d, "id"))
        check(rc in (3, 4) and not os.listdir(d),
              f"rank 0 without a GPU leaves no rendezvous file: {rc} {os.listdir(d)}")

# one process per GPU: the three options together, a rank in range, and a wait that ends
for args, want in ((("--rank", "0", "--ranks", "2"), "--rank, --ranks and --rendezvous together"),
                   (("--rank", "2", "--ranks", "2", "--rendezvous", "/tmp/x"), "a rank from 0 to 1"),
                   (("--rank", "0", "--ranks", "0", "--rendezvous", "/tmp/x"), "bad --ranks '0'"),
                   (("--rank", "0", "--ranks", "2", "--rendezvous", "/tmp/x", "--gpus", "2"),
                    "--gpus is for one process"),
                   (("--rank", "0", "--ranks", "2", "--rendezvous", "/tmp/x", "--algo", "peer_ring"),
                    "the peer ring runs in one process")):
    rc, out, err = run("allreduce", *args)
    check(rc == 2 and want in err, f"allreduce {' '.join(args)}: {rc} {err.strip()}")
for v in ("0", "-1", "abc", "nan", ""):  # the wait's setting, checked before any wait
    rc, out, err = run("allreduce", "--rank", "1", "--ranks", "2", "--rendezvous", "/tmp/x",
                       env={"REDSCOPE_RENDEZVOUS_TIMEOUT": v}, timeout=20)
    check(rc == 2 and f"REDSCOPE_RENDEZVOUS_TIMEOUT='{v}': seconds" in err,
          f"REDSCOPE_RENDEZVOUS_TIMEOUT='{v}': {rc} {err.strip()}")
rc, out, err = run("allreduce", "--rank", "0", "--ranks", "2", "--rendezvous", "")
check(rc == 2 and "--rendezvous FILE: a path every rank can see" in err, f"--rendezvous '': {err}")
with tempfile.TemporaryDirectory() as d:
    rv = os.path.join(d, "id")
    if drc in (3, 4):  # no GPU here: every rank says so at once, none waits for rank 0
        t0 = time.time()
        rc, out, err = run("allreduce", "--rank", "1", "--ranks", "2", "--rendezvous", rv,
                           timeout=60)
        check(rc == drc and time.time() - t0 < 20 and (err == derr or "CUDA device" in err),
              f"rank 1 without a GPU fails at once, as devices does: {rc} {err.strip()}")
    else:  # a GPU: rank 1 alone waits, then says what it found
        rc, out, err = run("allreduce", "--rank", "1", "--ranks", "2", "--rendezvous", rv,
                           env={"REDSCOPE_RENDEZVOUS_TIMEOUT": "1"})
        check(rc == 7 and f"no rendezvous in {rv}.nccl after 1 s" in err,
              f"rank 1 alone: {rc} {err.strip()}")
        with open(rv + ".nccl", "wb") as f:
            f.write(b"x" * 128)
        os.utime(rv + ".nccl", (0, 0))  # a past run's file (1970): not taken for this one
        rc, out, err = run("allreduce", "--rank", "1", "--ranks", "2", "--rendezvous", rv,
                           env={"REDSCOPE_RENDEZVOUS_TIMEOUT": "1"})
        check(rc == 7 and "is older than this rank" in err,
              f"a stale rendezvous file is ignored: {rc} {err.strip()}")

rc, out, err = run("allreduce", "--replay", REC, "--algo", "all")
rows = [l.split() for l in out.splitlines() if l.split()[:1] and l.split()[0] in
        ("nccl", "ring", "tree", "peer_ring") and "GB/s" in l]
check(rc == 0 and len(rows) == 120 and all(r[-1] == "yes" for r in rows),
      f"replay: 4 algorithms x 30 sizes, every one exact ({len(rows)}) {err}")
check(out.startswith("all-reduce over 2 GPUs (NVIDIA H200), float32 sum") and "NCCL 2.28.3" in out,
      f"replay: the header: {out[:200]}")
cross = [l for l in out.splitlines() if "latency-bound up to" in l]
check(len(cross) == 4 and any(l.startswith("nccl: latency-bound up to 4 MiB") and
                              "bandwidth-bound from 8 MiB" in l for l in cross)
      and any(l.startswith("peer_ring: latency-bound up to 8 MiB") and
              "bandwidth-bound from 16 MiB" in l for l in cross),
      f"replay: each algorithm's crossover, latency-bound below bandwidth-bound: {cross}")
for rng, want in (("2^20..2^22", "nccl: bandwidth-bound over the whole range (busbw at half the "
                   "range's best or more from 4 MiB, the smallest size)"),
                  ("2..2^10", "nccl: latency-bound over the whole range (every time within 2X")):
    rc, out, err = run("allreduce", "--replay", REC, "--range", rng)
    want = want.replace("2X", "2\u00d7" if "\u00b5s" in out else "2x")  # the notation of µs
    check(rc == 0 and want in out and "latency-bound up to" not in out,
          f"a range on one side of the turn says so: {rng}: {out[-300:]} {err}")
with tempfile.TemporaryDirectory() as d:  # a replay's points, recorded again: what was shown
    again = os.path.join(d, "again.json")
    rc, out, err = run("allreduce", "--replay", REC, "--range", "2^20..2^22", "--record", again)
    rc2, out2, err2 = run("allreduce", "--replay", again) if rc == 0 else (rc, "", err)
    check(rc2 == 0 and out2 == out and len([l for l in out.splitlines() if "GB/s" in l]) == 3,
          f"--record on a replay writes the points shown: {rc} {rc2} {err2}")
rc, out, err = run("allreduce", "--replay", REC, "--gpus", "4")
check(rc == 2 and "holds an all-reduce over 2 GPUs, not 4" in err, f"--gpus 4: {rc} {err}")
rc, out, err = run("allreduce", "--replay", REC, "--gpus", "0")
check(rc == 0 and "over 2 GPUs" in out, f"--gpus 0, every GPU it ran on: {rc} {err}")
rc, out, err = run("allreduce", "--replay", "/nonexistent.json")
check(rc == 7 and "cannot open recording '/nonexistent.json': No such file" in err,
      f"missing: {err}")
for flag in ("--variant", "--variants"):
    rc, out, err = run("allreduce", flag, "vectorized")
    check(rc == 2 and err.strip() == f"redscope: 'allreduce' takes no {flag}",
          f"allreduce {flag}: no hint at an option it refuses too: {err.strip()}")

rc, out, err = run("allreduce", "--replay", REC, "--algo", "all", "--format", "csv")
pts = list(csv.DictReader(io.StringIO(out)))
check(rc == 0 and len(pts) == 120, f"csv: 120 points ({len(pts)})")
off = [p for p in pts if abs(float(p["busbw_gbps"]) - float(p["algbw_gbps"])) > 0.002]
check(not off, f"csv: busbw = algbw x 2(2-1)/2 = algbw on 2 GPUs: {off[:2]}")
big = [p for p in pts if p["bytes"] == str(4 << 30)]
check(len(big) == 4 and all(float(p["busbw_gbps"]) > 250 for p in big),
      f"csv: 4 GiB over NVLink, every algorithm above 250 GB/s busbw: {big}")

rc, out, err = run("allreduce", "--replay", REC, "--n", "2^20", "--algo", "nccl,peer_ring",
                   "--format", "json")
j = json.loads(out) if rc == 0 else {}
got = [(p["algo"], p["n"]) for p in j.get("points", [])]
check(got == [("nccl", 1 << 20), ("peer_ring", 1 << 20)] and j.get("gpus") == 2,
      f"json: one size, two algorithms: {got}")
rc, out, err = run("allreduce", "--replay", REC, "--n", "1000")
check(rc == 2 and "not in the recording" in err, f"a size not recorded: {rc} {err.strip()}")
rc, out, err = run("allreduce", "--replay", REC, "--type", "int32")
check(rc == 2 and "holds float32 sum" in err, f"another type: {rc} {err.strip()}")
with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
    f.write('{"redscope_allreduce": 1, "type": "int32", "op": "sum", "gpus": -3, "points": '
            '[{"algo": "nccl", "n": -5, "time_us": "x", "busbw_gbps": 1e300}]}')
rc, out, err = run("allreduce", "--replay", f.name)
check(rc == 7 and f"{f.name}:1: gpus is -3: expected a whole number of GPUs" in err and not out,
      f"hostile values refused, the field named: {rc} {out} {err.strip()}")
with open(f.name, "w") as g:
    g.write('{"redscope_allreduce": 1, "gpus": 2, "warmup": 3, "reps": 20, "points": []}')
rc, out, err = run("allreduce", "--replay", f.name)
check(rc == 7 and "expected an element type" in err, f"no type: {rc} {err.strip()}")
for bad, want in (("{", "was cut short"), ("[]", "is not a recording of redscope allreduce"),
                  ('{"redscope_allreduce": 2}', "is not a recording of redscope allreduce")):
    with open(f.name, "w") as g:
        g.write(bad)
    rc, out, err = run("allreduce", "--replay", f.name)
    check(rc == 7 and want in err, f"{bad!r}: {rc} {err}")
os.unlink(f.name)
with tempfile.TemporaryDirectory() as d:  # the bandwidth-vs-size chart, from the recording
    svg = os.path.join(d, "busbw.svg")
    rc, out, err = run("allreduce", "--replay", REC, "--algo", "all", "--plot", svg)
    check(rc == 0 and os.path.getsize(svg) > 1000 and "<svg" in open(svg).read()
          and "peer_ring" in open(svg).read(), f"--plot draws busbw against size: {rc} {err}")
    ticks = re.findall(r">(\d+ [KMG]?i?B)<", open(svg).read()) if rc == 0 else []
    check(ticks[:4] == ["8 B", "64 B", "512 B", "4 KiB"] and "1 GiB" in ticks
          and "kiB" not in open(svg).read(), f"--plot: sizes named as the tables name them: {ticks}")
    data = list(csv.DictReader(open(os.path.join(d, "busbw.csv")))) if rc == 0 else []
    check(len(data) == 30 and list(data[0]) == ["bytes", "nccl", "ring", "tree", "peer_ring"]
          and data[0]["bytes"] == "8" and data[-1]["bytes"] == str(4 << 30)
          and 250 < float(data[-1]["peer_ring"]) < float(data[-1]["tree"]),
          f"the chart's data: 30 sizes from 8 B to 4 GiB, busbw per algorithm: {data[-1:]}")
    # a recording's device name is text in the chart's title, never a command
    j = json.load(open(REC))
    j["device"] = "H200'; system('echo INJECTED >&2'); x='"
    odd = os.path.join(d, "odd.json")
    json.dump(j, open(odd, "w"))
    rc, out, err = run("allreduce", "--replay", odd, "--plot", os.path.join(d, "odd.svg"))
    drawn = open(os.path.join(d, "odd.svg")).read() if rc == 0 else ""
    check(rc == 0 and "INJECTED" not in err.splitlines() and "system(" in drawn,
          f"a quote in the recorded device name is drawn as text: {rc} {err}")
    # ... nor a newline in it, which would end gnuplot's line and start another
    j["device"] = "H200\nsystem(\"echo INJECTED >&2\")\nset title \"x"
    json.dump(j, open(odd, "w"))
    rc, out, err = run("allreduce", "--replay", odd, "--plot", os.path.join(d, "odd2.svg"))
    check(rc == 0 and "INJECTED" not in err.splitlines() and "\nsystem(" not in out,
          f"a newline in the recorded device name is a mark, not a line: {rc} {err} {out[:300]}")
    # a point's figures against each other: bytes from n, algbw from the time, busbw from G
    for key, value, want in (("algbw_gbps", 500.0, "points[0].algbw_gbps is 500: bytes over"),
                             ("busbw_gbps", 1.0, "points[0].busbw_gbps is 1: algbw x 2(G-1)/G"),
                             ("bytes", 12.0, "points[0].bytes is 12: n 2 of 4-byte elements")):
        j = json.load(open(REC))
        j["points"][0][key] = value
        json.dump(j, open(odd, "w"))
        rc, out, err = run("allreduce", "--replay", odd, "--algo", "all")
        check(rc == 7 and want in err and not out,
              f"{key} {value}: figures that disagree are refused: {rc} {err.strip()}")
    # one GPU: busbw is 0 by its definition, so the chart and the bounds read algbw
    one = os.path.join(os.path.dirname(REC), "h100-allreduce-1gpu.json")
    rc, out, err = run("allreduce", "--replay", one, "--plot", os.path.join(d, "one.svg"))
    data = list(csv.DictReader(open(os.path.join(d, "one.csv")))) if rc == 0 else []
    svg1 = open(os.path.join(d, "one.svg")).read() if rc == 0 else ""
    check(rc == 0 and data and all(float(r["nccl"]) > 0 for r in data)
          and "empty y range" not in err and "over 1 GPU (" in svg1 and "1 GPUs" not in svg1
          and "busbw is 0 on one GPU" in svg1,
          f"one GPU: the chart draws algbw, not a flat 0: {rc} {err} {data[:2]}")
    check("nccl: latency-bound up to" in out and "what follows reads algbw" in out,
          f"one GPU: the bounds are named, from algbw: {out[-400:]}")
    rc, out, err = run("allreduce", "--replay", REC, "--plot", os.path.join(d, "x.txt"))
    check(rc == 2 and "--plot needs a file ending in .svg or .png" in err and not out,
          f"--plot x.txt is refused before anything runs: {rc} {err}")
for args, want in ((("--replay", REC), "leave out --nccl-tests"),
                   (("--rank", "0", "--ranks", "2", "--rendezvous", "/tmp/x"),
                    "--nccl-tests runs in one process"),
                   (("--gpus", "2"), "no all_reduce_perf there")):
    rc, out, err = run("allreduce", *args, "--nccl-tests", "/nonexistent/nccl-tests")
    check(rc == 2 and want in err and err.count("\n") == 1,
          f"--nccl-tests {' '.join(args)}: {rc} {err.strip()}")
rc, out, err = run("allreduce", "--help")
check("--nccl-tests PATH" in out, f"allreduce --help names --nccl-tests: {out[-600:]}")
NT = os.path.join(os.environ["REDSCOPE_SOURCE"], "conf", "recordings", "h100-allreduce-1gpu.json")
rc, out, err = run("allreduce", "--replay", NT, "--algo", "nccl,peer_ring", "--range", "2^24,2^27")
lines = out.splitlines()
check(rc == 0 and lines[0].startswith("all-reduce over 1 GPU (NVIDIA H100")
      and "nccl-tests: time        busbw" in lines[1]
      and len(lines[1]) == len(lines[2]) == len(lines[3])  # aligned: "µ" is one column
      and lines[3].startswith("nccl ") and lines[3].endswith("359 µs    0.00 GB/s")
      and lines[4].startswith("peer_ring") and lines[4].rstrip().endswith("yes"),
      f"nccl-tests' time and busbw beside each NCCL point, none beside peer_ring: {out} {err}")
rc, out, err = run("allreduce", "--replay", NT, "--algo", "nccl,peer_ring", "--range", "2^27",
                   "--format", "csv")
rows = list(csv.DictReader(io.StringIO(out)))
check(rc == 0 and len(rows) == 2 and rows[0]["nccl_tests_time_ms"] == "0.359079"
      and rows[1]["nccl_tests_time_ms"] == "" and rows[1]["nccl_tests_busbw_gbps"] == "",
      f"CSV: nccl-tests' columns, empty for peer_ring: {out}")
rc, out, err = run("allreduce", "--replay", NT, "--algo", "nccl", "--format", "json")
pts = json.loads(out)["points"] if rc == 0 else []
check(len(pts) == 9 and all(p["nccl_tests_time_ms"] > 0 and "nccl_tests_busbw_gbps" in p
                            for p in pts), f"JSON keeps nccl-tests' figures: {pts[:2]}")
rc, out, err = run("allreduce", "--replay", REC, "--algo", "nccl", "--range", "2^20")
check(rc == 0 and "nccl-tests" not in out and "NVLink out" not in out,
      f"no nccl-tests or NVLink column where neither was read: {out}")
rc, out, err = run("allreduce", "--replay", "/nonexistent.json")
check(rc == 7 and "cannot open recording '/nonexistent.json'" in err,
      f"no such file: {rc} {err.strip()}")
rc, out, err = run("allreduce", "--replay", os.path.dirname(REC))
check(rc == 7 and "is a directory: give a recording file" in err, f"a directory: {rc} {err}")
check.finish()
