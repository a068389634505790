"""The three-valued solver (SAT | UNSAT | UNKNOWN, models as environments); `z3backend` is the
only module of the engine that imports z3."""
