"""The browser's gateway for real: ``audiocrib serve`` on a free loopback port, and aiohttp WebSocket clients that
speak the page's protocol at ``/web`` (as the page's JavaScript does): sign in, make a table with a computer
player, play a whole match by keys, come back with the kept token; and hostile ones."""

from __future__ import annotations

import asyncio
import contextlib
import random
import shutil
import signal
import ssl
import subprocess
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

from audiocrib.client.link import CONNECTED_ELSEWHERE
from audiocrib.server.app import Server, make_app
from audiocrib.server.serve import STORE_FILE
from audiocrib.server.store import Store
from audiocrib.shell.keys import BROWSER_HELP_KEY, does_nothing, welcome
from audiocrib.telling.narrator import Narrator
from audiocrib.web.gateway import (
    BAD_VALUE,
    HELLO_FIRST,
    HELLO_TWICE,
    KEYS_A_SECOND,
    MAX_FRAME,
    NOT_JSON,
    UNKNOWN,
    WRONG_FIELDS,
)
from audiocrib.web.routes import HEADERS, add_pages
from audiocrib.web.websession import BYE, NOT_NOW
from tests.online_driver import until
from tests.test_online import heard_in_order
from tests.test_serve import Running, serving
from tests.web_client import Page, lay_away_or_play, make_table, people_connected, play_match, sign_in


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Running]:
    yield from serving(tmp_path / "data")


def test_a_browser_player_signs_in_plays_a_whole_match_by_keys_and_hears_the_narrators_words(
        server: Running, tmp_path: Path) -> None:
    page = Page(server.port)

    async def script() -> None:
        try:
            await sign_in(page, "Ann")
            keep = page.last("keep")
            assert keep["name"] == "Ann" and len(keep["token"]) >= 16
            assert keep["settings"]["session"]["pace"] == 0.0  # the hello's settings were taken
            await make_table(page)
            await page.screen(lambda s: s["mode"] == "discard")
            shown = page.last("screen")
            assert len(shown["hand"]) == 6 and all(len(card["short"]) == 2 for card in shown["hand"])
            assert shown["enter"] == "Lay the marked cards away to the crib."
            # the status lines are the one-key answers a sighted player wants at a glance: the scores, whose
            # turn, whose crib, the starter (and in the play the cards on the table, in the show the hand counted)
            assert len(shown["status"]) == 4
            for key, line in zip("sbf", (shown["status"][0], shown["status"][2], shown["status"][3]), strict=True):
                mark = await page.send({"type": "key", "key": key})  # (whose turn may change meanwhile: not asked)
                await page.hears(line, since=mark)
            mark = await page.send({"type": "key", "key": "?"})  # every key: the online game menu's own items
            await page.send({"type": "key", "key": "."})  # (the keys at the table always are the second page)
            await page.hears(lambda s: s.startswith("At the table, always: ") and (
                "Escape: The game menu: resume, settings, leave the table for now." in s), since=mark)
            await play_match(page)
            await page.hears(lambda s: s.startswith("Press Enter for the lobby"))
            mark = await page.send({"type": "key", "key": "f1"})
            await page.hears("Enter: Back to the lobby.", since=mark)
            assert page.last("screen")["enter"] == "Back to the lobby."
            mark = await page.send({"type": "key", "key": "enter"})
            await page.hears(lambda s: s.startswith("Lobby: "), since=mark)
            await page.screen(lambda s: s["mode"] == "lobby", since=mark)
        finally:
            await page.close()

    asyncio.run(script())
    with Store(tmp_path / "data" / STORE_FILE) as store:
        game = store.game(1)
    assert game.over
    names = game.view(0).names
    assert names == ("Ann", "Expert")
    narrator = Narrator(names, game.rules, 0)
    expected = [line for event in game.view(0).events for line in narrator.tell(event)]
    assert heard_in_order(page.said, expected) == []
    assert any(line.startswith("Expert plays") for line in page.said)
    cues = {m["name"] for m in page.got if m["type"] == "cue"}
    assert "card" in cues and all(" " not in name for name in cues)


