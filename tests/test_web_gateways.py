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
import os
import signal
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.test_cli_hostile import PROGRAM, assert_process_refused
from tests.test_serve import Running
from tests.test_serve_proxy import certificate, documented_site, free_port, require
from tests.web_client import Page, lay_away_or_play, people_connected, sign_in

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="other loopback addresses than 127.0.0.1: Linux")

SECTION = "## More browser players: gateways"


class GatewayProcess:
    """A running ``audiocrib web`` on a free loopback port, serving the server at ``server`` (its port on
    127.0.0.1, or its address), with the lines it said on start."""

    def __init__(self, folder: Path, server: int | str, *extra: str) -> None:
        env = {**os.environ, "HOME": str(folder), "XDG_DATA_HOME": str(folder / "xdg")}
        folder.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen([str(PROGRAM), "web", "--server", server if isinstance(server, str)
                                         else f"ws://127.0.0.1:{server}", "--port", "0",
                                         *extra], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                        stderr=(folder / "errors.txt").open("a"), text=True, env=env)
        assert self.process.stdout is not None
        self.lines: list[str] = []
        while not any("Ctrl+C" in line for line in self.lines):
            line = self.process.stdout.readline()
            assert line, (self.lines, (folder / "errors.txt").read_text())
            self.lines.append(line.rstrip("\n"))
        first = self.lines[0]
        assert first.startswith("audiocrib gateway listening on 127.0.0.1, port "), first
        self.port = int(first.rsplit(" ", 1)[1].rstrip("."))

    def stop(self, how: signal.Signals = signal.SIGTERM) -> tuple[int, str]:
        if self.process.poll() is None:
            self.process.send_signal(how)
        out, _ = self.process.communicate(timeout=30)
        return self.process.returncode, out


def start_nginx(folder: Path, site: str, port: int) -> subprocess.Popen[bytes]:
    """nginx in the foreground with everything of its own in ``folder`` (no root needed), serving ``site``,
    until it answers on ``port``."""
    program = require("nginx", "for the gateways' proxy")
    temp = " ".join(f"{kind}_temp_path {folder / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi",
                                                                     "scgi"))
    user = "user root;\n" if os.geteuid() == 0 else ""  # else its workers would be nobody, shut out of folder
    (folder / "nginx.conf").write_text(
        f"{user}pid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'};\nworker_processes 1;\n"
        f"events {{ worker_connections 512; }}\nhttp {{\naccess_log off;\n{temp}\n{site}\n}}\n")
    process = subprocess.Popen([program, "-p", str(folder), "-e", str(folder / "error.log"), "-c",
                                str(folder / "nginx.conf"), "-g", "daemon off;"],
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 20
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                _, errors = process.communicate()
                raise AssertionError(f"nginx did not start: {errors!r}") from None
            time.sleep(0.05)


def gateways_site(port: int, server: int, gateways: list[int], cert: Path, key: Path) -> str:
    """The documented site, its example values (each there exactly once) replaced by the test's."""
    site = documented_site(SECTION)
    for example, value in (("listen 443 ssl;", f"listen 127.0.0.1:{port} ssl;"),
                           ("proxy_pass http://127.0.0.1:4121;", f"proxy_pass http://127.0.0.1:{server};"),
                           ("server 127.0.0.1:8121;", f"server 127.0.0.1:{gateways[0]};"),
                           ("server 127.0.0.1:8122;", f"server 127.0.0.1:{gateways[1]};"),
                           ("/etc/letsencrypt/live/cribbage.example.org/fullchain.pem;", f"{cert};"),
                           ("/etc/letsencrypt/live/cribbage.example.org/privkey.pem;", f"{key};")):
        assert site.count(example) == 1, example
        site = site.replace(example, value)
    return site


class Room:
    """The server (no page of its own, trusting the gateways at 127.0.0.1), two gateways (trusting nginx at
    127.0.0.1), and nginx with TLS in front of them all."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.server = Running(folder / "data", "--most-tabs", "0", "--trust-proxy", "127.0.0.1")
        self.gateways: list[GatewayProcess] = []
        self.nginx: subprocess.Popen[bytes] | None = None
        try:
            for number in (1, 2):
                self.gateways.append(GatewayProcess(folder / f"gateway{number}", self.server.port, "--trust-proxy",
                                                    "127.0.0.1"))
            (folder / "nginx").mkdir()
            cert, key = certificate(folder / "nginx")
            self.trusted = ssl.create_default_context(cafile=str(cert))
            self.port = free_port()
            site = gateways_site(self.port, self.server.port, [g.port for g in self.gateways], cert, key)
            self.nginx = start_nginx(folder / "nginx", site, self.port)
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        if self.nginx is not None:
            self.nginx.terminate()
            self.nginx.communicate(timeout=20)
        for gateway in self.gateways:
            gateway.stop()
        if self.server.process.poll() is None:
            self.server.stop()

    def who(self) -> list[str]:
        """What ``audiocrib admin who`` says: each connected player's name, address and place, one a line."""
        done = subprocess.run([str(PROGRAM), "admin", "who", "--data-dir", str(self.folder / "data")],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done
        return done.stdout.splitlines()


@pytest.fixture
def room(tmp_path: Path) -> Iterator[Room]:
    require("nginx", "for the gateways' proxy")
    running = Room(tmp_path)
    yield running
    running.stop()


class Tab(Page):
    """A browser tab whose connections come from ``address`` (a loopback address of its own: a player at home),
    with TLS when given what to trust (nginx's)."""

    def __init__(self, port: int, tls: ssl.SSLContext | None, address: str) -> None:
        super().__init__(port, tls)
        self.address = address

    async def open(self, origin: str | None = None) -> None:
        self._http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(self.address, 0)))
        try:
            self.socket = await self._http.ws_connect(f"{self.base}/web", ssl=self.tls or True, headers={
                "Origin": origin if origin is not None else self.base})
        except aiohttp.ClientError:
            await self._http.close()
            raise
        self._reader = asyncio.ensure_future(self._read())

    async def dropped(self, timeout: float = 20.0) -> bool:
        """True once the tab's socket closes by itself (within ``timeout``), False if it stays open."""
        assert self._reader is not None
        try:
            await asyncio.wait_for(asyncio.shield(self._reader), timeout)
        except TimeoutError:
            return False
        return True


