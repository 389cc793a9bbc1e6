"""`libraries_quiet`: what C libraries write to file descriptor 2 goes to a log; Python's own errors still show."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = """
import os, subprocess, sys
from pathlib import Path
from audiocrib.shell.quiet import libraries_quiet
with libraries_quiet(Path(sys.argv[1])) as where:
    os.write(2, b"ALSA lib confmisc.c:855:(parse_card) cannot find card '0'\\n")
    subprocess.run([sys.executable, "-c", "import os; os.write(2, b'aplay: main: no such card')"])
    print("A real error of audiocrib's.", file=sys.stderr)
    print(where)
os.write(2, b"After the block, descriptor 2 is the terminal again.\\n")
"""


def test_the_libraries_complaints_go_to_the_log_and_python_errors_to_the_terminal(tmp_path: Path) -> None:
    log = tmp_path / "data" / "sound-and-speech.log"
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(log)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == ["A real error of audiocrib's.",
                                        "After the block, descriptor 2 is the terminal again."]
    assert done.stdout.strip() == str(log)
    assert log.read_text().splitlines() == ["ALSA lib confmisc.c:855:(parse_card) cannot find card '0'",
                                            "aplay: main: no such card"]


def test_a_log_that_cannot_be_written_sends_them_nowhere(tmp_path: Path) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("")
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(blocker / "sound-and-speech.log")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "ALSA" not in done.stderr and "aplay" not in done.stderr
    assert done.stdout.strip() == "None"
