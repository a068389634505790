"""The `symcert` command: argument parsing and formatting only."""
