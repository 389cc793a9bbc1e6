"""The coach's advice at an online table, through the browser's session (the same shell `Session`, run by the
server for a tab): ``audiocrib serve`` on loopback and tabs speaking the page's protocol (tests/web_client.py).
At a table of people advice is off unless the host allowed it, and the a key says so; allowed, it is the advice the
coach gives offline from the seat's own view; at a table of one person and a computer player it is always allowed.
The page's Advice button (shown only while a decision waits at a table that allows it) in headless Chromium; and
the browser session's coach working off the server's event loop."""

from __future__ import annotations

import asyncio
import io
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from audiocrib.coach import Coach, LayAwayAdvice
from audiocrib.engine.views import PlayerView
from audiocrib.server.serve import STORE_FILE
from audiocrib.server.store import Store
from audiocrib.shell.announcer import Announcer
from audiocrib.speech import RecordingSpeaker
from audiocrib.telling.coaching import advice_off, lay_away_words, no_advice, play_words
from audiocrib.telling.listener import SeatNames
from audiocrib.web.offloop import BrowserSession, OffLoopCoach
from tests.browser_driver import Browser, browser_fixture, wait_until  # noqa: F401 (a fixture)
from tests.test_serve import Running, serving
from tests.web_client import Page, sign_in

ADVICE_BUTTON = "Advice: what the expert would lay away or play now, and why."
ALWAYS = "Advice from the coach: allowed, as always with one person at the table"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Running]:
    """A server of the test's own (its tables numbered from 1)."""
    yield from serving(tmp_path / "data")


def store_of(server: Running) -> Path:
    arguments = [str(argument) for argument in server.process.args]  # type: ignore[union-attr]
    return Path(arguments[arguments.index("--data-dir") + 1]) / STORE_FILE


def laid_away(server: Running, table: int, seat: int) -> bool:
    """Whether ``seat`` has laid away in the table's deal as the server holds it now."""
    with Store(store_of(server)) as store:
        return store.game(table).view(seat).laid_away[seat]


def offline_advice(server: Running, table: int, seat: int) -> str:
    """What the coach says offline at the seat's view of the table's game as the server holds it now."""
    with Store(store_of(server)) as store:
        view: PlayerView = store.game(table).view(seat)
    advice = Coach().advise(view)
    assert advice is not None
    names = SeatNames(view.names, view.rules, view.seat)
    if isinstance(advice, LayAwayAdvice):
        return lay_away_words(advice, names, view.dealer)
    return play_words(advice, names)


async def host(page: Page, advice: bool) -> None:
    """From the lobby: a table for two people, advice allowed or not (as the new table's menu says it)."""
    await page.choose("Create a table")
    await page.screen(lambda s: s["mode"] == "new table")
    await page.menu_to("Advice from the coach")
    assert page.last("screen")["menu"]["items"][3] == "Advice from the coach: not allowed"  # off by default
    if advice:
        mark = await page.send({"type": "key", "key": "right"})
        await page.hears("Advice from the coach: allowed.", since=mark)
    mark = len(page.got)
    await page.choose("Create the table")
    await page.screen(lambda s: s["mode"] == "waiting room", since=mark)


async def together(host_page: Page, guest: Page, line: str) -> None:
    """The guest sits at the host's table from its line in the lobby; the host starts; both lay away."""
    await guest.choose(line)
    await guest.screen(lambda s: s["mode"] == "waiting room")
    await host_page.hears(lambda said: said.startswith("Every seat is taken"))
    await host_page.choose("Start the game")
    for page in (host_page, guest):
        await page.screen(lambda s: s["mode"] == "discard")


async def ask_advice(page: Page) -> str:
    mark = await page.send({"type": "key", "key": "a"})
    return await page.hears(lambda said: True, since=mark, timeout=20.0)


def test_at_a_table_of_people_advice_is_off_unless_the_host_allowed_it(server: Running) -> None:
    ann, bea, cy, dee = (Page(server.port) for _ in range(4))

    async def script() -> dict[str, Any]:
        try:
            await sign_in(ann, "Ann")
            await host(ann, advice=False)
            await sign_in(cy, "Cy")
            await host(cy, advice=True)
            await sign_in(bea, "Bea")
            await sign_in(dee, "Dee")
            items = dee.last("screen")["menu"]["items"]
            found: dict[str, Any] = {"lobby": [item for item in items if item.startswith("Table ")]}
            found["waiting"] = [ann.last("screen")["status"], cy.last("screen")["status"]]
            await together(ann, bea, "Table 1, Ann's")
            await together(cy, dee, "Table 2, Cy's")
            found["off"] = [await ask_advice(ann), await ask_advice(bea)]
            found["buttons"] = [page.last("screen")["advice"] for page in (ann, bea, cy, dee)]
            found["on"] = await ask_advice(cy)
            found["expected"] = offline_advice(server, 2, 0)
            return found
        finally:
            for page in (ann, bea, cy, dee):
                await page.close()

    found = asyncio.run(script())
    assert found["lobby"] == ["Table 1, Ann's: six-card cribbage, two players, to 121; one seat open",
                              "Table 2, Cy's: six-card cribbage, two players, to 121; one seat open;"
                              " the coach's advice allowed"], found["lobby"]
    assert [status[0].endswith("The game has not begun.") for status in found["waiting"]] == [True, False]
    assert found["waiting"][1][0].endswith("The game has not begun. The coach's advice is allowed.")
    assert found["off"] == [advice_off(), advice_off()]
    assert found["buttons"] == [None, None, ADVICE_BUTTON, ADVICE_BUTTON]  # no button where it is not allowed
    assert found["on"] == found["expected"] and found["on"] not in (advice_off(), no_advice()), found


