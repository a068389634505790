"""docs/lemmas.md agrees with itself and with the code.

The catalogue at the end of docs/lemmas.md is the list of lemma IDs, each with its source; the map
(the page's first table) has one row per catalogue ID, in the same order; every `@lemma` tag,
`check_*` function and recorded proof obligation names a catalogue ID, and every tag names rows
that list the tagged function; every name in the map exists and does what its column says; every
covered ID has two independent checkers (different formulations) or a status that says why not.
The packaged copy (`symcert/lemma_map.md`) is the same text.
"""

from __future__ import annotations

import ast
import json
import re
from functools import cache
from importlib import import_module, resources
from pathlib import Path

from symcert.cli.commands.lemmas import LemmaMap, parse_map

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "lemmas.md").read_text()
MAP = parse_map(DOC)
ROWS = {row[0]: dict(zip(MAP.header, row)) for row in MAP.rows}
CATALOGUE = parse_map(DOC.partition("\n## The catalogue\n")[2])
"""The catalogue of docs/lemmas.md: ID, name, source, the statement in words."""
IDS = [row[0] for row in CATALOGUE.rows]
SOURCES = {"W": "seed 000", "T": "seed 001", "G": "seed 002", "B": "seed 003", "M": "seed 004"}
"""The paper each family comes from (docs/lemmas.md, "The sources")."""


def names(cell: str) -> list[str]:
    """The backticked names of a cell (an empty cell is `—`)."""
    return re.findall(r"`([^`]+)`", cell)


@cache
def lemma_tags() -> dict[str, tuple[Path, tuple[str, ...]]]:
    """Every function tagged `@lemma(...)` in src/ and contracts/: name -> (file, IDs)."""
    out: dict[str, tuple[Path, tuple[str, ...]]] = {}
    for path in [*ROOT.glob("src/symcert/**/*.py"), *ROOT.glob("contracts/*.py")]:
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.FunctionDef):
                continue
            for dec in node.decorator_list:
                if (isinstance(dec, ast.Call) and isinstance(dec.func, ast.Name)
                        and dec.func.id == "lemma"):
                    ids = tuple(a.value for a in dec.args if isinstance(a, ast.Constant))
                    assert node.name not in out, f"two predicates named {node.name}"
                    out[node.name] = (path, ids)
    return out


def parts(row_id: str) -> tuple[str, ...]:
    """The single IDs a combined row ID stands for: `M-P3/P4` -> M-P3, M-P4;
    `W-D2.5/2.6` -> W-D2.5, W-D2.6; `W-D2.7..2.11` -> W-D2.7, ..., W-D2.11."""
    family, _, rest = row_id.partition("-")
    letters = re.match(r"[A-Z]*", rest).group(0)
    if ".." in rest:
        first, last = rest.split("..")
        stem, _, lo = first.rpartition(".")
        singles = [f"{stem}.{i}" for i in range(int(lo), int(last.rpartition(".")[2]) + 1)]
    else:
        first, *others = rest.split("/")
        singles = [first, *(o if o[0].isalpha() else letters + o for o in others)]
    return tuple(f"{family}-{s}" for s in singles)


def row_of(tag: str) -> str | None:
    """The row a `@lemma` tag names: its own, or the combined row it is part of."""
    return tag if tag in ROWS else next((r for r in ROWS if tag in parts(r)), None)


def test_the_catalogue_lists_each_id_once_with_its_source():
    """Each ID once, grouped by family in the order W, T, G, B, M, X, C; each row has a name, a
    statement and a source that is its family's paper or, for symcert's own rows, says so."""
    assert CATALOGUE.header == ("ID", "name", "source", "in words")
    assert len(IDS) >= 80 and len(IDS) == len(set(IDS)), "an ID is listed twice"
    families = [i.partition("-")[0] for i in IDS]
    assert sorted(families, key="WTGBMXC".index) == families, "families out of order"
    problems = []
    for lemma_id, name, source, words in CATALOGUE.rows:
        if not re.fullmatch(r"[WTGBMXC]-[A-Z]+[0-9.]*(?:(?:/|\.\.)[A-Z]*[0-9.]+)*", lemma_id):
            problems.append(f"{lemma_id}: not an ID")
        family = lemma_id[0]
        if family in SOURCES and not source.startswith((SOURCES[family], "symcert")):
            problems.append(f"{lemma_id}: source {source!r} is neither {SOURCES[family]} nor "
                            "symcert")
        if family == "C" and not source.startswith(("C11", "symcert")):
            problems.append(f"{lemma_id}: a C rule's source must start with C11 or symcert")
        if family == "X" and not source.startswith("symcert"):
            problems.append(f"{lemma_id}: an extension's source must start with symcert")
        if len(name) < 3 or len(words.split()) < 5:
            problems.append(f"{lemma_id}: no name or no statement")
    assert not problems, "\n".join(problems)


def test_one_map_row_per_catalogue_id():
    ids = [row[0] for row in MAP.rows]
    assert len(ids) == len(set(ids)), "an ID has two rows"
    assert ids == IDS, "the map's rows differ from the catalogue's IDs (IDs or order)"


