"""SV-COMP task files (format 2.0): a `.yml` naming the input file, the properties with their
expected verdicts, and the data model. symcert checks `unreach-call` (`reach_error()` is never
called); a task without it is refused with "property not supported".
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from symcert.lang.errors import SymcertError

UNREACH_CALL = "unreach-call"


class TaskError(SymcertError):
    """A task file symcert cannot run: unreadable, not format 2.0, or without `unreach-call`
    (exit 2, a usage error: the file is well formed, symcert does not check its property)."""

    exit_code = 2


@dataclass(frozen=True, slots=True)
class Task:
    """One SV-COMP task: its C file, data model and expected verdict of `unreach-call` (None
    when the file gives none)."""

    path: str
    input_file: str
    data_model: str
    expected: bool | None


def read_task(path: str) -> Task:
    """The task of the `.yml` file `path`.

    :raises TaskError: when it is not a task of format 2.0 with the property `unreach-call`.
    """
    import yaml

    with open(path, encoding="utf-8") as f:
        try:
            data = yaml.safe_load(f)
        except yaml.YAMLError as err:
            raise TaskError(f"{path}: not a YAML task file: {err}") from None
    if not isinstance(data, dict) or str(data.get("format_version")) != "2.0":
        raise TaskError(f"{path}: not an SV-COMP task file of format 2.0")
    files = data.get("input_files")
    files = [files] if isinstance(files, str) else files
    if not files or len(files) != 1:
        raise TaskError(f"{path}: a task with one input file is supported, not {files!r}")
    expected: bool | None = None
    found = False
    for prop in data.get("properties") or []:
        if str(prop.get("property_file", "")).endswith(UNREACH_CALL + ".prp"):
            found = True
            verdict = prop.get("expected_verdict")
            expected = None if verdict is None else bool(verdict)
    if not found:
        raise TaskError(f"{path}: property not supported (symcert checks {UNREACH_CALL} only)")
    model = str((data.get("options") or {}).get("data_model", "ILP32"))
    if model not in ("ILP32", "LP64"):
        raise TaskError(f"{path}: unknown data model {model}")
    return Task(path, os.path.join(os.path.dirname(path), files[0]), model, expected)
