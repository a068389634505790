"""The Python twins of bench/heap_peer.py are the IMP case studies: each buggy
twin fails on the input symcert reports for its bug, and on random inputs every twin ends as the
concrete interpreter does (fails, is blocked by its leading `assert` where IMP's `assume` blocks,
or ends normally). The inputs are concrete environments; `arguments` turns one into the twin's
Python arguments (arrays as lists or dicts, references as `Node` objects, shared and cyclic as
the environment has them)."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from typing import Callable, get_type_hints

import pytest

from symcert.core.concrete import Cells, Env, run_to_end
from symcert.engine.verdict import check
from symcert.lang.parser import parse_file

ROOT = Path(__file__).resolve().parents[2]
SPEC = importlib.util.spec_from_file_location("heap_peer", ROOT / "bench" / "heap_peer.py")
assert SPEC is not None and SPEC.loader is not None
HEAP_PEER = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(HEAP_PEER)
NAMES = list(HEAP_PEER.PYTHON)
OBJECTS = 4
"""Input objects of a random heap (references 1..4, nil 0)."""


def twin(name: str) -> tuple[Callable[..., None], dict]:
    """The twin function `name` and the namespace it was defined in."""
    space: dict = {}
    exec(compile(HEAP_PEER.PYTHON[name], f"<{name}>", "exec"), space)
    return space[name], space


def _cells(env: Env, name: str) -> Cells:
    value = env(name)
    return value if isinstance(value, Cells) else Cells()


def arguments(fn: Callable[..., None], space: dict, env: Env) -> list[object]:
    """The twin's arguments for the IMP input `env`."""
    made: dict[int, object] = {}

    def ref(i: int) -> object:
        if i == 0:
            return None
        if i not in made:
            made[i] = node = space["Node"]()
            node.val = _cells(env, ".val")(i)
            node.next = ref(_cells(env, ".next")(i))
        return made[i]

    args: list[object] = []
    for name, hint in get_type_hints(fn, space).items():
        if hint is int:
            args.append(env(name))
        elif hint == list[int]:
            n = env("n")
            assert isinstance(n, int)
            args.append([_cells(env, name)(k) for k in range(n)])
        elif hint == dict[int, int]:
            args.append(dict(_cells(env, name).cells))
        elif name != "return":
            args.append(ref(int(env(name))))  # type: ignore[arg-type]
    return args


def python_ending(fn: Callable[..., None], args: list[object]) -> str:
    """`normal`, `fail` (an assert after the first, or a field of None) or `blocked` (the
    leading assert, the precondition)."""
    try:
        fn(*args)
    except AttributeError:
        return "fail"
    except AssertionError as e:
        tb = e.__traceback__
        while tb is not None and tb.tb_frame.f_code is not fn.__code__:
            tb = tb.tb_next
        assert tb is not None
        return "blocked" if tb.tb_lineno == fn.__code__.co_firstlineno + 1 else "fail"
    return "normal"


def random_env(fn: Callable[..., None], space: dict, rng: random.Random) -> Env:
    """Small random values for the twin's parameters, a random heap of OBJECTS objects (any
    shape: shared, cyclic) when it has references."""
    values: dict[str, object] = {}
    for name, hint in get_type_hints(fn, space).items():
        if hint is int:
            values[name] = rng.randint(-1, 4)
        elif hint == list[int]:
            values[name] = Cells.of({k: rng.randint(-2, 2) for k in range(5)})
        elif hint == dict[int, int]:
            keys = rng.sample(range(-1, 5), rng.randint(0, 3))
            values[name] = Cells.of({k: rng.randint(-2, 2) for k in keys})
        elif name != "return":
            values[name] = rng.randint(0, OBJECTS)
            values[".val"] = Cells.of({i: rng.randint(-2, 2) for i in range(1, OBJECTS + 1)})
            values[".next"] = Cells.of({i: rng.randint(0, OBJECTS)
                                        for i in range(1, OBJECTS + 1)})
    return Env.of(values)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", [n for n in NAMES if n.endswith("_buggy")])
def test_buggy_twin_fails_on_symcerts_witness(name):
    verdict = check(parse_file(str(ROOT / "examples" / f"{name}.imp")))
    fn, space = twin(name)
    witness = verdict.bugs[0].input
    assert python_ending(fn, arguments(fn, space, witness)) == "fail", f"{name} on {witness}"


@pytest.mark.parametrize("name", NAMES)
def test_twin_ends_as_the_concrete_run_on_random_inputs(name):
    p = parse_file(str(ROOT / "examples" / f"{name}.imp"))
    fn, space = twin(name)
    rng = random.Random(name)
    seen = set()
    for _ in range(150):
        env = random_env(fn, space, rng)
        final = run_to_end(env, p, 10_000)
        assert final is not None
        ending = python_ending(fn, arguments(fn, space, env))
        assert ending == final.ending.value, f"{name} on {env}: Python {ending}, IMP {final}"
        seen.add(ending)
    assert "normal" in seen, f"{name}: no random input got past the assumptions"
    assert ("fail" in seen) == name.endswith("_buggy"), f"{name}: random inputs saw {seen}"
