"""Ratings and past matches in the real shell (the prompt_toolkit application on pipe input, as the browser's page
runs it too) against a real server: after a rated match played over the protocol, the lobby's Top players says
one's own rating in a sentence and reads the leaderboard, Past matches reads the match in a sentence and Enter
hands it to the replay, a public match is found by its table number, and the rating is beside the host's name in
the lobby's table line and beside each name at the table."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import aiohttp
import pytest

from audiocrib.client.address import read_address
from audiocrib.engine.pastmatch import MatchResult
from audiocrib.engine.rules import Rules
from audiocrib.online.matches import PastMatchSummary
from audiocrib.online.ratings import RatedPlayer, RatingOf, TopPlayers, rated_line, rating_sentence, top_players_count
from audiocrib.server import ratings
from audiocrib.server.past_matches import NOT_BEGUN, match_end
from audiocrib.shell.servers import ServerBook, save_book
from audiocrib.telling.replaying import listed_line
from tests.browser_driver import Browser, browser_fixture, wait_until  # noqa: F401 (a fixture)
from tests.online_driver import Player, running
from tests.test_serve import Running, ask, serving
from tests.test_serve_ratings import TOKENS, login, play_match, store_of

pytestmark = pytest.mark.slow


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Running]:
    yield from serving(tmp_path / "data")


def test_top_players_and_past_matches_in_the_lobby(server: Running, tmp_path: Path) -> None:
    number, _ = asyncio.run(play_match(server, ["Ann", "Bob"], ("person", "person"),
                                       {"players": 2, "target": 31}))
    path = store_of(server)
    db = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
    try:
        kept = {name: ratings.Kept(*row) for name, *row in db.execute(
            "SELECT p.name, r.mu, r.sigma, r.matches, r.before_mu, r.before_sigma, r.last_table FROM ratings r"
            " JOIN players p ON p.id = r.player")}
        ended = db.execute("SELECT ended FROM endings WHERE table_id = ?", (number,)).fetchone()[0]
        end = match_end(db, number)
        assert end is not None
    finally:
        db.close()
    ann_kept, bob_kept = kept["Ann"], kept["Bob"]
    winner = "Ann" if ann_kept.number > bob_kept.number else "Bob"

    async def bobs_table() -> int:  # Bob opens a table and leaves it waiting in the lobby
        async with aiohttp.ClientSession() as session, session.ws_connect(server.url) as bob:
            await login(bob, "Bob", server)
            table = await ask(bob, {"type": "create_table", "rules": {"players": 2}, "seats": ["person", "person"],
                                    "public": True, "move_limit": None})
            return int(table["number"])

    waiting = asyncio.run(bobs_table())
    book = ServerBook()  # Ann's shell connects with the token her matches were played with
    address = f"127.0.0.1:{server.port}"
    book.remember(read_address(address).url, address, "Ann", TOKENS[server.folder, "Ann"])
    save_book(tmp_path / "ann", book)
    ann = Player("Ann", tmp_path / "ann")

    async def script() -> None:
        async with running(ann):
            await ann.choose("Play online")
            await ann.hears(lambda s: s.startswith("Lobby: "))
            await ann.choose("Top players")
            places = sorted([("Ann", ann_kept), ("Bob", bob_kept)], key=lambda p: -p[1].number)
            top = [RatedPlayer(i, name, k.number, 1) for i, (name, k) in enumerate(places, 1)]
            mine = next(p for p in top if p.name == "Ann")
            await ann.hears(top_players_count(TopPlayers(tuple(top), mine, 2)))
            own = rating_sentence(RatingOf("Ann", ann_kept.number, 1, mine.place, 1000, 2), own=True)
            await ann.hears(f"{own.rstrip('.')}. 1 of 4.")
            assert await ann.press("down") == [f"{rated_line(top[0])}. 2 of 4."]
            assert await ann.press("down") == [f"{rated_line(top[1])}. 3 of 4."]
            await ann.press("escape")
            await ann.hears(lambda s: s.startswith("Lobby: "))
            line = f"Table {waiting}, Bob's, rated {bob_kept.number:,}: six-card cribbage, two players, to 121;" \
                " one seat open"
            await ann.choose(line)
            await ann.hears(f"At table {waiting}: Bob, rated {bob_kept.number:,}, the host, not connected; and you,"
                            " Ann. The game has not begun.")
            await ann.choose("Leave the table")
            await ann.hears(lambda s: s.startswith("You left the table. Lobby: "))

            won, last = end
            entry = PastMatchSummary(number, int(ended), Rules(target=31), ("Ann", "Bob"), 0, won.side,
                                     won.match_scores, last.scores)

            def listed(now: datetime) -> str:  # the match as the list says it at ``now``
                line = listed_line(datetime.fromtimestamp(ended), now, f"table {number}", entry.rules, entry.names,
                                   0, MatchResult(entry.side, entry.match_scores, entry.last_scores))
                return f"{line.rstrip('.')}. 1 of 3."

            asked = datetime.now()  # the shell lists the match between this and the check: a day may turn meanwhile
            await ann.choose("Past matches")
            await ann.hears("Past matches, one, newest first.")
            line = await ann.hears(lambda s: s in (listed(asked), listed(datetime.now())))
            who = "you" if winner == "Ann" else "Bob"
            assert line.startswith(("Today at ", "Yesterday at "))  # the match may have ended before midnight
            assert f", table {number}, six-card, you against Bob: {who} won, " in line, line
            await ann.press("enter")
            await ann.hears(lambda s: s.startswith("Hearing the match again: you against Bob, "))
            await ann.press("right")
            asked = datetime.now()
            await ann.press("escape")
            await ann.hears(lambda s: s in (listed(asked), listed(datetime.now())))
            await ann.choose("A public match by its table number")
            await ann.type("9x")
            await ann.hears("A table's number is a whole number, like 12.")
            await ann.choose("A public match by its table number")
            await ann.type(str(waiting))
            await ann.hears(NOT_BEGUN.format(waiting))
            await ann.choose("Back to the lobby")
            await ann.hears(lambda s: s.startswith("Lobby: "))

    asyncio.run(script())
    assert json.loads((tmp_path / "ann" / "online.json").read_text())["name"] == "Ann"


def test_top_players_and_past_matches_in_a_browser(server: Running, browser: Browser) -> None:
    """The same screens in headless Chromium (the page runs the shell's session inside the server): a player who
    has played none hears the leaderboard and that they have no rated match yet, and finds a public match by its
    table number."""
    number, _ = asyncio.run(play_match(server, ["Ann", "Bob"], ("person", "person"),
                                       {"players": 2, "target": 31}))
    page = browser
    page.open(f"http://127.0.0.1:{server.port}/")
    page.forget()
    page.reload()
    page.hears(lambda text: "name" in text.lower())
    page.script("document.activeElement.value = '';")
    page.type_line("Zoe")
    page.hears(lambda text: text.startswith("Lobby: "))
    wait_until(lambda: page.screen().get("mode") == "lobby", "the lobby on screen")
    page.choose("Top players")
    page.hears("Top players, two of two rated. You have no rated match yet.")
    page.hears("You have no rated match yet; every new player starts at 1,000. 1 of 4.")
    assert page.press("down")[-1].startswith("1. ")
    page.press("escape")
    page.hears(lambda text: text.startswith("Lobby: "))
    page.choose("Past matches")
    page.hears("Past matches: none yet; a match is listed here once it is won.")
    page.choose("A public match by its table number")
    page.type_line(str(number))
    page.hears(f"Table {number}:")
    said = page.hears(lambda text: text.startswith(("Today at ", "Yesterday at ")) and f", table {number}, " in text)
    assert ", six-card, Ann against Bob: " in said and said.endswith(". 1 of 3."), said
    page.press("enter")
    page.hears(lambda text: text.startswith("Hearing the match again: Ann against Bob, "))
    wait_until(lambda: page.screen().get("mode") == "replay", "the replay on screen")
    page.press("right")
    page.hears(lambda text: text.startswith(("Ann cuts", "Bob cuts")))
