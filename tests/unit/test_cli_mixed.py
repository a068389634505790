"""Mixed programs through `run`'s and `prove`'s checks (T-I2: inference fills in only what is
not written; every written annotation is checked as written), and the second checker of the
accelerated replay's jumps (T-A1). The checks are called as the commands call them, with a
short Spacer budget and loops of a few hundred iterations; the programs at full size go through
the `symcert` command in the tests marked slow."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from symcert.cli.main import main
from symcert.core.concrete import Env, State, trace
from symcert.core.concrete import head as concrete_head
from symcert.engine import acceleration
from symcert.engine.acceleration import Jump, jump, proved, run
from symcert.engine.verdict import Budget, Kind, Verdict
from symcert.lang.parser import parse
from symcert.lang.syntax import While
from symcert.verify.inference import InferringCheck
from symcert.verify.proving import prove_inferring
from symcert.solver.z3backend import Solver

INFER_MS = 1_000
"""Spacer's budget here: it answers the correct programs below within it, and times out on
the incorrect ones whatever its budget (their counterexamples are hundreds of iterations deep)."""


LONG_LOOP = "assume n >= 0;\ni = 0;\nwhile i < n do i = i + 1 od;\n"


def wrong_written(bound: int) -> str:
    """A written invariant that fails at j = 6, reached only when n >= `bound`."""
    return LONG_LOOP + (f"j = 0;\nif i >= {bound} then\n"
                               "  while j < 10 invariant j <= 5 do j = j + 1 od\n"
                               "else skip fi;\nassert i == n\n")


def right_written(bound: int) -> str:
    return wrong_written(bound).replace("j <= 5", "j <= 10")


def requires_only(bound: int) -> str:
    """A procedure with only a `requires`, broken by the call `dec(0)` when n >= `bound`."""
    return ("proc dec(x) requires x > 0 begin return x - 1 end\n" + LONG_LOOP
            + f"y = 5;\nif i >= {bound} then y = dec(0) else skip fi\n")


TOO_WEAK = LONG_LOOP + ("j = 0; k = 0;\n"
                           "while j < 10 invariant j <= 10 do j = j + 1; k = k + 2 od;\n"
                           "assert k == 20\n")
"""True but too weak for the assert: proved only if a proposal replaced it."""
REQUIRES_ONLY_RIGHT = ("proc inc(x) requires x >= 0 begin return x + 1 end\n" + LONG_LOOP
                       + "y = inc(i);\nassert y == n + 1\n")
ENSURES_WEAK = ("proc inc(x) requires x >= 0 ensures result >= 0 begin return x + 1 end\n"
                + LONG_LOOP + "y = inc(i);\nassert y == n + 1\n")
"""The written `ensures` is true but too weak for the assert: never strengthened."""


def checked(text: str, max_states: int) -> tuple[Verdict, InferringCheck]:
    """`run`'s check of `text` (`InferringCheck`, as the CLI makes it)."""
    check = InferringCheck(parse(text), Budget(max_states), infer_ms=INFER_MS)
    return check.run(), check


def proved_by_prove(text: str, max_states: int):
    """`prove`'s check of `text` (`prove_inferring`, as the CLI calls it)."""
    return prove_inferring(parse(text), max_states, infer_ms=INFER_MS)


def failing_n(verdict: Verdict) -> int:
    assert verdict.kind is Kind.BUG, verdict
    return verdict.bugs[0].input("n")


def test_run_replays_a_wrong_written_invariant_behind_a_long_loop():
    """The unannotated loop's invariant is proposed, the written one checked as written: its
    failure at n = 40 (past the probe's 50 states) is a replayed bug."""
    verdict, _ = checked(wrong_written(40), 50)
    assert failing_n(verdict) == 40
    assert verdict.bugs[0].final.env("j") == 6  # the written invariant fails there


