"""The soak and the kill tests at their full size: 10,000 soak tables, the program killed 51 times and the server
30 times (the suite runs a share of each, ``AUDIOCRIB_SOAK_SCALE`` in `tests/conftest.py`).

Run from the repository root::

    .venv/bin/python benchmarks/bench_soak.py                 # the full size, one test after another
    .venv/bin/python benchmarks/bench_soak.py --scale 0.25    # the suite's share, for comparison
    .venv/bin/python benchmarks/bench_soak.py --json out.json

Each test runs in this one pytest process (``-n0``; the soak plays on a process a core), with every check it makes
in the suite, so a failure here is a failure. Reported: each test's wall time and what it printed (tables, games,
kills), and the load average before and after (the machine may be shared).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = [
    "tests/test_soak.py::test_the_soak_s_bot_games_keep_every_invariant",
    "tests/test_kill.py::test_kills_at_random_moments_never_lose_a_game",
    "tests/test_serve_kills.py::test_games_survive_kills_at_random_moments",
]
SCALE_VARIABLE = "AUDIOCRIB_SOAK_SCALE"
"""The one figure (read by `tests/conftest.py`): the share of its full size each of `TESTS` runs."""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", type=float, default=1.0, help="share of the full size (default 1: all of it)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "junit.xml"
        env = {**os.environ, SCALE_VARIABLE: str(args.scale)}
        load_before = os.getloadavg()
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "pytest", "-n0", "-q", "-p", "no:cacheprovider", "-rP",
                               f"--junitxml={report}", *TESTS], cwd=ROOT, env=env, capture_output=True, text=True)
        wall = time.perf_counter() - start
        load_after = os.getloadavg()
        cases = ET.parse(report).getroot().iter("testcase")
        figures = {
            "scale": args.scale, "wall_s": round(wall, 1), "passed": done.returncode == 0,
            "load_before": [round(x, 2) for x in load_before], "load_after": [round(x, 2) for x in load_after],
            "tests": {f"{case.get('classname')}::{case.get('name')}": round(float(case.get("time", 0)), 1)
                      for case in cases},
        }
    print(f"scale {args.scale}: {wall:.0f} s in all; load average {load_before[0]:.2f} before, "
          f"{load_after[0]:.2f} after")
    for name, seconds in figures["tests"].items():
        print(f"  {seconds:7.1f} s  {name}")
    for line in done.stdout.splitlines():
        if " kills over " in line or line.startswith("soak: "):
            print(f"  {line.strip()}")
    if done.returncode != 0:
        print(done.stdout[-5000:], done.stderr[-2000:], sep="\n")
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
