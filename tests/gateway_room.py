"""The gateways' test room (tests/test_web_gateways.py): a server serving no page, two ``audiocrib web`` gateways
and nginx in front with the site of docs/server.md ("More browser players: gateways"); browser tabs from loopback
addresses of their own; and the steps of a match between two people at one table, played by keys.

Linux only: more loopback addresses than 127.0.0.1, and /proc.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import ssl
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.test_cli_hostile import PROGRAM
from tests.test_serve import Running
from tests.test_serve_proxy import certificate, documented_site, free_port, require
from tests.web_client import Page, game_to_61, lay_away_or_play, sign_in

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


class Tab(Page):
    """A browser tab whose connections come from ``address`` (a loopback address of its own: a player at home),
    with TLS when given what to trust (nginx's)."""

    def __init__(self, port: int, tls: ssl.SSLContext | None, address: str) -> None:
        super().__init__(port, tls)
        self.address = self.local_address = address

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
    await game_to_61(page)
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
