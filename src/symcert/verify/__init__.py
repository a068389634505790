"""How `run` and `prove` decide loops and recursion: invariants and contracts inferred (Spacer,
guesses from concrete runs), their inductiveness checked by z3 and cvc5 (T-I1, T-I2, T-S1),
certificates and their weakest-precondition re-check (T-C1), SMT-LIB text and the prover runners."""
