# crosshair: off
"""`python -m symcert.checking.obligations`: replay the proof obligations (record.py)."""

import sys

from symcert.checking.obligations.record import main

sys.exit(main())