def test_a_browser_hears_f1_named_for_help_and_f1_is_help_in_the_lobby_and_the_text_box(server: Running) -> None:
    """In a terminal the sentences name Tab (F1 may be the terminal's own); the page passes F1 everywhere and Tab
    moves between its parts, so a browser's session names F1: the welcome, a key that does nothing, the keys' list."""
    page = Page(server.port)

    async def script() -> None:
        try:
            await sign_in(page, "Ann")
            assert page.said[0] == welcome(BROWSER_HELP_KEY) == "Welcome to audiocrib. Press F1 for help at any time."
            mark = await page.send({"type": "key", "key": "z"})
            await page.hears(does_nothing("z", BROWSER_HELP_KEY), since=mark)
            assert page.said[-1] == "The z key does nothing now. Press F1 for help."
            mark = await page.send({"type": "key", "key": "f1"})
            await page.hears(lambda s: s.startswith("You are in the lobby."), since=mark)
            mark = await page.send({"type": "key", "key": "?"})
            await page.hears(lambda s: s.startswith("Every key, "), since=mark)
            for _ in range(16):
                mark = await page.send({"type": "key", "key": "."})
                said = await page.hears(lambda s: True, since=mark)
                if said.startswith("Everywhere: "):
                    assert "F1: Help for this moment." in said and "Tab" not in said, said
                    break
            else:
                raise AssertionError("no Everywhere page")
            mark = len(page.got)
            await page.choose("Change your name")
            await page.screen(lambda s: s["typing"] is not None, since=mark)
            mark = await page.send({"type": "key", "key": "f1"})
            await page.hears("You are typing: Your name. Type it in the text box; Enter sends it, Escape goes back.",
                             since=mark)
            assert not any("Tab for help" in line for line in page.said)
        finally:
            await page.close()

    asyncio.run(script())


def test_every_response_has_the_security_headers_and_the_sounds_route_serves_only_the_cues(server: Running) -> None:
    base = f"http://127.0.0.1:{server.port}"

    async def script() -> dict[str, tuple[int, dict[str, str], bytes]]:
        seen = {}
        async with aiohttp.ClientSession() as http:
            for path in ("/", "/sounds/chat.wav", "/sounds/your-turn.wav", "/sounds/..%2Fpyproject.toml",
                         "/sounds/../pyproject.toml", "/sounds/make_sounds.py", "/sounds/README.md",
                         "/sounds/%2e%2e/%2e%2e/pyproject.toml", "/page/..%2F..%2Fcli.py", "/page/nothing.js",
                         "/web", "/play", "/play/gateway/0123/127.0.0.1", "/nowhere"):
                async with http.get(base + path) as response:
                    seen[path] = (response.status, dict(response.headers), await response.read())
        return seen

    seen = asyncio.run(script())
    for path, (status, headers, _) in seen.items():
        for name, value in HEADERS.items():
            assert headers.get(name) == value, (path, status, headers)
    assert "script-src 'self'" in HEADERS["Content-Security-Policy"]
    assert "unsafe-inline" not in HEADERS["Content-Security-Policy"]
    status, headers, body = seen["/sounds/chat.wav"]
    assert status == 200 and body[:4] == b"RIFF" and headers["Content-Type"] == "audio/wav"
    assert seen["/sounds/your-turn.wav"][0] == 200
    for path in ("/sounds/..%2Fpyproject.toml", "/sounds/../pyproject.toml", "/sounds/make_sounds.py",
                 "/sounds/README.md", "/sounds/%2e%2e/%2e%2e/pyproject.toml", "/page/..%2F..%2Fcli.py",
                 "/page/nothing.js", "/play/gateway/0123/127.0.0.1", "/nowhere"):
        status, _, body = seen[path]
        assert status == 404, (path, status)
        assert b"[project]" not in body and b"import" not in body
    assert seen["/web"][0] == 403  # no Origin: not the server's own page
    assert seen["/"][0] == 200


