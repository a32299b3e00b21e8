#!/usr/bin/env python3
"""The newcomer trials' points on the command line, from the shipped
recordings of real GPUs (issue 40): each sentence a user reads is true
where it is read, and what a script reads agrees with itself."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import Checks, run  # noqa: E402

check = Checks("test_trial")
RECS = os.path.join(os.environ["REDSCOPE_SOURCE"], "conf", "recordings")
DEMO = os.path.join(RECS, "h200-demo.jsonl")

# 5. A WRONG that is the arithmetic's says why: atomic's float32 running sum
# stops at 2^24 (recorded on an H200 at n 2^28), in run, the ladder and JSON.
ATOMIC = ("--replay", DEMO, "--type", "float32", "--n", "2^28")
rc, out, err = run("run", *ATOMIC, "--variant", "atomic")
check(rc == 1 and "WRONG" in out and "why: the float32 running sum stopped at 2^24" in out,
      f"run atomic float32 2^28: the reason under WRONG: {rc} {out[:900]} {err}")
rc, out, err = run("ladder", *ATOMIC)
check(rc == 1 and "atomic WRONG: the float32 running sum stopped at 2^24" in out,
      f"ladder float32 2^28: the reason under the table: {rc} {out[-900:]}")
check(out.count("WRONG:") == 1, f"ladder: only the wrong row has a reason: {out[-900:]}")
rc, out, err = run("run", *ATOMIC, "--variant", "atomic", "--format", "json")
j = json.loads(out) if out.strip().startswith("{") else {}
check(rc == 1 and "2^24" in j.get("wrong_reason", ""), f"run --format json: wrong_reason: {out[:300]}")
rc, out, err = run("run", "--replay", DEMO, "--type", "float32", "--n", "2^24", "--variant",
                   "atomic", "--format", "json")
check(rc == 0 and "wrong_reason" not in out, f"a right result has no wrong_reason: {rc} {out[:200]}")

check.finish()