def test_prove_replays_a_wrong_written_invariant_behind_a_long_loop():
    """`prove` finds the same counterexample (the proposal holds at its loop; the written
    invariant's failure on the annotated program replays on the program as written)."""
    proof, inferred, _ = proved_by_prove(wrong_written(40), 50)
    assert failing_n(proof.verdict) == 40 and inferred == {}


def test_the_fixed_version_is_proved_with_only_the_unwritten_invariant_inferred():
    """With a correct written invariant the program is proved, and only the unannotated loop
    (index 0, line 3) has an inferred invariant, in `run` and in `prove`."""
    verdict, check = checked(right_written(40), 50)
    assert verdict.kind is Kind.SAFE, verdict
    assert check.inferred is not None
    assert [w.pos.line for w, _ in check.inferred.invariants] == [3]
    proof, inferred, _ = proved_by_prove(right_written(40), 50)
    assert proof.verdict.kind is Kind.SAFE and list(inferred) == [0]


def test_a_written_invariant_too_weak_for_the_assert_is_never_strengthened():
    """Spacer's `k == 2 * j` at the written loop would prove the assert; `j <= 10` is checked
    as written, so neither `run` nor `prove` says proved."""
    verdict, check = checked(TOO_WEAK, 100)
    assert verdict.kind is Kind.UNDECIDED and check.inferred is None, verdict
    proof, _, _ = proved_by_prove(TOO_WEAK, 100)
    assert proof.verdict.kind is Kind.UNDECIDED


def test_run_keeps_the_users_precondition_of_a_procedure_with_only_requires():
    """The call `dec(0)` at n = 300 (past the probe's 2,000 states) breaks the written
    `requires`: no proposal replaces it, so the exploration with the whole budget finds it."""
    verdict, _ = checked(requires_only(300), 3_000)
    assert failing_n(verdict) == 300


def test_prove_keeps_the_users_precondition_of_a_procedure_with_only_requires():
    proof, _, _ = proved_by_prove(requires_only(300), 3_000)
    assert failing_n(proof.verdict) == 300


def test_a_procedure_with_only_requires_gets_an_inferred_ensures():
    """Inference fills in the missing `ensures` (and the loop's invariant) and says the
    `requires` is the user's."""
    verdict, check = checked(REQUIRES_ONLY_RIGHT, 100)
    assert verdict.kind is Kind.SAFE and check.inferred is not None, verdict
    assert any(line.startswith("the procedure inc: requires as written ensures ")
               for line in check.inferred.lines())
    proof, _, _ = proved_by_prove(REQUIRES_ONLY_RIGHT, 100)
    assert proof.verdict.kind is Kind.SAFE


def test_a_written_ensures_too_weak_for_the_assert_is_never_strengthened():
    """The written `ensures result >= 0` stays as written: the assert after the call cannot
    be proved from it, so the program is not said safe."""
    verdict, check = checked(ENSURES_WEAK, 100)
    assert verdict.kind is Kind.UNDECIDED and check.inferred is None, verdict
    proof, _, _ = proved_by_prove(ENSURES_WEAK, 100)
    assert proof.verdict.kind is Kind.UNDECIDED


def cond(text: str):
    """The condition `text` as a syntax tree."""
    return parse(f"assert {text}").cond


def test_a_proposal_for_an_annotated_loop_is_never_checked_nor_used_in_its_place():
    """Both checks of a proposal read the written invariant: with Spacer's `k == 2 * j` for
    the annotated loop, z3 and cvc5 still reject the map (the written `j <= 10` cannot prove
    the assert), and the annotated program keeps `j <= 10`."""
    from symcert.verify.inductive import check_invariants
    from symcert.verify.inference import annotate

    p = parse(TOO_WEAK)
    proposal = {0: cond("i <= n"), 1: cond("k == 2 * j and j <= 10")}
    assert not check_invariants(p, proposal).accepted
    assert "invariant k == 2 * j" not in str(annotate(p, proposal))
    assert "invariant i <= n" in str(annotate(p, proposal))


