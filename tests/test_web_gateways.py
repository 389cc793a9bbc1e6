"""Gateways that leave the server: a real server serving no page (``--most-tabs 0``) and trusting the gateways, two
real ``audiocrib web`` gateways, and a real nginx in front with TLS, its site the one in docs/server.md ("More
browser players: gateways"), read from the page. Browser tabs (the page's protocol, tests/web_client.py) connect to
nginx from their own loopback addresses (127.0.0.2, 127.0.0.3, ...), sign in, and play a match across the two
gateways; the server counts each under their own address. One gateway is killed mid-game: its player's tab drops,
opens the page's socket again through nginx with the kept token, lands on the other gateway, is back at the seat
with the same hand, and the match is finished. A real Chromium page does the same by its own reconnect. Also: the
gateway's start and clean stop, its sessions reconnecting when the server restarts, more tabs on one gateway than
a default connection pool holds, and its hostile command lines.

Linux only (more loopback addresses than 127.0.0.1). Where nginx or openssl is missing the tests that need them
skip, except under CI (``CI`` set), where they fail.
"""

from __future__ import annotations

import asyncio
import signal
import socket
import ssl
import sys
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from tests.gateway_room import (
    GatewayProcess,
    Room,
    Tab,
    connections_to,
    lay_away,
    play_to_the_end,
    sit_down_together,
)
from tests.test_cli_hostile import assert_process_refused
from tests.test_serve import Running
from tests.test_serve_proxy import certificate, require
from tests.web_client import Page, people_connected, sign_in

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="other loopback addresses than 127.0.0.1: Linux")


@pytest.fixture
def room(tmp_path: Path) -> Iterator[Room]:
    require("nginx", "for the gateways' proxy")
    running = Room(tmp_path)
    yield running
    running.stop()


def test_browser_players_on_two_gateways_play_a_match_and_one_gateway_killed_loses_them_nothing(
        room: Room) -> None:
    """Ann and Bea, at home at 127.0.0.2 and 127.0.0.3, sit at one table through nginx, nginx sharing their tabs
    between the two gateways; the server counts each under their own address. The first gateway is killed in the
    play: exactly one tab drops (the players were on different gateways), and it comes back through nginx (on the
    other gateway, the only one left) with its kept token, to the same hand and score; the other player heard the
    seat's person lost and back, as for a terminal; and the match is played to its end."""
    ann = Tab(room.port, room.trusted, "127.0.0.2")
    bea = Tab(room.port, room.trusted, "127.0.0.3")
    tabs = [ann, bea]

    async def script() -> None:
        try:
            await sit_down_together(ann, bea)
            assert await asyncio.to_thread(room.who) == ["Ann: 127.0.0.2, at table 1", "Bea: 127.0.0.3, at table 1"]
            await asyncio.gather(lay_away(ann), lay_away(bea))
            before = {}
            for tab in (ann, bea):
                before[tab.address] = await tab.screen(lambda s: s["mode"] in ("play", "waiting") and any(
                    line.startswith("The starter is the") for line in s["status"]))
            room.gateways[0].process.kill()
            readers = {asyncio.ensure_future(tab.dropped()): tab for tab in tabs}
            done, waiting = await asyncio.wait(readers, timeout=20, return_when=asyncio.FIRST_COMPLETED)
            assert len(done) == 1 and all(task.result() for task in done), "no tab dropped with its gateway"
            await asyncio.sleep(1)
            assert not any(task.done() for task in waiting), "both tabs dropped: they were on the same gateway"
            for task in waiting:
                task.cancel()
            gone = readers[next(iter(done))]
            stayed = bea if gone is ann else ann
            name = "Ann" if gone is ann else "Bea"
            await stayed.hears(f"{name} has lost the connection; the table waits.")
            keep = gone.last("keep")
            again = Tab(room.port, room.trusted, gone.address)  # the page's own reconnect: hello with the token
            tabs.append(again)
            mark = len(stayed.got)
            await again.open()
            await again.hello(keep["token"], keep["name"], keep["settings"])
            await again.hears("Back at table 1.")
            back = await again.screen(lambda s: s["mode"] in ("play", "waiting"))
            earlier = before[gone.address]
            assert [card["short"] for card in back["hand"]] == [card["short"] for card in earlier["hand"]]
            assert back["status"][0] == earlier["status"][0]  # the scores
            await stayed.hears(f"{name} is back.", since=mark)
            assert room.gateways[0].process.poll() is not None  # so the other gateway took the tab
            assert sorted(await asyncio.to_thread(room.who)) == ["Ann: 127.0.0.2, at table 1",
                                                                 "Bea: 127.0.0.3, at table 1"]
            await asyncio.gather(play_to_the_end(again), play_to_the_end(stayed))
            for tab in (again, stayed):
                await tab.hears(lambda said: " win the game, " in said or " wins the game, " in said)
        finally:
            for tab in tabs:
                await tab.close()
    asyncio.run(script())


