"""`python -m symcert`: the same as the `symcert` command."""

from symcert.cli.main import entry

# Guarded: `crosshair check src/` imports every module, this one included, and must not run
# the command on CrossHair's own arguments.
if __name__ == "__main__":
    entry()
