"""The second judge of a C bug (lemma C-T1, docs/c.md): the program compiled by the system's
`gcc` (LP64) and run on the witness's nondet values, fed by a harness, must reach
`reach_error()`, as symcert's concrete replay of the translation did. Skipped without gcc."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from symcert.lang.c.translate import translate
from symcert.lang.c.types import LP64

EX = Path(__file__).resolve().parents[2] / "examples" / "c"
REACHED = 101

EXTRA = {
    "mixed_types_buggy.c": """extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
void reach_error(void) {}
int main(void) {
  unsigned char c = __VERIFIER_nondet_uchar();
  int d = __VERIFIER_nondet_int();
  if (d < -100 || d > 100 || d == 0) return 0;
  unsigned int u = c * 3u;
  int q = (c - 200) / d;
  if (u > 700 && q == -3 && (c - 200) % d != 0) reach_error();
  return 0;
}
""",
    "loop_nondet_buggy.c": """extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int main(void) {
  int s = 0, i;
  for (i = 0; i < 4; i++) {
    int v = __VERIFIER_nondet_int();
    if (v < 0 || v > 9) continue;
    s = s * 10 + v;
  }
  if (s == 2024) reach_error();
  return 0;
}
""",
}


def _cases() -> list[tuple[str, str]]:
    out = [(p.name, p.read_text()) for p in sorted(EX.glob("*_buggy.c"))]
    return out + sorted(EXTRA.items())


def harness(source: str, inputs: dict[str, int]) -> tuple[str, str]:
    """The program with each nondet call `__VERIFIER_nondet_T()` at line L, column C written
    `__nd(L, C)`, its `reach_error` definition a declaration, and a harness that returns the
    witness's value `nondet_L_C[k]` at the k-th call there (0 when the witness gives none, as a
    replay does) and exits with REACHED from `reach_error`."""
    sites = translate(source, "p.c", LP64).nondet_sites
    lines = source.split("\n")
    for site in sorted(sites, key=lambda s: -int(s.split("_")[2])):
        line, column = map(int, site.split("_")[1:])
        text = lines[line - 1]
        call = re.compile(r"__VERIFIER_nondet_\w+\s*\(\s*\)").match(text, column - 1)
        assert call is not None, site
        lines[line - 1] = text[:call.start()] + f"__nd({line}, {column})" + text[call.end():]
    program, found = re.subn(r"void reach_error\(void\)\s*\{[^{}]*\}", "void reach_error(void);",
                             "long long __nd(int, int);\n" + "\n".join(lines))
    assert found == 1
    cells: dict[str, dict[int, int]] = {}
    for name, v in inputs.items():
        m = re.fullmatch(r"(nondet_\d+_\d+)\[(\d+|\*)\]", name)
        assert m is not None, name
        if m.group(2) != "*":
            cells.setdefault(m.group(1), {})[int(m.group(2))] = v
    cases = []
    for k, site in enumerate(sites):
        line, column = map(int, site.split("_")[1:])
        values = "".join(f"case {i}: return {v}LL; " for i, v in cells.get(site, {}).items())
        cases.append(f"if (l == {line} && c == {column}) {{ switch (n[{k}]++) {{ {values}"
                     "default: return 0; } }")
    main = ("#include <stdlib.h>\n#include <stdio.h>\n"
            f"static int n[{max(len(sites), 1)}];\n"
            "long long __nd(int l, int c) {\n  " + "\n  ".join(cases) + "\n  return 0;\n}\n"
            f"void reach_error(void) {{ puts(\"reach_error\"); exit({REACHED}); }}\n")
    return program, main


@pytest.mark.skipif(shutil.which("gcc") is None, reason="no gcc on this machine")
@pytest.mark.parametrize("name, source", _cases(), ids=[n for n, _ in _cases()])
def test_gcc_compiled_program_reaches_reach_error_on_the_witness(name, source, tmp_path):
    program = tmp_path / name
    program.write_text(source)
    done = subprocess.run([sys.executable, "-m", "symcert", "run", str(program), "--json",
                           "--data-model", "LP64"], capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 1, done.stdout + done.stderr
    event = json.loads(done.stdout.splitlines()[-1])
    text, main = harness(source, event["input"])
    (tmp_path / "p.c").write_text(text)
    (tmp_path / "harness.c").write_text(main)
    exe = tmp_path / "p"
    subprocess.run(["gcc", "-std=gnu11", "-O0", "-o", str(exe), str(tmp_path / "p.c"),
                    str(tmp_path / "harness.c")], check=True, capture_output=True)
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=30, check=False)
    assert run.returncode == REACHED, (event["input"], run.stdout, run.stderr)
