#!/usr/bin/env python3
"""The explorer at a projector's sizes, 80x24 and 100x30 (issue 42), on the
shipped H200 recording (no GPU). A prompt's reason for refusing a value is
shown whole, wrapped above the prompt where the row is too short, even when
it quotes a long path or range. The Source screen cuts nothing silently:
its line list and the cursor line's detail (its reasons, then the samples
by function) each fit or carry a "a-b/N more" mark, and the keys the mark
names (Up/Down for the lines, PgDn/PgUp for the detail) reach every hidden
row. Expected rows come from the recording.
`test_tui_projector.py NAME...` runs only those."""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import Checks  # noqa: E402
from tuitest import replay_demo, status_line  # noqa: E402

REC = os.path.join(os.environ["REDSCOPE_SOURCE"], "conf", "recordings", "h200-demo.jsonl")
SIZES = ((80, 24), (100, 30))
check = Checks("test_tui_projector")
LONG = "/tmp/" + "".join(f"a_directory_that_is_not_there_{i:02d}/" for i in range(4))
DETAIL_MARK = re.compile(r"(\d+)-(\d+)/(\d+) ([v^]) more \[ \]")
LIST_MARK = re.compile(r"(\d+)-(\d+)/(\d+) ([v^]) more \(Up/Down\)")


def recorded(variant):
    with open(REC, encoding="utf-8") as f:
        for line in f:
            j = json.loads(line)
            r = j.get("request", {})
            if r.get("variant") == variant and r.get("type") == "int32" and r.get("n") == 2 ** 24:
                return j.get("stalls", {})
    return {}


def reason_shown(s):
    """The prompt's row and the rows above it the reason may take, as one text."""
    rows = s.splitlines()[:-1] if s else []  # without the footer
    return " ".join(r.strip() for r in rows[-9:])


def typed(t, key, text):
    t.keys(key, "C-u")
    t.tmux("send-keys", "-t", t.name, "-l", text)
    t.keys("Enter")


def prompt_reasons():
    """Each refusal's reason is on the screen whole at 80x24 and 100x30."""
    cases = (
        ("", "n", "abc", "expected a count from 1 to 2^40, like 16777216, 2^24, 16M or 1024*65535"),
        ("", "n", "2^99", "expected a count from 1 to 2^40, like 16777216, 2^24, 16M or "
         "1024*65535"),
        ("", "K", LONG + "missing.cu", "missing.cu: No such file or directory"),
        ("R", "A", (LONG + "b" * 120)[:234] + "/recording.jsonl",  # 250 characters
         "cannot open recording 'recording.jsonl': No such file or directory"),
        ("S", "g", ",".join(f"2^{k}" for k in range(10, 27)) + ",2^99,2^20,2^21,2^22",
         "bad size '2^99': number too large (write 16777216, 2^24, 16M or 1024*65535)"),
    )
    for cols, rows in SIZES:
        t = replay_demo(cols, rows)
        try:
            for screen, key, text, want in cases:
                if screen:
                    t.keys(screen)
                typed(t, key, text)
                s = t.wait_quiet(want.split()[0]) or t.screen()
                check(want in reason_shown(s),
                      f"{cols}x{rows}: {key} {text[:30]}...: the reason whole: {want!r}", s)
                t.keys("Escape", *(["Escape"] if screen else []))
                t.wait_quiet("reps")
        finally:
            t.close()


def box_rows(s):
    """The Source box's inner rows (borders off) and its bottom border."""
    lines = s.splitlines()
    top = next((i for i, l in enumerate(lines) if l.startswith("\u250c")), 0)
    end = next((i for i, l in enumerate(lines) if l.startswith("\u2514")), len(lines) - 1)
    return [l[1:-1] for l in lines[top + 1:end]], lines[end] if lines else ""


def detail_pages(t, cols, rows):
    """Every row of the cursor line's detail, paged with PgDn from its mark
    (None where a row never showed); the first screen too."""
    first = s = t.screen()
    inner, bottom = box_rows(s)
    m = DETAIL_MARK.search(bottom)
    if not m:
        return inner, first, False  # whole: no mark, every row on this screen
    total = int(m.group(3))
    seen = [None] * total
    for _ in range(total):
        inner, bottom = box_rows(s)
        m = DETAIL_MARK.search(bottom)
        if not m:
            break
        a, b = int(m.group(1)), int(m.group(2))
        for k, row in enumerate(inner[len(inner) - (b - a + 1):]):
            seen[a - 1 + k] = row
        if m.group(4) == "^":
            break
        t.keys("NPage")
        s = t.wait_quiet("more [ ]") or t.screen()
    check(m is not None and m.group(4) == "^", f"{cols}x{rows}: PgDn reaches the detail's end", s)
    return seen, first, True