def test_a_proposed_contract_never_replaces_a_written_clause():
    """A proposal `requires true` for `dec` is checked with the written `requires x > 0`
    (the call `dec(0)` breaks it: rejected), a proposal `ensures result == x + 1` for `inc`
    with its written `ensures result >= 0` (too weak for the assert: rejected); the annotated
    programs keep both written clauses; Spacer's encoding fails at the written `requires`."""
    from symcert.verify.summaries import annotate, check_summaries
    from symcert.lang.procedures import table_of
    from symcert.solver import horn_procs

    loop = {0: cond("i <= n")}
    p = parse(requires_only(300))
    true = cond("true")
    assert not check_summaries(p, {"dec": (true, true)}, loop).accepted
    assert "requires x > 0" in str(table_of(annotate(p, {"dec": (true, true)}, loop))["dec"])
    assert not isinstance(horn_procs.infer(parse(requires_only(3)), timeout_ms=INFER_MS),
                          horn_procs.Summaries)
    p = parse(ENSURES_WEAK)
    strong = {"inc": (cond("x >= 0"), cond("result == x + 1"))}
    invariant = {0: cond("i <= n and i >= 0")}
    assert not check_summaries(p, strong, invariant).accepted
    annotated = str(table_of(annotate(p, strong, invariant))["inc"])
    assert "ensures result >= 0" in annotated and "result == x + 1" not in annotated


def _symcert(capsys, tmp_path, text: str, *options: str, command: str = "run"
             ) -> tuple[int, str]:
    """`symcert COMMAND FILE OPTIONS...` of `text`: its exit code and standard output."""
    path = tmp_path / "p.imp"
    path.write_text(text)
    code = main([command, str(path), *options])
    out, _ = capsys.readouterr()
    return code, out


def test_the_commands_show_only_the_unwritten_invariant_as_inferred(capsys, tmp_path):
    """`run` and `prove` print the inferred invariant of the loop at 3:1 and none for the
    annotated loop at 6:3."""
    for command in ("run", "prove"):
        code, out = _symcert(capsys, tmp_path, right_written(40), "--max-states", "50",
                             command=command)
        assert code == 0, out
        assert "the loop at 3:1: invariant" in out and "the loop at 6:" not in out


@pytest.mark.slow
@pytest.mark.parametrize("command", ["run", "prove"])
def test_the_mixed_programs_at_full_size(capsys, tmp_path, command):
    """At n = 2000 (the exploration's own budget): the wrong written invariant and the broken
    `requires` are replayed bugs, the fixed invariant is proved."""
    code, out = _symcert(capsys, tmp_path, wrong_written(2000), command=command)
    assert code == 1 and "invariant `j <= 5` does not hold" in out and "n = 2000" in out, out
    code, out = _symcert(capsys, tmp_path, requires_only(2000), command=command)
    assert code == 1 and "precondition of dec does not hold" in out and "n = 2000" in out, out
    code, out = _symcert(capsys, tmp_path, right_written(2000), command=command)
    assert code == 0 and "the loop at 3:1: invariant" in out, out


ONE_ITERATION = ("i = 0; x = 0;\nwhile i < {bound} do\n  if {guard} then {then} else {other} fi;\n"
                 "  i = i + 1\nod;\n{last}")


def _last(text: str, jumps: bool) -> State:
    state = State(Env.of({}), parse(text))
    last = state
    for last in (run(state, 100_000) if jumps else trace(state, 100_000)):
        pass
    return last


def test_jumped_and_plain_runs_agree_on_guards_at_one_iteration():
    """`==` and `!=` guards true (or false) at one iteration only, the write in either branch:
    the accelerated run ends where the one-step run does (T-A1)."""
    for guard in ("i == 1234", "i != 1234"):
        for then, other in (("x = 1", "skip"), ("skip", "x = 1")):
            text = ONE_ITERATION.format(bound=2000, guard=guard, then=then, other=other,
                                        last="skip")
            assert _last(text, True) == _last(text, False), text


