"""The browser page's speed, measured in the real browser: page open to the first announcement, and a key press to
the live region's answer.

Run from the repository root (Debian's chromium and chromium-driver installed; see tests/browser_driver.py)::

    .venv/bin/python benchmarks/bench_browser.py                 # 20 loads, 50 presses of each key: about 1 minute
    .venv/bin/python benchmarks/bench_browser.py --loads 5 --presses 10 --json out.json

A real ``audiocrib serve`` is started on a free loopback port (as tests/test_serve.py's ``Running``), on a new
data folder, and one headless Chromium (tests/browser_driver.py's ``Browser``) opens its page.

- **Open**: the page is loaded ``--loads`` times with nothing kept (a first visit: the first announcement is the
  welcome, then the name question) and ``--loads`` times with the token kept (a return: the welcome, connecting,
  the lobby); the time to the first announcement, and to the name question or the lobby's first line.
  Measured in the page: a script added before the page's own (DevTools ``Page.addScriptToEvaluateOnNewDocument``)
  watches the document with a MutationObserver and notes ``performance.now()`` when each element is added to the
  live region; ``performance.now()`` counts from the navigation's start, so this is the whole of it: the
  request, the HTML, CSS and script, the WebSocket's upgrade, the hello, the gateway starting a shell session that
  signs in to the server over loopback, and the first "say".
- **Key**: ``--presses`` presses of each of: down arrow in the lobby (the next table or item), and ``s`` (the
  scores) and ``h`` (the hand) at a table against a computer player while laying away (the game waits for the
  player, so nothing else is said meanwhile). Keys are real key events (Selenium's, through chromedriver); the
  page notes ``performance.now()`` in a keydown listener on the game area (capturing, so before the page's own
  handler sends the key) and again in a MutationObserver when the answer is added to the live region; the
  latency is the difference, taken in the page, so Selenium's own round trips are not in it. Each key is pressed
  once the previous one was answered and 50 ms passed with nothing new (the gateway takes 30 keys a second).

Reported: median, 95th percentile and longest, in milliseconds, and the machine's load average. This is not a
test: nothing here fails because something is slow.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.browser_driver import Browser, wait_until
from tests.test_serve import Running

FIRST_SAY = """
(() => {
  window.__says = [];
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.target.id !== 'live') continue;
      for (const node of record.addedNodes) window.__says.push([performance.now(), node.textContent]);
    }
  }).observe(document, {childList: true, subtree: true});
})();
"""
"""Added before the page's scripts on every load: when each announcement reaches the live region, and its text."""

KEY_TIMES = """
const game = document.querySelector('[role="application"]');
const live = document.getElementById('live');
window.__keyAt = [];
window.__sayAt = [];
if (!window.__timing) {
  window.__timing = true;
  game.addEventListener('keydown', () => window.__keyAt.push(performance.now()), {capture: true});
  new MutationObserver(() => window.__sayAt.push(performance.now())).observe(live, {childList: true});
}
"""
"""Once the page is loaded (installed once, emptied each time): when each key went down, and when each answer
reached the live region."""


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"count": len(ordered), "median_ms": round(statistics.median(ordered), 1),
            "p95_ms": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 1),
            "max_ms": round(ordered[-1], 1)}


def open_times(page: Browser, url: str, loads: int, keep: bool) -> tuple[list[float], list[float]]:
    """Load the page ``loads`` times (with what it keeps, or with nothing kept); ms to its first announcement, and
    to the lobby's (with ``keep``) or the name question's (without)."""
    firsts, arrivals = [], []
    arrived = "Lobby: " if keep else "Type the name"
    for _ in range(loads):
        if not keep:
            page.forget()
        page.driver.get(url)
        try:
            says = wait_until(lambda: [s for s in page.script("return window.__says || [];")
                                       if s[1].startswith(arrived)] and page.script("return window.__says;"),
                              f"{arrived!r}", 10)
        except AssertionError:
            raise AssertionError(f"{page.script('return window.__says;')}") from None
        firsts.append(float(says[0][0]))
        arrivals.append(float(next(t for t, text in says if text.startswith(arrived))))
        page.record()
        page.settle(0.3)
    return firsts, arrivals


def key_times(page: Browser, key: str, presses: int) -> list[float]:
    """Press ``key`` ``presses`` times on the game area; ms from each keydown to its answer in the live region."""
    page.script(KEY_TIMES)
    times = []
    for index in range(presses):
        page.press(key)
        page.settle(0.05)
        key_at = page.script("return window.__keyAt;")
        say_at = page.script("return window.__sayAt;")
        assert len(key_at) == index + 1, key_at
        answer = next(t for t in say_at if t >= key_at[index])
        times.append(answer - key_at[index])
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", type=int, default=20, help="page loads of each kind (default 20)")
    parser.add_argument("--presses", type=int, default=50, help="presses of each key (default 50)")
    parser.add_argument("--json", type=Path, help="also write the results here")
    arguments = parser.parse_args()
    results: dict[str, Any] = {"load_average_before": os.getloadavg()}
    with tempfile.TemporaryDirectory() as folder:
        server = Running(Path(folder) / "data")
        page = Browser(Path(folder) / "profile")
        try:
            page.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": FIRST_SAY})
            url = f"http://127.0.0.1:{server.port}/"
            page.open(url)
            first, named = open_times(page, url, arguments.loads, keep=False)
            page.type_line("Bench")  # the name, so later loads with the token kept go straight to the lobby
            page.hears(lambda text: text.startswith("Lobby: "))
            wait_until(lambda: any(keep.get("token") for keep in page.frames("keep")), "the token to keep")
            again, lobby = open_times(page, url, arguments.loads, keep=True)
            results["open_first_visit_first_announcement"] = summary(first)
            results["open_first_visit_name_question"] = summary(named)
            results["open_returning_first_announcement"] = summary(again)
            results["open_returning_lobby"] = summary(lobby)
            wait_until(lambda: page.screen().get("mode") == "lobby", "the lobby")
            results["key_down_in_lobby"] = summary(key_times(page, "down", arguments.presses))
            page.choose("Create a table")
            page.press("left")  # one seat for a person, the other a computer player's
            page.choose("Create the table")
            page.choose("Start the game")
            wait_until(lambda: page.screen().get("mode") == "discard", "the first question")
            page.settle(0.5)
            page.record()
            for key in ("s", "h"):
                results[f"key_{key}_at_table"] = summary(key_times(page, key, arguments.presses))
        finally:
            page.quit()
            server.stop()
    results["load_average_after"] = os.getloadavg()
    for name, value in results.items():
        print(f"{name}: {value}")
    if arguments.json:
        arguments.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
