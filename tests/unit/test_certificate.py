"""Certificates (T-C1): `symcert prove --certificate` writes one only for a program proved with
every obligation UNSAT for z3 and for cvc5, and `symcert check-certificate` re-checks it by the
weakest-precondition calculus, refusing a tampered one and naming what is wrong."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from symcert.verify import certificate
from symcert.verify.provers import UNKNOWN, ProverAnswer
from symcert.cli.main import main

SUM = str(Path(__file__).resolve().parents[2] / "examples" / "sum_closed_form.imp")
COUNT = "assume n >= 0; x = 0; while x < n do x = x + 1 od; assert x == n\n"
"""A loop with no written invariant: the certificate's, marked inferred, is the only one."""


@pytest.fixture(scope="module")
def proved(tmp_path_factory) -> dict:
    """The certificate `prove` writes for the summation (its invariant written)."""
    path = tmp_path_factory.mktemp("cert") / "sum.json"
    assert main(["prove", SUM, "--certificate", str(path)]) == 0
    return json.loads(path.read_text())


def recheck(tmp_path, capsys, cert: dict, program: str = SUM) -> tuple[int, str, str]:
    path = tmp_path / "cert.json"
    path.write_text(json.dumps(cert))
    capsys.readouterr()
    code = main(["check-certificate", str(path), program])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_certificate_from_prove_rechecks(proved, tmp_path, capsys):
    assert proved["format"] == "symcert-certificate" and proved["version"] == 1
    assert proved["invariants"] == [{"loop": 0, "line": 6, "column": 1, "source": "written",
                                     "invariant": "0 <= i and i <= n and s == i * (i - 1) / 2"}]
    groups = [(o["group"], o["z3"], o["cvc5"]) for o in proved["obligations"]]
    assert groups == [("engine", "valid", "valid")] * 3 + [("wp", "valid", "valid")] * 3
    code, out, _ = recheck(tmp_path, capsys, proved)
    assert code == 0
    assert out == (f"{tmp_path / 'cert.json'}: valid: 3 verification conditions of the wp "
                   "calculus and 3 engine obligations, each UNSAT for z3 and for cvc5 "
                   f"({SUM})\n")


def _weaken(c):
    c["invariants"][0]["invariant"] = "0 <= i and i <= n"


def _drop(c):
    c["obligations"] = [o for o in c["obligations"] if o["name"] != "assert at 7:1"]


def _unproved(c):
    c["obligations"][-1]["cvc5"] = "unknown"


def _engine(c):
    c["obligations"][0]["smtlib"] = "(declare-const x Int)\n(assert (> x 2))\n(check-sat)\n"


def _text(c):
    c["program"]["text"] = c["program"]["text"].replace("n >= 0", "n >= 1")


@pytest.mark.parametrize("tamper, message", [
    (_weaken, "invalid: the invariant of loop 0 is marked written but differs from the "
              "program's"),
    (_drop, "invalid: the certificate lacks the verification condition `assert at 7:1` (or "
            "records another text for it)"),
    (_unproved, "invalid: the certificate does not record `assert at 7:1` as proved by both "
                "provers (z3 valid, cvc5 unknown)"),
    (_engine, "invalid: the certificate records another text for the engine obligation "
              "`6:1: invariant `0 <= i and i <= n and s == i * (i - 1) / 2` does not hold on "
              "entry: unreachable on path 1` than the program and its invariants give (edited)"),
    (_text, "invalid: the program text the certificate records does not have the SHA-256 "
            "it records (edited)"),
])
def test_a_tampered_certificate_is_rejected(proved, tmp_path, capsys, tamper, message):
    cert = json.loads(json.dumps(proved))
    tamper(cert)
    code, out, _ = recheck(tmp_path, capsys, cert)
    assert code == 1 and out == f"{tmp_path / 'cert.json'}: {message} ({SUM})\n"


def test_a_certificate_is_for_its_program_only(proved, tmp_path, capsys):
    edited = tmp_path / "edited.imp"
    edited.write_text(Path(SUM).read_text().replace("n >= 0", "n >= 1"))
    code, out, _ = recheck(tmp_path, capsys, proved, str(edited))
    assert code == 1 and "invalid: the certificate is for another program" in out