def test_the_folding_and_the_second_checker_each_stop_a_jump_at_the_differing_iteration():
    """The affine folding of `i == 1234`'s negation ends the jump before iteration 1234; a
    jump claimed past it (as a folding that drops that negation would claim it) is refused by
    z3, and the same jump ending before it is proved."""
    p = parse(ONE_ITERATION.format(bound=2000, guard="i == 1234", then="x = 1", other="skip",
                                   last="skip"))
    head = next(s for s in trace(State(Env.of({}), p), 100) if s.env("i") == 1
                and isinstance(concrete_head(s.prog), While))
    found = jump(head, 5, 10 ** 9)
    assert found is None or found.n <= 1233
    read = acceleration.iteration(head)
    assert read is not None
    over = Jump(1998, 5, (("i", 1),), read[0])
    before = Jump(1233, 5, (("i", 1),), read[0])
    assert not proved(head, over, Solver()) and proved(head, before, Solver())


def test_a_failure_at_one_iteration_is_found_and_no_false_alarm_is_raised(tmp_path):
    """A `fail` at the one iteration where `i == 1234` is a replayed bug; the twin that sets
    `x` there satisfies its assert, and its replays (which jump) never report it as a bug."""
    fails = ONE_ITERATION.format(bound=2000, guard="i == 1234", then="fail", other="skip",
                                 last="skip")
    holds = ONE_ITERATION.format(bound=2000, guard="i == 1234", then="x = 1", other="skip",
                                 last="assert x == 1")
    for text, expected in ((fails, 1), (holds, 3)):
        path = tmp_path / "p.imp"
        path.write_text(text)
        done = subprocess.run([sys.executable, "-c", "from symcert.cli.main import entry; entry()",
                               "run", str(path), "--max-states", "200", "--timeout", "5"],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == expected, done.stdout + done.stderr


@pytest.mark.slow
def test_the_guard_at_one_iteration_of_a_long_loop_is_never_a_false_alarm(capsys, tmp_path):
    """The loop of 200,000 iterations with `i == 123457`: its replays jump, and never report
    the assert as failing."""
    text = ONE_ITERATION.format(bound=200000, guard="i == 123457", then="x = 1", other="skip",
                                last="assert x == 1")
    code, out = _symcert(capsys, tmp_path, text, "--max-states", "200")
    assert code == 3, out


def test_a_bug_reported_through_jumps_says_how_its_jumps_were_confirmed(capsys, tmp_path):
    """Text and JSON name the two checkers of the replay's jumps."""
    text = "x = 0; while x < 2000000 do x = x + 2 od; assert x % 2 != 0"
    code, out = _symcert(capsys, tmp_path, text, "--max-states", "100")
    assert code == 1, out
    assert "by z3 for every iteration" in out
    code, out = _symcert(capsys, tmp_path, text, "--max-states", "100", "--json")
    bug = next(e for e in map(json.loads, out.splitlines()) if e.get("event") == "bug")
    assert bug["jumps_confirmed_by"] == ["concrete first and last iterations",
                                         "z3 for every iteration"]


def test_prove_lists_only_the_clauses_it_inferred(capsys, tmp_path):
    """`prove` shows `inc`'s inferred `ensures` with its `requires` as written, and nothing for
    `twice`, whose contract is wholly written."""
    text = ("proc inc(x) requires x >= 0 begin return x + 1 end\n"
            "proc twice(x) requires x >= 0 ensures result == 2 * x begin return x + x end\n"
            + LONG_LOOP + "y = inc(i);\nz = twice(i);\nassert y == n + 1;\nassert z == 2 * n\n")
    code, out = _symcert(capsys, tmp_path, text, "--max-states", "100", command="prove")
    assert code == 0, out
    assert "the procedure inc: requires as written ensures " in out
    assert "twice" not in out
