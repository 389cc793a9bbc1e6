"""The browser page, for real: ``audiocrib serve`` on a free loopback port, headless Chromium on its page, a terminal
player (the real shell on pipe input) and a computer player at one table, a whole match played by keys.

The browser's live region must be told what the terminal would say at that seat, in order: the narrator's lines for
each seat are worked out from the game's log in the server's store afterwards, as `tests.test_online` does. Every
key of every moment is pressed in the page and must be answered; the page is reloaded mid-game and must come back
to the seat; hostile names, chat and held keys go through the page and must leave it usable, with nothing run.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from audiocrib.server.serve import STORE_FILE
from audiocrib.server.store import Store
from audiocrib.shell.tablesetup import TableSetup
from audiocrib.telling.narrator import Narrator
from tests.browser_driver import LIVE_REGION, Browser, browser_fixture, wait_until  # noqa: F401 (a fixture)
from tests.online_driver import Player, running
from tests.test_online import heard_in_order, sign_in
from tests.test_serve import Running, serving

HOSTILE_NAME = '<img src=x onerror="window.__pwned=1">'
HOSTILE_CHAT = '<script>window.__pwned=2</script><img src=x onerror="window.__pwned=3">&amp;'
ANNS_CHAT = "<b>Good luck</b> <img src=x onerror=window.__pwned=4>"

NOTHING_RAN = """
return {pwned: typeof window.__pwned, images: document.querySelectorAll('img[src="x"]').length,
        scripts: document.querySelectorAll('script:not([src])').length,
        bold: document.querySelectorAll('b').length};
"""
"""What hostile text would have left behind had it been inserted as HTML."""

ALWAYS = (",", ".", "<", ">", "r", "f1", "?", "w", "f2", "f2")
"""The keys every moment at a table answers (history, help, who, sounds off and on again)."""
TABLE_KEYS = ("c", "b", "f", "v", "s", "t", "h", "n", "l", "m", "left", "right")
"""The table's questions and the hand's cursor."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    """One server for the module, its data in a folder of its own."""
    yield from serving(tmp_path_factory.mktemp("web-game") / "data")


def data_folder(server: Running) -> Path:
    arguments = list(server.process.args)  # type: ignore[arg-type]
    return Path(arguments[arguments.index("--data-dir") + 1])


async def on_page(call: Callable[..., Any], *args: Any) -> Any:
    """Run a (blocking) browser call in a thread, so the terminal player's shell goes on meanwhile."""
    return await asyncio.to_thread(call, *args)


def answers_each(page: Browser, keys: tuple[str, ...]) -> dict[str, list[str]]:
    """Press each key on its own; what each was answered (every key must be answered: `Browser.press` waits)."""
    answered = {}
    for key in keys:
        answered[key] = page.press(key)
        page.settle(0.1)
    return answered


def nothing_ran(page: Browser) -> None:
    left = page.script(NOTHING_RAN)
    assert left == {"pwned": "undefined", "images": 0, "scripts": 0, "bold": 0}, left


def sign_in_page(page: Browser, url: str) -> None:
    """Open the page with nothing kept, refuse a name made of HTML, then sit in the lobby as Bea."""
    page.open(url)
    page.forget()
    page.reload()
    page.hears(lambda text: "name" in text.lower())
    page.type_line(HOSTILE_NAME)
    page.hears(lambda text: text.startswith("A name must be from one to twenty-four letters, digits and spaces"))
    page.hears(lambda text: text.endswith('It says <img src=x onerror="wind.'))  # its first 24 characters
    shown = page.script("return document.querySelector(arguments[0]).innerHTML;", LIVE_REGION)
    assert 'It says &lt;img src=x onerror="wind.' in shown, shown[-300:]  # as characters, not as an element
    wait_until(lambda: page.screen().get("typing"), "the name asked again")
    nothing_ran(page)
    page.script("document.activeElement.value = '';")
    page.type_line("Bea")
    page.hears(lambda text: text.startswith("Lobby: "))
    wait_until(lambda: page.screen().get("mode") == "lobby", "the lobby on screen")
    # As the terminal players of these tests: move keys are taken at once after news (a person waits a second).
    page.choose("Settings")
    page.go_to("Ignore move keys typed ahead")
    assert page.press("left", "left")[-1].startswith("Ignore move keys typed ahead of the news for: off"), page.heard
    page.press("escape")
    wait_until(lambda: page.screen().get("mode") == "lobby", "the lobby again")


