"""The semantics as data: terms, the expression fold and its algebras, the concrete
semantics (Fig. 2), symbolic states and symbolic evaluation (Fig. 3)."""
