"""Run the terminal examples of the docs and compare what they print with what the pages show.

    python tools/doc_examples.py                  # run every page's examples, list the differences
    python tools/doc_examples.py --write [PAGE]   # write what the commands print into the pages

A ```console block of the README or of `docs/` is a terminal session: a line `$ COMMAND` is run
by `sh` in a scratch directory where the repository's files appear under their own names
(`examples/gcd.imp`), with the `symcert` beside this Python first on PATH; the lines after it, up
to the next `$ ` line, are its standard output followed by its standard error. Its exit status
is 0 unless the line ends with a comment that says `exit N`. A command with a here-document
(`cat > prog.imp <<'EOF'`) reads the lines up to `EOF`. A line `...` stands for any number of
lines. Seconds and rates vary from run to run: any number before ` s`, ` ms` or ` <unit>/s`, the
value of a JSON `"seconds"` or `"solver_seconds"`, and JUnit's `time="..."` match any other; the
progress lines a command writes every few seconds when standard error is not a terminal
(`symcert run: 5.0 s elapsed, ...`) are left out. The blocks of one page run in order in one
directory, so a later command reads the files an earlier one wrote. The `symcert` commands of
```sh blocks are not run (they take long or depend on the machine); tests/docs/test_examples_run.py
checks that they parse. `--write` replaces the output shown under each command by what it
prints now, except where the page abbreviates it with `...`; review the diff.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
BLOCK = re.compile(r"^```console\n(.*?)^```", re.M | re.S)
SH_BLOCK = re.compile(r"^```sh\n(.*?)^```", re.M | re.S)
EXIT = re.compile(r"#.*\bexit (\d+)\b")
HEREDOC = re.compile(r"<<\s*'(\w+)'")
PROGRESS = re.compile(r"symcert [\w-]+: [\d,.]+ s elapsed\b")
"""A progress line, written to standard error every few seconds when it is not a terminal."""
VARYING = [
    (re.compile(r"\d[\d,]*(?:\.\d+)? (s|ms)\b"), r"<n> \1"),
    (re.compile(r"\d[\d,]*(?:\.\d+)? ([\w ]+)/s\b"), r"<n> \1/s"),
    (re.compile(r'"(solver_)?seconds": \d+(?:\.\d+)?(?:e-?\d+)?'), r'"\1seconds": <n>'),
    (re.compile(r'\btime="\d+(?:\.\d+)?"'), 'time="<n>"'),
]
"""What varies between runs, and the text both sides are normalised to."""


@dataclass(frozen=True)
class Example:
    """One `$ COMMAND` of a page: its line, the command, the output shown (from line `output`,
    counted from 0) and the exit status the page gives it."""

    line: int
    command: str
    output: int
    expected: tuple[str, ...]
    status: int


def examples(page: Path) -> list[Example]:
    text = page.read_text(encoding="utf-8")
    out: list[list] = []
    for block in BLOCK.finditer(text):
        first = text.count("\n", 0, block.start(1))
        heredoc = None
        for offset, line in enumerate(block.group(1).splitlines()):
            if heredoc is not None:  # the text a `<<'EOF'` command reads, up to EOF
                out[-1][1] += "\n" + line
                out[-1][2] = first + offset + 1
                heredoc = None if line == heredoc else heredoc
            elif line.startswith("$ "):
                out.append([first + offset + 1, line[2:], first + offset + 1, []])
                heredoc = m.group(1) if (m := HEREDOC.search(line)) else None
            elif out and out[-1][0] > first:
                out[-1][3].append(line)
            else:
                raise ValueError(f"{page.name}:{first + offset + 1}: output before any `$ `")
    return [Example(line, command, output, tuple(expected),
                    int(m.group(1)) if (m := EXIT.search(command.partition("\n")[0])) else 0)
            for line, command, output, expected in out]


def normalised(line: str) -> str:
    for pattern, replacement in VARYING:
        line = pattern.sub(replacement, line)
    return line.rstrip()


def matches(expected: tuple[str, ...], actual: list[str]) -> bool:
    """Whether `actual` is `expected`, each `...` line standing for any lines."""
    pattern = "".join(r"(?:.*\n)*?" if line == "..." else re.escape(normalised(line)) + r"\n"
                      for line in expected)
    return re.fullmatch(pattern, "".join(normalised(l) + "\n" for l in actual)) is not None


def scratch(directory: Path) -> Path:
    """`directory`, with a link to each top-level file and folder of the repository."""
    for entry in ROOT.iterdir():
        if not entry.name.startswith(".") and entry.name not in ("site", "build"):
            (directory / entry.name).symlink_to(entry)
    return directory


def run_page(page: Path, directory: Path, bin_dir: Path = Path(sys.executable).parent,
             skip: Callable[[Example], bool] = lambda ex: False,
             ) -> list[tuple[Example, int, list[str]]]:
    """Each example of `page` but those to `skip`, run in `directory` (made a scratch directory)
    with the `symcert` and `python` of `bin_dir` (default: beside this Python): the example,
    its exit status and the lines it printed."""
    cwd = scratch(directory)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SYMCERT_", "PYTEST_"))}
    env["PATH"] = os.pathsep.join([str(bin_dir), env.get("PATH", "")])
    done = []
    for ex in filter(lambda ex: not skip(ex), examples(page)):
        result = subprocess.run(ex.command, shell=True, cwd=cwd, env=env, capture_output=True,
                                text=True, timeout=120)
        printed = (result.stdout + result.stderr).splitlines()
        done.append((ex, result.returncode, [l for l in printed if not PROGRESS.match(l)]))
    return done


def differences(page: Path, runs: list[tuple[Example, int, list[str]]]) -> list[str]:
    problems = []
    for ex, status, actual in runs:
        where = f"{page.relative_to(ROOT)}:{ex.line}: $ {ex.command}"
        if status != ex.status:
            problems.append(f"{where}\n  exit {status}, the page says {ex.status}")
        if not matches(ex.expected, actual):
            problems.append(f"{where}\n  the page shows:\n" +
                            "".join(f"    {l}\n" for l in ex.expected) +
                            "  it prints:\n" + "".join(f"    {l}\n" for l in actual))
    return problems


def write(page: Path, runs: list[tuple[Example, int, list[str]]]) -> None:
    """Put what each command printed under it, where the page shows all of it (no `...`)."""
    lines = page.read_text(encoding="utf-8").split("\n")
    for ex, _, actual in reversed(runs):
        if "..." not in ex.expected and not matches(ex.expected, actual):
            lines[ex.output:ex.output + len(ex.expected)] = actual
    page.write_text("\n".join(lines), encoding="utf-8")


def sh_commands() -> list[tuple[str, list[str]]]:
    """The `symcert` commands of the ```sh blocks, which are not run: (where, arguments)."""
    out = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for block in SH_BLOCK.finditer(text):
            first = text.count("\n", 0, block.start(1)) + 1
            for offset, line in enumerate(block.group(1).splitlines()):
                segment: list[str] = []
                for word in [*shlex.split(line, comments=True), "|"]:
                    if word in ("|", "||", "&&", "<") or word.startswith(">"):
                        if segment[:1] == ["symcert"] and not any(
                                re.fullmatch(r"[A-Z]+", w) for w in segment):  # `--seed S`
                            out.append((f"{page.relative_to(ROOT)}:{first + offset}",
                                        segment[1:]))
                        segment = ["(redirected)"] if word.startswith(">") else []
                    else:
                        segment.append(word)
    return out


def unmarked_commands() -> list[str]:
    """Code blocks that are neither ```console nor ```sh but hold a command line (`$ ...`,
    `symcert ...`, `make ...`): each shell example must be run or at least parsed."""
    out = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for block in re.finditer(r"^```(\w*)\n(.*?)^```", text, re.M | re.S):
            if block.group(1) not in ("console", "sh") and re.search(
                    r"^(\$ |symcert |make |python -m symcert )", block.group(2), re.M):
                out.append(f"{page.relative_to(ROOT)}:{text.count(chr(10), 0, block.start()) + 1}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pages", nargs="*", type=Path, help="the pages (default: all of them)")
    ap.add_argument("--write", action="store_true",
                    help="write what the commands print into the pages")
    args = ap.parse_args(argv)
    pages = [p.resolve() for p in args.pages] or [p for p in PAGES if examples(p)]
    problems = []
    for page in pages:
        with tempfile.TemporaryDirectory() as directory:
            runs = run_page(page, Path(directory))
        found = differences(page, runs)
        if args.write and found:
            write(page, runs)
        problems += found
    print("\n".join(problems) or "every example prints what its page shows")
    return 1 if problems and not args.write else 0


if __name__ == "__main__":
    sys.exit(main())
