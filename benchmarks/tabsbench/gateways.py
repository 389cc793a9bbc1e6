"""The gateway processes under measure: ``audiocrib web --server ...`` beside a server that leaves its page to them
(``serve --most-tabs 0 --trust-proxy 127.0.0.1``), each read from /proc as the server is."""

from __future__ import annotations

import subprocess
import sys

from serverbench.process import PROGRAM, Measured


class Gateway(Measured):
    """A running ``audiocrib web`` on a free loopback port, for the server on ``server_port``, taking at most
    ``most_tabs`` tabs."""

    def __init__(self, server_port: int, most_tabs: int) -> None:
        self.process = subprocess.Popen([str(PROGRAM), "web", "--server", f"ws://127.0.0.1:{server_port}", "--port",
                                         "0", "--most-tabs", str(most_tabs)],
                                        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True)
        assert self.process.stdout is not None
        first = self.process.stdout.readline()
        if not first.startswith("audiocrib gateway listening on 127.0.0.1, port "):
            said = self.process.stderr.read() if self.process.stderr else ""
            raise SystemExit(f"The gateway did not start: {first!r} {said}")
        self.port = int(first.rsplit(" ", 1)[1].rstrip(".\n"))
        print(f"gateway started: process {self.process.pid}, port {self.port}", file=sys.stderr, flush=True)

    def stop(self) -> str:
        self.process.terminate()
        _, err = self.process.communicate(timeout=60)
        return err
