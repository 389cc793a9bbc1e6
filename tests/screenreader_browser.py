"""A real screen reader reading the browser page: Debian's Chromium as a real window on the private desktop of
`tests.screenreader` (Orca, AT-SPI, Speech Dispatcher), on a real ``audiocrib serve`` over loopback.

`Chromium` starts Debian's chromium (not headless) on the desktop's display with its environment, so it joins the
desktop's accessibility bus, with a fresh profile and ``--force-renderer-accessibility``; a test presses keys with
xdotool into its focused window, as a player would, and reads what Orca said from the `Desktop`. What the page
itself was told (its visible log, the element with the focus) is read through Chromium's DevTools protocol on a
loopback port of its own, which changes nothing a screen reader sees.

`BrowserDesktop` is `tests.screenreader.Desktop` that also reads what Orca says reading a page (its Say All and
browse mode write no voice after the words).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import websocket  # websocket-client, which selenium installs

from tests.screenreader import Desktop, Window, _wait

CHROMIUM = Path(os.environ.get("AUDIOCRIB_CHROMIUM", "/usr/bin/chromium"))
OPTIONS = ("--force-renderer-accessibility", "--no-first-run", "--no-default-browser-check",
           "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-sandbox",
           "--disable-gpu", "--disable-dev-shm-usage", "--password-store=basic", "--disable-features=Translate",
           "--disable-session-crashed-bubble", "--window-position=0,0", "--window-size=1200,980",
           "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0")
"""Chromium's options: accessibility for every page; no first-run questions, updates, sync or network of its own."""

_SPEECH = re.compile(r"SPEECH OUTPUT: '(.*?)' ?\[?(?:\{'established': \w+\})?\]?$", re.DOTALL | re.MULTILINE)
_FOLDED = re.compile(r"\s*\n\s*")


class BrowserDesktop(Desktop):
    """The desktop of `tests.screenreader`, read also where Orca reads a page."""

    def utterances(self) -> list[str]:
        """Everything Orca has said so far, in order: also what it says reading a page (Say All, browse mode), whose
        log lines have no voice after the words."""
        try:
            log = self.orca_log.read_text(errors="replace")
        except FileNotFoundError:
            return []
        return [_FOLDED.sub(" ", match).strip() for match in _SPEECH.findall(log)]


def require_chromium() -> None:
    """Skip where Debian's chromium is missing (fail under CI)."""
    if CHROMIUM.exists() and shutil.which("xdotool"):
        return
    message = f"{CHROMIUM} and xdotool not found (apt-get install chromium xdotool)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


class Chromium(Window):
    """Chromium on ``desktop`` with a fresh profile in ``folder``, opened at ``url``; close it with `close`."""

    def __init__(self, desktop: Desktop, folder: Path, url: str, name: str = "chromium") -> None:
        require_chromium()
        self.desktop = desktop
        self.env = dict(desktop.env)
        profile = folder / f"{name}-profile"
        profile.mkdir(parents=True, exist_ok=True)
        self.process = desktop._spawn(name, [str(CHROMIUM), *OPTIONS, f"--user-data-dir={profile}", url])
        port_file = profile / "DevToolsActivePort"
        _wait(lambda: port_file.exists() and port_file.read_text().strip(), "Chromium's DevTools port", 60)
        self.devtools_port = int(port_file.read_text().split()[0])
        self.window = str(_wait(self._find, "Chromium's window", 60))
        self._socket: Any = None
        self._id = 0
        self.focus()

    # -- the window and its keys -----------------------------------------------------------------------------

    def _find(self) -> str | None:
        found = subprocess.run(["xdotool", "search", "--onlyvisible", "--class", "chromium"], env=self.env,
                               capture_output=True, text=True, timeout=10)
        windows = found.stdout.split()
        return windows[-1] if windows else None

    def type(self, text: str, delay: int = 60) -> None:
        """Type ``text`` as keys, ``delay`` milliseconds apart (a page takes them slower than a terminal)."""
        super().type(text, delay)

    # -- what the page holds, read through DevTools -----------------------------------------------------------

    def _connect(self) -> Any:
        if self._socket is None:
            def page() -> str | None:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{self.devtools_port}/json/list",
                                                timeout=5) as got:
                        targets = json.load(got)
                except OSError:
                    return None
                pages = [t for t in targets if t.get("type") == "page" and t.get("url", "").startswith("http")]
                return str(pages[0]["webSocketDebuggerUrl"]) if pages else None

            address = str(_wait(page, "the page in DevTools", 30, every=0.2))
            self._socket = websocket.create_connection(address, timeout=10, suppress_origin=True)
        return self._socket

    def evaluate(self, expression: str) -> Any:
        """The value of ``expression`` (JSON) in the page."""
        socket = self._connect()
        self._id += 1
        socket.send(json.dumps({"id": self._id, "method": "Runtime.evaluate",
                                "params": {"expression": expression, "returnByValue": True}}))
        while True:
            answer = json.loads(socket.recv())
            if answer.get("id") == self._id:
                break
        result = answer.get("result", {})
        if "exceptionDetails" in result:
            raise AssertionError(f"the page could not evaluate {expression!r}: {result['exceptionDetails']}")
        return result.get("result", {}).get("value")

    def log(self) -> list[str]:
        """The page's visible log: every announcement it was given, in order (its newest 500)."""
        return [str(text) for text in self.evaluate(
            "Array.from(document.querySelectorAll('#log li'), (e) => e.textContent)") or []]

    def focused(self) -> str:
        """The element with the focus: its id, or its role, or its tag."""
        return str(self.evaluate("(() => { const e = document.activeElement;"
                                 " return e ? (e.id || e.getAttribute('role') || e.tagName.toLowerCase()) : '';"
                                 " })()"))

    def screen(self) -> dict[str, Any]:
        """What is on the page: the mode, the menu's items, the hand's buttons, whether the text box is shown."""
        found = self.evaluate("""(() => ({
            mode: document.body.dataset.mode || '',
            menu: Array.from(document.querySelectorAll('#menu button'), (e) => e.textContent),
            hand: Array.from(document.querySelectorAll('#hand button'), (e) => e.textContent),
            typing: !document.getElementById('typing').hidden,
        }))()""")
        assert isinstance(found, dict)
        return found

    def reload(self) -> None:
        """Reload the page as F5 does (the key, into the window)."""
        self.keys("F5")

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
        super().close()
