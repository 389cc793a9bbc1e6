"""A real server behind a real nginx (Debian's), on loopback: the nginx configuration is the one in docs/server.md
("Hosting a public room"), read from the page, so the page cannot drift from what works. Through it, a game's
WebSocket and the browser page work; the limits per address count each player's own address (clients connect to
nginx from 127.0.0.2, 127.0.0.3 and so on), whatever the client writes in its own X-Forwarded-For; a client
connecting straight to the server has its forged header ignored. Also: a WebSocket to ``/play`` from another site's
page is refused, the greeting names the trusted proxy, and docs/audiocrib.service passes ``systemd-analyze verify``.

Linux only (more loopback addresses than 127.0.0.1). Where nginx, openssl or systemd-analyze is missing the test
that needs it is skipped, except under CI (``CI`` set: ``.ci/run`` installs nginx and systemd), where it fails.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from audiocrib.server.proxy import Proxies
from tests.netplayers import NetPlayer
from tests.test_cli_hostile import PROGRAM, assert_process_refused
from tests.test_serve import Running, ask, create, hello, run
from tests.web_client import Page, sign_in

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="other loopback addresses than 127.0.0.1: Linux")

DOCS = Path(__file__).resolve().parent.parent / "docs"
SECTION = "## Hosting a public room"
PER_ADDRESS = 20
"""Connections open at once from one address (`Limits.connections_per_address`)."""


def require(program: str, why: str, package: str | None = None) -> str:
    """The path of ``program``; where it is missing the test skips, or fails under CI."""
    found = shutil.which(program) or shutil.which(program, path="/usr/sbin:/sbin")
    if found is None:
        message = f"{program} is needed {why} (apt-get install {package or program})"
        if os.environ.get("CI"):
            pytest.fail(message + "; CI must run this test.")
        pytest.skip(message)
    return found


def documented_site(section: str = SECTION) -> str:
    """The nginx site of docs/server.md's ``section`` ("Hosting a public room" unless told)."""
    text = (DOCS / "server.md").read_text()
    text = text[text.index(section):]
    end = text.find("\n## ", len(section))  # this section only, to the next of its level
    text = text if end < 0 else text[:end]
    blocks = re.findall(r"```nginx\n(.*?)```", text, re.S)
    assert len(blocks) == 1, f"docs/server.md's section {section!r} should show one nginx configuration"
    return str(blocks[0])


def filled(site: str, **values: str) -> str:
    """``site`` with each of the page's example values (each there exactly once) replaced by the test's."""
    for example, value in values.items():
        placeholder = {"listen": "listen 443 ssl;", "upstream": "http://127.0.0.1:4121;",
                       "certificate": "/etc/letsencrypt/live/cribbage.example.org/fullchain.pem;",
                       "key": "/etc/letsencrypt/live/cribbage.example.org/privkey.pem;"}[example]
        assert site.count(placeholder) == 1, placeholder
        site = site.replace(placeholder, value)
    return site


def free_port() -> int:
    with socket.socket() as trial:
        trial.bind(("127.0.0.1", 0))
        port: int = trial.getsockname()[1]
        return port


def certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and its key, made by openssl."""
    openssl = require("openssl", "to make the test's certificate")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True, timeout=60)
    return cert, key


class Nginx:
    """nginx in the foreground with everything of its own in ``folder`` (no root needed), serving the documented
    site on a free loopback port with TLS, in front of the server at ``upstream``."""

    def __init__(self, folder: Path, upstream: int) -> None:
        program = require("nginx", "for the reverse proxy's test")
        folder.mkdir()
        cert, key = certificate(folder)
        self.port = free_port()
        self.trusted = ssl.create_default_context(cafile=str(cert))
        site = filled(documented_site(), listen=f"listen 127.0.0.1:{self.port} ssl;",
                      upstream=f"http://127.0.0.1:{upstream};", certificate=f"{cert};", key=f"{key};")
        temp = " ".join(f"{kind}_temp_path {folder / kind};" for kind in ("client_body", "proxy", "fastcgi",
                                                                         "uwsgi", "scgi"))
        user = "user root;\n" if os.geteuid() == 0 else ""  # else its workers would be nobody, shut out of folder
        (folder / "nginx.conf").write_text(
            f"{user}pid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'};\nworker_processes 1;\n"
            f"events {{ worker_connections 512; }}\nhttp {{\naccess_log off;\n{temp}\n{site}\n}}\n")
        self.log = folder / "error.log"
        self.process = subprocess.Popen([program, "-p", str(folder), "-e", str(self.log), "-c",
                                         str(folder / "nginx.conf"), "-g", "daemon off;"],
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.process.kill()
                    _, errors = self.process.communicate()
                    raise AssertionError(f"nginx did not start: {errors!r}") from None
                time.sleep(0.05)
        self.url = f"wss://127.0.0.1:{self.port}/play"

    def stop(self) -> None:
        self.process.terminate()
        self.process.communicate(timeout=20)


class Proxied:
    """A server trusting the proxy at 127.0.0.1, and nginx in front of it."""

    def __init__(self, folder: Path) -> None:
        self.server = Running(folder / "data", "--trust-proxy", "127.0.0.1")
        try:
            self.nginx = Nginx(folder / "nginx", self.server.port)
        except BaseException:
            self.server.stop()
            raise


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxied]:
    both = Proxied(tmp_path_factory.mktemp("proxy"))
    yield both
    both.nginx.stop()
    both.server.stop()


def from_address(address: str, tls: ssl.SSLContext | None = None) -> aiohttp.ClientSession:
    """A client whose connections come from ``address`` (a loopback address of its own: a player at home)."""
    return aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(address, 0), ssl=tls or False))


async def open_sockets(session: aiohttp.ClientSession, url: str, count: int,
                       headers: list[dict[str, str]] | None = None) -> tuple[list[Any], list[int]]:
    """Try ``count`` WebSockets at ``url`` (each with its ``headers``); those opened, and the HTTP status of each
    refused one."""
    opened, refused = [], []
    for number in range(count):
        try:
            opened.append(await session.ws_connect(url, headers=headers[number] if headers else None))
        except aiohttp.WSServerHandshakeError as error:
            refused.append(error.status)
    return opened, refused


def test_a_game_and_the_browser_page_work_through_nginx(proxied: Proxied) -> None:
    nginx = proxied.nginx

    async def go() -> None:
        async with from_address("127.0.0.2", nginx.trusted) as session:
            ann = NetPlayer("Ann", nginx.url)
            assert (await ann.connect(session))["type"] == "welcome"
            await ann.send({"type": "lobby"})
            assert (await ann.expect("lobby_list"))["people"] == ["Ann"]
            await ann.send(create(False, ("person", "easy")))
            await ann.expect("table")
            await ann.send({"type": "start"})
            view = await ann.expect("view")
            assert view["view"]["seat"] == 0
            await ann.close()
            async with session.get(f"https://127.0.0.1:{nginx.port}/") as page:
                assert page.status == 200 and "<html" in (await page.text()).lower()
        page = Page(nginx.port, nginx.trusted)
        try:
            await sign_in(page, "Bea")  # the page's socket through nginx, its session's connection straight in
        finally:
            await page.close()
    run(go())


def test_the_page_in_a_real_browser_plays_through_nginx(proxied: Proxied, tmp_path: Path) -> None:
    """Headless Chromium opens the page at nginx's https address (its self-signed certificate let through), types
    a name, and reaches the lobby: the page, its files and its socket all pass through the documented proxy."""
    from tests.browser_driver import Browser, require_browser, wait_until
    from tests.test_web_page import menu, shown, type_line

    require_browser()
    browser = Browser(tmp_path / "profile")
    try:
        browser.driver.execute_cdp_cmd("Security.setIgnoreCertificateErrors", {"ignore": True})
        browser.open(f"https://127.0.0.1:{proxied.nginx.port}/")
        type_line(browser, "Dora")
        wait_until(lambda: not shown(browser, "typing") and menu(browser)[0], "the lobby after the name")
        assert any(item.startswith("Create a table") for item in menu(browser)[0]), menu(browser)
    finally:
        browser.quit()


def test_the_limits_count_each_players_own_address_behind_nginx(proxied: Proxied) -> None:
    """Twenty connections at once from one address: one more from it is refused, one from the next address not,
    and a header the client wrote itself (nginx appends the real address after it) changes nothing."""
    nginx = proxied.nginx

    async def go() -> tuple[list[int], list[int], list[int]]:
        async with from_address("127.0.0.2", nginx.trusted) as full, \
                from_address("127.0.0.3", nginx.trusted) as other, \
                from_address("127.0.0.5", nginx.trusted) as forger:
            held, refused = await open_sockets(full, nginx.url, PER_ADDRESS + 1)
            opened, refused_other = await open_sockets(other, nginx.url, 1)
            assert (await ask(opened[0], hello("Cal")))["type"] == "welcome"
            forged = [{"X-Forwarded-For": f"198.51.100.{n}"} for n in range(PER_ADDRESS + 1)]
            held_forged, refused_forged = await open_sockets(forger, nginx.url, PER_ADDRESS + 1, forged)
            for connection in held + opened + held_forged:
                await connection.close()
            return refused, refused_other, refused_forged
    refused, refused_other, refused_forged = run(go())
    assert refused == [429]
    assert refused_other == []
    assert refused_forged == [429]


def test_browser_tabs_behind_nginx_are_counted_by_their_own_address(proxied: Proxied) -> None:
    """The page's sockets (``/web``) through nginx: twenty tabs at once from one address, and one more from it is
    refused while a tab from the next address is not."""
    nginx = proxied.nginx
    url, origin = f"wss://127.0.0.1:{nginx.port}/web", {"Origin": f"https://127.0.0.1:{nginx.port}"}

    async def go() -> tuple[list[int], list[int]]:
        async with from_address("127.0.0.8", nginx.trusted) as full, from_address("127.0.0.9", nginx.trusted) as other:
            held, refused = await open_sockets(full, url, PER_ADDRESS + 1, [origin] * (PER_ADDRESS + 1))
            opened, refused_other = await open_sockets(other, url, 1, [origin])
            for tab in held + opened:
                await tab.close()
            return refused, refused_other
    assert run(go()) == ([429], [])


def test_a_forged_header_from_a_client_not_behind_the_proxy_is_ignored(proxied: Proxied) -> None:
    """Straight to the server from 127.0.0.4 (not a trusted proxy), each connection naming another address in
    X-Forwarded-For: all are counted as 127.0.0.4."""
    url = proxied.server.url

    async def go() -> list[int]:
        async with from_address("127.0.0.4") as session:
            forged = [{"X-Forwarded-For": f"203.0.113.{n}"} for n in range(PER_ADDRESS + 1)]
            held, refused = await open_sockets(session, url, PER_ADDRESS + 1, forged)
            for connection in held:
                await connection.close()
            return refused
    assert run(go()) == [429]


def test_a_page_of_another_site_cannot_open_the_games_socket(proxied: Proxied) -> None:
    """``/play`` as ``/web``: an Origin of another site is refused, straight or through nginx; the server's own
    page's Origin and a terminal client's none are welcome."""
    nginx, server = proxied.nginx, proxied.server

    async def go() -> None:
        async with from_address("127.0.0.6", nginx.trusted) as session:
            for url, own in ((server.url, f"http://127.0.0.1:{server.port}"),
                             (nginx.url, f"https://127.0.0.1:{nginx.port}")):
                for evil in ("http://evil.example", "null", own.replace("127.0.0.1", "127.0.0.2")):
                    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                        await session.ws_connect(url, headers={"Origin": evil})
                    assert refused.value.status == 403
                for headers in ({"Origin": own}, {}):
                    async with session.ws_connect(url, headers=headers) as socket:
                        assert (await ask(socket, {"type": "ping", "number": 1}))["type"] == "refused"
    run(go())


def test_the_start_says_which_proxy_is_trusted_and_a_wrong_one_is_refused(proxied: Proxied, tmp_path: Path) -> None:
    lines = proxied.server.lines
    assert "Trusting the proxy at 127.0.0.1: each player's address is read from its X-Forwarded-For." in lines
    assert "Only this computer can connect: players come in through the proxy." in lines
    for value in ("nginx", "10.0.0.0/33", "", "1.2.3.4\x1b[2J"):
        done = subprocess.run([str(PROGRAM), "serve", "--data-dir", str(tmp_path / "d"), "--trust-proxy", value],
                              capture_output=True, text=True, timeout=60)
        assert_process_refused(done, "--trust-proxy takes an address or a network, like 127.0.0.1 or 10.0.0.0/8.")
    assert not (tmp_path / "d").exists()


@pytest.mark.parametrize(("peer", "header", "counted"), [
    ("127.0.0.1", "", "127.0.0.1"),  # the proxy's own request
    ("127.0.0.1", "203.0.113.7", "203.0.113.7"),
    ("::ffff:127.0.0.1", " 203.0.113.7 ", "203.0.113.7"),  # an IPv4 peer as an IPv6 socket gives it
    ("127.0.0.1", "2001:db8::1", "2001:db8::1"),
    ("127.0.0.1", "1.1.1.1, 2.2.2.2, 203.0.113.7", "203.0.113.7"),  # a long story told by the client
    ("127.0.0.1", ", ".join(["9.9.9.9"] * 5000) + ", 203.0.113.7", "203.0.113.7"),
    ("127.0.0.1", "127.0.0.1, 127.0.0.1", "127.0.0.1"),  # proxies all the way down: the furthest one
    ("127.0.0.1", "203.0.113.7, [2001:db8::1]:80", "127.0.0.1"),  # not an address: believed no further
    ("127.0.0.1", "203.0.113.7, 10.1.2.3", "203.0.113.7"),  # our second proxy passed it on
    ("127.0.0.1", "203.0.113.7, 10.1.2.3\x00", "127.0.0.1"),
    ("127.0.0.1", "203.0.113.7, \u0661.1.1.1", "127.0.0.1"),  # digits of another script are not an address
    ("127.0.0.1", "x" * 100_000, "127.0.0.1"),
    ("198.51.100.9", "203.0.113.7", "198.51.100.9"),  # not a proxy of ours: its header is its own writing
    ("not an address", "203.0.113.7", "unknown"),
])
def test_the_forwarded_address_is_read_as_hostile_input(peer: str, header: str, counted: str) -> None:
    assert Proxies.of(["127.0.0.1", "10.0.0.0/8"]).client(peer, [header] if header else []) == counted


def test_the_documented_service_units_are_valid(tmp_path: Path) -> None:
    """docs/audiocrib.service, and the nightly backup's service and timer, with their program pointed at this
    installation's (systemd-analyze checks that the program is there), pass ``systemd-analyze verify`` without a
    complaint. Skipped where systemd is not installed, except under CI."""
    analyze = require("systemd-analyze", "to check the service's units", "systemd")
    copies = []
    for name in ("audiocrib.service", "audiocrib-backup.service", "audiocrib-backup.timer"):
        unit = (DOCS / name).read_text()
        assert unit.count("/opt/audiocrib/bin/audiocrib ") == (0 if name.endswith(".timer") else 1), name
        copies.append(tmp_path / name)
        copies[-1].write_text(unit.replace("/opt/audiocrib/bin/audiocrib ", f"{PROGRAM} "))
    done = subprocess.run([analyze, "verify", *map(str, copies)], capture_output=True, text=True, timeout=60)
    said = done.stdout + done.stderr
    assert done.returncode == 0 and not [line for line in said.splitlines() if "audiocrib" in line], said
    assert "--trust-proxy 127.0.0.1" in (DOCS / "audiocrib.service").read_text()  # behind the documented nginx