def test_the_page_in_a_real_browser_comes_back_through_the_other_gateway(room: Room, tmp_path: Path) -> None:
    """Headless Chromium on nginx's https address: a name, a game against a computer player dealt; the gateway
    holding the page's session is killed; the page shows it is disconnected, connects again by itself (through
    nginx, to the other gateway) with what it kept, and is back at the table with the same hand, the name not
    asked again."""
    from tests.browser_driver import Browser, require_browser, wait_until
    from tests.test_web_page import menu, shown, start_against_a_computer, type_line

    require_browser()
    browser = Browser(tmp_path / "profile")
    connection = "return document.getElementById('connection').textContent;"
    try:
        browser.driver.execute_cdp_cmd("Security.setIgnoreCertificateErrors", {"ignore": True})
        browser.open(f"https://127.0.0.1:{room.port}/")
        type_line(browser, "Fay")
        wait_until(lambda: not shown(browser, "typing") and menu(browser)[0], "the lobby after the name")
        browser.caught_up()
        start_against_a_computer(browser)
        hand = [card["short"] for card in browser.screen()["hand"]]
        holding = [g for g in room.gateways if connections_to(g.process.pid, room.server.port)]
        assert len(holding) == 1, "one gateway holds the page's session"
        other = next(g for g in room.gateways if g is not holding[0])
        heard = len(browser.heard)
        holding[0].process.kill()
        down = browser.script("return document.getElementById('connection').dataset.down;")
        wait_until(lambda: browser.script(connection) == down, "the page to show it is disconnected")
        wait_until(lambda: browser.script(connection) == "", "the page to connect again", timeout=30)
        wait_until(lambda: "Back at table 1." in browser.heard[heard:], "back at the table")
        wait_until(lambda: browser.screen().get("mode") == "discard"
                   and [card["short"] for card in browser.screen()["hand"]] == hand, "the same hand")
        assert not shown(browser, "typing"), "the name is not asked again"
        assert connections_to(other.process.pid, room.server.port) == 1
    finally:
        browser.quit()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Running]:
    """A server with no page of its own, trusting a gateway at 127.0.0.1."""
    running = Running(tmp_path / "data", "--most-tabs", "0", "--trust-proxy", "127.0.0.1")
    yield running
    if running.process.poll() is None:
        running.stop()


