# crosshair: off
"""`python -m symcert.checking.obligations`: replay the proof obligations (record.py)."""

import sys

from symcert.checking.obligations.record import main

# Guarded: `crosshair check src/` imports every module, this one included, and must not run
# the command on CrossHair's own arguments.
if __name__ == "__main__":
    sys.exit(main())
