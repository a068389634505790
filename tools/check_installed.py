"""Check symcert as a user installs it, not as the test suite runs it.

    python tools/check_installed.py            # `make installed`, part of `make test`

A wheel of this checkout is built (`pip wheel --no-deps`) and installed with its runtime
dependencies alone (no test extra), at the versions of requirements.lock, into a fresh virtual
environment. From there, in a scratch directory where the repository's files appear under their
own names (as tools/doc_examples.py lays it), it runs:

- each line of the README's "A two-minute tour", with the exit status its comment gives
  (`exit N`); to stay within about two minutes a folder of every example stands for a folder of
  a few (TOUR_FOLDER) and the campaign of 1,000 programs for one of 20 (SMALLER);
- every ```console example of the README and the docs, which must print what its page shows
  (but a `python -c` that imports a package of the test extra, which its page says to install);
- `symcert prove` of a loop without an invariant: PROVED with an inferred one (z3 and cvc5);
- a language-server session: initialize, didOpen of a buggy program, its diagnostics, shutdown
  and exit;
- `symcert run FILE --workers 2` and `symcert run DIR --workers 2` (Dask).

Any command fails on an internal error: exit 70, a Traceback, or "internal error" in what it
prints. Exit 0 when every check passes, else 1 with the failures (`make demo`'s install once
had no cvc5, so `prove` and inference ended in a traceback, while the suite, run from the test
extra's install, was green).
"""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor
from importlib.metadata import packages_distributions
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import doc_examples as docs  # noqa: E402  (tools/ is no package)

LOCK = ROOT / "requirements.lock"
PIP_PIN = re.search(r"^PIP_PIN\s*:=\s*(\S+)", (ROOT / "Makefile").read_text(), re.M).group(1)
TOUR_FOLDER = ("examples/gcd.imp", "examples/gcd_buggy.imp", "examples/threads/counter_buggy.imp")
"""The programs of the folder that stands for `examples/` in the tour."""
SMALLER = [(re.compile(r"(?<=\s)examples/(?=\s|$)"), "tour/"),
           (re.compile(r"--programs 1000\b"), "--programs 20")]
INTERNAL = re.compile(r"Traceback \(most recent call last\)|internal error")
LOOP = "assume n >= 0; i = 0; while i < n do i = i + 1 od; assert i == n\n"
BUGGY = "y = x * 2;\nassert y != 6\n"
WAIT = 120.0
"""Seconds at most for one command or one message of the language server: a bound."""


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_extra() -> set[str]:
    """The distributions of pyproject's test extra."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return {canonical(re.split(r"[=<>\[ ;]", d)[0])
            for d in project["optional-dependencies"]["test"]}


def internal(status: int, printed: str) -> bool:
    return status == 70 or INTERNAL.search(printed) is not None


def sh(command: str | list[str], cwd: Path, env: dict[str, str] | None = None,
       timeout: float = WAIT) -> tuple[int, str]:
    """Run `command` (a shell line, or words); its exit status and what it printed."""
    done = subprocess.run(command, shell=isinstance(command, str), cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)
    return done.returncode, done.stdout + done.stderr


def install(work: Path) -> Path:
    """The `bin` directory of a fresh virtual environment with the wheel of this checkout and
    its runtime dependencies, as pinned by the lock."""
    source = work / "source"  # the files a wheel is built from, so the checkout stays clean
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "src", source / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for step in ([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                  "--wheel-dir", str(work / "dist"), str(source)],
                 [sys.executable, "-m", "venv", str(work / "venv")]):
        status, printed = sh(step, work, timeout=600)
        if status:
            raise SystemExit(f"{' '.join(step)}: exit {status}\n{printed}")
    python = work / "venv" / "bin" / "python"
    (wheel,) = (work / "dist").glob("symcert-*.whl")
    for step in ([str(python), "-m", "pip", "install", "--quiet", PIP_PIN],
                 [str(python), "-m", "pip", "install", "--quiet", "-c", str(LOCK), str(wheel)]):
        status, printed = sh(step, work, timeout=600)
        if status:
            raise SystemExit(f"{' '.join(step)}: exit {status}\n{printed}")
    return python.parent


def installed_extras(bin_dir: Path) -> list[str]:
    """The distributions of the test extra that the environment has (there should be none)."""
    _, printed = sh([str(bin_dir / "python"), "-m", "pip", "freeze"], bin_dir)
    names = {canonical(line.split("==")[0]) for line in printed.splitlines() if "==" in line}
    return sorted(names & test_extra())


def environment(bin_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("SYMCERT_", "PYTEST_", "VIRTUAL_ENV"))}
    return {**env, "PATH": os.pathsep.join([str(bin_dir), env.get("PATH", "")])}


def tour_lines() -> list[tuple[str, int | None]]:
    """The README tour's commands, each with the exit status its comment gives, if any."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = docs.SH_BLOCK.search(readme, readme.index("## A two-minute tour"))
    out = []
    for line in block.group(1).splitlines():
        command, comment = (*re.split(r"\s+#\s", line, maxsplit=1), "")[:2]
        status = re.search(r"\bexit (\d+)\b", comment)
        if command.strip():
            out.append((command.strip(), int(status.group(1)) if status else None))
    return out


