"""The symbolic executor and what is built on it: `expand` and `run` (Figs. 6-7), the bug
finder (Figs. 8-10), the verdict policy (`check`), proofs of the asserts, ghost runs (seed 004)."""
