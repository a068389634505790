"""Where an interruption must wait: the regions of code that call z3.

The time budget of a `symcert` command stops it by raising an exception in its worker thread
(`commands/budget.py`). z3's Python bindings keep reference counts across several C calls; an
exception raised between two of them leaves z3 inconsistent: ctypes reports it as
`ArgumentError: BudgetExceeded` (an exit 70 that is no bug of the engine), and z3 may abort
later with an assertion violation (seen by `bench/fuzz.py`). The solver holds `Z3_CALLS` while
it calls z3; the budget takes it before it raises, so the exception arrives outside.
"""

from __future__ import annotations

import threading

Z3_CALLS = threading.RLock()
