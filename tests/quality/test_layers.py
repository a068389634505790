"""The package's layers (docs/architecture.md) hold: no import cycle, no upward import.

Every `import` of a symcert module in `src/symcert`, at module level or inside a function, counts
(those under `if TYPE_CHECKING:` are for type checkers only and do not); each module's rank is
the first entry of `LAYERS` that names it or its package, and a module may import only modules of
its own rank or below. z3 and cvc5 are imported only by the solver backend and the prover runner.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"

LAYERS = (  # bottom to top
    ("symcert.lang.errors", "symcert.lang.sharing", "symcert.lang.expressions", "symcert.lang.calls",
     "symcert.lang.syntax",
     "symcert.lang.structure", "symcert.lang.objects", "symcert.lang.annotations",
     "symcert.lang.procedures"),
    ("symcert.spec.switch", "symcert.spec.printing"),
    ("symcert.lang",),
    ("symcert.core.intmap", "symcert.core.algebra", "symcert.core.terms", "symcert.core.frames",
     "symcert.core.concrete", "symcert.core.valuations", "symcert.core.guards",
     "symcert.core.entailment", "symcert.core.threads"),
    ("symcert.spec.concretization",),
    ("symcert.core.state",),
    ("symcert.spec.definedness", "symcert.spec.evaluation"),
    ("symcert.core",),
    ("symcert.solver",),
    ("symcert.spec.expansion",),
    ("symcert.engine.symbols", "symcert.engine.alias", "symcert.engine.invariants", "symcert.engine.contracts",
     "symcert.engine.por", "symcert.engine.threads", "symcert.engine.merge",
     "symcert.engine.explore", "symcert.engine.status"),
    ("symcert.spec.bugs",),
    ("symcert.engine",),
    ("symcert.seed004", "symcert.seed002"),
    ("symcert.verify",),
    ("symcert.checking",),
    ("symcert.distributed",),
    ("symcert.cli",),
    ("symcert",),
)
NATIVE = {"z3": {"symcert.solver.z3backend", "symcert.solver.z3terms", "symcert.solver.horn",
                "symcert.solver.horn_procs", "symcert.verify.provers"},
          "cvc5": {"symcert.verify.provers"}}
MAX_LINES = 500
GENERATED = {"symcert.lang.lalr"}
"""Modules written by a program, not by hand (tools/make_parser.py: lark's stand-alone parser),
exempt from MAX_LINES; tests/unit/test_parser.py checks that each is what its program makes."""


def modules() -> dict[str, Path]:
    out = {}
    for path in sorted((SRC / "symcert").rglob("*.py")):
        parts = path.relative_to(SRC).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def rank(module: str) -> int:
    for i, layer in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in layer):
            return i
    raise AssertionError(f"{module} is in no layer of LAYERS")


def _type_checking(node: ast.If) -> bool:
    return isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def imports(path: Path, name: str, known: set[str]) -> set[str]:
    """The modules `path` imports (symcert's, resolved to modules, and top-level others)."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking(node):
            return
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for a in node.names:
                sub = f"{node.module}.{a.name}"
                found.add(sub if sub in known else node.module)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8"), str(path)))
    return found - {name}


GRAPH = {name: imports(path, name, set(modules())) for name, path in modules().items()}


def test_every_module_has_a_layer():
    for name in GRAPH:
        rank(name)


def test_no_upward_import():
    upward = [f"{a} (layer {rank(a)}) imports {b} (layer {rank(b)})"
              for a, deps in GRAPH.items() for b in deps
              if b.startswith("symcert") and b != "symcert" and rank(b) > rank(a)]
    assert not upward, "\n".join(upward)


def test_no_import_cycle():
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    cycles = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for dep in sorted(d for d in GRAPH[node] if d in GRAPH and d != "symcert"):
            if state.get(dep) == 1:
                cycles.append(" -> ".join(path[path.index(dep):] + [dep]))
            elif dep not in state:
                visit(dep, path + [dep])
        state[node] = 2

    for name in sorted(GRAPH):
        if name not in state:
            visit(name, [name])
    assert not cycles, "\n".join(cycles)


def test_only_the_backends_import_the_solvers():
    for native, allowed in NATIVE.items():
        importers = {a for a, deps in GRAPH.items() if native in deps or any(
            d.startswith(native + ".") for d in deps)}
        assert importers <= allowed, f"{native} imported by {sorted(importers - allowed)}"


def test_no_module_over_500_lines():
    long = {name: n for name, path in modules().items() if name not in GENERATED
            and (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, long
    assert GENERATED <= set(modules())


def test_the_checker_sees_an_upward_import_and_a_cycle(tmp_path):
    """The graph is read from the source: a planted upward import would be found."""
    planted = tmp_path / "m.py"
    planted.write_text("def f():\n    from symcert.cli.main import main\n"
                       "if TYPE_CHECKING:\n    import symcert.checking.campaign\n")
    deps = imports(planted, "symcert.core.terms", set(modules()))
    assert deps == {"symcert.cli.main"} and rank("symcert.cli.main") > rank("symcert.core.terms")