def source_detail():
    """sequential's hottest line: its reasons and the samples by function fit
    or carry a mark, and PgDn shows every hidden row; PgUp goes back."""
    seq = recorded("sequential")
    hot = max(seq["lines"], key=lambda l: l["samples"])
    reasons = [n for n in hot["reasons"].values() if n > 0]
    funcs = [f["name"] for f in seq["functions"]]
    for cols, rows in SIZES:
        t = replay_demo(cols, rows)
        try:
            t.keys("W")
            s = t.wait_quiet("samples:") or t.screen()
            check("PgDn/] more" in status_line(s) or "PgDn/] more" in s.splitlines()[-1],
                  f"{cols}x{rows}: the footer names PgDn/]", s)
            seen, first, marked = detail_pages(t, cols, rows)
            rows_seen = [r.strip() for r in seen if r is not None]
            check(None not in seen, f"{cols}x{rows}: every row of the detail was shown", first)
            title = f"{hot['file']}:{hot['line']}, {hot['samples']:,} samples:"
            at = next((i for i, r in enumerate(rows_seen) if r.startswith(title)), -1)
            by = next((i for i, r in enumerate(rows_seen) if r.startswith("by function:")), -1)
            body = rows_seen[at + 1:by] if at >= 0 and by > at else []
            shown = [r for r in body if re.match(r"\d+\.\d%  ", r)
                     and not re.match(r"\d+\.\d%  (wait for|inside) ", r)]
            check(at >= 0 and len(shown) == len(reasons),
                  f"{cols}x{rows}: all {len(reasons)} reasons of the line: {shown}", first)
            names = " ".join(rows_seen[by + 1:]) if by >= 0 else ""
            check(by >= 0 and all(f[:28] in names for f in funcs),
                  f"{cols}x{rows}: every function of the view: {funcs}", first)
            check(marked or ("by function:" in first and title in first),
                  f"{cols}x{rows}: the detail fits or says more is below", first)
            if marked:
                check("v more [ ]" in first,
                      f"{cols}x{rows}: the first page says more is below", first)
                for _ in range(8):
                    t.keys("PPage")
                s = t.wait_quiet("v more [ ]") or t.screen()
                check(title in s and "v more [ ]" in s, f"{cols}x{rows}: PgUp goes back", s)
                t.keys("NPage", "j")
                nxt = seq["lines"][seq["lines"].index(hot) + 1]
                s = t.wait_quiet(f"{nxt['file']}:{nxt['line']}, ") or t.screen()
                m = DETAIL_MARK.search(box_rows(s)[1])
                check(f"{nxt['file']}:{nxt['line']}, " in s and (not m or m.group(1) == "1"),
                      f"{cols}x{rows}: the next line's detail starts at its top", s)
        finally:
            t.close()


def source_lines():
    """vectorized's 19 lines: a cut list says so and Down reaches its end."""
    vec = recorded("vectorized")
    where = [f"{l['file']}:{l['line']} " for l in vec["lines"]]
    for cols, rows in SIZES:
        t = replay_demo(cols, rows)
        try:
            t.keys(*["j"] * 8, "W")
            s = t.wait_quiet("vectorized:") or t.screen()
            m = LIST_MARK.search(s)
            seen = {w for w in where if w in s}
            check(m or len(seen) == len(where), f"{cols}x{rows}: the lines fit or say more", s)
            check(m and m.group(3) == str(len(where)),
                  f"{cols}x{rows}: {len(where)} lines are more than the rows: marked", s)
            for key in ["k"] * len(where) + ["j"] * len(where):  # from the first line to the last
                t.keys(key)
                s = t.screen()
                seen |= {w for w in where if w in s}
            s = t.wait_quiet("more (Up/Down)") or t.screen()
            check(len(seen) == len(where), f"{cols}x{rows}: Down shows every line: "
                  f"{sorted(set(where) - seen)} never shown", s)
            check(re.search(r"\^ more \(Up/Down\)", s) and where[-1] in s,
                  f"{cols}x{rows}: at the last line the mark says none is below", s)
        finally:
            t.close()


TESTS = [prompt_reasons, source_detail, source_lines]
for test in TESTS:
    if len(sys.argv) < 2 or test.__name__ in sys.argv[1:]:
        test()
check.finish()
