"""`symcert derive LANG.sem`: the symbolic definition `L^sym` derived from a language's rules.

The derivation is seed 002's §4.3 (G-C1): left-hand sides linearised, constants of symbolically
extensible sorts replaced by variables plus equations, and each conditional rule `l ∧ b ⇒ r`
turned into `⟨l, ψ⟩ ∧ ¬unsat(ψ ∧ b) ⇒ ⟨r, ψ ∧ b⟩`; unconditional rules are unchanged. The
output is in the seed's notation: the configuration `Cfg^sym`, the conditional rules in full and
the labels of the others (`--all` prints every rule). `imp` and `gcl` name the shipped
definitions (package data, `symcert/seed002/languages/`). A definition with an error exits 65
with its line, column and a caret.
"""

from __future__ import annotations

import argparse
import sys

HELP = "print the symbolic semantics L^sym derived from a rule definition (seed 002)"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("definition", metavar="LANG.sem",
                        help="a language definition, or a shipped one: `imp`, `gcl`")
    parser.add_argument("--all", action="store_true",
                        help="print every rule of L^sym in full, not only the conditional ones")
    parser.add_argument("--concrete", action="store_true",
                        help="print the definition L itself (its rules, generated ones included)")


def main(args: argparse.Namespace) -> int:
    from symcert.seed002.derive import derive
    from symcert.seed002.notation import show_definition
    from symcert.seed002.semfile import find_language, load

    d = load(find_language(args.definition))
    out = d if args.concrete else derive(d)
    sys.stdout.write(show_definition(out, all_rules=args.all))
    return 0
