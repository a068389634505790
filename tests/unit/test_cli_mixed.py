"""Issue 44 through `symcert run` and `symcert prove`: mixed programs (inference fills in only
what is not written; every written annotation is checked as written), and the second checker of
the accelerated replay's jumps (T-A1)."""

from __future__ import annotations

import json

from symcert.cli.main import main
from symcert.core.concrete import Env, State, trace
from symcert.core.concrete import head as concrete_head
from symcert.engine.acceleration import Jump, jump, proved, run
from symcert.lang.parser import parse
from symcert.lang.syntax import While
from symcert.solver.z3backend import Solver

LONG_LOOP = "assume n >= 0;\ni = 0;\nwhile i < n do i = i + 1 od;\n"
WRONG_WRITTEN = LONG_LOOP + ("j = 0;\nif i >= 2000 then\n"
                             "  while j < 10 invariant j <= 5 do j = j + 1 od\n"
                             "else skip fi;\nassert i == n\n")
"""The first program of issue 44: the written invariant fails at j = 6 when n = 2000."""
RIGHT_WRITTEN = WRONG_WRITTEN.replace("j <= 5", "j <= 10")
TOO_WEAK = LONG_LOOP + ("j = 0; k = 0;\nwhile j < 10 invariant j <= 10 do j = j + 1; k = k + 2 od;\n"
                        "assert k == 20\n")
"""True but too weak for the assert: proved only if a proposal replaced it."""
REQUIRES_ONLY = ("proc dec(x) requires x > 0 begin return x - 1 end\n" + LONG_LOOP
                 + "y = 5;\nif i >= 2000 then y = dec(0) else skip fi\n")
"""The third program of issue 44: the user's precondition fails at the call when n = 2000."""
REQUIRES_ONLY_RIGHT = ("proc inc(x) requires x >= 0 begin return x + 1 end\n" + LONG_LOOP
                       + "y = inc(i);\nassert y == n + 1\n")
ENSURES_WEAK = ("proc inc(x) requires x >= 0 ensures result >= 0 begin return x + 1 end\n"
                + LONG_LOOP + "y = inc(i);\nassert y == n + 1\n")
"""The written `ensures` is true but too weak for the assert: never strengthened."""


def _run(capsys, tmp_path, text: str, *options: str, command: str = "run") -> tuple[int, str]:
    path = tmp_path / "p.imp"
    path.write_text(text)
    code = main([command, str(path), *options])
    out, _ = capsys.readouterr()
    return code, out


def test_a_wrong_written_invariant_behind_a_long_loop_is_a_replayed_bug(capsys, tmp_path):
    """Issue 44's first program: inference fills in the first loop's invariant only, and the
    written one is checked as written, so its failure at n = 2000 is replayed (exit 1)."""
    code, out = _run(capsys, tmp_path, WRONG_WRITTEN)
    assert code == 1, out
    assert "bug: invariant `j <= 5` does not hold" in out and "n = 2000" in out


def test_its_fixed_version_is_proved_with_the_unwritten_invariant_inferred(capsys, tmp_path):
    """With a correct written invariant the program is proved, and only the unannotated
    loop's invariant is shown as inferred (`run` and `prove`)."""
    code, out = _run(capsys, tmp_path, RIGHT_WRITTEN)
    assert code == 0, out
    assert "the loop at 3:1: invariant" in out and "the loop at 6:" not in out
    code, out = _run(capsys, tmp_path, RIGHT_WRITTEN, command="prove")
    assert code == 0, out
    assert "the loop at 3:1: invariant" in out and "the loop at 6:" not in out


def test_a_written_invariant_too_weak_for_the_assert_is_never_strengthened(capsys, tmp_path):
    """Spacer proves the program with `k == 2 * j` at the written loop; the written `j <= 10`
    is checked as written, so neither `run` nor `prove` says proved."""
    code, out = _run(capsys, tmp_path, TOO_WEAK, "--max-states", "3000")
    assert code == 3, out
    assert "proved with" not in out and "no bug:" not in out
    code, out = _run(capsys, tmp_path, TOO_WEAK, "--max-states", "3000", command="prove")
    assert code == 3, out


