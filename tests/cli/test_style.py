#!/usr/bin/env python3
"""What the build promises of the sources (docs/architecture.md): no C or
CUDA file over 600 lines, no function over 70, and rs_core free of CUDA
headers."""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
MAX_FILE, MAX_FUNC = 600, 70
bad = []


def functions(lines):
    """(name, first line, length) of each top-level function body: a '{'
    line at column 0 (or a signature ending in '{') to the '}' at column 0."""
    start = name = None
    for i, line in enumerate(lines):
        if start is None:
            m = re.match(r"^[A-Za-z_][\w \*]*?\b(\w+)\s*\(", line)
            if m and not line.rstrip().endswith(";"):
                name = m.group(1)
            if name and (line.startswith("{") or (m and line.rstrip().endswith("{"))):
                start = i
        elif line.startswith("}"):
            yield name, start + 1, i - start + 1
            start = name = None


# A variant is one row (src/core/variants.h): its name and its id are
# spelled only there, in its kernel (src/kernels/) and in its story
# (analysis/stories.c, lecture/why.c). The CPU baseline and your own kernel are
# roles the program names (RS_V_CPU, RS_V_KERNEL).
ROWS = ROOT / "src/core/variants.h"
VARIANTS = re.findall(r'^\s*X\((\w+), "(\w+)"', ROWS.read_text(), re.M)
STORY = {"src/core/variants.h", "src/analysis/stories.c", "src/lecture/why.c"}
ROLES = {"CPU", "KERNEL"}
# the same word meaning something else: a finish's name, an opcode, a C++
# namespace
OTHER_WORD = {("src/core/types.c", "atomic"), ("src/core/sass_op.c", "atomic"),
              ("src/nvtools/demangle.c", "cooperative_groups")}
if len(VARIANTS) < 15:
    bad.append(f"{ROWS.relative_to(ROOT)}: {len(VARIANTS)} rows read; the list's shape changed?")


def typed_boundaries(rel, text):
    # a source is asked with rs_ask's kinds, not command strings
    if re.search(r"\bRS_COMMAND_\w+", text):
        bad.append(f"{rel}: RS_COMMAND_*: the source is asked with rs_ask (core/source.h)")


# A command owns its interface: its entry opens its file in src/cmd/, and
# the command line's plumbing (src/cli/) names no command.
ENTRIES = {m for f in ROOT.glob("src/cmd/*.c")
           for m in re.findall(r'^\s*\.name = "(\w+)",', f.read_text(), re.M)}
COMMANDS = sorted(ENTRIES | {"explore", "run", "ladder", "sweep", "allreduce", "compile",
                             "devices", "variants", "metrics", "presets", "recording", "diff"})
if len(ENTRIES) < 12:
    bad.append(f"src/cmd: {len(COMMANDS)} entries read; each command's file opens with its entry")


def plumbing_names_no_command(rel, text):
    if rel.parts[:2] != ("src", "cli"):
        return
    code = re.sub(r"/\*.*?\*/", "", text, flags=re.S)  # comments may name one
    for name in COMMANDS:
        # the parser names none; the rest of the plumbing asks for none by name
        # ("recording" may still be a file's kind in a message)
        if rel.name == "parse.c" and re.search(rf'"{name}"', code):
            bad.append(f'{rel}: names the command "{name}": its entry (src/cmd/) says it')
        if re.search(rf'(strcmp\([^;]*"{name}"|rs_command_find\("{name}"\))', code):
            bad.append(f'{rel}: asks for the command "{name}" by name')


# A screen owns its state: the explorer's shared header (ui/app.h) holds a
# pointer to each screen's state and includes no screen's header, only the
# explorer's shared parts.
SHARED_UI = {"ui.h", "keys.h", "theme.h", "layout.h", "worker.h", "list.h"}


def shared_header_includes_no_screen(rel, text):
    if str(rel) != "src/ui/app.h":
        return
    for inc in re.findall(r'^\s*#\s*include\s*"([\w.]+)"', text, re.M):
        if inc not in SHARED_UI:
            bad.append(f"{rel}: includes {inc}: a screen's state stays behind its pointer")


# A screen is one row of UI_SCREENS (ui/screens.h): its open, draw and key
# functions are named in its own file alone (the table is made from the
# rows), and the screens' names come from the rows, never a list by place.
SCREENS = re.findall(r"^\s*X\(\w+, (\w+), \"", (ROOT / "src/ui/screens.h").read_text(), re.M)
if len(SCREENS) < 8:
    bad.append(f"src/ui/screens.h: {len(SCREENS)} rows read; the list's shape changed?")