def check_tour(bin_dir: Path, work: Path) -> list[str]:
    (work / "tour-run").mkdir()
    cwd = docs.scratch(work / "tour-run")
    (cwd / "tour").mkdir()
    for program in TOUR_FOLDER:
        shutil.copy(ROOT / program, cwd / "tour" / Path(program).name)
    problems = []
    for command, expected in tour_lines():
        for pattern, smaller in SMALLER:
            command = pattern.sub(smaller, command)
        status, printed = sh(command, cwd, environment(bin_dir))
        if internal(status, printed) or (expected is not None and status != expected):
            problems.append(f"README tour: $ {command}\n  exit {status} (the README says "
                            f"{expected}){indented(printed)}")
    return problems


def check_page(bin_dir: Path, work: Path, page: Path) -> list[str]:
    modules = {m for m, dists in packages_distributions().items()
               if {canonical(d) for d in dists} & test_extra()}

    def needs_test_extra(ex: docs.Example) -> bool:
        return ex.command.startswith("python -c") and any(
            re.search(rf"\bimport\b[^;]*\b{re.escape(m)}\b", ex.command) for m in modules)

    directory = work / f"page-{page.stem}"
    directory.mkdir()
    runs = docs.run_page(page, directory, bin_dir, skip=needs_test_extra)
    problems = docs.differences(page, runs)
    problems += [f"{page.relative_to(ROOT)}:{ex.line}: $ {ex.command}\n  internal error"
                 for ex, status, lines in runs if internal(status, "\n".join(lines))]
    return problems


def check_prove(bin_dir: Path, work: Path) -> list[str]:
    (work / "loop.imp").write_text(LOOP)
    status, printed = sh([str(bin_dir / "symcert"), "prove", "loop.imp"], work,
                         environment(bin_dir))
    if status != 0 or "PROVED" not in printed or "inferred" not in printed:
        return [f"symcert prove loop.imp (an inferred invariant): exit {status}"
                f"{indented(printed)}"]
    return []


def check_workers(bin_dir: Path, work: Path) -> list[str]:
    folder = work / "workers"
    folder.mkdir()
    for program in TOUR_FOLDER:
        shutil.copy(ROOT / program, folder / Path(program).name)
    problems = []
    for args, expected in (([str(ROOT / "examples" / "gcd_buggy.imp")], 1), ([str(folder)], 1)):
        command = [str(bin_dir / "symcert"), "run", *args, "--workers", "2"]
        status, printed = sh(command, work, environment(bin_dir))
        if status != expected or internal(status, printed):
            problems.append(f"$ {' '.join(command)}\n  exit {status}, not {expected}"
                            f"{indented(printed)}")
    return problems