def waiting_room(page: Browser, ann: Player) -> None:
    """In the waiting room: the menu's keys, who is here, history and help, chat with HTML in it both ways, a
    message of 10,000 characters, and a key held down; the page still answers."""
    answered = answers_each(page, ("up", "down", "home", "end", *ALWAYS))
    assert answered["w"][0].startswith("At table 1: Ann, the host; you, Bea"), answered["w"]
    assert answered["r"][0] == answered[">"][-1], answered  # repeat says the newest message again
    page.press("/")
    page.type_line(HOSTILE_CHAT)
    page.hears(f"You say: {HOSTILE_CHAT}")
    for how in ("typed", "set"):  # typed: the text box keeps chat's 300 of them; set: a frame of 10 kB, as a hostile
        page.press("/")               # page would send
        if how == "set":
            wait_until(lambda: page.screen().get("typing"), "the text box")
            page.script("document.activeElement.maxLength = 20000;")
        hellos = len(page.sent("hello"))
        page.type_line("x" * 10_000)
        answer = page.settle(0.5)
        if how == "typed":  # the box stops at the line's limit: 300 characters said, and the socket kept
            assert answer == ["You say: " + "x" * 300], answer
            assert len(page.sent("hello")) == hellos
        else:  # the gateway hangs up on a frame over 4,096 bytes (1009); the page connects again, to the seat
            page.hears(lambda text: text.startswith("At table 1: Ann, the host; you, Bea;"), timeout=20)
            assert len(page.sent("hello")) == hellos + 1, page.heard[-5:]
            assert all(len(text) < 200 for text in page.heard[page.mark:]), page.heard[-5:]
        if page.screen().get("typing"):
            page.driver.switch_to.active_element.send_keys("\ue00c")  # Escape, from the text box
            wait_until(lambda: not page.screen().get("typing"), "the text box closed")
    wait_until(lambda: page.script("return document.activeElement.getAttribute('role');") == "application",
               "focus back on the game area")
    before = len([f for f in page.sent("key") if f["key"] == "down"])
    page.hold("down", count=40)  # a second's repeats and more, however long a loaded machine takes to send them
    sent = len([f for f in page.sent("key") if f["key"] == "down"]) - before
    assert sent == 40, sent  # arrows repeat, as held
    page.settle(0.3)
    assert page.press("w")[0].startswith("At table 1: "), "the page stopped answering after a held key"
    nothing_ran(page)


def first_discard(page: Browser) -> None:
    """Every key of the laying-away moment, and a letter held down (sent once: letters do not repeat)."""
    answered = answers_each(page, (*TABLE_KEYS, "1", "1", "space", "space", "enter", *ALWAYS))
    assert answered["1"][0].endswith(", marked. One marked; press Enter to lay it away.") or answered["1"], answered
    assert answered["enter"] == ["Mark one card for the crib first; zero marked."], answered["enter"]
    before = len([f for f in page.sent("key") if f["key"] == "c"])
    page.hold("c", 2.0)
    assert len([f for f in page.sent("key") if f["key"] == "c"]) - before == 1
    page.settle(0.2)
    page.press("/")  # chat at the table: the text box takes focus; Escape in it cancels, focus back on the game
    wait_until(lambda: page.script("return document.activeElement.id;") == "line", "focus in the text box")
    page.driver.switch_to.active_element.send_keys("\ue00c")
    wait_until(lambda: page.script("return document.activeElement.getAttribute('role');") == "application",
               "focus back on the game area")
    page.settle(0.1)
    page.press("escape")
    wait_until(lambda: (page.screen().get("menu") or {}).get("items"), "the game menu")
    assert page.screen()["menu"]["items"][0].lower().startswith("resume"), page.screen()
    page.press("enter")  # resume
    wait_until(lambda: page.screen().get("mode") == "discard", "back at the table")


def first_play(page: Browser) -> None:
    """The play's keys: a digit goes to a card, the arrows walk the hand, space plays the card."""
    hand = page.screen()["hand"]
    playable = [i for i, card in enumerate(hand) if card.get("playable")]
    answers_each(page, (*(str(i + 1) for i in range(len(hand))), "left", "right", "c", "v", "t"))
    page.press(str(playable[0] + 1))
    page.press("space")


