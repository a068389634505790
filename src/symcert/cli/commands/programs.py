"""The program a command works on: read from a file or, for `-`, from standard input, at most
`--max-input-bytes` bytes, then decoded and parsed within `--max-program-size` (the parser's
budgets), each step a phase of the time budget."""

from __future__ import annotations

import argparse
import io
import os
import sys
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from symcert.lang.syntax import Stmt

STDIN = "-"
STDIN_NAME = "<stdin>"
CHUNK = 1024 * 1024  # read in pieces, so that the deadline can interrupt a slow reader


def add_program(parser: argparse.ArgumentParser, alias: bool = False,
                merge: bool | None = None) -> None:
    """The FILE argument, `--max-input-bytes`, `--max-program-size` and `--timeout` of a
    command that reads a program; with `alias`, `--alias`, `--por` and `--summaries` too (a
    command that explores), and `--merge` unless `merge` is False (`tests` wants one input per
    path, not per merge). Described in cli/commands/options.py."""
    from symcert.cli.commands.options import EXPLORING, MERGE, PROGRAM, add

    add(parser, PROGRAM + EXPLORING * alias + (MERGE,) * (alias and merge is not False))


def with_alias(args: argparse.Namespace, body: Callable[[argparse.Namespace], int]) -> int:
    """`body(args)` with the strategies its options choose set for its runs, in the thread that
    runs it: the contract transition `args.summaries` (engine/contracts.py), the partial-order
    reduction `args.por` (engine/por.py), state merging `args.merge` (engine/merge.py) and the
    aliasing strategy `args.alias` (engine/alias.py)."""
    from contextlib import ExitStack

    with ExitStack() as chosen:
        if not getattr(args, "summaries", True):
            from symcert.engine.contracts import summaries

            chosen.enter_context(summaries(False))
        if getattr(args, "por", "on") == "off":
            from symcert.engine.por import reducing

            chosen.enter_context(reducing(False))
        if getattr(args, "merge", False):
            from symcert.engine.merge import merging

            chosen.enter_context(merging())
        if getattr(args, "alias", "terms") != "terms":
            from symcert.engine.alias import Alias, aliasing

            chosen.enter_context(aliasing(Alias(args.alias)))
        return body(args)


def source_name(file: str) -> str:
    """How messages name the program: its path, or `<stdin>`."""
    return STDIN_NAME if file == STDIN else file


def read_program(args: argparse.Namespace) -> Stmt:
    """The parsed program of `args.file`, each step in a phase of `args.budget`.

    :raises ParseError: when it is not UTF-8 or not IMP, or over a budget (a LimitError).
    :raises OSError: when it cannot be read.
    """
    return read_source(args)[1]


def read_source(args: argparse.Namespace) -> tuple[str, Stmt]:
    """The text of `args.file` (a leading byte-order mark dropped) and its parsed program, as
    `read_program` reads them."""
    from symcert.lang.parser import parse_bytes

    name = source_name(args.file)
    data = read_bytes(args)
    args.budget.enter(f"parsing {name}")
    if is_c(args):
        return read_c(args, name, data)
    program = parse_bytes(data, name, max_input_bytes=args.max_input_bytes,
                          max_program_size=args.max_program_size)
    return data.decode("utf-8-sig"), program


def is_c(args: argparse.Namespace) -> bool:
    """Whether `args.file` is a C program: `--lang c`, or a name ending in `.c` or `.i`."""
    return getattr(args, "lang", None) == "c" or args.file.endswith((".c", ".i"))


def wants_c(args: argparse.Namespace) -> bool:
    """Whether `run` reads C (cli/commands/crun.py): a C file, an SV-COMP task file (`.yml`),
    or a folder of task files."""
    from pathlib import Path

    if getattr(args, "more", None):
        return False
    if args.file.endswith(".yml") or is_c(args):
        return True
    return os.path.isdir(args.file) and any(Path(args.file).rglob("*.yml"))


def c_failure(failing: object) -> tuple[str, bool]:
    """What a `fail` reached means (a C event, else IMP's words) and whether it is C's
    undefined behaviour (C-U1: `exec` then exits 3)."""
    from symcert.lang.c.program import describe, failure_of

    return describe(failing), failure_of(getattr(failing, "pos", None))[1]


def read_c(args: argparse.Namespace, name: str, data: bytes) -> tuple[str, Stmt]:
    """The C program `data` translated by the C front end (docs/c.md) with the data model of
    `--data-model` (LP64 by default); the translation is kept as `args.c_program`."""
    from symcert.lang.c.translate import translate
    from symcert.lang.c.types import DATA_MODELS
    from symcert.lang.errors import ParseError

    if len(data) > args.max_input_bytes:
        from symcert.lang.errors import too_large
        raise too_large(data[:args.max_input_bytes], name, args.max_input_bytes)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise ParseError(name, 1, 1, f"the file is not valid UTF-8 (byte {err.start})", "") \
            from None
    model = DATA_MODELS[getattr(args, "data_model", None) or "LP64"]
    args.c_program = translate(text, name, model)
    return text, args.c_program.main


def read_bytes(args: argparse.Namespace) -> bytes:
    """The bytes of `args.file` (`-`: standard input), read in the phase "reading" of
    `args.budget`, at most one byte past `--max-input-bytes` (the parser names the excess)."""
    args.budget.enter(f"reading {source_name(args.file)}")
    if args.file == STDIN:
        return _read(_stdin(), args.max_input_bytes)
    with open(args.file, "rb") as f:
        return _read(f.read, args.max_input_bytes)


def _stdin() -> Callable[[int], bytes]:
    """Reads of standard input, by its file descriptor when it has one: a read still blocked
    when the budget runs out then holds no lock that Python's exit would wait for."""
    try:
        fd = sys.stdin.fileno()
    except (AttributeError, ValueError, io.UnsupportedOperation):
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:
            raise OSError(0, "no standard input", STDIN_NAME) from None
        return stream.read
    return lambda size: os.read(fd, size)


def _read(read: Callable[[int], bytes], limit: int) -> bytes:
    """At most `limit + 1` bytes from `read` (`/dev/zero` never ends): one more than the limit
    is enough for `parse_bytes` to refuse it."""
    chunks: list[bytes] = []
    size = 0
    while size <= limit:
        chunk = read(min(CHUNK, limit + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)
