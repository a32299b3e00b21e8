#!/usr/bin/env python3
"""Every example runs as written: the lines under "Examples:" in
`redscope --help` and in every `redscope COMMAND --help`, and every redscope
command in README.md's sh blocks. They run in a temporary folder that sees
the source tree's conf/, with a temporary XDG_CONFIG_HOME, so what they
write stays there. Without a GPU a GPU command must say so (exit 3 or 4),
never fail on its arguments (2) or crash; commands that need no GPU (the
listings, help, cpu-only runs, --replay) exit 0 (9 where a --check finds
the race it shows); explorer examples start
in a real terminal (tmux) and quit on q."""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import EXE, Checks, run  # noqa: E402
from tuitest import Tmux  # noqa: E402

SRC = os.environ["REDSCOPE_SOURCE"]
check = Checks("test_examples")
rc_devices, devices_json, _ = run("devices", "--format", "json")
have_gpu = rc_devices == 0
gpu_count = len(__import__("json").loads(devices_json)) if have_gpu else 0
check(rc_devices in (0, 3, 4), f"redscope devices: exit {rc_devices}, not 0, 3 or 4")
NO_GPU_NEEDED = {"variants", "metrics", "presets", "help", "compile", "recording", "diff",
                 "--version"}


def examples(text):
    """The commands under "Examples:": each ends at a run of 3 spaces (its note)."""
    if "Examples:" not in text:
        return []
    lines = text.split("Examples:", 1)[1].split("\n\n", 1)[0].splitlines()
    return [re.split(r"\s{3,}", l.strip())[0] for l in lines if l.strip().startswith("redscope")]


def from_help():
    rc, out, _ = run("--help")
    check(rc == 0, "redscope --help")
    cmds = examples(out)
    check(len(cmds) >= 3, "the help has examples")
    listed = out.split("commands:", 1)[1].split("\n\n", 1)[0] if "commands:" in out else ""
    commands = [l.split()[0] for l in listed.splitlines() if l.strip()]
    check(len(commands) >= 8, f"the help lists the commands: {commands}")
    for command in commands:
        rc, out, err = run(command, "--help")
        check(rc == 0 and "usage:" in out, f"redscope {command} --help: {rc} {err!r}")
        cmds += examples(out)
    return cmds


def from_readme():
    text = open(os.path.join(SRC, "README.md")).read()
    cmds = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.splitlines():
            line = line.split("#", 1)[0].strip()
            if line.startswith("redscope"):
                cmds.append(line)
    check(len(cmds) >= 5, "the README has redscope examples")
    return cmds


def option(args, *names):
    """The value of the last of these options in args (--x V or --x=V), or None."""
    value = None
    for i, a in enumerate(args):
        for name in names:
            if a == name and i + 1 < len(args):
                value = args[i + 1]
            elif a.startswith(name + "="):
                value = a.split("=", 1)[1]
    return value


def needs_gpu(args):
    if args[0] in NO_GPU_NEEDED or "--replay" in args:
        return False
    if args[0] == "run":
        return option(args, "--variant", "-v") != "cpu"
    if args[0] in ("ladder", "sweep"):
        return option(args, "--variants", "-V") != "cpu"
    return True


def explorer(cmd, cwd):
    args = shlex.split(cmd)[1:]
    t = Tmux(f"cd {shlex.quote(cwd)} && {EXE} {' '.join(map(shlex.quote, args))}", cols=100,
             rows=30, env={"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color",
                           "XDG_CONFIG_HOME": cwd})
    try:
        s = t.wait_for("Ladder", 20)
        check(s is not None and "redscope" in s, f"{cmd}: the explorer starts")
        t.keys("q")
        code = t.exit_code(20)
        if code is None:  # a run may be going on: q asks first
            t.keys("q")
            code = t.exit_code(20)
        check(code == 0, f"{cmd}: quits with 0, got {code}")
    finally:
        t.close()