def test_a_gateway_serves_the_page_says_where_and_stops_cleanly_telling_each_tab(server: Running,
                                                                               tmp_path: Path) -> None:
    """The server with ``--most-tabs 0`` serves no page; the gateway serves it and its socket, its sessions play on
    the server; on SIGTERM each tab is closed with "The server is stopping." and the gateway says it has
    stopped."""
    gateway = GatewayProcess(tmp_path / "gateway", server.port)
    assert gateway.lines[1] == (f"Its browsers play on the server at ws://127.0.0.1:{server.port}/play; stop the"
                                " gateway with Ctrl+C.")
    page = Page(gateway.port)

    async def script() -> None:
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{server.port}/web") as answer:
                assert answer.status == 404  # the server leaves the page to its gateways
            async with http.get(f"http://127.0.0.1:{gateway.port}/") as answer:
                assert answer.status == 200 and "<html" in (await answer.text()).lower()
                assert "default-src 'none'" in answer.headers["Content-Security-Policy"]
        try:
            await sign_in(page, "Cal")
            assert await people_connected(server.port) == ["Cal"]
            await asyncio.to_thread(gateway.process.send_signal, signal.SIGTERM)
            assert page._reader is not None
            await asyncio.wait_for(page._reader, 20)
            assert page.closed is not None and page.closed.extra == "The server is stopping.", page.closed
        finally:
            await page.close()
    try:
        asyncio.run(script())
    except BaseException:
        gateway.stop()
        raise
    out, _ = gateway.process.communicate(timeout=30)  # stopping by the signal above: no second one
    status = gateway.process.returncode
    assert status == 0 and out.splitlines()[-2:] == ["Stopping: closing the browsers' tabs.",
                                                     "The gateway has stopped."], (status, out)


def test_when_the_server_restarts_the_gateways_sessions_connect_again_by_themselves(server: Running,
                                                                                    tmp_path: Path) -> None:
    """The server stopped under a signed-in tab: the tab stays open and hears what a terminal player hears; the
    server started again on the same port and data: the session connects again by itself, the player in the
    lobby, counted as connected."""
    gateway = GatewayProcess(tmp_path / "gateway", server.port)
    page = Page(gateway.port)
    restarted: list[Running] = []

    async def script() -> None:
        try:
            await sign_in(page, "Dee")
            mark = len(page.got)
            await asyncio.to_thread(server.stop)
            await page.hears("The connection to the server was lost (The server is stopping.). Trying again by"
                             " itself.", since=mark)
            restarted.append(await asyncio.to_thread(Running, tmp_path / "data", "--port", str(server.port),
                                                     "--most-tabs", "0", "--trust-proxy", "127.0.0.1"))
            await page.hears("Connected again.", since=mark)
            assert page.closed is None  # the tab never noticed more than the words
            assert await people_connected(server.port) == ["Dee"]
        finally:
            await page.close()
    try:
        asyncio.run(script())
    finally:
        for running in restarted:
            running.stop()
        gateway.stop()


@pytest.mark.parametrize(("args", "words"), [
    ([], "Give the server's address with --server, like: audiocrib web --server 127.0.0.1:4121."),
    (["--server"], "--server needs a value: the server's address, like 127.0.0.1:4121"),
    (["--server", "not a server!"], "--server: A server address is a name or a number"),
    (["--server", "localhost\x1b[2J"], "--server: A server address is a name or a number"),
    (["--server", "localhost", "--port", "70000"], "--port takes a port number from 0 to 65535"),
    (["--server", "localhost", "--host", "a b"], "--host takes an address of this computer to listen on"),
    (["--server", "localhost", "--host", "203.0.113.9"], "--host names an address that is not this computer's"),
    (["--server", "localhost", "--most-tabs", "0"], "--most-tabs takes a number of browser tabs from 1 to 100000,"
                                                    " not 0."),
    (["--server", "localhost", "--most-tabs", "9" * 5000], "not 999999999999999999999999999999 and 4,970"),
    (["--server", "localhost", "--trust-proxy", "nginx"], "--trust-proxy takes an address or a network"),
    (["--server", "localhost", "--certfile", "cert.pem"], "Give --certfile and --keyfile together"),
    (["--server", "localhost", "--server-cert", "server.pem"], "--server-cert is for a server reached with TLS;"
                                                               " give its address as wss://."),
    (["--server", "wss://localhost", "--server-cert", "missing.pem"], "--server-cert names a file that does not"
                                                                      " exist"),
    (["--server", "wss://localhost", "--server-cert", "server.pem"], "--server-cert could not be read as a"
                                                                     " certificate (a PEM file)."),
    (["--server", "localhost", "--certfile", "server.pem", "--keyfile", "server.pem"], "--certfile and --keyfile"
                                                                                       " could not be read"),
])
def test_a_wrong_gateway_command_line_is_one_sentence(tmp_path: Path, args: list[str], words: str) -> None:
    from tests.test_cli_hostile import run as run_program

    (tmp_path / "server.pem").write_text("not a certificate\n")
    args = [str(tmp_path / arg) if arg.endswith(".pem") else arg for arg in args]
    assert_process_refused(run_program(tmp_path, "web", *args, timeout=30), words)


