"""`symcert check-certificate CERT FILE`: re-check a certificate of `symcert prove` (T-C1,
`verify.certificate`).

The program's SHA-256 must be the certificate's; the verification conditions of the
weakest-precondition calculus (`verify.wp`) are recomputed from the program's text and the
certificate's invariants, and the engine's obligations from the program annotated with the
certificate's inferred invariants and contracts; each must be recorded in the certificate with
the same text, and is asked again of z3 and of cvc5. Exit 0 when every one is UNSAT for
both provers; 1 when the certificate is invalid (which condition, which prover, its
counterexample); 3 when the program is outside the calculus's fragment (which construct) or a
prover answers unknown; 65 when the certificate or the program is malformed.
"""

from __future__ import annotations

import argparse
import json

from symcert.cli.commands.programs import add_program, read_source, source_name

HELP = "re-check a certificate of `prove` without the symbolic engine (wp calculus, z3, cvc5)"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("certificate", metavar="CERT", help="the certificate `prove` wrote")
    add_program(parser)


def main(args: argparse.Namespace) -> int:
    from symcert.verify.certificate import CertificateError, check, from_json

    try:
        with open(args.certificate, "rb") as f:
            data = json.loads(f.read(args.max_input_bytes * 64 + 1).decode("utf-8"))
    except OSError as err:
        raise CertificateError(f"{args.certificate}: cannot read: {err.strerror}") from None
    except (UnicodeDecodeError, ValueError) as err:
        raise CertificateError(f"{args.certificate}: not a JSON certificate ({err})") from None
    try:
        cert = from_json(data)
    except CertificateError as err:
        raise CertificateError(f"{args.certificate}: {err}") from None
    text, program = read_source(args)
    args.budget.enter("checking the certificate")
    outcome = check(cert, text, program)
    for line in outcome.lines:
        print(f"{args.certificate}: {line} ({source_name(args.file)})")
    return outcome.exit_code
