"""`symcert tree FILE`: the symbolic execution tree (seed 000, Fig. 4) as Graphviz DOT.

Nodes are symbolic states, explored breadth-first with `expand` (Fig. 7); an edge is labelled with
the conjunct the step added to the path condition. Stuck states (the next statement is `fail`) are
red, final states are double circles, branches the solver proves UNSAT are drawn dashed and grey and
not explored, branches it cannot decide (UNKNOWN) are explored and drawn orange. With threads, a
configuration shows each unfinished thread's next statement (`t1: x = 1`), and an edge the thread
that stepped.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from typing import TYPE_CHECKING

from symcert.cli.commands.budget import positive
from symcert.cli.commands.events import in_words
from symcert.cli.commands.programs import add_program, read_program
from symcert.cli.commands.values import text

if TYPE_CHECKING:
    from symcert.core.state import SymState

HELP = "print the symbolic execution tree as Graphviz DOT (or SVG)"


def configure(parser: argparse.ArgumentParser) -> None:
    add_program(parser, alias=True)
    parser.add_argument("--max-states", type=positive, default=200, metavar="N",
                        help="how many states to draw (default: 200)")
    parser.add_argument("--format", choices=("dot", "svg"), default="dot",
                        help="dot (default) or svg (needs Graphviz's `dot` on the PATH)")


def main(args: argparse.Namespace) -> int:
    from symcert.lang.errors import InputError

    program = read_program(args)
    args.budget.enter("drawing the tree")
    dot = to_dot(program, args.max_states)
    args.budget.enter("writing the tree")
    if args.format == "dot":
        sys.stdout.write(dot)
        return 0
    exe = shutil.which("dot")
    if exe is None:
        raise InputError("symcert tree: --format svg needs Graphviz's `dot` on the PATH; "
                         "use --format dot and render it elsewhere")
    done = subprocess.run([exe, "-Tsvg"], input=dot, capture_output=True, text=True, check=True)
    sys.stdout.write(done.stdout)
    return 0


def to_dot(program: object, max_states: int) -> str:
    """The first `max_states` states of the breadth-first tree of `program`, as DOT text: the
    stream `run` draws it, each successor reported by its `watch` (pruned ones as UNSAT)."""
    from symcert.core.concrete import head, is_stuck
    from symcert.engine.explore import run
    from symcert.solver.z3backend import Sat, solver_for
    from symcert.core.state import SymState, initial
    from symcert.lang.syntax import Skip
    from symcert.core.terms import show

    lines = ["digraph symcert {", '  node [shape=box, fontname="monospace", fontsize=10];',
             '  edge [fontname="monospace", fontsize=9];']
    ident: dict[int, int] = {}  # a drawn state's node number, by the id of the state drawn
    count = 1

    def watch(parent: SymState, child: SymState, answer: Sat) -> None:
        nonlocal count
        new = child.pc.last if child.pc is not parent.pc else None
        said = text(in_words([new])[0], show) if new is not None else None
        if child.config is not None and parent.config is not None and len(
                child.config.schedule) > len(parent.config.schedule):
            who = f"t{child.config.schedule[-1]}"
            said = who if said is None else f"{who}: {said}"
        attrs = [f"label={_quote(said)}"] if said is not None else []
        if answer is Sat.UNSAT:
            lines.append(f'  p{count} [label="UNSAT", shape=plaintext, fontcolor=grey];')
            attrs += ["style=dashed", "color=grey"]
            lines.append(f"  n{ident[id(parent)]} -> p{count} [{', '.join(attrs)}];")
        elif count < max_states:
            attrs += ["color=orange"] if answer is Sat.UNKNOWN else []
            lines.append(f"  n{ident[id(parent)]} -> n{count} [{', '.join(attrs)}];")
            pending.append(count)
        else:
            return
        count += 1

    pending = [0]  # node numbers given to successors, in the order the stream will yield them
    drawn = 0
    for state in run([initial(program)], solver=solver_for(program), watch=watch):  # type: ignore[arg-type]
        if state is None or drawn == len(pending):
            break
        ident[id(state)] = pending[drawn]
        drawn += 1
        style = ""
        if is_stuck(state.prog):
            style = ", color=red, fontcolor=red"
        elif state.prog == Skip() and state.frame is None and (
                state.config is None or all(t.finished for t in state.config.threads)):
            style = ", peripheries=2"
        lines.append(f"  n{ident[id(state)]} [label={_quote(node(state))}{style}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def node(state: SymState) -> str:
    """A state's label: its next statement; with threads, each unfinished thread's."""
    from symcert.core.concrete import head, is_stuck

    if state.config is None or is_stuck(state.prog):
        return label(head(state.prog))
    return "\n".join(f"t{i}: {label(head(t.prog))}" for i, t in enumerate(state.config.threads)
                     if not t.finished) or "skip"


def label(stmt: object) -> str:
    """The first line of a statement as printed: `if c then` or `while c do` for a compound
    one, whose whole text (its nested body, indented) is never built."""
    from symcert.lang.syntax import If, While

    if isinstance(stmt, If):
        return f"if {text(stmt.cond)} then"
    if isinstance(stmt, While):
        return f"while {text(stmt.cond)} do"
    return text(stmt)


def _quote(line: str) -> str:
    """A DOT string: backslashes and quotes escaped, a line break as DOT's `\\n`."""
    escaped = line.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return '"' + escaped + '"'
