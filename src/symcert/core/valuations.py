"""`beval` under the models of a run, each shared node's value computed once per model (terms
are DAGs): the model-reuse check of exploration (Fig. 6's pruning by a parent's model)."""

from __future__ import annotations

from dataclasses import dataclass, field

from symcert.core.algebra import fold_b
from symcert.core.concrete import Env, Metered, OutOfSteps
from symcert.lang.syntax import BExpr


@dataclass
class Valuations:
    """`beval` under the models of a run, each shared node's value under a model computed once
    (terms are DAGs): a path's states share its model object until the solver gives a new one
    (explore._with_model), so the memo of a model serves every later conjunct of the path,
    whose terms share the earlier ones'.

    :param models: how many models' memos are kept (the oldest is dropped first).
    :param size: values per memo before it starts again (memory stays bounded).
    :param values: the most values of quantifiers' ranges one `beval` evaluates (X-Q1); one
        that needs more is false (a caller reading a model's value asks the solver instead).
    """

    models: int = 8
    size: int = 1 << 16
    values: int = 1 << 16
    _memos: dict[int, tuple[Env, dict[int, object], list[BExpr]]] = field(default_factory=dict)

    def beval(self, env: Env, b: BExpr) -> bool:
        """`⟦b⟧_V`, as `beval(env, b)`."""
        entry = self._memos.get(id(env))  # the entry keeps `env` alive: its id names it
        if entry is None or max(len(entry[1]), len(entry[2])) >= self.size:
            if entry is None and len(self._memos) >= self.models:
                del self._memos[next(iter(self._memos))]
            entry = self._memos[id(env)] = (env, {}, [])
        entry[2].append(b)  # a root of the memo, kept alive with it (algebra.fold_a)
        try:  # a quantifier longer than `values` is not judged here: false, the solver asks
            return fold_b(Metered(self.values), env, b, entry[1])
        except OutOfSteps:
            return False
