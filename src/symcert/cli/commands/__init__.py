"""Subcommands of `symcert` beyond `run` and `exec`, registered in `symcert.cli.main.COMMANDS`, and
what every command shares: `budget` (the time budget and phases), `programs` (reading a program
with a size cap, from a file or standard input), `values` (printing unbounded integers)."""
