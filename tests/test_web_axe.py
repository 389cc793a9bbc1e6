"""axe-core on every screen of the browser page, for real: ``audiocrib serve`` on loopback, headless Chromium, one
player who signs in, makes a table against a computer player and plays a match to 61 by keys. Each screen (the
name question, the lobby, the settings, the new table, its setup, the waiting room, the table while laying away,
in the play and in the show, the end of the match) must have no serious or critical violation.

Screenshots of each screen at the desktop and phone sizes are written to ``tests/browser/screenshots/`` (or
``$AUDIOCRIB_SCREENSHOTS``) for looking at; they are not compared with anything.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser_driver import Browser, browser_fixture, require_axe, wait_until  # noqa: F401 (a fixture)
from tests.test_serve import Running, serving


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    yield from serving(tmp_path_factory.mktemp("web-axe") / "data")


def on_screen(page: Browser, mode: str) -> None:
    wait_until(lambda: page.screen().get("mode") == mode, f"the {mode} screen")


def test_every_screen_has_no_serious_or_critical_violation(server: Running, browser: Browser) -> None:
    require_axe()
    page = browser
    found: dict[str, list[dict[str, Any]]] = {}

    def check(name: str) -> None:
        page.settle(0.2)
        found[name] = page.axe()
        page.screenshots(name)

    page.open(f"http://127.0.0.1:{server.port}/")
    page.forget()
    page.reload()
    wait_until(lambda: page.screen().get("typing"), "the name question")
    check("name")
    page.type_line("Cy")
    page.hears(lambda text: text.startswith("Lobby: "))
    on_screen(page, "lobby")
    check("lobby")
    page.choose("Settings")
    page.go_to("Ignore move keys typed ahead")
    page.press("left", "left")  # off, as for the other browser tests' player
    check("settings")
    page.press("escape")
    on_screen(page, "lobby")
    page.choose("Create a table")
    check("new-table")
    assert page.press("left") == ["Seats for people: 1 of 2, the rest computer players."], page.heard[-1]
    page.choose("Table setup")
    check("table-setup")
    page.go_to("Game to")
    assert page.press("left", "left")[-1].startswith("Game to: 61"), page.heard[-1]
    page.press("escape")
    page.choose("Create the table")
    page.hears(lambda text: text.startswith("At table "))
    check("waiting-room")
    page.choose("Start the game")
    page.hears("The game begins.")
    wanted = {"discard": "laying-away", "play": "play", "show": "show"}
    end = time.monotonic() + 240
    while (mode := page.screen().get("mode")) != "over":
        assert time.monotonic() < end, f"the match did not end: {mode}; {page.heard[-5:]}"
        moment = "show" if mode == "review" and "The play is over." in page.heard else mode
        if moment in wanted and (moment != "play" or any(c.get("playable") for c in page.screen()["hand"])):
            check(wanted.pop(moment))
        page.move()
        time.sleep(0.02)
    check("match-over")
    assert not wanted, f"screens never seen: {sorted(wanted)}"
    bad = {name: violations for name, violations in found.items() if violations}
    assert not bad, "\n".join(f"{name}: {v['id']} ({v['impact']}): {v['help']}: {v['nodes'][:3]}"
                              for name, violations in bad.items() for v in violations)