def present(cmd, cwd):
    """redscope present opens its deck (live without a GPU: its slides say
    each step runs when it opens); --notes waits for one; q and Ctrl-C end."""
    args = shlex.split(cmd)[1:]
    t = Tmux(f"cd {shlex.quote(cwd)} && {EXE} {' '.join(map(shlex.quote, args))}", cols=100,
             rows=30, env={"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color",
                           "XDG_CONFIG_HOME": cwd, "XDG_RUNTIME_DIR": cwd})
    try:
        notes = "--notes" in args
        s = t.wait_for("waiting for a deck" if notes else "The reduction ladder", 30)
        check(s is not None, f"{cmd}: {'the notes wait' if notes else 'the deck opens'}",
              t.screen())
        if notes:  # as Ctrl-C would, without killing the shell that records its status
            subprocess.run(["pkill", "-TERM", "-f", f"^{EXE} present --notes"])
        else:
            t.keys("q")
        code = t.exit_code(20)
        if code is None and not notes:  # a run may be going on: q asks first
            t.keys("q")
            code = t.exit_code(20)
        check(code == 0, f"{cmd}: ends with 0, got {code}")
    finally:
        t.close()


def batch(cmd, cwd):
    args = shlex.split(cmd)[1:]
    p = subprocess.run([EXE, *args], cwd=cwd, capture_output=True, text=True, timeout=900,
                       env=dict(os.environ, XDG_CONFIG_HOME=cwd))
    if "--plot" in args and not shutil.which("gnuplot") and os.environ.get("RS_GPU_MACHINE"):
        # the lent GPU machine has no gnuplot and installs nothing (device.md):
        # there the refusal is what a user sees, said before any work
        check(p.returncode == 7 and "gnuplot" in p.stderr,
              f"{cmd}: without gnuplot says so before measuring: {p.stderr!r}")
    elif "--plot" in args and not shutil.which("gnuplot"):
        # elsewhere gnuplot is a dependency the set-up installs: its absence fails
        check(False, f"{cmd}: gnuplot is not installed (build.sh test installs gnuplot-nox)")
    elif args[0] in ("allreduce", "run", "ladder", "sweep") and needs_gpu(args) and have_gpu and \
            int(option(args, "--gpus") or 0) > gpu_count:
        # an example for more GPUs than this machine has: it says how many it needs
        check(p.returncode == 4 and "this machine has" in p.stderr,
              f"{cmd}: on {gpu_count} GPU(s) says what it needs: {p.returncode} {p.stderr!r}")
    elif needs_gpu(args) and not have_gpu:
        check(p.returncode in (3, 4) and p.stderr.startswith("redscope: "),
              f"{cmd}: without a GPU exits 3 or 4 and says why, got {p.returncode} {p.stderr!r}")
    elif "--check" in args and option(args, "--variant", "-v") == "unroll_warp_volatile":
        # the README's point: racecheck finds the volatile unroll's race (exit 9)
        check(p.returncode == 9 and "race" in p.stdout.lower(),
              f"{cmd}: finds the race, exit 9: {p.returncode} {p.stderr!r}")
    else:
        check(p.returncode == 0, f"{cmd}: exit {p.returncode} {p.stderr!r}")


def main():
    cwd = tempfile.mkdtemp(prefix="rs_examples_")
    os.symlink(os.path.join(SRC, "conf"), os.path.join(cwd, "conf"))
    try:
        for cmd in from_help() + from_readme():
            first = shlex.split(cmd)[1:2]
            if not first or (first[0].startswith("-") and first[0] != "--version") or \
                    first[0] == "explore":
                explorer(cmd, cwd)
            elif first[0] == "present" and "--export" not in cmd:
                present(cmd, cwd)
            else:
                batch(cmd, cwd)
    finally:
        shutil.rmtree(cwd, ignore_errors=True)
    check.finish()


main()
