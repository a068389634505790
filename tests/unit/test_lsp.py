"""`symcert lsp` in a real session: a client speaks JSON-RPC with Content-Length framing over
the server's stdio (initialize, didOpen, publishDiagnostics, hover, didChange, configuration,
shutdown, exit), and the findings it publishes are read off `symcert run`'s events."""

from __future__ import annotations

import asyncio
import importlib.util
import os
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

from symcert.cli import server
from symcert.cli.findings import Settings, configured, statement_span, token_span

_TOOL = Path(__file__).resolve().parents[2] / "tools" / "check_installed.py"
_spec = importlib.util.spec_from_file_location("check_installed", _TOOL)
check_installed = importlib.util.module_from_spec(_spec)  # type: ignore[arg-type]
sys.modules["check_installed"] = check_installed
_spec.loader.exec_module(check_installed)  # type: ignore[union-attr]

WAIT = 30.0  # seconds at most for any one message: a bound, not a measurement

BUGGY = """# one bug, one proved assertion
y = x * 2;
assert y != 6;
assert y % 2 == 0
"""
SYNTAX = "x = 1;\nif x > then skip fi\n"
THREADS = """proc inc() begin
  var t = c;
  c = t + 1
end
c = 0;
f = spawn inc();
g = spawn inc();
a = get f;
b = get g;
assert c == 2
"""
SLOW = ("i = 0; while i < n do j = 0; while j < n do j = j + 1 od; i = i + 1 od;\n"
        "assert i == n or n < 0\n")
LOOP = "while x > 0 do x = x - 1 od;\nassert x <= 0\n"


