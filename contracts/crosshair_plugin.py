# The `--extra_plugin` file of `run_crosshair.py`. CrossHair `exec`s a plugin's text inside one of
# its own functions, so functions defined here could not see each other: the code lives in the
# importable module `crosshair_types.py` next to this file (found from the repository root, the
# runner's working directory). Not part of the symcert package: crosshair is a test dependency.
import sys

sys.path.insert(0, "contracts")
import crosshair_types  # noqa: E402,F401