SCREEN_FN = re.compile(rf"\bui_(?:open|draw|key)_(?:{'|'.join(SCREENS)})\b")


def screen_functions(rel, text):
    names = {m.group(0) for m in SCREEN_FN.finditer(text)}
    for name in names:
        if not re.search(rf"^(?:int|void) {name}\(", text, re.M):
            bad.append(f"{rel}: names {name}: a screen's functions come from its row")


# A format is a writer: --format's names are the writers' (formats/writer.c),
# asked of rs_format_from_name, never compared as strings elsewhere.
def format_names(rel, text):
    if rel.parts[:2] == ("src", "formats") and rel.name.startswith("write"):
        return
    if re.search(r'strcmp\([^;]*"(table|csv|json|md|html)"\)', text):
        bad.append(f"{rel}: compares a format's name: rs_format_from_name (formats/writer.h)")


def variant_spellings(rel, text):
    if str(rel) in STORY or rel.parts[:2] == ("src", "kernels"):
        return
    for ident, name in VARIANTS:
        if ident in ROLES:
            continue
        if re.search(rf"\bRS_V_{ident}\b", text):
            bad.append(f"{rel}: names RS_V_{ident}: a variant's facts belong in its row")
        if (str(rel), name) not in OTHER_WORD and f'"{name}"' in text:
            bad.append(f'{rel}: spells "{name}": a variant\'s name belongs in its row')


for path in sorted(ROOT.glob("src/**/*")) + sorted(ROOT.glob("tools/*")):
    if path.suffix not in (".c", ".h", ".cu", ".cuh"):
        continue
    lines = path.read_text().splitlines()
    rel = path.relative_to(ROOT)
    variant_spellings(rel, "\n".join(lines))
    typed_boundaries(rel, "\n".join(lines))
    plumbing_names_no_command(rel, "\n".join(lines))
    shared_header_includes_no_screen(rel, "\n".join(lines))
    screen_functions(rel, "\n".join(lines))
    format_names(rel, "\n".join(lines))
    if len(lines) > MAX_FILE:
        bad.append(f"{rel}: {len(lines)} lines (at most {MAX_FILE})")
    for name, first, length in functions(lines):
        if length > MAX_FUNC:
            bad.append(f"{rel}:{first}: {name} is {length} lines (at most {MAX_FUNC})")
    if rel.parts[:2] in (("src", "core"), ("src", "analysis"), ("src", "formats")) and re.search(r'^\s*#\s*include\s*[<"](cuda|cupti|nvrtc)', "\n".join(lines), re.M):
        bad.append(f"{rel}: rs_core (core, analysis, formats) includes a CUDA header")
    # the layers (docs/architecture.md): core includes no other folder,
    # analysis only core, formats core and analysis; the explorer, the
    # command line's plumbing and the commands neither the engine nor CUPTI
    # (they reach the GPU through a source: the GPU process); profiling is
    # CUPTI over core, nvtools never reaches into the engine
    folder = rel.parts[1] if len(rel.parts) > 2 and rel.parts[0] == "src" else ""
    banned = {"core": "analysis|formats|engine|profiling|nvtools|kernels|ui|cli|cmd",
              "analysis": "formats|engine|profiling|nvtools|kernels|ui|cli|cmd",
              "formats": "engine|profiling|nvtools|kernels|ui|cli|cmd",
              "ui": "engine|profiling|cmd", "cli": "engine|profiling",
              "cmd": "engine|profiling",
              # CUPTI alone: core's vocabulary and nothing else
              "profiling": "analysis|formats|engine|nvtools|kernels|ui|cli|cmd",
              # the NVIDIA tools run or read without a GPU
              "nvtools": "engine|kernels|ui|cli|cmd"}.get(folder)
    if banned:
        # engine/gpu_process.h is the GPU process's face: the one engine
        # header the explorer, the plumbing and the commands may include
        for m in re.finditer(rf'^\s*#\s*include\s*"(\.\./)?({banned})/(?!gpu_process\.h")',
                             "\n".join(lines), re.M):
            bad.append(f"{rel}: src/{folder}/ includes a header of src/{m.group(2)}/")

for b in bad:
    print("FAIL", b)
print(f"style: {len(bad)} problem(s)")
sys.exit(1 if bad else 0)