def test_an_inferred_invariant_is_checked_and_a_weakened_one_refuted(tmp_path, capsys):
    program, path = tmp_path / "count.imp", tmp_path / "count.json"
    program.write_text(COUNT)
    assert main(["prove", "--infer", "--max-states", "300", str(program), "--certificate",
                 str(path)]) == 0
    assert ("invariant inferred (z3's Spacer, or guessed from concrete runs), checked by z3 and "
            "cvc5") in capsys.readouterr().out
    good = json.loads(path.read_text())
    assert [i["source"] for i in good["invariants"]] == ["inferred"]
    assert recheck(tmp_path, capsys, good, str(program))[0] == 0
    weak = json.loads(json.dumps(good))  # the invariant edited, its recorded VCs kept
    weak["invariants"][0]["invariant"] = "x >= 0"
    code, out, _ = recheck(tmp_path, capsys, weak, str(program))
    assert code == 1 and "invalid: wp obligation `assert at 1:52`: z3 refutes it: " in out
    model = out.partition("counterexample {")[2].partition("}")[0]
    values = dict(kv.split(" = ") for kv in model.split(", "))
    n, x = int(values["n"]), int(values["x!0"])
    assert n >= 0 and x >= 0 and not x < n and x != n  # a real counterexample to the exit
    # an invariant written in the program is never replaced by an inferred one
    written = tmp_path / "written.imp"
    written.write_text(COUNT.replace("do", "invariant x <= n do"))
    good["program"] = {"text": written.read_text(),
                       "sha256": certificate.sha256(written.read_text())}
    code, out, _ = recheck(tmp_path, capsys, good, str(written))
    assert code == 1 and "an inferred invariant; the program's is written" in out


@pytest.mark.parametrize("content, message", [
    ("{not json", "not a JSON certificate"),
    ('{"format": "symcert-certificate", "version": 2}',
     "certificate version 2 is not supported (this symcert reads version 1)"),
    ('{"format": "symcert-certificate", "version": 1, "program": {}}',
     "malformed certificate: the certificate has no `invariants`"),
    ('[]', "malformed certificate: the certificate has no `format`"),
])
def test_a_malformed_certificate_is_bad_input_without_a_traceback(tmp_path, capsys, content,
                                                                  message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    assert main(["check-certificate", str(path), SUM]) == 65
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"{path}: {message}") and err.count("\n") == 1


def test_an_invariant_that_is_not_a_formula_is_bad_input(proved, tmp_path, capsys):
    cert = json.loads(json.dumps(proved))
    cert["invariants"][0]["invariant"] = "i <="
    code, _, err = recheck(tmp_path, capsys, cert)
    assert code == 65 and "the invariant of loop 0 is not an IMP formula" in err


def test_a_program_outside_the_fragment_is_undecided_and_names_the_construct(tmp_path, capsys):
    program = tmp_path / "call.imp"
    program.write_text("proc f(a) begin return a + 1 end\nx = f(1); assert x == 2\n")
    cert = tmp_path / "call.json"
    assert main(["prove", str(program), "--certificate", str(cert)]) == 0
    assert json.loads(cert.read_text())["outside_wp"] == (
        "a procedure call at 2:1 is outside the wp fragment")
    capsys.readouterr()
    assert main(["check-certificate", str(cert), str(program)]) == 3
    assert "not checked: a procedure call at 2:1 is outside the wp fragment" in (
        capsys.readouterr().out)


def test_prove_needs_both_provers(tmp_path, capsys, monkeypatch):
    """cvc5 unable to prove one obligation again: undecided, and no certificate."""
    monkeypatch.setattr(certificate, "prove_cvc5", lambda text, rlimit: ProverAnswer(UNKNOWN, 0))
    path = tmp_path / "sum.json"
    assert main(["prove", SUM, "--certificate", str(path)]) == 3
    out = capsys.readouterr().out
    assert out.startswith(f"{SUM}: undecided\n") and "cvc5 answers unknown" in out
    assert not path.exists()


def test_prove_writes_no_certificate_the_wp_calculus_refutes(tmp_path, capsys, monkeypatch):
    """The two formulations disagreeing is symcert's bug: exit 70, no certificate."""
    def refuted(p, invariants, rlimit=certificate.RLIMIT):
        wrong = "(declare-const x Int)\n(assert (> x 0))\n(check-sat)\n"
        return (certificate.discharge(certificate.WP, "planted", wrong, rlimit),)

    monkeypatch.setattr(certificate, "wp_check", refuted)
    path = tmp_path / "sum.json"
    assert main(["prove", SUM, "--certificate", str(path)]) == 70
    assert "internal error: the engine proved the program but the wp calculus refutes " \
           "`planted` (z3 refutes it: counterexample {x = 1}" in capsys.readouterr().out
    assert not path.exists()
