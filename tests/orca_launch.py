"""Runs Orca (``/usr/bin/orca``, with the arguments given) so that its debug log is written line by line.

Orca opens ``--debug-file`` with the default buffering, so its last few kilobytes reach the file only when more
follows; a test reading what Orca said would wait for words already spoken. Run by the system's Python, which has
Orca's libraries (`tests.screenreader`).
"""

import builtins
import runpy
import sys

_open = builtins.open


def _line_buffered(file, mode="r", *args, **kwargs):  # type: ignore[no-untyped-def]
    if "w" in mode and "b" not in mode and not args and "buffering" not in kwargs:
        kwargs["buffering"] = 1
    return _open(file, mode, *args, **kwargs)


builtins.open = _line_buffered
sys.argv = ["/usr/bin/orca", *sys.argv[1:]]
runpy.run_path("/usr/bin/orca", run_name="__main__")
