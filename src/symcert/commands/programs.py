"""The program a command works on: read from a file or, for `-`, from standard input, at most
`--max-input-bytes` bytes, decoded as UTF-8 and parsed, each step a phase of the budget."""

from __future__ import annotations

import argparse
import io
import os
import sys
from typing import TYPE_CHECKING, Callable

from symcert.commands.budget import add_timeout, positive

if TYPE_CHECKING:
    from symcert.syntax import Stmt

STDIN = "-"
STDIN_NAME = "<stdin>"
DEFAULT_MAX_INPUT_BYTES = 16 * 1024 * 1024
CHUNK = 1024 * 1024  # read in pieces, so that the deadline can interrupt a slow reader


def add_program(parser: argparse.ArgumentParser) -> None:
    """The FILE argument, `--max-input-bytes` and `--timeout` of a command that reads a program."""
    parser.add_argument("file", metavar="FILE", help="the IMP program; - reads standard input")
    parser.add_argument("--max-input-bytes", type=positive, default=DEFAULT_MAX_INPUT_BYTES,
                        metavar="N", help="refuse a larger program, exit 65 "
                                          f"(default: {DEFAULT_MAX_INPUT_BYTES:,})")
    add_timeout(parser)


def source_name(file: str) -> str:
    """How messages name the program: its path, or `<stdin>`."""
    return STDIN_NAME if file == STDIN else file


def read_program(args: argparse.Namespace) -> Stmt:
    """The parsed program of `args.file`, each step in a phase of `args.budget`.

    :raises SymcertError: when it is larger than `args.max_input_bytes` (exit 65).
    :raises ParseError: when it is not UTF-8 or not IMP.
    :raises OSError: when it cannot be read.
    """
    from symcert.parser import parse

    name = source_name(args.file)
    args.budget.enter(f"reading {name}")
    if args.file == STDIN:
        data = _read(_stdin(), args.max_input_bytes, name)
    else:
        with open(args.file, "rb") as f:
            data = _read(f.read, args.max_input_bytes, name)
    text = _decode(data, name)
    args.budget.enter(f"parsing {name}")
    return parse(text, name)


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


def _read(read: Callable[[int], bytes], limit: int, name: str) -> bytes:
    """At most `limit` bytes from `read`; one more is an error (`/dev/zero` never ends)."""
    from symcert.errors import SymcertError

    chunks: list[bytes] = []
    size = 0
    while size <= limit:
        chunk = read(min(CHUNK, limit + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    if size > limit:
        raise SymcertError(f"{name}: input larger than {limit:,} bytes; "
                           "raise it with --max-input-bytes")
    return b"".join(chunks)


def _decode(data: bytes, name: str) -> str:
    """`data` as UTF-8; a bad byte is a ParseError at its line and column."""
    from symcert.errors import ParseError

    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        before = data[: err.start].decode("utf-8", errors="replace")
        line = before.count("\n") + 1
        column = len(before) - (before.rfind("\n") + 1) + 1
        shown = data.decode("utf-8", errors="replace").split("\n")[line - 1]
        raise ParseError(name, line, column,
                         f"the file is not valid UTF-8 (byte 0x{data[err.start]:02x})",
                         shown) from None
