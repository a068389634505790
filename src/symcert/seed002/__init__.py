"""Seed 002 (Arusoaie, Lucanu & Rusu, *A Generic Framework for Symbolic Execution*): languages
defined by rewrite rules, their symbolic semantics `L^sym` derived automatically.

- `terms`: the terms of a definition (constructors, variables, data, the `k` sequence) and the
  data operations (the fold's algebra `core.terms.TERMS` for Int and Bool);
- `definition`: a language `(Σ, T, S)` (§3): sorts, productions, cells, rules; strictness
  turned into heating/cooling rules (§2);
- `grammar`, `semfile`: the `.sem` format and the program parser derived from the productions;
- `rewrite`: matching and the labelled transition system of Def. 2 (concrete execution);
- `derive`: `L ↦ L^sym` (§4.3, G-C1); `lemmas`: its postconditions as named predicates;
- `symbolic`: symbolic execution of `L` as execution of `L^sym`, `unsat` backed by the solver;
- `notation`: `L^sym` printed in the seed's notation (§6.2);
- `bugfinder`: `symcert run --lang` (§6.3), bugs as stuck configurations with replayed inputs;
- `simulation`: §4-5 as predicates (G-D3, G-L1, G-U1, G-L2, G-C2, G-L3, G-C3, G-P4);
- `languages/`: the shipped definitions `imp.sem` and `gcl.sem`, package data
  (`semfile.find_language`), and the README of the `.sem` format.
"""