def test_a_tab_that_goes_away_lets_go_of_its_seat_and_the_kept_token_puts_the_player_back_at_it(
        server: Running) -> None:
    first, again = Page(server.port), Page(server.port)

    async def script() -> None:
        try:
            await sign_in(first, "Ann")
            assert await people_connected(server.port) == ["Ann"]
            await make_table(first)
            dealt = await first.screen(lambda s: s["mode"] == "discard")
            keep = first.last("keep")
            assert "this server" in " ".join(first.said) and "127.0.0.1" not in " ".join(first.said)
        finally:
            await first.close()
        loop = asyncio.get_running_loop()
        end = loop.time() + 15
        while await people_connected(server.port):  # the tab's session ended, and its connection with it
            assert loop.time() < end, "the server still counts Ann as connected"
            await asyncio.sleep(0.2)
        try:
            await again.open()
            await again.hello(keep["token"], keep["name"], keep["settings"])
            await again.hears("Back at table 1.")
            back = await again.screen(lambda s: s["mode"] == "discard")
            assert [card["short"] for card in back["hand"]] == [card["short"] for card in dealt["hand"]]
            assert (await again.kept())["token"] == keep["token"]
            assert await people_connected(server.port) == ["Ann"]
            # the game menu's Leave the table for now: no main menu to go to, so the name again, and back
            mark = await again.send({"type": "key", "key": "escape"})
            await again.screen(lambda s: s["mode"] == "game menu", since=mark)
            mark = len(again.got)
            await again.choose("Leave the table for now")
            await again.hears("You left the table; your seat is kept for you, and connecting again takes you back"
                              " to it.", since=mark)
            await again.screen(lambda s: s["typing"] is not None, since=mark)
            mark = await again.send({"type": "line", "text": "Ann"})
            await again.hears("Back at table 1.", since=mark)
            await again.screen(lambda s: s["mode"] == "discard", since=mark)
        finally:
            await again.close()

    asyncio.run(script())


def test_the_lobby_is_a_browsers_main_menu_with_settings_and_quit_and_no_game_on_the_hosts_computer(
        server: Running) -> None:
    page = Page(server.port)

    async def script() -> None:
        try:
            await sign_in(page, "Bea")
            mark = await page.send({"type": "key", "key": "escape"})
            await page.hears("This is the lobby, the first screen here; Settings and Quit are at the end of its"
                             " list.", since=mark)
            assert page.last("screen")["mode"] == "lobby"
            await page.choose("Settings")
            await page.screen(lambda s: s["mode"] == "settings")
            await page.menu_to("Speech")
            await page.key("right")  # the speech: your screen reader, then the built-in voice
            mark = await page.send({"type": "key", "key": "right"})
            await page.hears(lambda s: s.startswith("Speech: the built-in voice"), since=mark)
            await page.screen(lambda s: True, since=mark)
            kept = (await page.kept(lambda k: k["settings"]["session"]["speech"] == "tts", since=mark))["settings"]
            assert kept["voice"] is True and kept["session"]["speech"] == "tts"
            mark = await page.send({"type": "key", "key": "escape"})
            await page.screen(lambda s: s["mode"] == "lobby", since=mark)
            # a new table's setup ends with "Start the game", which starts it at the server (tests/test_web_page.py)
            mark = await page.send({"type": "key", "key": "f1"})  # the help says what Escape does here
            await page.hears(lambda s: "Escape: says that the lobby is the first screen." in s, since=mark)
            mark = len(page.got)
            await page.choose("Change your name")
            await page.screen(lambda s: s["typing"] is not None, since=mark)
            mark = await page.send({"type": "key", "key": "escape"})  # no main menu to go back to: asked again
            await page.hears(lambda s: s.startswith("Type the name the others will hear"), since=mark)
            mark = await page.send({"type": "line", "text": "Bea"})
            await page.screen(lambda s: s["mode"] == "lobby", since=mark)
            mark = len(page.got)
            await page.choose("Quit")
            await page.hears("Goodbye.", since=mark)
            await until(lambda: page.got[-1]["type"] == "bye", "the bye")
            assert page.got[-1]["text"] == BYE
            loop = asyncio.get_running_loop()
            end = loop.time() + 15
            while await people_connected(server.port):  # quitting let go of the connection
                assert loop.time() < end, "the server still counts Bea as connected"
                await asyncio.sleep(0.2)
            keep = page.last("keep")
            mark = len(page.got)
            await page.hello(keep["token"], keep["name"], keep["settings"])  # the page's "play again"
            await page.hears(lambda s: s.startswith("Lobby: "), since=mark)
            assert await people_connected(server.port) == ["Bea"]
        finally:
            await page.close()

    asyncio.run(script())


