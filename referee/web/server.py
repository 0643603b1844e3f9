"""The live server: gevent's WSGI server, one event loop for every phone.

A phone waiting for news (a long-poll) is a greenlet parked on the game's condition, not
an OS thread, so a thousand phones cost memory, not threads; a move or a page is served
between their wake-ups. `referee serve` monkey-patches the standard library first, so the
app's locks and waits (`Tables.wait`) are the event loop's.

Each request's environ carries `referee.client_gone`: whether the phone has closed its
connection (a peek at the socket), so a phone that left frees its place at once.
"""

from __future__ import annotations

import resource
import socket
from typing import Any

from gevent.pywsgi import WSGIHandler, WSGIServer

from . import CLIENT_GONE


class Handler(WSGIHandler):  # type: ignore[misc]
    def handle(self) -> None:
        # An answer's headers and body leave in separate writes: without TCP_NODELAY the
        # body waits for the phone's delayed ACK (40 ms a move).
        self.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        super().handle()

    def get_environ(self) -> dict[str, Any]:
        environ: dict[str, Any] = super().get_environ()
        environ[CLIENT_GONE] = lambda: closed(self.socket)
        return environ


def closed(sock: Any) -> bool:
    """Whether the peer has closed: a peek that would block means the phone is still there."""
    real = getattr(sock, "_sock", sock)  # gevent's socket wraps the OS socket; peek without yielding
    try:
        return real.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def listen(app: Any, host: str, port: int) -> WSGIServer:
    """A bound server for `app` (it serves once `serve_forever` runs); raises OSError when
    the port is taken. Open files are raised to the system's limit: each phone holds one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    server = WSGIServer((host, port), app, handler_class=Handler, log=None, backlog=2048)
    server.init_socket()
    return server