class Client(check_installed.Client):
    """The language-server client of tools/check_installed.py on a `symcert lsp` child of this
    environment, keeping the messages a `wait` passed over for a later one."""

    def __init__(self, *flags: str) -> None:
        super().__init__([sys.executable, "-m", "symcert", "lsp", *flags], dict(os.environ))
        self.skipped: list[dict[str, Any]] = []

    def wait(self, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The first message, received or still to come, that is `wanted` (taken out)."""
        for i, message in enumerate(self.skipped):
            if wanted(message):
                return self.skipped.pop(i)
        while not wanted(message := self.inbox.get(timeout=WAIT)):
            self.skipped.append(message)
        return message

    def request(self, method: str, params: Any) -> Any:
        sent = self.send(method, params, request=True)
        return self.wait(lambda m: m.get("id") == sent and "method" not in m)["result"]

    def diagnostics(self, uri: str) -> dict[str, Any]:
        return self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                         and m["params"]["uri"] == uri)["params"]

    def open(self, uri: str, text: str, version: int = 1) -> None:
        self.send("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "imp", "version": version, "text": text}})


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory):
    client = Client("--check-timeout", "20", "--debounce", "0", "--all-bugs")  # every failure
    root = tmp_path_factory.mktemp("lsp")
    result = client.request("initialize", {
        "processId": None, "rootUri": root.as_uri(), "capabilities": {},
        "initializationOptions": {"maxStates": 5_000, "color": "blue"}})
    client.send("initialized", {})
    yield client, root, result
    client.proc.kill()


def test_initialize_announces_the_features(session):
    """The server offers hovers and document sync with save notifications, and logs the
    option it does not know."""
    client, _, result = session
    capabilities = result["capabilities"]
    assert capabilities["hoverProvider"]
    assert capabilities["textDocumentSync"]["openClose"]
    assert capabilities["textDocumentSync"]["save"]
    log = client.wait(lambda m: m.get("method") == "window/logMessage")
    assert "unknown option `color`" in log["params"]["message"]


def test_a_bug_with_its_witness_and_a_proved_assertion(session):
    """didOpen of a buggy program publishes the bug at its line and column with the replayed
    witness and the steps of its replay, and the other assertion as proved; hovers show both."""
    client, root, _ = session
    uri = (root / "buggy.imp").as_uri()
    client.open(uri, BUGGY)
    published = client.diagnostics(uri)
    assert published["version"] == 1
    by_code = {d["code"]: d for d in published["diagnostics"]}
    assert sorted(by_code) == ["assertion", "proved"]
    bug = by_code["assertion"]
    assert bug["severity"] == 1 and bug["source"] == "symcert"
    assert bug["range"] == {"start": {"line": 2, "character": 0},
                            "end": {"line": 2, "character": len("assert y != 6")}}
    assert bug["message"].splitlines()[:2] == ["bug: assertion `y != 6` fails", "input: x = 3"]
    steps = bug["relatedInformation"]
    assert [s["location"]["range"]["start"]["line"] for s in steps] == [1, 2]
    assert steps[0]["message"] == "y = x * 2  -> y = 6"
    proved = by_code["proved"]
    assert proved["severity"] == 4 and proved["range"]["start"] == {"line": 3, "character": 0}
    assert "proved: holds for every input" in proved["message"]

    hover = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                  "position": {"line": 2, "character": 9}})
    assert hover["contents"]["kind"] == "markdown"
    assert "**symcert: bug**" in hover["contents"]["value"]
    assert "input: x = 3" in hover["contents"]["value"]
    hover = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                  "position": {"line": 3, "character": 2}})
    assert "**symcert: proved**" in hover["contents"]["value"]
    assert client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                 "position": {"line": 1, "character": 2}}) is None


def test_a_quantified_bug_names_its_failing_value(session):
    """A bug of a quantified assertion (X-Q1) says at which value of its variable it fails."""
    client, root, _ = session
    uri = (root / "quantified.imp").as_uri()
    client.open(uri, "assume n == 3 and a[0] == 0 and a[1] == 5;\n"
                     "assert forall k in 0 .. n - 1 :: a[k] == 0\n")
    bug = client.diagnostics(uri)["diagnostics"][0]
    assert bug["code"] == "assertion"
    assert "fails at: k = 1 (its first such value, evaluated concretely)" in bug["message"]


def test_a_bug_of_threads_with_its_schedule(session):
    """A bug of threads comes with the schedule that replays it and its interleaving."""
    client, root, _ = session
    uri = (root / "threads.imp").as_uri()
    client.open(uri, THREADS)
    [bug] = client.diagnostics(uri)["diagnostics"]
    assert bug["range"]["start"] == {"line": 9, "character": 0}
    lines = bug["message"].splitlines()
    assert lines[:2] == ["bug: assertion `c == 2` fails", "input: any"]
    assert lines[2].startswith("schedule: 0,0,0,") and lines[2].endswith(
        "(replay it with exec --schedule)")
    steps = [s["message"] for s in bug["relatedInformation"]]
    assert steps[:3] == ["thread 0: c = 0", "thread 0: f = spawn inc()",
                         "thread 0: g = spawn inc()"]
    assert steps.count("thread 1: c = t + 1") == steps.count("thread 2: c = t + 1") == 1


def test_a_syntax_error_and_its_range(session):
    """A syntax error is published at its token, and an edit while a check runs replaces
    that check (a long one: it could not end first): only the new version's diagnostics
    come."""
    client, root, _ = session
    uri = (root / "syntax.imp").as_uri()
    client.open(uri, SYNTAX)
    [error] = client.diagnostics(uri)["diagnostics"]
    assert error["code"] == "syntax error" and error["severity"] == 1
    assert error["range"] == {"start": {"line": 1, "character": 7},
                              "end": {"line": 1, "character": 11}}
    assert error["message"].startswith("syntax error: unexpected `then`")

    client.send("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": 2},
        "contentChanges": [{"text": SLOW}]})
    client.send("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": 3},
        "contentChanges": [{"text": "x = 1;\nif x > 0 then skip else skip fi\n"}]})
    published = client.diagnostics(uri)
    assert published == {"uri": uri, "version": 3, "diagnostics": []}


def test_the_budget_from_the_configuration(session):
    """A state budget set by workspace/didChangeConfiguration leaves the assertion undecided,
    with its cause and the bounded claim."""
    client, root, _ = session
    client.send("workspace/didChangeConfiguration", {"settings": {"symcert": {"maxStates": 3}}})
    uri = (root / "loop.imp").as_uri()
    client.open(uri, LOOP)
    [note] = client.diagnostics(uri)["diagnostics"]
    assert note["severity"] == 3 and note["code"] == "states"
    assert note["range"]["start"] == {"line": 1, "character": 0}
    assert "assertion `x <= 0`: undecided: the state budget (--max-states 3) ran out" in (
        note["message"])
    assert "no assertion fails on any path of at most" in note["message"]


def test_shutdown_then_exit(session):
    """shutdown answers null, and exit ends the server with code 0 (LSP: 0 after shutdown)."""
    client, _, _ = session
    assert client.request("shutdown", None) is None
    client.send("exit", None)
    assert client.proc.wait(timeout=WAIT) == 0


def test_exit_without_shutdown_is_code_1():
    """An exit that no shutdown preceded ends the server with code 1."""
    client = Client()
    client.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    client.send("exit", None)
    assert client.proc.wait(timeout=WAIT) == 1


def test_a_check_past_its_budget_is_stopped(tmp_path, monkeypatch):
    """A check that has not ended GRACE seconds past its timeout is killed and reported
    undecided, and its copy of the document is removed (GRACE made negative here, so the
    long check cannot end first)."""
    monkeypatch.setattr(server, "GRACE", 0.05 - 10.0)
    [finding] = asyncio.run(server.check(SLOW, Settings(timeout=10.0), str(tmp_path)))
    assert (finding.severity, finding.code, finding.verdict) == (3, "time", "undecided")
    assert finding.message.startswith("undecided: the check did not end within 0.05 s")
    assert list(tmp_path.iterdir()) == []


def test_options_are_checked():
    """The client's options apply by name, under `symcert` or not; bad values are refused."""
    base = Settings()
    assert configured(base, {"symcert": {"timeout": 2, "allBugs": False}}) == (
        Settings(timeout=2.0, max_states=base.max_states, all_bugs=False), [])
    settings, refused = configured(base, {"maxStates": 2.5, "timeout": -1, "debounce": 0,
                                          "allBugs": 1})
    assert settings == Settings(debounce=0.0)
    assert refused == ["option `maxStates`: not a valid value: 2.5",
                       "option `timeout`: not a valid value: -1",
                       "option `allBugs`: not a valid value: 1"]
    assert configured(base, None) == (base, [])
    assert configured(base, {"symcert": {"command": ["symcert", "lsp"]}}) == (base, [])


def test_spans():
    """A token's range ends after the token; a statement's at its `;` or comment."""
    lines = ["x = 10;  assert x >= 3 ; # c", "y == 2"]
    assert token_span(lines, 1, 1).end == 1 and token_span(lines, 1, 5).end == 6
    assert token_span(lines, 1, 19).end == 20  # `>=`
    assert token_span(lines, 2, 3).end == 4
    span = statement_span(lines, 1, 10)
    assert lines[0][span.start:span.end] == "assert x >= 3"
    assert token_span(lines, 9, 1).line == 1  # past the end: the last line
