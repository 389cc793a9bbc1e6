"""What ``audiocrib serve`` (or a gateway, ``audiocrib web``) serves to a browser: the page at ``/`` (and its files at
``/page/``), the sound cues at ``/sounds/NAME.wav``, and the page's socket at ``/web``; with the same security
headers on every response, the terminal's ``/play`` included.

The files served are found when the server starts, by name: the page's folder as shipped, and one WAV file per
cue of `audiocrib.telling.cues.CUES` in the sounds folder; a path is never taken from a request.
"""

from __future__ import annotations

import ssl
from functools import partial
from pathlib import Path

from aiohttp import web

from audiocrib.client.link import Opener
from audiocrib.server.app import Server
from audiocrib.sound.player import SOUNDS, cue_file
from audiocrib.telling.cues import CUES
from audiocrib.web.gateway import MOST_TABS, Connect, Gateway
from audiocrib.web.local import open_local

__all__ = ["HEADERS", "LOCAL", "PAGE", "SOCKET", "add_gateway", "add_pages", "in_process", "pages_for", "trusting"]

PAGE = Path(__file__).resolve().parent / "page"
"""The page's files, shipped in the package."""
SOCKET = "/web"
LOCAL = "localhost"
"""The server's address as the sessions in its own process name it (never said: a browser's server is fixed)."""
HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
                               "media-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; "
                               "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
"""On every response."""
_TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".wav": "audio/wav",
          ".svg": "image/svg+xml", ".png": "image/png", ".ico": "image/x-icon", ".txt": "text/plain"}
NO_PAGE = "This audiocrib server has no web page installed; connect to it from audiocrib, at /play.\n"


def trusting(certfile: Path | None) -> ssl.SSLContext | None:
    """What a gateway's connections to the server trust: exactly the server's own certificate ``certfile`` (the
    name in it need not be the address the gateway uses, so the name is not checked); None: the system's
    certificates."""
    if certfile is None:
        return None
    context = ssl.create_default_context(cafile=str(certfile))
    context.check_hostname = False
    context.verify_flags |= ssl.VERIFY_X509_PARTIAL_CHAIN  # the server's own certificate is the trust anchor
    return context


def pages_for(most_tabs: int | None = None) -> partial[None] | None:
    """The ``pages`` for `audiocrib.server.serve.serve`: the page, with its sessions in the server's own process,
    taking at most ``most_tabs`` tabs at once (None: `MOST_TABS`; 0: no page, for a server whose page is served by
    gateways, ``audiocrib web``)."""
    if most_tabs == 0:
        return None
    return partial(add_pages, most_tabs=MOST_TABS if most_tabs is None else most_tabs)


def in_process(server: Server) -> Connect:
    """A session's connection inside the server's own process, counted under its browser's address."""
    def connect(remote: str) -> Opener:
        return partial(open_local, server, remote)
    return connect


def _files(folder: Path, suffixes: tuple[str, ...]) -> dict[str, Path]:
    if not folder.is_dir():
        return {}
    return {path.name: path for path in sorted(folder.iterdir())
            if path.is_file() and path.suffix in suffixes and path.name.isascii()}


def add_pages(app: web.Application, server: Server, most_tabs: int = MOST_TABS) -> None:
    """Add the page, its files, the sounds and the page's socket to the server's ``app``, the sessions connected
    to ``server`` inside its process, taking at most ``most_tabs`` tabs at once."""
    add_gateway(app, Gateway(server.limits, in_process(server), LOCAL, None, most_tabs, proxies=server.proxies))


def add_gateway(app: web.Application, gateway: Gateway) -> None:
    """Add the page, its files, the sounds, the page's socket answered by ``gateway`` and the headers to
    ``app`` (the server's, or a gateway process's: `audiocrib.web.standalone`)."""
    page = _files(PAGE, tuple(_TYPES))
    sounds = {cue_file(cue): SOUNDS / cue_file(cue) for cue in CUES}
    sounds = {name: path for name, path in sounds.items() if path.is_file()}

    async def front(request: web.Request) -> web.StreamResponse:
        if "index.html" not in page:
            return web.Response(text=NO_PAGE)
        return _file(page["index.html"], "no-cache")

    async def page_file(request: web.Request) -> web.StreamResponse:
        found = page.get(request.match_info["name"])
        if found is None:
            raise web.HTTPNotFound(text="No such file.\n")
        return _file(found, "no-cache")

    async def sound(request: web.Request) -> web.StreamResponse:
        found = sounds.get(request.match_info["name"])
        if found is None:
            raise web.HTTPNotFound(text="No such sound.\n")
        return _file(found, "max-age=3600")

    async def headers(request: web.Request, response: web.StreamResponse) -> None:
        response.headers.update(HEADERS)

    async def closing(_app: web.Application) -> None:
        await gateway.close_all()

    app.router.add_get("/", front)
    app.router.add_get("/page/{name}", page_file)
    app.router.add_get("/sounds/{name}", sound)
    app.router.add_get(SOCKET, gateway.handle)
    app.on_response_prepare.append(headers)
    app.on_shutdown.insert(0, closing)


def _file(path: Path, cache: str) -> web.FileResponse:
    response = web.FileResponse(path, headers={"Cache-Control": cache,
                                               "Content-Type": _TYPES.get(path.suffix, "application/octet-stream")})
    return response