REFUSALS = {NOT_JSON, UNKNOWN, WRONG_FIELDS, BAD_VALUE, HELLO_FIRST, HELLO_TWICE,
            "A message must be sent as text, not as binary data."}


def test_hostile_frames_get_one_sentence_each_floods_are_cut_and_other_tabs_go_on(server: Running) -> None:
    calm, flood, big = (Page(server.port) for _ in range(3))
    hostile = Page(server.port)

    async def script() -> None:
        nonlocal hostile
        try:
            await sign_in(calm, "Cal")
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await Page(server.port).open(origin="http://evil.example")
            assert refused.value.status == 403
            await hostile.open()
            mark = await hostile.send({"type": "key", "key": "down"})
            await hostile.hears(HELLO_FIRST, since=mark)
            await hostile.hello(name="<img src=x onerror=alert(1)>",
                                settings={"session": {"pace": "fast", "rate": 10**9}, "voice": "yes"})
            await hostile.hears(lambda s: s.startswith("Type the name the others will hear"))
            keep = await hostile.kept()
            assert keep["name"] == "" and keep["settings"]["session"]["pace"] == 1.5  # the defaults
            for frame, sentence in [
                ("not json", NOT_JSON), ("[1, 2]", NOT_JSON), ('{"type": 5}', NOT_JSON), ("{" * 3000, NOT_JSON),
                ('{"type": "launch"}', UNKNOWN), ('{"type": "key", "key": "z", "also": 1}', WRONG_FIELDS),
                ('{"type": "key"}', WRONG_FIELDS), ('{"type": "key", "key": 5}', BAD_VALUE),
                ('{"type": "key", "key": "ctrl-alt-delete"}', BAD_VALUE), ('{"type": "key", "key": "\\u0007"}',
                                                                           BAD_VALUE),
                ('{"type": "line", "text": "' + "x" * 301 + '"}', BAD_VALUE),
                ('{"type": "line", "text": "a\\u001b[2Jb"}', BAD_VALUE),
                ('{"type": "choose", "list": "menu", "index": true}', BAD_VALUE),
                ('{"type": "choose", "list": "menu", "index": -1}', BAD_VALUE),
                ('{"type": "choose", "list": "deck", "index": 0}', BAD_VALUE),
                ('{"type": "hello", "token": "", "name": "", "settings": null}', HELLO_TWICE),
                (b"\x00\x01binary", "A message must be sent as text, not as binary data."),
            ]:
                if sum(1 for said in hostile.said if said in REFUSALS) >= 9:  # ten refused close the socket
                    await hostile.close()
                    hostile = Page(server.port)
                    await hostile.open()
                    await hostile.hello()
                mark = await hostile.send(frame)
                await hostile.hears(sentence, since=mark)
            mark = await hostile.send({"type": "choose", "list": "hand", "index": 3})
            await hostile.hears(NOT_NOW, since=mark)
            mark = await hostile.send({"type": "line", "text": "<b>Eve</b>"})  # the name's own check answers
            await hostile.hears(lambda s: s.startswith("A name"), since=mark)
            for _ in range(10):  # refused, and refused again: the socket is closed
                await hostile.send("not json")
            await until(lambda: hostile.closed is not None, "the hostile tab's close")
            assert hostile.socket is not None and hostile.socket.close_code == 1008

            await flood.open()
            await flood.hello()
            await flood.screen(lambda s: s["typing"] is not None)
            mark = len(flood.got)
            began = time.monotonic()
            for _ in range(60):  # a key held down: up arrow reads the line back, once a key
                await flood.send({"type": "key", "key": "up"})
            # its refusal comes once the gateway has read every key before it: the keys came within `took`
            await flood.hears(NOT_JSON, since=await flood.send("not json"))
            took = time.monotonic() - began
            await asyncio.sleep(2)
            answered = sum(1 for m in flood.got[mark:] if m["type"] == "say" and m["text"].startswith("Your name"))
            assert 0 < answered <= KEYS_A_SECOND * (1 + took), (answered, took)  # a second's keys, then as they come

            await big.open()
            await big.hello()
            await big.send({"type": "line", "text": "x" * MAX_FRAME})
            await until(lambda: big.closed is not None, "the big frame's close")
            assert big.socket is not None and big.socket.close_code == 1009

            mark = await calm.send({"type": "key", "key": "down"})  # the other tab never noticed
            await calm.hears("Join a table by its code. 2 of 11.", since=mark)
        finally:
            for page in (calm, hostile, flood, big):
                await page.close()

    asyncio.run(script())


