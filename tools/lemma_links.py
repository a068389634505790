"""Link every name of the lemma map's code and checker columns to the line that defines it.

    python tools/lemma_links.py            # rewrite docs/lemmas.md and src/symcert/lemma_map.md
    python tools/lemma_links.py --check    # exit 1 if either is not what this script writes

In the map (the first table of docs/lemmas.md), each backticked name of the columns `code`,
`predicate`, `runtime contract`, `CrossHair check` and `Hypothesis property` becomes a relative
link to its definition, `[`core.concrete.step`](../src/symcert/core/concrete.py#L42)`, which
GitHub opens at that line and the documentation site at its source page (tools/docsite.py). A
dotted name is a module of `src/symcert/` (`symcert.` optional) followed by a definition in it
(`core.state.PathCondition.extend`); a plain name is a predicate tagged `@lemma(...)`; `FILE::name`
is a function of that file (a `check_*` function, a property test); a module alone links to its
file. The existing links are dropped first and the line numbers found anew, so the script can be
run again after any change; a name it cannot find stays unlinked and is listed on stderr.
The packaged copy of the map (`symcert/lemma_map.md`) is written with the same text.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "lemmas.md"
PACKAGED = ROOT / "src" / "symcert" / "lemma_map.md"
COLUMNS = ("code", "predicate", "runtime contract", "CrossHair check", "Hypothesis property")
NAME = re.compile(r"\[(`[^`]+`)\]\([^)]*\)|(`[^`]+`)")
"""A backticked name, linked (`[`n`](target)`) or not."""
CELL = re.compile(r"(?<!\\)\|")


@cache
def tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def defined(body: list[ast.stmt], name: str) -> ast.stmt | None:
    """The statement of `body` that defines `name`: a function, a class or an assignment."""
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if node.name == name:
                return node
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                return node
    return None


def in_file(path: Path, dotted: list[str]) -> int | None:
    """The line defining `a.b` (a top-level `a`, then `b` in its body) in `path`."""
    body: list[ast.stmt] = tree(path).body
    node = None
    for name in dotted:
        node = defined(body, name)
        if node is None:
            return None
        body = getattr(node, "body", [])
    return node.lineno if node is not None else None


def imported(path: Path, name: str) -> list[str] | None:
    """The module (as parts under symcert) that `path` imports `name` from, if it does."""
    package = path.relative_to(ROOT / "src" / "symcert").parent.parts
    for node in tree(path).body:
        if isinstance(node, ast.ImportFrom) and any(a.name == name and a.asname is None
                                                    for a in node.names):
            module = (node.module or "").split(".") if node.module else []
            if node.level:
                return [*package[:len(package) - node.level + 1], *module]
            return module[1:] if module[:1] == ["symcert"] else None
    return None


def module_file(parts: list[str]) -> Path | None:
    base = ROOT / "src" / "symcert" / Path(*parts) if parts else ROOT / "src" / "symcert"
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


@cache
def tagged() -> dict[str, tuple[Path, int]]:
    """Every function tagged `@lemma(...)` in src/ and contracts/: name -> (file, line)."""
    out = {}
    for path in sorted([*ROOT.glob("src/symcert/**/*.py"), *ROOT.glob("contracts/*.py")]):
        for node in ast.walk(tree(path)):
            if isinstance(node, ast.FunctionDef) and any(
                    isinstance(d, ast.Call) and getattr(d.func, "id", None) == "lemma"
                    for d in node.decorator_list):
                out[node.name] = (path, node.lineno)
    return out


def locate(name: str) -> tuple[Path, int | None] | None:
    """Where `name` is defined: (file, line), line None for a module; None if nowhere."""
    if "::" in name:
        file, _, func = name.partition("::")
        path = ROOT / file
        line = in_file(path, func.split(".")) if path.is_file() and path.suffix == ".py" else None
        return (path, line) if line else None
    if "." not in name:
        return tagged().get(name)
    parts = name.removeprefix("symcert.").split(".")
    for cut in range(len(parts), 0, -1):
        path = module_file(parts[:cut])
        if path is not None:
            if cut == len(parts):
                return path, None
            line = in_file(path, parts[cut:])
            if line:
                return path, line
            source = imported(path, parts[cut])
            return locate(".".join([*source, *parts[cut:]])) if source else None
    return None


def is_name(text: str, column: str) -> bool:
    """Whether a backticked `text` of `column` is a name to link, not a formula or a phrase:
    `FILE.py::name`, a dotted name in a module of symcert, or (in `predicate`) an identifier."""
    if re.fullmatch(r"[\w/]+\.py::\w+(\.\w+)*", text):
        return True
    if re.fullmatch(r"[a-z_]\w*(\.\w+)+", text):  # `x.f` is a field, `a.b.c` a name
        return text.count(".") > 1 or module_file([text.partition(".")[0]]) is not None
    return column == "predicate" and re.fullmatch(r"[a-z_]\w*", text) is not None


def link(name: str, missing: list[str]) -> str:
    where = locate(name)
    if where is None:
        missing.append(name)
        return f"`{name}`"
    path, line = where
    target = "../" + path.relative_to(ROOT).as_posix() + (f"#L{line}" if line else "")
    return f"[`{name}`]({target})"


def one(m: re.Match[str], column: str, missing: list[str]) -> str:
    """A backticked name linked anew, or left as it is written if it is not a name."""
    name = (m.group(1) or m.group(2))[1:-1]
    return link(name, missing) if is_name(name, column) else m.group(0)


def linked(text: str, missing: list[str]) -> str:
    """`text` with the names of the map's columns COLUMNS linked anew."""
    lines = text.splitlines(keepends=True)
    start = next(i for i, l in enumerate(lines) if re.match(r"\|\s*ID\s*\|", l))
    header = [c.strip() for c in CELL.split(lines[start].strip())[1:-1]]
    for i in range(start + 2, len(lines)):
        if not lines[i].startswith("|"):
            break
        cells = CELL.split(lines[i])
        for column in COLUMNS:
            k = header.index(column) + 1
            cells[k] = NAME.sub(lambda m: one(m, column, missing), cells[k])
        lines[i] = "|".join(cells)
    return "".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="change nothing; exit 1 if the map is not what the script writes")
    args = ap.parse_args(argv)
    missing: list[str] = []
    text = DOC.read_text(encoding="utf-8")
    new = linked(text, missing)
    for name in sorted(set(missing)):
        print(f"lemma_links: no definition found for `{name}`", file=sys.stderr)
    if args.check:
        stale = [p for p in (DOC, PACKAGED) if p.read_text(encoding="utf-8") != new]
        for path in stale:
            print(f"lemma_links: {path.relative_to(ROOT)} is out of date: run "
                  "python tools/lemma_links.py", file=sys.stderr)
        return 1 if stale or missing else 0
    DOC.write_text(new, encoding="utf-8")
    PACKAGED.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
