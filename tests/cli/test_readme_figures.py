#!/usr/bin/env python3
"""Every figure README.md quotes from a shipped recording is what redscope
prints from that recording (issue 40 point 7): the opening screenshot,
the hottest lines and their shares, the sampling periods, the diff
examples, the energy and two-GPU figures, a racecheck's count, and the
--format lists against every command's --help. Each figure is read from
the README's own words, so an edit of either side that drifts fails here.
No GPU: everything comes from conf/recordings/."""
import json
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import EXE, Checks, run  # noqa: E402
from tuitest import UTF8, Tmux  # noqa: E402

SRC = os.environ["REDSCOPE_SOURCE"]
check = Checks("test_readme_figures")
with open(os.path.join(SRC, "README.md"), encoding="utf-8") as f:
    TEXT = f.read()
# the prose as one line: no line breaks, no "#" of a heading or a comment
FLAT = " ".join(re.sub(r"^#+ ?", "", TEXT, flags=re.M).split())
ENV = dict(UTF8)  # the figures as a UTF-8 terminal shows them: ×, µs, →


def said(pattern, what):
    """The README's match of pattern (on the prose as one line), or None
    with a failure that says which statement is gone."""
    m = re.search(pattern, FLAT)
    check(m is not None,
          f"README: no sentence {what} (/{pattern}/): the test reads its figures there")
    return m


def rs(*args):
    rc, out, err = run(*args, env=ENV, cwd=SRC)
    check(rc == 0, f"redscope {' '.join(args)}: exit {rc} {err.strip()[:300]}")
    return out


def flat(text):
    return " ".join(text.split())


def rec(name):
    """A recording the README names, in the source tree."""
    path = os.path.join(SRC, name if name.startswith("conf/") else "conf/recordings/" + name)
    check(os.path.isfile(path), f"README names {name}: it is not in conf/recordings")
    return path


def same(readme, tool, what, source="the recording"):
    check(readme == tool, f"README says {what} {readme}, {source} gives {tool}")


# ---- the opening screenshot: the explorer's top lines, as the caption says --------------
def screenshot():
    m = said(r"the top of it at (\d+)x(\d+) replaying `([^`]+)`", "naming the screenshot's size "
             "and recording")
    block = re.search(r"\n```\n( redscope .*?)```\n", TEXT, re.S)
    check(block is not None, "README: the screenshot block ( redscope ...) after the title")
    if not (m and block):
        return
    shot = block.group(1).rstrip("\n").split("\n")
    cols, rows = int(m.group(1)), int(m.group(2))
    home = tempfile.mkdtemp(prefix="rs_readme_")
    t = Tmux(f"{EXE} --replay {rec(m.group(3))}", cols=cols, rows=rows,
             env=dict(UTF8, XDG_CONFIG_HOME=home))
    try:
        s = t.wait_quiet("reps", 20) or t.screen()
    finally:
        t.close()
        shutil.rmtree(home, ignore_errors=True)
    screen = [l.rstrip() for l in s.split("\n")]
    for i, line in enumerate(shot):
        got = screen[i] if i < len(screen) else ""
        check(line.rstrip() == got, f"screenshot line {i + 1}: README\n  {line.rstrip()!r}\n"
              f"the explorer at {cols}x{rows} on {m.group(3)} shows\n  {got!r}", s)


# ---- what the demo recording holds -------------------------------------------------------
def demo_contents():
    demo = rec("h200-demo.jsonl")
    configs = json.loads(rs("recording", demo, "--format", "json") or "[]")
    sampled = [c for c in configs if c["stall_views"] > 0]
    for m in re.finditer(r"a stall view of every step but (\w+)", FLAT):
        lecture = [c for c in sampled if c["n_min"] == 2 ** 24]
        check(len(lecture) == 2 and all(c["rows"] - c["stall_views"] == 1 for c in lecture),
              f"README: every step but {m.group(1)} has a stall view: {sampled}")
        for c in lecture:
            out = rs("ladder", "--replay", demo, "--type", c["type"], "--stalls")
            check(f"{m.group(1)}'s kernels are not sampled" in out,
                  f"{c['type']} ladder: {m.group(1)} is the step without a view")
    check(len(re.findall(r"a stall view of every step but", FLAT)) == 2,
          "README: the Start paragraph and the recordings table say which step has no view")
    m = said(r"a ladder samples its (\d+) steps", "on the steps a ladder samples")
    if m:
        same(int(m.group(1)), sampled[0]["stall_views"] if sampled else None, "a ladder samples")