def test_with_a_certificate_the_page_is_served_over_tls_and_its_sessions_trust_the_servers_own_certificate(
        tmp_path: Path) -> None:
    if shutil.which("openssl") is None:
        pytest.skip("openssl is needed to make the test's certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    # the certificate names another host, as a real one would: the loopback connection must still trust it
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                    "/CN=crib.example.org", "-addext", "subjectAltName=DNS:crib.example.org,IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    running = Running(tmp_path / "data", "--certfile", str(cert), "--keyfile", str(key))
    page = Page(running.port, ssl.create_default_context(cafile=str(cert)))

    async def script() -> None:
        try:
            await sign_in(page, "Tia")
            assert page.base.startswith("https://")
        finally:
            await page.close()

    try:
        assert f"In a web browser, friends open https://127.0.0.1:{running.port}/ and play there." in running.lines
        asyncio.run(script())
    finally:
        running.stop()


def test_a_servers_password_is_asked_for_in_a_secret_box(tmp_path: Path) -> None:
    secret = tmp_path / "password.txt"
    secret.write_text("open sesame\n")
    running = Running(tmp_path / "data", "--password-file", str(secret))
    page = Page(running.port)

    async def script() -> None:
        try:
            await page.open()
            await page.hello(name="Pia")
            await page.hears("This server has a password; ask whoever runs it.")
            asked = await page.screen(lambda s: s["typing"] is not None)
            assert asked["typing"] == {"prompt": "Password", "secret": True, "limit": 128, "text": ""}
            mark = await page.send({"type": "line", "text": "open sesame"})
            await page.hears(lambda s: s.startswith("Lobby: "), since=mark)
            assert not any("sesame" in said for said in page.said)
        finally:
            await page.close()

    try:
        asyncio.run(script())
    finally:
        running.stop()


def test_the_server_takes_only_so_many_tabs_at_once(tmp_path: Path) -> None:
    """In this process, a real server application on a loopback port, with room for two tabs."""

    async def script() -> None:
        with Store(tmp_path / STORE_FILE) as store:
            server = Server(store)
            runner = web.AppRunner(make_app(server, partial(add_pages, most_tabs=2)))
            await runner.setup()
            site = web.TCPSite(runner, "127.0.0.1", 0)
            await site.start()
            port = runner.addresses[0][1]
            pages = [Page(port) for _ in range(3)]
            try:
                for page in pages[:2]:
                    await page.open()
                    await page.hello()
                with pytest.raises(aiohttp.WSServerHandshakeError) as full:
                    await pages[2].open()
                assert full.value.status == 503
                await pages[0].close()
                await until(lambda: pages[0].closed is not None, "the first tab's close")
                await asyncio.sleep(0.2)
                await pages[2].open()  # a tab closed makes room
                await pages[2].hello()
                await pages[2].hears(lambda s: s.startswith("Type the name"))
            finally:
                for page in pages:
                    await page.close()
                await runner.cleanup()

    asyncio.run(script())


GAME_MOMENTS = {"discard", "play", "count", "peg", "review", "waiting", "over"}
KEYS = ["escape", "f1", "left", "right", "up", "down", "home", "end", "enter", "space", "backspace", "w", "s", "t",
        "c", "h", "1", "2", "/", ",", ".", "r", "?", "z"]


def test_random_keys_in_a_browser_never_reach_a_main_menu_or_a_game_on_the_hosts_computer(server: Running) -> None:
    rng = random.Random(16)
    page = Page(server.port)

    async def script() -> None:
        try:
            await sign_in(page, "Rex")
            for _ in range(350):
                if page.got and page.got[-1]["type"] == "bye":  # it quit: the page starts again
                    keep = page.last("keep")
                    mark = len(page.got)
                    await page.hello(keep["token"], keep["name"], keep["settings"])
                    await page.screen(lambda s: True, since=mark)
                await page.key(rng.choice(KEYS))
                await asyncio.sleep(0.04)
            await asyncio.sleep(1)
        finally:
            await page.close()

    asyncio.run(script())
    screens = [m for m in page.got if m["type"] == "screen"]
    assert len({s["mode"] for s in screens}) >= 4, {s["mode"] for s in screens}  # the keys went places
    assert not {s["mode"] for s in screens} & {"main menu", "practice menu", "drill"}
    assert not any(said.startswith("Main menu") or said.startswith("Practice") for said in page.said)
    begun = False
    for message in page.got:
        if message["type"] == "say" and (message["text"] == "The game begins."
                                         or message["text"].startswith("Back at table")):
            begun = True
        if message["type"] == "screen" and message["mode"] in GAME_MOMENTS:
            assert begun, "a game began that was not the server's"


def test_a_second_tab_with_the_same_token_takes_the_seat_and_the_first_says_so_and_waits(server: Running) -> None:
    first, second = Page(server.port), Page(server.port)

    async def script() -> None:
        try:
            await sign_in(first, "Una")
            keep = first.last("keep")
            mark = len(first.got)
            await second.open()
            await second.hello(keep["token"], keep["name"], keep["settings"])
            await second.hears(lambda s: s.startswith("Lobby: "))
            await first.hears(CONNECTED_ELSEWHERE, since=mark)
            await first.screen(lambda s: s["typing"] is not None and s["typing"]["prompt"] == "Your name", mark)
            await asyncio.sleep(1)  # and it stays so: no tug of war between the tabs
            assert not any(m["type"] == "say" and m["text"].startswith("Connecting") for m in first.got[mark:])
            assert await people_connected(server.port) == ["Una"]
        finally:
            await first.close()
            await second.close()

    asyncio.run(script())


def test_a_stopped_server_ends_the_tabs_sessions_and_closes_their_sockets_saying_so(tmp_path: Path) -> None:
    running = Running(tmp_path / "data")
    page = Page(running.port)

    async def script() -> None:
        try:
            await sign_in(page, "Ida")
            running.process.send_signal(signal.SIGTERM)
            await until(lambda: page.closed is not None, "the tab's close", timeout=30)
            assert page.socket is not None and page.socket.close_code == 1001
            assert page.closed.extra == "The server is stopping."
        finally:
            await page.close()

    asyncio.run(script())
    out, err = running.process.communicate(timeout=30)
    assert (running.process.returncode, err) == (0, "")
    assert out.splitlines() == ["Stopping: closing the connections.", "The server has stopped."]


def test_the_token_is_sent_to_be_kept_before_anything_is_said_about_being_connected(server: Running) -> None:
    """A tab closed just after the lobby is heard must still have its token: the server knows the name from then
    on, and without the token the next visit would hear that the name is taken."""
    page = Page(server.port)

    async def script() -> None:
        try:
            await page.open()
            await page.hello()
            await page.screen(lambda s: s["typing"] is not None and s["typing"]["prompt"] == "Your name")
            mark = await page.send({"type": "line", "text": "Cy"})
            await page.hears(lambda s: s.startswith("Lobby: "), since=mark)
            after = page.got[mark:]
            first_keep = next(i for i, m in enumerate(after) if m["type"] == "keep" and m["token"])
            said_first = next(i for i, m in enumerate(after) if m["type"] == "say" and m["text"].startswith("Lobby: "))
            assert first_keep < said_first, [m["type"] for m in after[:said_first + 1]]
        finally:
            await page.close()

    asyncio.run(script())


def test_a_typed_line_longer_than_its_box_is_answered_with_its_limit_and_not_cut_short(server: Running) -> None:
    """The page's box stops at the line's limit, which the screen gives it; a longer line (a page of another
    making) is told the limit, and nothing is sent in its name."""
    page = Page(server.port)

    async def script() -> None:
        try:
            await page.open()
            await page.hello()
            asked = await page.screen(lambda s: s["typing"] is not None and s["typing"]["prompt"] == "Your name")
            assert asked["typing"]["limit"] == 24
            mark = await page.send({"type": "line", "text": "Ann" * 10})
            await page.hears("That is as long as it can be: 24 characters.", since=mark)
            await asyncio.sleep(0.3)
            assert page.last("screen")["typing"] is not None and not any(
                m["type"] == "keep" and m["name"] for m in page.got[mark:])
            mark = await page.send({"type": "line", "text": "Ann"})
            await page.hears(lambda s: s.startswith("Lobby: "), since=mark)
        finally:
            await page.close()

    asyncio.run(script())


def test_counting_your_own_hands_and_points_from_a_browser_every_key_of_those_moments_answers(
        server: Running) -> None:
    """The moments a browser player types a number in (the points a card made in the play, a hand's count): each
    digit, Backspace and Enter answers, and the game goes on to the next deal."""
    page = Page(server.port)

    async def script() -> None:
        try:
            await sign_in(page, "Ann")
            await make_table(page, own_counts=True)
            typed: set[str] = set()
            loop = asyncio.get_running_loop()
            end = loop.time() + 120
            while "review" not in typed or not {"peg", "count"} <= typed:
                assert loop.time() < end, (typed, page.last("screen"), page.said[-5:])
                screen = page.last("screen")
                mode, mark = screen["mode"], len(page.got)
                if mode in ("discard", "play"):
                    if not await lay_away_or_play(page, screen):
                        await asyncio.sleep(0.02)
                        continue
                elif mode in ("peg", "count"):
                    assert screen["enter"] in ("Claim the points you typed.", "Claim the count you typed.")
                    for key in ("1", "backspace", "0", "enter"):  # claims nothing: the missed points are told
                        mark = await page.send({"type": "key", "key": key})
                        await page.hears(lambda said: True, since=mark)
                    typed.add(mode)
                elif mode == "review" and {"peg", "count"} <= typed:
                    typed.add(mode)
                    continue
                elif mode == "review":
                    await page.key("enter")
                else:
                    await asyncio.sleep(0.02)
                    continue
                with contextlib.suppress(AssertionError):  # nothing changed on the screen yet: look again
                    await page.screen(lambda s, screen=screen: s != screen, since=mark, timeout=3.0)
        finally:
            await page.close()

    asyncio.run(script())
