"""Runs PyWiSE (wise-se 0.0.7) on one file the way its `wise` command does, timed, as JSON.

Run with PyWiSE's own interpreter (bench/.wisevenv): `python wise_driver.py FILE MAX_STATES`.
It walks `find_bugs` (breadth-first, PyWiSE's default) exactly like `wise FILE -n N`: on the
first `BugFound` it simplifies the path and computes the example input with z3 (as the command
prints it), then stops; on `Finished` it stops (the `wise` command itself never stops there: it
keeps asking the stream and crashes). The time is measured from the parse to the verdict, like
symcert's `seconds`; crashes (RecursionError after about a thousand states) are reported.
"""

import json
import sys
import time


def main() -> None:
    path, budget = sys.argv[1], int(sys.argv[2])
    from wise.bugfinder import BugFound, Finished, find_bugs
    from wise.cli import example_input
    from wise.helpers import simplify_expr
    from wise.parser import parse_imp

    with open(path, encoding="utf-8") as f:
        text = f.read()
    start = time.perf_counter()
    states = 0
    verdict, error = "undecided", None
    try:
        stream = find_bugs(parse_imp(text))
        while states < budget:
            status = next(stream)
            if isinstance(status, Finished):
                verdict = "safe"
                break
            states += 1
            if isinstance(status, BugFound):
                example_input(simplify_expr(status.s[0]))
                verdict = "bug"
                break
    except RecursionError:
        verdict, error = "crashed", "RecursionError"
    except Exception as err:  # PyWiSE's own failures are results here, not bench errors
        # z3's ctypes calls turn a RecursionError into ctypes.ArgumentError: name the cause.
        verdict, error = "crashed", ("RecursionError" if "RecursionError" in str(err)
                                     else type(err).__name__)
    seconds = time.perf_counter() - start
    print(json.dumps({"verdict": verdict, "states": states, "seconds": seconds, "error": error}))


if __name__ == "__main__":
    main()
