"""The C front end: SV-COMP's C programs read as symcert's syntax tree (docs/c.md)."""
