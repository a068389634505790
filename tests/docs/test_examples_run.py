"""Every ```console block of the README and of docs/ is run, and what it prints compared with what
the page shows, so the docs cannot drift from the program (the convention is in docs/cli.md,
"Examples in these pages").

A line `$ COMMAND` is run by `sh` in a scratch directory where the repository's files appear
under their own names (`examples/gcd.imp`), with this environment's `symcert` first on PATH; the
lines after it, up to the next `$ ` line, are its standard output followed by its standard
error. Its exit status is 0 unless the line ends with a comment that says `exit N`. A command
with a here-document (`cat > prog.imp <<'EOF'`) reads the lines up to `EOF`. A line `...`
stands for any number of lines. Seconds and rates vary from run to run: any number before ` s`,
` ms` or ` <unit>/s`, the value of a JSON `"seconds"` or `"solver_seconds"`, and JUnit's
`time="..."` match any other; the progress lines that a command writes every few seconds when
standard error is not a terminal (`symcert run: 5.0 s elapsed, ...`) are left out. The blocks of
one page run in order in one directory, so a later command reads the files an earlier one wrote.
The `symcert` commands of ```sh blocks are not run (they take long or depend on the machine);
they must still parse, and name programs that exist.
"""

from __future__ import annotations

import os
import shlex
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
BLOCK = re.compile(r"^```console\n(.*?)^```", re.M | re.S)
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
    """One `$ COMMAND` of a page: where it is, the command, its output and exit status."""

    line: int
    command: str
    expected: tuple[str, ...]
    status: int


def examples(page: Path) -> list[Example]:
    text = page.read_text(encoding="utf-8")
    out = []
    for block in BLOCK.finditer(text):
        first = text.count("\n", 0, block.start(1)) + 1
        current: list = []
        heredoc = None
        for offset, line in enumerate(block.group(1).splitlines()):
            if heredoc is not None:  # the text a `<<'EOF'` command reads, up to EOF
                current[1] += "\n" + line
                heredoc = None if line == heredoc else heredoc
            elif line.startswith("$ "):
                current = [first + offset, line[2:], []]
                out.append(current)
                heredoc = m.group(1) if (m := HEREDOC.search(line)) else None
            elif current:
                current[2].append(line)
            else:
                raise AssertionError(f"{page.name}:{first + offset}: output before any `$ `")
    return [Example(line, command, tuple(expected),
                    int(m.group(1)) if (m := EXIT.search(command.partition("\n")[0])) else 0)
            for line, command, expected in out]


def normalised(line: str) -> str:
    for pattern, replacement in VARYING:
        line = pattern.sub(replacement, line)
    return line.rstrip()


def matches(expected: tuple[str, ...], actual: list[str]) -> bool:
    """Whether `actual` is `expected`, each `...` line standing for any lines."""
    pattern = "".join(r"(?:.*\n)*?" if line == "..." else re.escape(normalised(line)) + r"\n"
                      for line in expected)
    return re.fullmatch(pattern, "".join(normalised(l) + "\n" for l in actual)) is not None


def scratch(tmp_path: Path) -> Path:
    """A directory where each top-level file and folder of the repository is a link."""
    for entry in ROOT.iterdir():
        if not entry.name.startswith(".") and entry.name not in ("site", "build"):
            (tmp_path / entry.name).symlink_to(entry)
    return tmp_path


RUN = [p for p in PAGES if examples(p)]


@pytest.mark.parametrize("page", RUN, ids=[p.relative_to(ROOT).as_posix() for p in RUN])
def test_console_examples_print_what_the_page_shows(page, tmp_path):
    cwd = scratch(tmp_path)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SYMCERT_", "PYTEST_"))}
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    problems = []
    for ex in examples(page):
        done = subprocess.run(ex.command, shell=True, cwd=cwd, env=env, capture_output=True,
                              text=True, timeout=120)
        actual = [l for l in (done.stdout + done.stderr).splitlines() if not PROGRESS.match(l)]
        where = f"{page.relative_to(ROOT)}:{ex.line}: $ {ex.command}"
        if done.returncode != ex.status:
            problems.append(f"{where}\n  exit {done.returncode}, the page says {ex.status}")
        if not matches(ex.expected, actual):
            problems.append(f"{where}\n  the page shows:\n" +
                            "".join(f"    {l}\n" for l in ex.expected) +
                            "  it prints:\n" + "".join(f"    {l}\n" for l in actual))
    assert not problems, "\n".join(problems)


def test_the_convention_reads_commands_output_and_status():
    page = ROOT / "docs" / "cli.md"
    assert any(ex.status == 1 for p in RUN for ex in examples(p))
    assert matches(("a", "...", "b in 0.5 s"), ["a", "x", "y", "b in 12.25 s"])
    assert matches(("a", "...", "b"), ["a", "b"])
    assert not matches(("a", "b"), ["a", "c"])
    assert not matches(("a",), ["a", "extra"])
    assert normalised('{"seconds": 0.125, "states": 3} 1,234.5 states/s') == \
        '{"seconds": <n>, "states": 3} <n> states/s'
    assert page in RUN


SH_BLOCK = re.compile(r"^```sh\n(.*?)^```", re.M | re.S)


def sh_commands() -> list[tuple[str, list[str]]]:
    """The `symcert` commands of the ```sh blocks, which are not run: (where, arguments)."""
    out = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for block in SH_BLOCK.finditer(text):
            first = text.count("\n", 0, block.start(1)) + 1
            for offset, line in enumerate(block.group(1).splitlines()):
                words = shlex.split(line, comments=True)
                segment: list[str] = []
                for word in [*words, "|"]:
                    if word in ("|", "||", "&&", ">", "<") or word.startswith(">"):
                        if segment[:1] == ["symcert"] and not any(
                                re.fullmatch(r"[A-Z]+", w) for w in segment):  # `--seed S`
                            out.append((f"{page.relative_to(ROOT)}:{first + offset}",
                                        segment[1:]))
                        segment = [] if word != ">" else ["(redirect)"]
                    else:
                        segment.append(word)
    return out


def test_commands_not_run_still_parse_and_name_files_that_exist():
    """A ```sh block is not run (too long, or machine-dependent), but each `symcert` command in
    it must be one that `symcert` accepts, naming programs that the repository has."""
    from symcert.cli.main import parse_args

    commands = sh_commands()
    assert len(commands) > 20
    problems = []
    for where, argv in commands:
        try:
            parse_args(argv)
        except SystemExit as stop:  # `--version` and `--help` exit 0
            if stop.code:
                problems.append(f"{where}: symcert {' '.join(argv)}: not accepted")
        for word in argv:
            if word.startswith("examples/") and not (ROOT / word).exists():
                problems.append(f"{where}: no file {word}")
    assert not problems, "\n".join(problems)