def test_at_a_table_of_one_person_and_a_computer_player_advice_is_always_allowed(server: Running) -> None:
    page = Page(server.port)

    async def script() -> list[tuple[str, str]]:
        try:
            await sign_in(page, "Eve")
            await page.choose("Create a table")
            await page.screen(lambda s: s["mode"] == "new table")
            mark = await page.send({"type": "key", "key": "left"})  # one seat for a person, one the expert's
            await page.hears("Seats for people: 1 of 2, the rest computer players.", since=mark)
            await page.menu_to("Advice from the coach")
            menu = page.last("screen")["menu"]
            assert menu["items"][menu["current"]] == ALWAYS, menu
            mark = await page.send({"type": "key", "key": "right"})  # nothing to change: it says why
            await page.hears(lambda said: said.startswith("Advice is always allowed at a table of one person"),
                             since=mark)
            await page.choose("Create the table")
            waiting = await page.screen(lambda s: s["mode"] == "waiting room")
            assert waiting["status"][0].endswith("The coach's advice is allowed."), waiting
            await page.choose("Start the game")
            await page.screen(lambda s: s["mode"] == "discard")
            assert page.last("screen")["advice"] == ADVICE_BUTTON
            # the expert lays away by itself: once it has, nothing moves until Eve does
            await asyncio.to_thread(wait_until, lambda: laid_away(server, 1, 1), "the expert's lay-away", 20.0, 0.1)
            heard = [(await ask_advice(page), offline_advice(server, 1, 0))]
            mark = await page.send({"type": "choose", "list": "hand", "index": 0})
            await page.send({"type": "choose", "list": "hand", "index": 1})
            await page.key("enter")
            shown = await page.screen(lambda s: s["mode"] == "play", since=mark, timeout=30.0)
            assert shown["advice"] == ADVICE_BUTTON
            heard.append((await ask_advice(page), offline_advice(server, 1, 0)))
            return heard
        finally:
            await page.close()

    heard = asyncio.run(script())
    assert [said for said, _ in heard] == [expected for _, expected in heard], heard
    assert not {said for said, _ in heard} & {advice_off(), no_advice()}, heard


def test_a_browser_sessions_coach_works_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """The advice is worked out in another thread while the session's task waits, and said as it is offline."""
    speaker = RecordingSpeaker()
    session = BrowserSession(Announcer(speaker, io.StringIO()), seed=5)
    session.start()
    session.press("enter")  # a new game against the computer player, at the lay-away
    assert isinstance(session.notebook.coach, OffLoopCoach)
    threads: list[int] = []
    advise = Coach.advise

    def recorded(coach: Coach, view: PlayerView) -> Any:
        threads.append(threading.get_ident())
        return advise(coach, view)
    monkeypatch.setattr(Coach, "advise", recorded)

    async def ask() -> int:
        from audiocrib.client.awaiting import run_shell
        await run_shell(session.press, "a")
        return threading.get_ident()

    loop_thread = asyncio.run(ask())
    assert threads and loop_thread not in threads
    view = session.view()
    expected = Coach().advise(view)
    assert isinstance(expected, LayAwayAdvice)
    assert speaker.said[-1] == lay_away_words(expected, SeatNames(view.names, view.rules, view.seat), view.dealer)


def test_the_advice_button_is_pressed_at_the_lay_away_and_heard(server: Running, browser: Browser) -> None:
    page = browser
    page.open(f"http://127.0.0.1:{server.port}/")
    page.forget()
    page.reload()
    page.type_line("Fay")
    page.hears(lambda text: text.startswith("Lobby: "))
    wait_until(lambda: page.screen().get("mode") == "lobby", "the lobby")
    page.choose("Create a table")
    page.press("left")  # one seat for a person, the other a computer player's
    page.choose("Create the table")
    page.choose("Start the game")
    wait_until(lambda: page.screen().get("mode") == "discard", "the lay-away")
    wait_until(lambda: laid_away(server, 1, 1), "the computer player's lay-away", 20.0, 0.1)
    expected = offline_advice(server, 1, 0)
    button = "const b = document.getElementById('advice');"
    wait_until(lambda: page.script(button + "return !b.hidden && b.textContent;") == ADVICE_BUTTON, "the button")
    page.mark = len(page.heard)
    page.script(button + "b.click();")
    clicked = page.hears(lambda text: text.strip("\u00a0") == expected, timeout=20.0)
    assert page.sent("key")[-1] == {"type": "key", "key": "a"}  # the button sends the a key
    pressed = page.press("a")  # and the a key reaches the game from the game area
    assert any(text.strip("\u00a0") == clicked for text in pressed), (clicked, pressed)