def test_a_procedure_with_only_requires_keeps_the_users_precondition(capsys, tmp_path):
    """Issue 44's third program: the call `dec(0)` breaks the written `requires` (exit 1)."""
    code, out = _run(capsys, tmp_path, REQUIRES_ONLY)
    assert code == 1, out
    assert "bug: precondition of dec does not hold" in out and "n = 2000" in out
    code, out = _run(capsys, tmp_path, REQUIRES_ONLY, command="prove")
    assert code == 1, out


def test_a_procedure_with_only_requires_gets_an_inferred_ensures(capsys, tmp_path):
    """Inference fills in the missing `ensures` (and the loop's invariant) and says the
    `requires` is the user's."""
    code, out = _run(capsys, tmp_path, REQUIRES_ONLY_RIGHT)
    assert code == 0, out
    assert "the procedure inc: requires as written ensures" in out
    code, out = _run(capsys, tmp_path, REQUIRES_ONLY_RIGHT, command="prove")
    assert code == 0, out


def test_a_written_ensures_too_weak_for_the_assert_is_never_strengthened(capsys, tmp_path):
    """The written `ensures result >= 0` stays as written: the assert after the call cannot
    be proved from it, so the program is not said safe."""
    code, out = _run(capsys, tmp_path, ENSURES_WEAK, "--max-states", "3000")
    assert code == 3, out
    code, out = _run(capsys, tmp_path, ENSURES_WEAK, "--max-states", "3000", command="prove")
    assert code == 3, out


ONE_ITERATION = "i = 0; x = 0;\nwhile i < 2000 do\n  if {guard} then {then} else {other} fi;\n  i = i + 1\nod;\n{last}"


def test_a_guard_at_one_iteration_never_becomes_a_false_alarm(capsys, tmp_path):
    """Issue 44's second program (a smaller loop): whatever the folding reads of `i == c`, the
    run never reports the assert as failing."""
    text = ONE_ITERATION.format(guard="i == 1234", then="x = 1", other="skip",
                                last="assert x == 1")
    code, out = _run(capsys, tmp_path, text, "--max-states", "200")
    assert code != 1, out


def _last(text: str, jumps: bool) -> State:
    state = State(Env.of({}), parse(text))
    last = state
    for last in (run(state, 100_000) if jumps else trace(state, 100_000)):
        pass
    return last


def test_jumped_and_plain_runs_agree_on_guards_at_one_iteration():
    """`==` and `!=` guards true at one iteration only, the write in either branch: the
    accelerated run ends where the one-step run does (T-A1)."""
    for guard in ("i == 1234", "i != 1234"):
        for then, other in (("x = 1", "skip"), ("skip", "x = 1")):
            text = ONE_ITERATION.format(guard=guard, then=then, other=other, last="skip")
            assert _last(text, True) == _last(text, False), text


def test_the_second_checker_refuses_a_jump_over_an_iteration_that_differs():
    """A jump claimed past `i == 1234` (as a folding that drops `i != 1234` would claim it) is
    refused by z3; the same jump ending before it is proved."""
    p = parse(ONE_ITERATION.format(guard="i == 1234", then="x = 1", other="skip", last="skip"))
    state = State(Env.of({}), p)
    head = next(s for s in trace(state, 100) if s.env("i") == 1
                and isinstance(concrete_head(s.prog), While))
    found = jump(head, 5, 10 ** 9)
    assert found is None or found.n <= 1233  # the folding stops it before the guard
    import symcert.engine.acceleration as acceleration

    s, _ = acceleration.iteration(head)
    over = Jump(1998, 5, (("i", 1),), s)
    before = Jump(1233, 5, (("i", 1),), s)
    assert not proved(head, over, Solver()) and proved(head, before, Solver())


def test_a_bug_reported_through_jumps_says_how_its_jumps_were_confirmed(capsys, tmp_path):
    """Text and JSON name the two checkers of the replay's jumps."""
    text = "x = 0; while x < 2000000 do x = x + 2 od; assert x % 2 != 0"
    code, out = _run(capsys, tmp_path, text, "--max-states", "100")
    assert code == 1, out
    assert "by z3 for every iteration" in out
    code, out = _run(capsys, tmp_path, text, "--max-states", "100", "--json")
    bug = next(e for e in map(json.loads, out.splitlines()) if e.get("event") == "bug")
    assert bug["jumps_confirmed_by"] == ["concrete first and last iterations",
                                         "z3 for every iteration"]