def test_a_gateway_whose_port_is_taken_says_so(tmp_path: Path) -> None:
    from tests.test_cli_hostile import run as run_program

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run_program(tmp_path, "web", "--server", "localhost", "--port", str(port), timeout=30)
    assert_process_refused(done, f"The gateway cannot listen on 127.0.0.1 port {port}: address already in use.")


def test_one_gateway_holds_more_tabs_than_a_default_connection_pool(server: Running, tmp_path: Path) -> None:
    """A hundred and one tabs signed in through one gateway, each its own connection to the server: none waits
    for another's to close (aiohttp's default pool holds a hundred connections and makes the next one wait)."""
    gateway = GatewayProcess(tmp_path / "gateway", server.port)
    count = 101
    tabs = [Tab(gateway.port, None, f"127.0.0.{20 + number // 17}") for number in range(count)]

    async def script() -> None:
        try:
            for start in range(0, count, 17):
                await asyncio.gather(*(sign_in(tab, f"Tab {number}") for number, tab in
                                       enumerate(tabs[start:start + 17], start)))
            assert len(await people_connected(server.port)) == count
        finally:
            await asyncio.gather(*(tab.close() for tab in tabs), return_exceptions=True)
    try:
        asyncio.run(script())
    finally:
        gateway.stop()


def test_a_gateway_reaches_a_server_with_tls_trusting_exactly_its_certificate(tmp_path: Path) -> None:
    """The server holds a certificate (wss); the gateway, told ``--server-cert`` with it, plays there, and serves
    its own page with TLS too; without ``--server-cert`` the system's certificates do not know the server's, and
    the tab hears that its connection could not be checked."""
    require("openssl", "to make the test's certificate")
    (tmp_path / "tls").mkdir()
    cert, key = certificate(tmp_path / "tls")
    trusted = ssl.create_default_context(cafile=str(cert))
    server = Running(tmp_path / "data", "--most-tabs", "0", "--trust-proxy", "127.0.0.1", "--certfile", str(cert),
                     "--keyfile", str(key))
    address = f"wss://127.0.0.1:{server.port}"
    gateways = [GatewayProcess(tmp_path / "trusting", address, "--server-cert", str(cert), "--certfile", str(cert),
                               "--keyfile", str(key)),
                GatewayProcess(tmp_path / "system", address)]

    async def script() -> None:
        page, stranger = Page(gateways[0].port, trusted), Page(gateways[1].port)
        try:
            await sign_in(page, "Gus")
            async with aiohttp.ClientSession() as http, http.ws_connect(f"{address}/play", ssl=trusted) as socket:
                await socket.send_json({"type": "hello", "name": "Ivo", "token": None, "password": None,
                                        "version": 1})
                assert (await socket.receive_json(timeout=10))["type"] == "welcome"
                await socket.send_json({"type": "lobby"})
                while (answer := await socket.receive_json(timeout=10))["type"] != "lobby_list":
                    pass
                assert answer["people"] == ["Gus", "Ivo"]
            await stranger.open()
            await stranger.hello("", "Hal")
            await stranger.hears(lambda said: "its certificate could not be checked" in said)
        finally:
            await page.close()
            await stranger.close()
    try:
        asyncio.run(script())
    finally:
        for gateway in gateways:
            gateway.stop()
        server.stop()