# ---- the ladder's table and its counter --------------------------------------------------
def ladder_table():
    m = said(r"table fits (\d+) columns.*?\(`([^`]+)` on (\w+) in `([^`]+)`", "on the ladder's "
             "width and the counter on a step")
    if not m:
        return
    out = rs("ladder", "--replay", rec(m.group(4)))
    widest = max(len(l) for l in out.splitlines())
    check(widest <= int(m.group(1)),
          f"ladder table {widest} columns, README says it fits {m.group(1)}")
    row = next((l for l in out.splitlines() if re.match(rf"\s*\d+\s+{m.group(3)}\s", l)), "")
    check(row.endswith(m.group(2)),
          f"README quotes `{m.group(2)}` on {m.group(3)}; its row: {row!r}")


# ---- racecheck from the checks recording -------------------------------------------------
def race():
    m = said(r"`(conf/recordings/[^`]+)` does for .*? at n (\S+) \(`(\w+)`: ([\d,]+) hazards on "
             r"lines (\d+)–(\d+), exit (\d+)\)", "on the recorded race check")
    if not m:
        return
    rc, out, err = run("run", "--variant", m.group(3), "--n", m.group(2), "--check", "race",
                       "--replay", rec(m.group(1)), env=ENV)
    same(int(m.group(7)), rc, f"{m.group(3)}'s recorded check exits")
    said_hazards = f"{m.group(4)} hazards on lines {m.group(5)}–{m.group(6)} of classic.cu"
    check(said_hazards in out, f"README: {said_hazards!r}; the replay says: {out[-300:]!r}")


# ---- stall views of the demo recording -------------------------------------------------
def stall_view(recording, variant, *more):
    """{location: (share, marked hottest, text, next line)} of a run's stall view, and the text."""
    out = rs("run", "--replay", recording, "--variant", variant, "--n", "2^24", "--stalls", *more)
    lines = out.split("\n")
    view = {}
    for i, l in enumerate(lines):
        v = re.match(r"^(>?)\s+(\S+\.cu[h]?:\d+)\s+([\d.]+)%\s+(.*)$", l)
        if v and v.group(2) not in view:
            view[v.group(2)] = (v.group(3), v.group(1) == ">", v.group(4),
                                lines[i + 1].strip() if i + 1 < len(lines) else "")
    return view, out


def hottest(view):
    return next(((loc, v) for loc, v in view.items() if v[1]), (None, ("", False, "", "")))


