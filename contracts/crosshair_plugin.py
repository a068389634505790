import symcert.crosshair_plugin  # noqa: F401  (CrossHair execs this file: see that module)
