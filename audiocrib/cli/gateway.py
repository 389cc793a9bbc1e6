"""``audiocrib web``: the command line of a gateway process (`audiocrib.web.standalone`), which serves the browser
page for a server elsewhere; every value checked, every mistake one sentence.
"""

from __future__ import annotations

import argparse
import re
from functools import partial
from pathlib import Path
from typing import Any

from audiocrib.cli.usage import UsageError, bad, shown, whole

__all__ = ["DEFAULT_PORT", "add_web", "web"]

DEFAULT_PORT = 8121
"""The gateway's port unless told (the server's is 4121)."""
_HOST = re.compile(r"[A-Za-z0-9.:_-]{1,253}")
MOST_TABS = "--most-tabs takes a number of browser tabs from 1 to 100000, not {}."


def add_web(commands: Any) -> None:
    """The ``web`` command's parser, among ``commands``."""
    web = commands.add_parser("web", help="serve the browser page for a server elsewhere, as one of its gateways:"
                              " audiocrib web --server ADDRESS")
    web.add_argument("--server", required=True, metavar="ADDRESS", help="the server the browsers play on, as"
                     " audiocrib online takes it (like 127.0.0.1:4121, or wss://cribbage.example.org)")
    web.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this"
                     " computer only, behind a proxy; 0.0.0.0 for every address)")
    web.add_argument("--port", default=str(DEFAULT_PORT), help=f"the port (default {DEFAULT_PORT}; 0 picks a free"
                     " one)")
    web.add_argument("--trust-proxy", metavar="ADDRESS", action="append", default=[], help="a reverse proxy's"
                     " address or network (repeatable): its X-Forwarded-For names each browser's address")
    web.add_argument("--certfile", metavar="FILE", help="a TLS certificate (PEM): the page is https")
    web.add_argument("--keyfile", metavar="FILE", help="the certificate's private key (PEM)")
    web.add_argument("--server-cert", metavar="FILE", help="the server's own certificate (PEM), the only one the"
                     " sessions' connections trust (default: the system's certificates)")
    web.add_argument("--most-tabs", metavar="N", help="browser tabs this gateway takes at once (default 500)")


def web(args: argparse.Namespace) -> int:
    """Check ``audiocrib web``'s values and run the gateway."""
    from audiocrib.client.address import read_address
    from audiocrib.server.proxy import Proxies
    from audiocrib.server.serve import ServeError, check_file
    from audiocrib.web.gateway import MOST_TABS as DEFAULT_TABS

    try:
        address = read_address(args.server)
    except ValueError as error:
        raise UsageError(f"--server: {error}") from None
    if _HOST.fullmatch(args.host) is None:
        raise bad("--host", args.host)
    port = whole("--port", args.port, 0, 65535)
    if (args.certfile is None) != (args.keyfile is None):
        raise UsageError("Give --certfile and --keyfile together: the certificate and its private key.")
    if args.server_cert is not None and not address.secure:
        raise UsageError("--server-cert is for a server reached with TLS; give its address as wss://.")
    try:
        for option, value in (("--certfile", args.certfile), ("--keyfile", args.keyfile),
                              ("--server-cert", args.server_cert)):
            if value is not None:
                check_file(option, value)
    except ServeError as error:
        raise UsageError(str(error)) from None
    try:
        proxies = Proxies.of(args.trust_proxy)
    except ValueError as error:
        raise UsageError(str(error)) from None
    most_tabs = DEFAULT_TABS
    if args.most_tabs is not None:
        try:
            most_tabs = whole("--most-tabs", args.most_tabs, 1, 100_000)
        except UsageError:
            raise UsageError(MOST_TABS.format(shown(args.most_tabs))) from None

    from audiocrib.web.standalone import GatewayError, GatewaySettings, run_gateway

    certfile, keyfile, server_cert = (None if f is None else Path(f)
                                      for f in (args.certfile, args.keyfile, args.server_cert))
    settings = GatewaySettings(args.server.strip(), args.host, port, certfile, keyfile, server_cert, most_tabs,
                               proxies)
    try:
        return run_gateway(settings, partial(print, flush=True))
    except GatewayError as error:
        raise UsageError(str(error)) from None