def hottest_lines():
    m = said(r"On an H200 at n 2\^24 \(`([^`]+)`\)", "naming the stall views' recording")
    if not m:
        return
    demo = rec(m.group(1))
    m = said(r"interleaved's hottest line is its `([^`]+)` tree step \((\d+)% of the samples\)",
             "on interleaved's hottest line")
    if m:
        loc, (share, _, text, _) = hottest(stall_view(demo, "interleaved")[0])
        check(m.group(1) in text, f"interleaved's hottest line {loc} is {text!r}, not {m.group(1)}")
        same(m.group(2), f"{float(share or 'nan'):.0f}", "interleaved's hottest line holds (%)")
    m = said(r"sequential's is its load, `(\S+)` \(([\d.]+)%, (\d+)% of it waiting for global "
             r"memory\), ahead of its tree step \(`(\S+)`, ([\d.]+)%\) and its tree loop's waits "
             r"at `__syncthreads\(\)` \(`(\S+)`, ([\d.]+)%\)", "on sequential's lines")
    if m:
        view, _ = stall_view(demo, "sequential")
        loc, (share, _, text, why) = hottest(view)
        same(m.group(1), loc, "sequential's hottest line is")
        same(m.group(2), share, f"sequential's hottest line {loc} holds (%)")
        check("load_one" in text and why.startswith(f"{m.group(3)}% waiting for global memory"),
              f"README: {loc} is the load, {m.group(3)}% waiting for global memory: "
              f"{text!r} {why!r}")
        for at, pct, what in ((4, 5, "tree step"), (6, 7, "tree loop's barrier")):
            v = view.get(m.group(at), ("-", False, "", ""))
            same(m.group(pct), v[0], f"sequential's {what} {m.group(at)} holds (%)")
        barrier = view.get(m.group(6), ("", False, "", ""))[3]
        check("waiting at __syncthreads" in barrier.split(",")[0],
              f"README: {m.group(6)} waits at __syncthreads(); its top reason: {barrier!r}")
    m = said(r"vectorized waits for its 16-byte loads \((\d+)% of the samples\)",
             "on vectorized's loads")
    view, out = stall_view(demo, "vectorized")
    if m:
        check(f"waits      {m.group(1)}% of the samples wait for the 16-byte global loads" in out,
              f"README: {m.group(1)}% of vectorized's samples wait for its 16-byte loads: "
              f"{[l for l in out.splitlines() if l.startswith('waits')]}")
    # the two quotes of a stall view the README explains its lines with
    for q in re.findall(r'\("((?:inside|wait for the) [^"]+)"\)', FLAT):
        check(q in flat(out), f"README quotes \"{q}\": vectorized's view in {demo} has not")
    m = said(r'(\w+) against (\w+) in `([^`]+)`: "([^"]+)"', "quoting a stall view against another")
    if m:
        _, out = stall_view(rec(m.group(3)), m.group(1), "--against", m.group(2))
        change = next((l for l in out.splitlines() if l.startswith("change")), "")
        check(m.group(4) in flat(change), f"README quotes \"{m.group(4)}\"; the tool: {change!r}")


# ---- sampling periods ------------------------------------------------------------------
def periods(recording):
    """The period every stall view of a recording says it sampled at ("2^14")."""
    said_, variants = set(), []
    for c in json.loads(rs("recording", recording, "--format", "json") or "[]"):
        if not c["stall_views"]:
            continue
        out = rs("ladder", "--replay", recording, "--type", c["type"], "--n", str(c["n_min"]),
                 "--block", str(c["block"]), "--stalls", "--format", "json")
        for r in json.loads(out or '{"rows": []}')["rows"]:
            s = r.get("stalls") or {}
            if s.get("valid"):
                said_.add(f"2^{5 + s['period']}")
                variants.append(r["request"]["variant"])
    # and the words a user reads, on the first step of them
    if variants:
        variant = variants[0]
        text = rs("run", "--replay", recording, "--variant", variant, "--stalls")
        shown = re.search(r"one every (2\^\d+) cycles", text)
        check(shown and shown.group(1) in said_,
              f"{variant}'s view says {shown and shown.group(0)}, its JSON {said_}")
    return said_


def sampling_period():
    m = said(r"at least 2\^(\d+) cycles \(`([^`]+)`'s stall views; `([^`]+)` and `([^`]+)` "
             r"were recorded before that floor, and their views say 2\^(\d+)\)",
             "on the sampling period")
    if not m:
        return
    demo = periods(rec(m.group(2)))
    least = min((int(p[2:]) for p in demo), default=None)
    same(int(m.group(1)), least, f"the period of {m.group(2)}'s views is at least 2^")
    for name in (m.group(3), m.group(4)):
        same({f"2^{m.group(5)}"}, periods(rec(name)), f"{name}'s views sample at")


# ---- diff examples -----------------------------------------------------------------------
def diff_rows(a, b):
    out = rs("diff", rec(a), rec(b))
    rows = re.findall(r"^(\S+) int32 sum 2\^24 b256 .*?×([\d.]+)\s+(faster|same|slower)[ \t]*(.*)$",
                      out, re.M)
    return rows, out


