"""C's integer semantics against GCC (lemmas C-I2, C-I3, C-I4, C-T1): random expressions over
variables of mixed integer types, each translated and run by symcert's concrete semantics; those
that end normally (no undefined behaviour, no division by zero) are compiled together by the
system's `gcc` (LP64, as this machine is) and every value must agree. Skipped without gcc."""

from __future__ import annotations

import random
import shutil
import subprocess

import pytest

from symcert.core.concrete import Ending, Env, run_to_end
from symcert.lang.c.translate import translate
from symcert.lang.c.types import LP64

TYPES = ["_Bool", "char", "signed char", "unsigned char", "short", "unsigned short", "int",
         "unsigned int", "long", "unsigned long", "long long", "unsigned long long"]
BINARY = ["+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=", "&&", "||"]


def _value(rng: random.Random, ty: str) -> int:
    t = LP64.named(ty) if ty != "_Bool" else LP64.type_of(("_Bool",))
    assert t is not None
    pick = rng.random()
    if pick < 0.3:
        return rng.choice([t.lo, t.hi, 0, 1, t.lo + 1 if t.signed else 2, -1 if t.signed else 3])
    return rng.randint(max(t.lo, -300), min(t.hi, 300)) if pick < 0.8 else rng.randint(t.lo, t.hi)


def _expr(rng: random.Random, names: list[str], depth: int) -> str:
    if depth == 0 or rng.random() < 0.25:
        if rng.random() < 0.7:
            return rng.choice(names)
        return rng.choice(["0", "1", "2", "7", "-3", "255u", "65536", "2147483647",
                           "4294967295u", "-1L", "100ul"])
    kind = rng.random()
    a = _expr(rng, names, depth - 1)
    if kind < 0.1:
        return f"(({rng.choice(TYPES)}) {a})"
    if kind < 0.2:
        return f"({rng.choice(['-', '~', '!'])} {a})"
    if kind < 0.27:
        return f"({a} {rng.choice(['<<', '>>'])} {rng.randint(0, 5)})"
    if kind < 0.32:
        return f"({a} & {rng.choice([1, 3, 7, 255, 65535])})"
    b = _expr(rng, names, depth - 1)
    if kind < 0.38:
        return f"({_expr(rng, names, depth - 1)} ? {a} : {b})"
    return f"({a} {rng.choice(BINARY)} {b})"


def _case(rng: random.Random, k: int) -> tuple[str, str]:
    """Declarations of a few variables and an expression over them."""
    names, decls = [], []
    for i in range(rng.randint(1, 4)):
        ty = rng.choice(TYPES)
        name = f"v{k}_{i}"
        suffix = ("U" if "unsigned" in ty else "") + ("LL" if "long" in ty else "")
        v = _value(rng, ty)
        literal = f"({v + 1}{suffix} - 1)" if v < -2**31 else f"{v}{suffix}"  # no constant is < LLONG_MIN + 1
        decls.append(f"{ty} {name} = {literal};")
        names.append(name)
    return " ".join(decls), _expr(rng, names, rng.randint(1, 4))


@pytest.mark.skipif(shutil.which("gcc") is None, reason="no gcc on this machine")
def test_translated_expressions_agree_with_gcc(tmp_path):
    rng = random.Random(41)
    kept: list[tuple[str, str, int]] = []
    for k in range(400):
        decls, expr = _case(rng, k)
        src = f"long long r;\nint main(void) {{ {decls} r = (long long)({expr}); return 0; }}\n"
        end = run_to_end(Env(), translate(src, "e.c", LP64).main, 100_000)
        assert end is not None
        if end.ending is Ending.NORMAL:
            kept.append((decls, expr, end.env("r")))
    assert len(kept) > 150  # most expressions are defined
    body = "\n".join(f"  {{ {d} printf(\"%lld\\n\", (long long)({e})); }}" for d, e, _ in kept)
    (tmp_path / "e.c").write_text(f"#include <stdio.h>\nint main(void) {{\n{body}\n  return 0;\n}}\n")
    subprocess.run(["gcc", "-std=gnu11", "-O0", "-w", "-o", str(tmp_path / "e"),
                    str(tmp_path / "e.c")], check=True, capture_output=True)
    printed = subprocess.run([str(tmp_path / "e")], capture_output=True, text=True, check=True,
                             timeout=60).stdout.split()
    wrong = [(d, e, want, int(got)) for (d, e, want), got in zip(kept, printed)
             if want != int(got)]
    assert len(printed) == len(kept) and not wrong, wrong[:5]
