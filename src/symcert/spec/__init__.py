"""The lemmas of docs/lemmas.md as executable predicates, one module per level they speak
about; each imports only what lies below it, and `switch` (the CONTRACTS switch, the lemma tag)
imports nothing."""