def diff_examples():
    m = said(r"the steps up to (\w+) gain (\d+)-(\d+)%, the bandwidth-bound ones from (\w+) "
             r"(\d+)-(\d+)% redscope diff (\S+) (\S+)", "on the H100 against the H200")
    if m:
        rows, out = diff_rows(m.group(7), m.group(8))
        names = [r[0] for r in rows]
        ok = m.group(1) in names and m.group(4) in names
        check(ok, f"diff: {m.group(1)} and {m.group(4)} among its rows: {names}")
        if ok:
            gain = [round((float(r[1]) - 1) * 100) for r in rows]
            tree = gain[:names.index(m.group(1)) + 1]
            bound = gain[names.index(m.group(4)):]
            same(f"{m.group(2)}-{m.group(3)}%", f"{min(tree)}-{max(tree)}%",
                 f"the steps up to {m.group(1)} gain")
            same(f"{m.group(5)}-{m.group(6)}%", f"{min(bound)}-{max(bound)}%",
                 f"the steps from {m.group(4)} gain")
    m = said(r"mine\.cu ×([\d.]+) faster, its shared loads' bank conflicts gone and their "
             r"wavefronts ÷(\d+), a new stall line; (\w+) and (\w+), unchanged, the same within "
             r"their spread redscope diff (\S+) (\S+)", "on mine.cu before and after")
    if m:
        rows, out = diff_rows(m.group(5), m.group(6))
        by = {r[0]: r for r in rows}
        mine = by.get("mine.cu", ("", "", "", ""))
        same(f"×{m.group(1)} faster", f"×{mine[1]} {mine[2]}", "mine.cu is")
        check("bank ld to 0" in mine[3] and f"wavefr ld ÷{m.group(2)}" in mine[3],
              f"README: bank conflicts gone, wavefronts ÷{m.group(2)}; diff: {mine[3]!r}")
        check(re.search(r"mine\.cu:\d+ .* is new, with", out), "diff: mine.cu's new stall line")
        for v in (m.group(3), m.group(4)):
            same("same", by.get(v, ("", "", "-"))[2], f"{v}'s verdict is")


# ---- energy ------------------------------------------------------------------------------
def energy_rows(*args):
    out = rs(*args, "--energy", "--format", "json")
    rows = json.loads(out or '{"rows": []}')["rows"]
    return {(r["request"]["variant"], r["request"]["n"]): r for r in rows if r.get("energy")}


def near(readme, value):
    """Whether value, rounded to the README's digits, is the README's figure."""
    digits = len(readme.split(".")[1]) if "." in readme else 0
    return f"{value:.{digits}f}" == readme


