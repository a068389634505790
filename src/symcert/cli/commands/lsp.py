"""`symcert lsp`: the language server, over standard input and output (cli/server.py;
docs/editor.md). Its flags give each check's default budget; the client's
`initializationOptions` and `workspace/didChangeConfiguration` settings (`timeout`,
`maxStates`, `allBugs`, `debounce`) override them."""

from __future__ import annotations

import argparse

from symcert.cli.commands.budget import positive, positive_float

HELP = "run the language server (LSP over stdio) for editors: diagnostics and hovers"


def configure(parser: argparse.ArgumentParser) -> None:
    from symcert.cli.findings import Settings

    default = Settings()
    parser.add_argument("--check-timeout", type=positive_float, default=default.timeout, metavar="SECONDS",
                        help="each check's time budget (default: %(default)g s)")
    parser.add_argument("--max-states", type=positive, default=default.max_states, metavar="N",
                        help="each check's state budget (default: %(default)s)")
    parser.add_argument("--all-bugs", dest="all_bugs", action="store_true",
                        help="report every failing statement, as `run --all-bugs` (without "
                             "inference); the default is `run`'s: the first bug, loops and "
                             "procedures proved by inferred invariants and contracts")
    parser.add_argument("--first-bug", dest="all_bugs", action="store_false",
                        help="stop each check at its first bug (the default)")
    parser.add_argument("--debounce", type=float, default=default.debounce, metavar="SECONDS",
                        help="after an edit, wait this long for the next before checking "
                             "(default: %(default)g s)")


def main(args: argparse.Namespace) -> int:
    import gc

    from symcert.cli.findings import Settings, configured
    from symcert.cli.server import serve
    from symcert.lang.errors import InputError

    gc.enable()  # a long-lived server of asyncio objects, not the engine's acyclic data
    settings, refused = configured(Settings(), {"timeout": args.check_timeout,
                                                "maxStates": args.max_states,
                                                "allBugs": args.all_bugs,
                                                "debounce": args.debounce})
    if refused:
        raise InputError(f"symcert lsp: {'; '.join(refused)}")
    return serve(settings)