async def host_a_table_for_two(page: Page) -> None:
    """From the lobby: a table to 61 for two people, created; the host waits in its waiting room."""
    await page.choose("Create a table")
    await page.screen(lambda s: s["mode"] == "new table")
    await page.menu_to("Table setup")
    mark = await page.send({"type": "key", "key": "enter"})
    await page.screen(lambda s: s["mode"] == "table setup", since=mark)
    await page.menu_to("Game to")
    while "61" not in (text := page.last("screen")["menu"]["items"][page.last("screen")["menu"]["current"]]):
        mark = await page.send({"type": "key", "key": "left"})
        await page.screen(lambda s, text=text: s["menu"]["items"][s["menu"]["current"]] != text, since=mark)
    mark = await page.send({"type": "key", "key": "escape"})
    await page.screen(lambda s: s["mode"] == "new table", since=mark)
    mark = len(page.got)
    await page.choose("Create the table")
    await page.screen(lambda s: s["mode"] == "waiting room", since=mark)


async def sit_down_together(ann: Tab, bea: Tab) -> None:
    """Ann hosts a table for two, Bea joins it from the lobby, Ann starts the game; both are dealt."""
    await sign_in(ann, "Ann")
    await host_a_table_for_two(ann)
    await sign_in(bea, "Bea")
    mark = len(ann.got)
    await bea.choose("Table 1, Ann's")
    await bea.screen(lambda s: s["mode"] == "waiting room")
    await ann.hears(lambda said: said.startswith("Bea"), since=mark)
    await ann.choose("Start the game")
    for tab in (ann, bea):
        await tab.hears("The game begins.")
        await tab.screen(lambda s: s["mode"] == "discard")


async def lay_away(tab: Tab) -> None:
    """The first two cards laid away, and the play begun (or the other player still laying away)."""
    mark = len(tab.got)
    assert await lay_away_or_play(tab, tab.last("screen"))
    await tab.screen(lambda s: s["mode"] != "discard", since=mark)


async def play_to_the_end(tab: Tab, timeout: float = 120.0) -> None:
    """Answer what the game asks, by keys, until the match is over; each move sent once, and its answer awaited
    before the next (two players at a table through nginx: web_client's `play_match` may send a move again before
    the first is answered, and so many frames that the page's socket is closed for it)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while (screen := tab.last("screen"))["mode"] != "over":
        assert loop.time() < end, f"the match did not end: {screen}; {tab.said[-5:]}"
        mark = len(tab.got)
        mode = screen["mode"]
        if mode == "discard":
            await lay_away_or_play(tab, screen)
            answered = await _answer(tab, mark, lambda s: s["mode"] != "discard")
        elif mode == "play" and await lay_away_or_play(tab, screen):
            answered = await _answer(tab, mark, lambda s: s["mode"] != "play", "You play ")
        elif mode == "review":
            await tab.key("enter")
            answered = await _answer(tab, mark, lambda s, screen=screen: s != screen)
        else:
            answered = False
        if not answered:
            await asyncio.sleep(0.05)


async def _answer(tab: Tab, mark: int, moved: Callable[[dict[str, Any]], bool], said: str = "") -> bool:
    """Wait (five seconds at most) for a screen that ``moved`` accepts, or a "say" starting with ``said``."""
    loop = asyncio.get_running_loop()
    end = loop.time() + 5
    while loop.time() < end:
        for message in tab.got[mark:]:
            if (message["type"] == "screen" and moved(message)) or (
                    said and message["type"] == "say" and message["text"].startswith(said)):
                return True
        await asyncio.sleep(0.02)
    return False


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


def connections_to(pid: int, port: int) -> int:
    """How many TCP connections the process ``pid`` has established to ``port`` (read from /proc: Linux)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue  # closed meanwhile
        if target.startswith("socket:["):
            inodes.add(target[len("socket:["):-1])
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            established = fields[3] == "01"
            if established and int(fields[2].rsplit(":", 1)[1], 16) == port and fields[9] in inodes:
                count += 1
    return count


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
    asyncio.run(script())
    status, out = gateway.stop()
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
