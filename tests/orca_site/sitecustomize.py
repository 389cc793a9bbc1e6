"""Loaded by the Python that runs Orca in the screen-reader tests (its PYTHONPATH names this folder): Orca's debug
log is then written line by line.

Orca opens ``--debug-file`` with the default buffering, so its last few kilobytes reach the file only when more
follows, and a test reading what Orca said would wait for words already spoken. Orca itself runs unchanged, as
``/usr/bin/orca``, so a check for a running Orca sees it as it is (`tests.screenreader`).
"""

import builtins

_open = builtins.open


def _line_buffered(file, mode="r", *args, **kwargs):  # type: ignore[no-untyped-def]
    if "w" in mode and "b" not in mode and not args and "buffering" not in kwargs:
        kwargs["buffering"] = 1
    return _open(file, mode, *args, **kwargs)


builtins.open = _line_buffered
