"""The language server of `symcert lsp` (pygls, JSON-RPC over stdio): diagnostics on open,
change (after a pause) and save, and hovers on verdicts (docs/editor.md).

Each check is a child `symcert run FILE --json --trace` (with `--all-bugs` only when the
client asks for it: without, the check infers as `run` does, so the verdicts are `run`'s) on a copy of the document, within the budget of `findings.Settings`, so
verification never runs in the server's loop: a check still running when the document changes
again, or closes, is killed with its process group (the solver's own children too), and one
that outlives its `--timeout` by GRACE seconds is killed and reported undecided. The
diagnostics are `findings.findings` of its outcome."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import signal
import subprocess
import tempfile
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from symcert.cli.commands import batch
from symcert.cli.findings import (
    VERDICTS, WARNING, Finding, Settings, Span, child_args, configured, findings, lines_of, stopped,
)

GRACE = 5.0
"""Seconds past a check's own `--timeout` before the server kills it."""


class Server:
    """The server's state: the settings, each document's running check and its last findings
    (with the text they are about)."""

    def __init__(self, settings: Settings) -> None:
        from symcert import __version__

        self.settings = settings
        self.ls = LanguageServer("symcert", __version__)
        self.directory = tempfile.mkdtemp(prefix="symcert-lsp-")
        self.running: dict[str, asyncio.Task[None]] = {}
        self.found: dict[str, tuple[str, list[Finding]]] = {}
        self.shut_down = False
        self._register()

    def serve(self) -> int:
        """Serve on stdin and stdout until `exit`; 0 if `shutdown` came first, else 1 (LSP)."""
        try:
            self.ls.start_io()
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)
        return 0 if self.shut_down else 1

    def _register(self) -> None:
        ls = self.ls

        @ls.feature(types.INITIALIZE)
        def initialize(params: types.InitializeParams) -> None:
            self.configure(params.initialization_options)

        @ls.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
        def change_configuration(params: types.DidChangeConfigurationParams) -> None:
            self.configure(params.settings)
            for uri in {*self.found, *self.running}:
                self.schedule(uri, 0.0)

        @ls.feature(types.TEXT_DOCUMENT_DID_OPEN)
        def did_open(params: types.DidOpenTextDocumentParams) -> None:
            self.schedule(params.text_document.uri, 0.0)

        @ls.feature(types.TEXT_DOCUMENT_DID_CHANGE)
        def did_change(params: types.DidChangeTextDocumentParams) -> None:
            self.schedule(params.text_document.uri, self.settings.debounce)

        @ls.feature(types.TEXT_DOCUMENT_DID_SAVE)
        def did_save(params: types.DidSaveTextDocumentParams) -> None:
            self.schedule(params.text_document.uri, 0.0)

        @ls.feature(types.TEXT_DOCUMENT_DID_CLOSE)
        def did_close(params: types.DidCloseTextDocumentParams) -> None:
            uri = params.text_document.uri
            self.cancel(uri)
            self.found.pop(uri, None)
            ls.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

        @ls.feature(types.TEXT_DOCUMENT_HOVER)
        def hover(params: types.HoverParams) -> types.Hover | None:
            return self.hover(params.text_document.uri, params.position)

        @ls.feature(types.SHUTDOWN)
        def shutdown(*_: Any) -> None:
            for uri in list(self.running):
                self.cancel(uri)
            self.shut_down = True

    def configure(self, options: Any) -> None:
        """Apply the client's options; say which were refused in the client's log."""
        self.settings, refused = configured(self.settings, options)
        for message in refused:
            self.ls.window_log_message(types.LogMessageParams(
                type=types.MessageType.Warning, message=f"symcert: {message}"))

    def cancel(self, uri: str) -> None:
        """Stop the check of `uri` if one is running (its child is killed)."""
        task = self.running.pop(uri, None)
        if task is not None:
            task.cancel()

    def schedule(self, uri: str, delay: float) -> None:
        """Check `uri` after `delay` seconds, in place of a check already running."""
        self.cancel(uri)
        self.running[uri] = asyncio.get_running_loop().create_task(self._check(uri, delay))

    async def _check(self, uri: str, delay: float) -> None:
        await asyncio.sleep(delay)
        document = self.ls.workspace.get_text_document(uri)
        text, version = document.source, document.version
        try:
            found = await check(text, self.settings, self.directory)
        except Exception as err:  # a bug of the server (or no process to be had): say so
            logging.exception("symcert lsp: the check of %s failed", uri)
            found = [Finding(Span(0, 0, 0), WARNING, "internal error",
                             f"symcert lsp: internal error: {type(err).__name__}: {err}")]
        self.running.pop(uri, None)
        self.found[uri] = (text, found)
        lines = lines_of(text)
        self.ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, version=version, diagnostics=[self._diagnostic(uri, lines, f)
                                                   for f in found]))

    def _range(self, lines: list[str], span: Span) -> types.Range:
        return self.ls.workspace.position_codec.range_to_client_units(lines, types.Range(
            types.Position(span.line, span.start), types.Position(span.line, span.end)))

    def _diagnostic(self, uri: str, lines: list[str], f: Finding) -> types.Diagnostic:
        return types.Diagnostic(
            range=self._range(lines, f.span), message=f.message, source="symcert", code=f.code,
            severity=types.DiagnosticSeverity(f.severity),
            related_information=[types.DiagnosticRelatedInformation(
                types.Location(uri, self._range(lines, s.span)), s.message) for s in f.steps]
            or None)

    def hover(self, uri: str, position: types.Position) -> types.Hover | None:
        """The verdicts of the statement under `position`, if the document is as checked."""
        text, found = self.found.get(uri, ("", []))
        if not found or self.ls.workspace.get_text_document(uri).source != text:
            return None
        lines = lines_of(text)
        at = self.ls.workspace.position_codec.position_from_client_units(lines, position)
        here = [f for f in found if f.verdict in VERDICTS and (at.line, at.character) in f.span]
        if not here:
            return None
        return types.Hover(
            contents=types.MarkupContent(types.MarkupKind.Markdown,
                                         "\n\n---\n\n".join(f.hover() for f in here)),
            range=self._range(lines, here[0].span))


async def check(text: str, settings: Settings, directory: str) -> list[Finding]:
    """The findings of `text` checked by a child `symcert run` within `settings` (killed, with
    its process group, when cancelled or GRACE seconds past its timeout)."""
    fd, path = tempfile.mkstemp(suffix=".imp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(text.encode("utf-8"))
        argv = batch.child_argv(child_args(settings), path)
        child = await asyncio.create_subprocess_exec(
            *argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env={**os.environ, "SYMCERT_PROGRESS_SECONDS": "0"}, start_new_session=True)
        try:
            out, err = await asyncio.wait_for(child.communicate(), settings.timeout + GRACE)
        except TimeoutError:
            return [stopped(settings, GRACE)]
        finally:
            if child.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(child.pid, signal.SIGKILL)
                await child.wait()
        assert child.returncode is not None
        return findings(batch.outcome(path, child.returncode, out, err), text)
    finally:
        os.unlink(path)


def serve(settings: Settings) -> int:
    """Run the language server on stdio with `settings` as the default budget."""
    return Server(settings).serve()