def test_the_map_states_the_new_ids():
    """An ID whose row is not covered says why, in a sentence."""
    for lemma_id, row in ROWS.items():
        if row["status"].startswith("not covered"):
            assert row["status"].startswith("not covered: ") and len(row["status"].split()) > 5, \
                lemma_id


def test_every_check_function_names_a_catalogue_id():
    """Every top-level `check_*` of contracts/ is a lemma check, tagged with its ID."""
    tags = lemma_tags()
    problems = []
    for path in ROOT.glob("contracts/check_*.py"):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("check_"):
                if node.name not in tags:
                    problems.append(f"{path.name}::{node.name} has no @lemma tag")
                elif not all(row_of(tag) for tag in tags[node.name][1]):
                    problems.append(f"{path.name}::{node.name}: unknown ID {tags[node.name][1]}")
    assert len(tags) >= 20 and not problems, "\n".join(problems)


def test_every_recorded_obligation_names_a_catalogue_id():
    """An obligation of proofs/record.json is named `ID/rule/...`: its ID is a catalogue ID."""
    record = json.loads((ROOT / "proofs" / "record.json").read_text())
    prefixes = {o["obligation"].split("/")[0] for o in record["obligations"]}
    assert prefixes and not {p for p in prefixes if row_of(p) is None}


def test_combined_ids_expand():
    assert parts("M-P3/P4") == ("M-P3", "M-P4")
    assert parts("W-T2.4/2.5/2.6") == ("W-T2.4", "W-T2.5", "W-T2.6")
    assert parts("W-D2.7..2.11") == ("W-D2.7", "W-D2.8", "W-D2.9", "W-D2.10", "W-D2.11")
    assert row_of("W-D2.6") == "W-D2.5/2.6" and row_of("W-D2.12") is None


def test_every_row_has_a_status_and_no_empty_cell():
    problems = []
    for row in MAP.rows:
        if not all(row):
            problems.append(f"{row[0]}: empty cell (write `—`)")
        if row[-1] == "—":
            problems.append(f"{row[0]}: no status")
    assert not problems, "\n".join(problems)


def test_every_lemma_tag_names_rows_that_list_the_predicate():
    problems = []
    tags = lemma_tags()
    assert len(tags) >= 20
    for name, (path, ids) in tags.items():
        column = "CrossHair check" if name.startswith("check_") else "predicate"
        for tag in ids:
            lemma_id = row_of(tag)
            if lemma_id is None:
                problems.append(f"{name} ({path.name}) is tagged with unknown ID {tag}")
                continue
            listed = [n.rsplit("::", 1)[-1] for n in names(ROWS[lemma_id][column])]
            if name not in listed:
                problems.append(f"row {lemma_id} does not list {name} in `{column}`")
    assert not problems, "\n".join(problems)


def test_every_predicate_in_the_table_is_tagged_with_the_row_id():
    problems = []
    tags = lemma_tags()
    for lemma_id, row in ROWS.items():
        for name in names(row["predicate"]):
            if name not in tags:
                problems.append(f"{lemma_id}: no @lemma predicate {name}")
            elif lemma_id not in map(row_of, tags[name][1]):
                problems.append(f"{lemma_id}: {name} is not tagged {lemma_id}")
    assert not problems, "\n".join(problems)


def _contracts(func: object) -> list[object]:
    """The icontract conditions on `func` (contracts are on in the tests)."""
    attrs = getattr(func, "__dict__", {})
    pre = [c for group in attrs.get("__preconditions__", []) for c in group]
    return pre + list(attrs.get("__postconditions__", []))


def _checks(contract: object, lemma_id: str) -> bool:
    condition = getattr(contract, "condition", None)
    return (lemma_id in map(row_of, getattr(condition, "lemma_ids", ()))
            or lemma_id in (getattr(contract, "description", None) or ""))


def test_every_runtime_contract_applies_a_predicate_of_the_row():
    problems = []
    for lemma_id, row in ROWS.items():
        for name in names(row["runtime contract"]):
            module, _, func = name.rpartition(".")
            target = getattr(import_module(f"symcert.{module}"), func)
            if not any(_checks(c, lemma_id) for c in _contracts(target)):
                problems.append(f"{lemma_id}: {name} has no contract for {lemma_id}")
    assert not problems, "\n".join(problems)


def _crosshair_targets() -> tuple[str, ...]:
    source = (ROOT / "contracts" / "run_crosshair.py").read_text()
    return tuple(re.findall(r'^\s+"((?:src|contracts)/[\w/]+\.py)",$', source, re.M))


