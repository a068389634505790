"""`symcert run prog.c --witness FILE`: a confirmed bug as a violation witness in SV-COMP's YAML
witness format 2.0 (docs/c.md): one `violation_sequence` entry whose segments follow the
witness's run, each nondet call's value a `function_return` waypoint with the constraint
`\\result == V` at the call, then the `target` waypoint at the failing call. The nondet values
are taken in the order the concrete replay reads them, so a validator that follows the
waypoints meets the same calls in the same order. Correctness witnesses are not written.
"""

from __future__ import annotations

import datetime
import hashlib
import os
import uuid
from typing import Any

import yaml

SPECIFICATION = "G ! call(reach_error())"


def nondet_reads(program: Any, found: Any) -> list[tuple[str, int, int, int]]:
    """The nondet values the witness's concrete replay reads, in the run's order: the site
    `nondet_L_C`, L, C and the value. A read is the assignment `t = nondet_L_C[nondet_L_C_n]`."""
    from symcert.core.concrete import Cells, State, head, trace
    from symcert.lang.syntax import ArrayVar, Assign, Select

    reads: list[tuple[str, int, int, int]] = []
    for state in trace(State(found.input, program), found.final.steps):
        first = head(state.prog)
        if (isinstance(first, Assign) and isinstance(first.expr, Select)
                and isinstance(first.expr.array, ArrayVar)
                and first.expr.array.name.startswith("nondet_")):
            site = first.expr.array.name
            k = state.env(site + "_n")
            cells = found.input(site)
            value = cells(k) if isinstance(cells, Cells) else 0
            line, column = map(int, site.split("_")[1:])
            reads.append((site, line, column, value))
    return reads


def violation_witness(program: Any, found: Any, source: str, data_model: str) -> str:
    """The YAML text of the violation witness of `found` (a confirmed `reach_error()`) in the C
    file `source`."""
    from symcert import __version__

    with open(source, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    name = source
    segments: list[dict[str, Any]] = []
    for _site, line, column, value in nondet_reads(program, found):
        segments.append({"segment": [{"waypoint": {
            "type": "function_return", "action": "follow",
            "constraint": {"value": f"\\result == {value}", "format": "c_expression"},
            "location": {"file_name": name, "line": line, "column": column}}}]})
    pos = found.failing.pos
    segments.append({"segment": [{"waypoint": {
        "type": "target", "action": "follow",
        "location": {"file_name": getattr(pos, "file", "") or source,
                     "line": pos.line, "column": pos.column}}}]})
    entry = {
        "entry_type": "violation_sequence",
        "metadata": {
            "format_version": "2.0",
            "uuid": str(uuid.uuid4()),
            "creation_time": datetime.datetime.now(datetime.timezone.utc)
            .replace(microsecond=0).isoformat().replace("+00:00", "Z"),
            "producer": {"name": "symcert", "version": __version__},
            "task": {"input_files": [name], "input_file_hashes": {name: digest},
                     "specification": SPECIFICATION, "data_model": data_model,
                     "language": "C"},
        },
        "content": segments,
    }
    return str(yaml.safe_dump([entry], sort_keys=False))
