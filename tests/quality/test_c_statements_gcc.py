"""C's control flow against GCC (lemma C-T1): random statement sequences with loops, `break`,
`continue`, `switch` with fall-through, `do … while`, a helper function and mixed integer
types, each run by symcert's concrete semantics of the translation; those that end normally
are compiled together by the system's `gcc` and every variable's final value must agree.
Skipped without gcc."""

from __future__ import annotations

import random
import shutil
import subprocess

import pytest

from symcert.core.concrete import Ending, Env, run_to_end
from symcert.lang.c.translate import translate
from symcert.lang.c.types import LP64

VARS = [("a", "int"), ("b", "unsigned int"), ("c", "signed char"), ("d", "long"),
        ("e", "unsigned short")]
HELPER = "int h(int x, unsigned y) { if (x > 3) return x - (int)(y % 5u); return x * 2; }"


class Gen:
    """A random statement generator; `loops` counts the loop variables made so far."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.loops = 0

    def expr(self, depth: int = 2) -> str:
        rng = self.rng
        if depth == 0 or rng.random() < 0.3:
            return rng.choice([v for v, _ in VARS] + ["1", "2", "5", "-7", "300u"])
        op = rng.choice(["+", "-", "*", "/", "%", "<", "==", "&&", "h"])
        a, b = self.expr(depth - 1), self.expr(depth - 1)
        if op == "h":
            return f"h({a}, {b})"
        if op in ("/", "%"):
            return f"({a} {op} (({b}) == 0 ? 3 : ({b})))"
        return f"({a} {op} {b})"

    def stmts(self, depth: int, in_loop: bool) -> str:
        return " ".join(self.stmt(depth, in_loop) for _ in range(self.rng.randint(1, 3)))

    def stmt(self, depth: int, in_loop: bool) -> str:
        rng = self.rng
        kind = rng.random()
        target = rng.choice(VARS)[0]
        if depth == 0 or kind < 0.35:
            form = rng.choice(["=", "+=", "-=", "*=", "++", "--"])
            if form in ("++", "--"):
                return f"{target}{form};"
            return f"{target} {form} {self.expr()};"
        if kind < 0.5:
            return (f"if ({self.expr()}) {{ {self.stmts(depth - 1, in_loop)} }} "
                    f"else {{ {self.stmts(depth - 1, in_loop)} }}")
        if kind < 0.6 and in_loop:
            return f"if ({self.expr()}) {rng.choice(['break;', 'continue;'])}"
        self.loops += 1
        i = f"i{self.loops}"
        n = rng.randint(0, 4)
        if kind < 0.75:
            return f"for (int {i} = 0; {i} < {n}; {i}++) {{ {self.stmts(depth - 1, True)} }}"
        if kind < 0.85:
            return (f"{{ int {i} = 0; do {{ {i}++; {self.stmts(depth - 1, True)} }} "
                    f"while ({i} < {n}); }}")
        cases = " ".join(f"case {k}: {self.stmts(depth - 1, in_loop)}"
                         + (" break;" if rng.random() < 0.5 else "") for k in range(3))
        return (f"switch (({self.expr()}) % 4) {{ {cases} default: "
                f"{self.stmts(depth - 1, in_loop)} }}")


def _program(rng: random.Random) -> tuple[str, str]:
    decls = " ".join(f"{t} {v} = {rng.randint(-5, 9) if 'unsigned' not in t else rng.randint(0, 9)};"
                     for v, t in VARS)
    return decls, Gen(rng).stmts(3, False)


@pytest.mark.skipif(shutil.which("gcc") is None, reason="no gcc on this machine")
def test_translated_statements_agree_with_gcc(tmp_path):
    rng = random.Random(7)
    kept: list[tuple[str, str, list[int]]] = []
    for _ in range(60):
        decls, body = _program(rng)
        finals = " ".join(f"r_{v} = {v};" for v, _ in VARS)
        globals_ = " ".join(f"long long r_{v};" for v, _ in VARS)
        src = f"{globals_}\n{HELPER}\nint main(void) {{ {decls} {body} {finals} return 0; }}\n"
        end = run_to_end(Env(), translate(src, "s.c", LP64).main, 200_000)
        if end is not None and end.ending is Ending.NORMAL:
            kept.append((decls, body, [end.env(f"r_{v}") for v, _ in VARS]))
    assert len(kept) > 40
    prints = " ".join(f'printf("%lld\\n", (long long){v});' for v, _ in VARS)
    cases = "\n".join(f"static void case{k}(void) {{ {d} {b} {prints} }}"
                      for k, (d, b, _) in enumerate(kept))
    calls = " ".join(f"case{k}();" for k in range(len(kept)))
    (tmp_path / "s.c").write_text(f"#include <stdio.h>\n{HELPER}\n{cases}\n"
                                  f"int main(void) {{ {calls} return 0; }}\n")
    subprocess.run(["gcc", "-std=gnu11", "-O0", "-w", "-o", str(tmp_path / "s"),
                    str(tmp_path / "s.c")], check=True, capture_output=True)
    printed = [int(x) for x in subprocess.run([str(tmp_path / "s")], capture_output=True,
                                              text=True, check=True, timeout=60).stdout.split()]
    got = [printed[k * len(VARS):(k + 1) * len(VARS)] for k in range(len(kept))]
    wrong = [(d, b, want, g) for (d, b, want), g in zip(kept, got) if want != g]
    assert not wrong, wrong[:3]
