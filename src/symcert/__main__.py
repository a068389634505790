"""`python -m symcert`: the same as the `symcert` command."""

from symcert.cli import entry

entry()
