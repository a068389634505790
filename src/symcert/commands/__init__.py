"""Subcommands of `symcert` beyond `run` and `exec`, registered in `symcert.cli.COMMANDS`."""