def energy():
    m = said(r"--replay (\S+) --n 2\^28 --energy", "with the energy recording")
    if not m:
        return
    er = rec(m.group(1))
    ladder = energy_rows("ladder", "--replay", er, "--n", "2^28")
    sweep = energy_rows("sweep", "--replay", er)
    e = {k: r["energy"] for k, r in ladder.items()}
    m = said(r"every (\d+) ms on an H100", "on the counter's interval")
    if m:
        shown = {f"{r['energy_interval_ms']:.0f}" for r in e.values()}
        same({m.group(1)}, shown, "the 2^28 ladder's counter changes every (ms)")
    m = said(r"four intervals apart \(([\d.]+)-([\d.]+) s", "on how long energy is measured")
    if m:
        w = [r["energy"]["energy_window_ms"] / 1000 for r in (*ladder.values(), *sweep.values())]
        check(w and m.group(1) == f"{min(w):.1f}" and m.group(2) == f"{max(w):.1f}",
              f"README: measured over {m.group(1)}-{m.group(2)} s; the recording: "
              f"{min(w or [0]):.3f}-{max(w or [0]):.3f} s")
    v = {n: r["energy"]["j_per_gb"] for (name, n), r in sweep.items() if name == "vectorized"}
    m = said(r"\(2\^(\d+) int32 on an H100: vectorized ([\d.]+) J per GB against ([\d.]+) at "
             r"2\^(\d+)\)", "on the L2's cheap GB")
    if m:
        for n, j in ((m.group(1), m.group(2)), (m.group(4), m.group(3))):
            check(near(j, v.get(2 ** int(n), -1)), f"README: vectorized {j} J/GB at 2^{n}; "
                  f"the sweep: {v.get(2 ** int(n))}")
    m = said(r"each GB costs more \(([\d.]+) J at 2\^(\d+)\)", "on the launches' dear GB")
    if m:
        n = 2 ** int(m.group(2))
        check(near(m.group(1), v.get(n, -1)),
              f"README: {m.group(1)} J/GB at 2^{m.group(2)}; the sweep: {v.get(n)}")
    m = said(r"the atomic step spends ([\d.]+) J per GB at (\d+) W; the tree's first step is "
             r"([\d.]+) times faster and spends about the same, ([\d.]+) J, because it draws "
             r"([\d.]+) times the power \((\d+) W\); vectorized spends ([\d.]+) J at (\d+) W\. "
             r"Past the first step the power stays within (\d+)-(\d+) W while the time falls "
             r"(\d+)-fold", "on the 2^28 ladder's energy")
    n = 2 ** 28
    rows = [r for (name, k), r in ladder.items() if k == n]
    if not (m and len(rows) >= 14):
        check(m is None, f"the 2^28 ladder with energy: {len(rows)} rows")
        return
    at, tree, vec = (ladder[(x, n)] for x in ("atomic", "interleaved", "vectorized"))
    t = {r["request"]["variant"]: r["time_ms"]["median"] for r in rows}
    past = [r["energy"]["power_w"] for r in rows if r is not at]
    figures = (
        (m.group(1), at["energy"]["j_per_gb"], "atomic J/GB"),
        (m.group(2), at["energy"]["power_w"], "atomic W"),
        (m.group(3), t["atomic"] / t["interleaved"], "interleaved's speedup"),
        (m.group(4), tree["energy"]["j_per_gb"], "interleaved J/GB"),
        (m.group(5), tree["energy"]["power_w"] / at["energy"]["power_w"], "the power ratio"),
        (m.group(6), tree["energy"]["power_w"], "interleaved W"),
        (m.group(7), vec["energy"]["j_per_gb"], "vectorized J/GB"),
        (m.group(8), vec["energy"]["power_w"], "vectorized W"),
        (m.group(9), min(past), "the least W past atomic"),
        (m.group(10), max(past), "the most W past atomic"),
        (m.group(11), t["interleaved"] / min(t.values()), "the time's fall from interleaved"))
    for readme, value, what in figures:
        check(near(readme, value), f"README says {what} {readme}, the recording gives {value:.4g}")


# ---- two GPUs ----------------------------------------------------------------------------
def two_gpus():
    m = said(r"redscope (ladder(?: (?!redscope)\S+)*) ``` The last line replays .*? the best "
             r"finish \((\w+)\) at 2\^30 took (\d+) µs against (\d+) µs on one GPU, ×([\d.]+) the "
             r"ideal (\d+) µs", "on the ladder over two H200s")
    if not m:
        return
    args = m.group(1).split()
    args[-1] = rec(args[-1])
    out = rs(*args)
    line = (f"1 GPU {m.group(4)} µs; over 2 GPUs the best finish ({m.group(2)}) {m.group(3)} µs, "
            f"×{m.group(5)} the ideal {m.group(6)} µs")
    check(line in out, f"README: {line!r}; the replay: {out.splitlines()[-4:]}")
    m = said(r"`(h200x2-allreduce\.json)` \| the all-reduce over two H200s, (\d+ \w+) to "
             r"(\d+ \w+), (\w+) algorithms \(([^)]+)\)", "on the all-reduce recording")
    if m:
        out = rs("allreduce", "--replay", rec(m.group(1)), "--algo", "all")
        rows = re.findall(r"^(\w+)\s+(\d+ [KMG]?i?B)\s+[\d,]+\s", out, re.M)
        algos = list(dict.fromkeys(r[0] for r in rows))
        sizes = [r[1] for r in rows]
        same(m.group(5).split(", "), algos, "the all-reduce's algorithms are")
        same(m.group(4), {4: "four"}.get(len(algos), str(len(algos))), "the algorithms number")
        same(f"{m.group(2)} to {m.group(3)}", f"{sizes[0]} to {sizes[-1]}" if sizes else "",
             "the all-reduce's sizes run")
    m = said(r"`(h100-allreduce-1gpu\.json)` \| the all-reduce on one H100 \(busbw is 0 there",
             "on the one-GPU all-reduce")
    if m:
        out = rs("allreduce", "--replay", rec(m.group(1)))
        busbw = re.findall(r"^nccl\s.*?GB/s\s+([\d.]+) GB/s\s+yes", out, re.M)
        check(busbw and all(float(b) == 0 for b in busbw), f"one GPU: every busbw 0: {busbw}")


