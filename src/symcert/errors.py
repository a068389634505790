"""Users' errors. Contract violations (icontract.ViolationError) are the engine's bugs, not these."""

from __future__ import annotations

from dataclasses import dataclass

EXIT_OK = 0
EXIT_BUG = 1
EXIT_USAGE = 2
EXIT_UNDECIDED = 3
EXIT_DATA = 65


class SymcertError(Exception):
    """Base of every error a user can cause; the CLI prints it and exits with `exit_code`."""

    exit_code = EXIT_DATA


@dataclass
class ParseError(SymcertError):
    """A syntax error at a 1-based line and column, shown with the line and a caret."""

    filename: str
    line: int
    column: int
    message: str
    source_line: str

    def __str__(self) -> str:
        text = self.source_line.expandtabs(1)
        caret = " " * (self.column - 1) + "^"
        return (
            f"{self.filename}:{self.line}:{self.column}: syntax error: {self.message}\n"
            f"  {text}\n  {caret}"
        )


class InputError(SymcertError):
    """A malformed command-line input such as `--input x=abc`."""

    exit_code = EXIT_USAGE
