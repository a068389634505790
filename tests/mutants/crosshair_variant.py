# The `--extra_plugin` of `run_variants.py --checker crosshair`: applies the wrong variant named
# by SYMCERT_MUTANT before CrossHair imports the code under analysis. CrossHair `exec`s this
# file inside one of its functions, so it only imports (from the repository root).
import os
import sys

sys.path.insert(0, "tests/mutants")
import variants  # noqa: E402

variants.apply(os.environ["SYMCERT_MUTANT"])