class Client:
    """A language-server client of `symcert lsp` over its stdio (Content-Length framing)."""

    def __init__(self, command: list[str], env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env)
        self.inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self.sent = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            headers = {}
            while (line := out.readline().decode("ascii")) not in ("\r\n", ""):
                name, _, value = line.partition(":")
                headers[name.lower()] = value.strip()
            if not headers:
                return
            self.inbox.put(json.loads(out.read(int(headers["content-length"]))))

    def send(self, method: str, params: Any, request: bool = False) -> int | None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self.sent += 1
            message["id"] = self.sent
        body = json.dumps(message).encode("utf-8")
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()
        return message.get("id")

    def wait(self, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        while not wanted(message := self.inbox.get(timeout=WAIT)):
            pass
        return message


def check_lsp(bin_dir: Path, work: Path) -> list[str]:
    client = Client([str(bin_dir / "symcert"), "lsp", "--debounce", "0"], environment(bin_dir))
    try:
        sent = client.send("initialize", {"processId": None, "rootUri": work.as_uri(),
                                          "capabilities": {}}, request=True)
        client.wait(lambda m: m.get("id") == sent)
        client.send("initialized", {})
        uri = (work / "buggy.imp").as_uri()
        client.send("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "imp", "version": 1, "text": BUGGY}})
        published = client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics")
        diagnostics = published["params"]["diagnostics"]
        sent = client.send("shutdown", None, request=True)
        client.wait(lambda m: m.get("id") == sent)
        client.send("exit", None)
        status = client.proc.wait(timeout=WAIT)
    except (queue.Empty, subprocess.TimeoutExpired) as err:
        client.proc.kill()
        return [f"symcert lsp: no answer ({type(err).__name__})"
                f"{indented(client.proc.stderr.read().decode() if client.proc.stderr else '')}"]
    errors = client.proc.stderr.read().decode() if client.proc.stderr else ""
    messages = [d["message"] for d in diagnostics]
    if status != 0 or internal(0, errors + "\n".join(messages)) or not any(
            d.get("code") == "assertion" and "x = 3" in d["message"] for d in diagnostics):
        return [f"symcert lsp: exit {status}, diagnostics {messages}{indented(errors)}"]
    return []


def indented(printed: str) -> str:
    return "".join(f"\n    {line}" for line in printed.splitlines()[-30:])


def main() -> int:
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="symcert-installed-") as tmp:
        work = Path(tmp)
        bin_dir = install(work)
        print(f"installed the wheel without extras in {time.perf_counter() - start:.0f} s")
        problems = [f"the test extra's {name} is installed" for name in installed_extras(bin_dir)]
        checks: list[tuple[str, Callable[[], list[str]]]] = [
            ("the README tour", lambda: check_tour(bin_dir, work)),
            ("symcert prove with inference", lambda: check_prove(bin_dir, work)),
            ("symcert lsp", lambda: check_lsp(bin_dir, work)),
            ("symcert run --workers 2", lambda: check_workers(bin_dir, work)),
        ] + [(f"the examples of {page.relative_to(ROOT)}",
              lambda page=page: check_page(bin_dir, work, page))
             for page in docs.PAGES if docs.examples(page)]

        def timed(check: tuple[str, Callable[[], list[str]]]) -> list[str]:
            began = time.perf_counter()
            try:
                found = check[1]()
            except Exception as err:  # a check that could not run fails, saying why
                found = [f"{check[0]}: {type(err).__name__}: {err}"]
            print(f"{'FAILED' if found else 'ok'}: {check[0]} "
                  f"({time.perf_counter() - began:.0f} s)", flush=True)
            return found

        with ThreadPoolExecutor(max_workers=2) as pool:  # two at a time: CI has two cores
            for found in pool.map(timed, checks):
                problems += found
    print("\n".join(problems))
    print(f"{len(checks)} checks of the installed wheel in "
          f"{time.perf_counter() - start:.0f} s: "
          + ("all passed" if not problems else f"{len(problems)} problems"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
