"""Micro-benchmark of the term representation: construction, hashing and equality.

    python bench/terms.py [--repeat R]

Prints one line per operation with its best time over R runs of `timeit` (µs per call), for
the symcert that is first on `sys.path`: run it once with each checkout's `src` on PYTHONPATH,
alternating, to compare two representations in the same sitting.
"""

from __future__ import annotations

import argparse
import timeit

from symcert.core import terms
from symcert.lang.syntax import Add, Cmp, Int, Var


def doubled(n: int) -> terms.Term:
    """`x + x` nested n times: a DAG of n nodes whose tree has 2^n leaves (built with `Add`:
    `terms.add` folds `x = x + x` into `x * 2^n`)."""
    t: terms.Term = Var("x")
    for _ in range(n):
        t = Add(t, t)
    return t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    v, c = Var("x"), Int(3)
    small, other = Cmp("<", Add(v, c), v), Cmp("<", Add(Var("x"), Int(3)), Var("x"))
    big, big2 = doubled(200), doubled(200)
    cases = {
        "construct Cmp(Add(v, c), v)": (lambda: Cmp("<", Add(v, c), v), 200_000),
        "hash of Cmp(Add(v, c), v)": (lambda: hash(small), 200_000),
        "equality of two equal Cmp(Add(v, c), v)": (lambda: small == other, 200_000),
        "construct 200 doublings": (lambda: doubled(200), 200),
        "hash of 200 doublings": (lambda: hash(big), 20_000),
        "equality of two 200-doubling terms": (lambda: big == big2, 200),
    }
    for name, (fn, number) in cases.items():
        best = min(timeit.repeat(fn, number=number, repeat=args.repeat)) / number
        print(f"{name:45s} {best * 1e6:10.3f} us")


if __name__ == "__main__":
    main()