def test_every_crosshair_check_exists_and_is_run_in_ci():
    problems = []
    targets = _crosshair_targets()
    assert "contracts/check_lemmas.py" in targets
    tags = lemma_tags()
    for lemma_id, row in ROWS.items():
        for name in names(row["CrossHair check"]):
            if "::" in name:  # a check_* function of contracts/
                path, func = name.split("::")
                if path not in targets:
                    problems.append(f"{lemma_id}: {path} is not checked in CI")
                if not (func in tags and tags[func][0] == ROOT / path):
                    problems.append(f"{lemma_id}: no {name}")
            else:  # a module: `crosshair check` searches its contracts for this lemma
                path = "src/" + name.replace(".", "/") + ".py"
                if path not in targets:
                    problems.append(f"{lemma_id}: {path} is not checked in CI")
                module = import_module(name)
                contracted = [f for f in vars(module).values()
                              if callable(f) and getattr(f, "__module__", None) == name]
                if not any(_checks(c, lemma_id) for f in contracted for c in _contracts(f)):
                    problems.append(f"{lemma_id}: no contract of {name} checks it")
    assert not problems, "\n".join(problems)


def _defined(path: Path, func: str) -> bool:
    tree = ast.parse(path.read_text())
    return any(isinstance(n, ast.FunctionDef) and n.name == func for n in ast.walk(tree))


def test_every_property_test_exists():
    problems = []
    for lemma_id, row in ROWS.items():
        for name in names(row["Hypothesis property"]):
            path, _, func = name.partition("::")
            if not (ROOT / path).is_file():
                problems.append(f"{lemma_id}: no file {path}")
            elif not (func.startswith("test_") and _defined(ROOT / path, func)):
                problems.append(f"{lemma_id}: no test {name}")
    assert not problems, "\n".join(problems)


def test_every_proof_obligation_exists():
    """A path under proofs/ (with `::name` inside it), or a prefix of a recorded obligation."""
    problems = []
    record = ROOT / "proofs" / "record.json"
    recorded = ([o["obligation"] for o in json.loads(record.read_text())["obligations"]]
                if record.exists() else [])
    for lemma_id, row in ROWS.items():
        for name in names(row["proof obligation"]):
            path, _, inner = name.partition("::")
            if (ROOT / path).exists():
                if inner and inner not in (ROOT / path).read_text():
                    problems.append(f"{lemma_id}: {name}")
            elif not any(o.startswith(name) for o in recorded):
                problems.append(f"{lemma_id}: proof obligation {name} is neither a file nor "
                                "recorded")
    assert not problems, "\n".join(problems)


KINDS = {
    "predicate": ("predicate", "runtime contract", "CrossHair check", "Hypothesis property"),
    "proof obligation": ("proof obligation",),
    "concrete replay": ("runtime contract", "Hypothesis property"),
    "second engine": ("Hypothesis property",),
    "static input analysis": ("Hypothesis property",),
    "premise oracle": ("Hypothesis property",),
}
"""The independent checkers a row may count, and the columns that must name one of each: a
predicate run by its contract, by CrossHair and by Hypothesis is one checker run three ways;
a proof obligation, an oracle against the concrete semantics, a second engine, a static
analysis of the program (`lang.structure.inputs`), or an oracle of a lemma's premise on the
concrete semantics (B-X5's independence: `checking.independence`) is another."""


def independent(row: dict[str, str]) -> list[str]:
    """The kinds of independent checker a row claims (`2: predicate, proof obligation`)."""
    cell = row["independent checkers"]
    if cell == "—":
        return []
    count, _, kinds = cell.partition(": ")
    listed = kinds.split(", ")
    assert count.isdigit() and int(count) == len(listed) == len(set(listed)), cell
    return listed


def test_independent_checkers_are_backed_and_fewer_than_two_say_so():
    """Each claimed kind is backed by a filled column; a covered row with fewer than two
    independent checkers says `one checker` and why; a row not covered claims none."""
    problems = []
    for lemma_id, row in ROWS.items():
        kinds = independent(row)
        for kind in kinds:
            if kind not in KINDS:
                problems.append(f"{lemma_id}: unknown kind of checker {kind!r}")
            elif not any(names(row[column]) for column in KINDS[kind]):
                problems.append(f"{lemma_id}: claims a {kind} but names none")
        covered = not row["status"].startswith("not covered")
        if covered and len(kinds) < 2 and "one checker" not in row["status"]:
            problems.append(f"{lemma_id}: {len(kinds)} independent checker(s); the status "
                            "must say why (`one checker: ...`)")
        if not covered and kinds:
            problems.append(f"{lemma_id}: not covered, yet claims checkers")
    assert not problems, "\n".join(problems)


def test_a_proof_obligation_counts_once_and_a_predicate_once():
    """Counting filled columns would give W-L2.2 four checkers; it has two."""
    assert independent(ROWS["W-L2.2"]) == ["predicate", "proof obligation"]
    assert independent(ROWS["W-T3.1"]) == ["predicate", "proof obligation", "second engine"]


def test_packaged_map_is_the_docs_map():
    """`symcert lemmas` reads the package's copy; in the repository it links docs/lemmas.md."""
    packaged = resources.files("symcert").joinpath("lemma_map.md").read_text(encoding="utf-8")
    assert packaged == (ROOT / "docs" / "lemmas.md").read_text(encoding="utf-8")
    assert isinstance(parse_map(packaged), LemmaMap)
