"""Every ```console block of the README and of docs/ is run, and what it prints compared with what
the page shows, so the docs cannot drift from the program; the ```sh blocks, which are not run,
must still hold commands that `symcert` accepts. The convention is in docs/cli.md ("Examples in
these pages") and in tools/doc_examples.py, which runs the examples and, with `--write`, puts
what the commands print now into the pages."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("doc_examples", ROOT / "tools" / "doc_examples.py")
docs = sys.modules["doc_examples"] = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(docs)
RUN = [p for p in docs.PAGES if docs.examples(p)]


@pytest.mark.parametrize("page", RUN, ids=[p.relative_to(ROOT).as_posix() for p in RUN])
def test_console_examples_print_what_the_page_shows(page, tmp_path):
    problems = docs.differences(page, docs.run_page(page, tmp_path))
    assert not problems, "\n".join(problems)


def test_the_convention_reads_commands_output_and_status(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("text\n```console\n$ cat > a.imp <<'EOF'\nassert x != 7  # exit 9\nEOF\n"
                    "$ symcert run a.imp   # exit 1: a bug\nold output\n...\n```\n"
                    "```console\n$ echo hi\nhello\n```\n")
    first, second, third = docs.examples(page)
    assert (first.line, first.status, first.expected) == (3, 0, ())
    assert first.command.endswith("\nassert x != 7  # exit 9\nEOF")
    assert (second.line, second.status, second.expected) == (6, 1, ("old output", "..."))
    assert (third.line, third.output, third.expected) == (11, 11, ("hello",))
    docs.write(page, [(third, 0, ["hi"]), (second, 1, ["new"])])
    assert page.read_text().endswith("old output\n...\n```\n```console\n$ echo hi\nhi\n```\n")
    assert docs.matches(("a", "...", "b in 0.5 s"), ["a", "x", "y", "b in 12.25 s"])
    assert docs.matches(("a", "...", "b"), ["a", "b"])
    assert not docs.matches(("a", "b"), ["a", "c"]) and not docs.matches(("a",), ["a", "extra"])
    assert docs.normalised('{"seconds": 0.125, "states": 3} 1,234.5 states/s') == \
        '{"seconds": <n>, "states": 3} <n> states/s'
    assert any(ex.status == 1 for p in RUN for ex in docs.examples(p))


def test_commands_not_run_still_parse_and_name_files_that_exist():
    """A ```sh block is not run (too long, or machine-dependent), but each `symcert` command in
    it must be one that `symcert` accepts, naming programs that the repository has."""
    from symcert.cli.main import parse_args

    commands = docs.sh_commands()
    assert len(commands) > 20
    problems = []
    for where, argv in commands:
        try:
            parse_args(argv)
        except SystemExit as stop:  # `--version` and `--help` exit 0
            if stop.code:
                problems.append(f"{where}: symcert {' '.join(argv)}: not accepted")
        problems += [f"{where}: no file {word}" for word in argv
                     if word.startswith("examples/") and not (ROOT / word).exists()]
    assert not problems, "\n".join(problems)


def test_every_shell_example_is_run_or_parsed():
    """A block that shows a command is ```console (run) or ```sh (parsed), never unmarked."""
    unmarked = docs.unmarked_commands()
    assert not unmarked, "mark these blocks ```console or ```sh: " + ", ".join(unmarked)