def test_a_browser_a_terminal_and_a_computer_player_play_a_match(server: Running, browser: Browser,
                                                                  tmp_path: Path) -> None:
    page = browser
    url = f"http://127.0.0.1:{server.port}/"
    ann = Player("Ann", tmp_path / "ann", setup=TableSetup(players=3, target=61, levels=("easy", "easy")))
    heard_before_reload: list[str] = []
    done: dict[str, int] = {}

    async def script() -> None:
        async with running(ann):
            await sign_in(ann, server.port)
            await ann.choose("Create a table")
            await ann.choose("Create the table")
            await ann.hears("At table 1: you, the host; an open seat; and Easy, a computer player. "
                            "The game has not begun.")
            await on_page(sign_in_page, page, url)
            await on_page(page.choose, "Table 1, Ann's")
            await on_page(page.hears, "At table 1: Ann, the host; you, Bea; and Easy, a computer player. "
                                      "The game has not begun.")
            await ann.hears("Bea sits down at the table.")
            await ann.press("/")
            await ann.type(ANNS_CHAT)
            await on_page(page.hears, f"Ann says: {ANNS_CHAT}")
            await on_page(waiting_room, page, ann)
            await ann.hears(f"Bea says: {HOSTILE_CHAT}")
            await ann.choose("Start the game")
            await on_page(page.hears, "The game begins.")
            plays, reloaded, hurried = 0, False, False
            loop = asyncio.get_running_loop()
            end = loop.time() + 180
            while True:
                screen = await on_page(page.screen)
                mode = screen.get("mode")
                if mode == "over" and ann.session.moment == "over":
                    break
                assert loop.time() < end, (f"the match did not end: Bea {mode}, Ann {ann.session.moment}; "
                                           f"{screen}; {(await on_page(lambda: page.heard))[-10:]}")
                if mode == "discard" and "discard" not in done:
                    await on_page(first_discard, page)
                    done["discard"] = 1
                elif mode == "play" and "play" not in done and any(c.get("playable") for c in screen["hand"]):
                    await on_page(first_play, page)
                    done["play"] = 1
                    plays += 1
                elif mode == "play" and plays == 1 and not reloaded:
                    await on_page(page.caught_up)  # what the live region was still to be told
                    heard_before_reload.extend(await on_page(lambda: page.heard))
                    await on_page(page.reload)
                    await on_page(wait_until, lambda: page.screen().get("mode") == "play", "back at the seat")
                    assert (await on_page(page.screen))["hand"], "the hand is not on screen after the reload"
                    reloaded = True
                elif mode == "waiting" and not hurried and ann.session.moment in ("discard", "play"):
                    said = await on_page(page.press, "enter")
                    assert said[0] == "Waiting for Ann.", said
                    hurried = True
                else:
                    if await on_page(page.move) and mode == "play":
                        plays += 1
                await ann.move()
                await asyncio.sleep(0.02)
            assert reloaded and hurried, (reloaded, hurried)
            await on_page(page.hears, "Press Enter for the lobby.")
            await ann.hears("Press Enter for the lobby.")
            said = await on_page(page.press, "enter")
            assert any(text.startswith("Lobby: ") for text in said), said
            await ann.press("enter")

    asyncio.run(script())
    heard = heard_before_reload + page.heard
    nothing_ran(page)
    with Store(data_folder(server) / STORE_FILE) as store:
        game = store.game(1)
    assert game.over
    names = game.view(0).names
    assert names == ("Ann", "Bea", "Easy")
    expected = {}
    for seat, said in ((0, ann.said), (1, heard)):
        narrator = Narrator(names, game.rules, seat)
        expected[seat] = [line for event in game.view(seat).events for line in narrator.tell(event)]
        missing = heard_in_order(said, expected[seat])
        assert missing == [], (seat, missing[:3])
        # the match's end, then how the rating moved, then what the keys do now: the last words are Enter's
        end = max(i for i, line in enumerate(said) if line == expected[seat][-1])
        rating = next(i for i, line in enumerate(said) if line.startswith("Your rating went"))
        assert end < rating and said[rating + 1:rating + 3] == [
            "Press g to hear the coach go over the match.", "Press Enter for the lobby."], (seat, said[end:])
    # What both were told of the same event in the same words (the computer's plays, the scores) came to each
    # in the same order.
    common = same_words(game)
    assert len(common) > 20
    assert heard_in_order(heard, common) == [] and heard_in_order(ann.said, common) == []
    assert any(line.startswith("Bea plays") for line in ann.said)
    assert any(line.startswith("Ann plays") for line in heard)


def same_words(game: Any) -> list[str]:
    """The narrator's lines that seats 0 and 1 are told in the same words for the same event, in order."""
    names = game.view(0).names
    tellers = [Narrator(names, game.rules, seat) for seat in (0, 1)]
    events = [game.view(seat).events for seat in (0, 1)]
    assert len(events[0]) == len(events[1])
    common = []
    for first, second in zip(*events, strict=True):
        common += [a for a, b in zip(tellers[0].tell(first), tellers[1].tell(second), strict=False) if a == b]
    return common