# ---- --format lists ----------------------------------------------------------------------
def formats_of(help_text):
    line = next((l for l in help_text.splitlines() if l.strip().startswith("--format")), "")
    words = re.sub(r"\([^)]*\)", "", line.split("output:", 1)[-1]).split(":")[0]
    return sorted(w for w in re.split(r"[,\s]+", words) if w and w != "or")


def format_lists():
    m = said(r"\| `--format FMT` \| ([^(|]+?) \(", "on --format in the options table")
    if not m:
        return
    readme = sorted(w for w in re.split(r"[,\s]+", m.group(1)) if w and w != "or")
    listed = rs("--help").split("commands:", 1)[-1].split("\n\n", 1)[0]
    commands = [l.split()[0] for l in listed.splitlines() if l.strip()]
    check(len(commands) >= 10, f"redscope --help lists the commands: {commands}")
    for c in commands:
        help_text = rs(c, "--help")
        if "--format" in help_text:
            same(readme, formats_of(help_text), "`--format` takes", f"redscope {c} --help")
    words = {"tables": "table", "CSV": "csv", "JSON": "json", "Markdown": "md", "HTML": "html"}
    m = said(r"scripts and write-ups \(([^)]+)\)", "on what the command line writes")
    if m:
        same(readme, sorted(words.get(w, w) for w in re.split(r",\s*|\s+and\s+", m.group(1))),
             "the command line writes (the opening)", "--help")
    demo = rec("h200-demo.jsonl")
    for fmt in readme:
        rs("variants", "--format", fmt)
        rs("ladder", "--replay", demo, "--format", fmt)
    m = said(r"redscope variants --format md # the same list as a Markdown table \(html: a web "
             r"page\)", "on variants' md and html")
    if m:
        md = rs("variants", "--format", "md")
        check(re.search(r"^\| step \| id \|.*\n\|[-:|]+\|\n(\| .*\|\n){15,}", md, re.M),
              f"variants --format md: the list as a Markdown table: {md[:200]!r}")
        check(rs("variants", "--format", "html").startswith("<!DOCTYPE html>"),
              "variants --format html: a web page")


# ---- an example whose comment names a figure: its output holds it ----------------------
def commented_examples():
    """'# with energy (J/GB) ...' above a command: the command's output has
    J/GB (a newcomer's trial: the handout example had none without --energy)."""
    m = re.search(r"# them\): here J/GB[^\n]*\n(redscope [^\n]+)", TEXT)
    check(m is not None, "README: the energy handout example and its comment")
    if m:
        args = m.group(1).split()[1:]
        out = rs(*[a.replace("conf/", os.path.join(SRC, "conf/"), 1) for a in args])
        check("J/GB" in out, f"README: '{m.group(1)}' promises J/GB; its output has none")


def main():
    for part in (screenshot, demo_contents, ladder_table, race, hottest_lines, sampling_period,
                 diff_examples, energy, two_gpus, format_lists, commented_examples):
        part()
    check.finish()


main()
