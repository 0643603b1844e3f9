"""The live server: gevent's WSGI server, one event loop for every phone.

A phone waiting for news (a long-poll) is a greenlet parked on the game's condition, not
an OS thread, so a thousand phones cost memory, not threads; a move or a page is served
between their wake-ups. `referee serve` monkey-patches the standard library first, so the
app's locks and waits (`Tables.wait`) are the event loop's.

Each request's environ carries `referee.client_gone`: whether the phone has closed its
connection (a peek at the socket), so a phone that left frees its place at once.

No client stalls the room (`Limits`, with gevent's own means: its sockets' timeouts,
`gevent.Timeout`, `gevent.sleep`). A connection waiting for its next request is closed
after `idle` seconds (a long-poll is a request being served, never idle); a request line
and headers must be in within `header` seconds of their first byte; a body that stops
coming, or an answer the client does not read, is given up after `transfer` seconds; a
whole body must be in within `body` seconds of the headers, however it trickles (a byte
every few seconds keeps each read in time and would hold the connection for days).
A connection is answered at most AHEAD requests in a row that it sent before the answer
to the one before was written (pipelined; browsers never do), then closed; the kernel
keeps little unsent beyond what the client's window takes (TCP_NOTSENT_LOWAT), so a
client that does not read has its write block, and time out, all the sooner. After each
answer a connection yields its turn (not until the loop is idle: a flood of connects
would then starve the phones that are already in), so one client cannot starve the
others. Past `connections` open connections (kept below the open-file limit, where accept
would fail and back off for everyone), or past `per_address` from the connection's
address, a new one is answered 503 at once and closed.

A connection that says nothing does not reach the event loop for a while (Linux:
TCP_DEFER_ACCEPT, as nginx's `deferred`): the kernel hands it over once its request's
first bytes are in, or once the idle timeout has passed without any (rounded up to the
kernel's SYN-ACK retries: 1, 3, 7, 15 s), and then the idle timeout applies as to any.
One client holding 20,000 idle connections cost the phone at another table seconds a
request while each was accepted, given a greenlet, timed out and reopened at once;
deferred and capped per address, they cost the server little (docs/deploy.md). Gevent's
`max_accept` (accepts a turn) was tried lower too: no difference once they are deferred.
"""

from __future__ import annotations

import math
import resource
import socket
import time
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

import gevent
from gevent.pywsgi import WSGIHandler, WSGIServer

from . import CLIENT_GONE

UNSENT = 16 * 1024  # bytes the kernel may hold unsent for a connection before a write waits
AHEAD = 2  # pipelined requests in a row a connection is answered; then it is closed
SPARE_FILES = 256  # open files kept for the store, logs and the listening socket
BUSY = "Too many connections; try again in a moment.\nZu viele Verbindungen; bitte gleich noch einmal versuchen.\n".encode()
REFUSED = (b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n"
           b"Content-Length: %d\r\n\r\n%s" % (len(BUSY), BUSY))


@dataclass(frozen=True)
class Limits:
    idle: float = 5.0  # seconds a connection may wait between requests
    header: float = 5.0  # seconds for a request line and headers, from their first byte
    transfer: float = 10.0  # seconds a body or an answer may stand still
    connections: int = 10_000  # open connections at once
    per_address: int = 1_000  # open connections at once from one address; 0: no cap (behind a reverse proxy, all are the proxy's)
    body: float = 30.0  # seconds a request's whole body may take, from the end of its headers


class Body:
    """A request's body (gevent's `wsgi.input`) that must be in by `deadline` (monotonic):
    each read is given what time is left, and past it raises the same TimeoutError a body
    that stands still does (the app answers it 400)."""

    def __init__(self, body: Any, deadline: float) -> None:
        self.body, self.deadline = body, deadline

    def _in_time(self, read: Any, *args: Any) -> Any:
        late = TimeoutError("the request's body took too long")
        with gevent.Timeout(max(0.0, self.deadline - time.monotonic()), late):
            return read(*args)

    def read(self, *args: Any) -> bytes:
        return self._in_time(self.body.read, *args)  # type: ignore[no-any-return]

    def readline(self, *args: Any) -> bytes:
        return self._in_time(self.body.readline, *args)  # type: ignore[no-any-return]

    def readlines(self, *args: Any) -> list[bytes]:
        return self._in_time(self.body.readlines, *args)  # type: ignore[no-any-return]

    def __iter__(self) -> Any:
        return iter(self.readline, b"")


class Handler(WSGIHandler):  # type: ignore[misc]
    server: Server
    ahead = 0  # requests in a row that came in before the answer to the one before
    pipelined = False  # whether the next request came in before this answer's last write

    def handle(self) -> None:
        # An answer's headers and body leave in separate writes: without TCP_NODELAY the
        # body waits for the phone's delayed ACK (40 ms a move).
        self.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if hasattr(socket, "TCP_NOTSENT_LOWAT"):  # Linux and macOS
            self.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NOTSENT_LOWAT, UNSENT)
        super().handle()

    def handle_one_request(self) -> Any:
        limits = self.server.limits
        self.socket.settimeout(limits.idle)
        try:
            self.rfile.peek(1)  # the next request's first byte (at once when it was pipelined)
        except OSError:  # idle too long, or gone
            return None
        self.pipelined, self.head = False, gevent.Timeout(limits.header)
        self.head.start()
        try:
            answered = super().handle_one_request()
        except gevent.Timeout as late:
            if late is not self.head:
                raise
            return None
        finally:
            self.head.close()
        if answered is True and self.pipelined:
            self.ahead += 1
            if self.ahead > AHEAD:
                return None  # it sends without reading: read no more from it
        else:
            self.ahead = 0
        gevent.sleep(0)  # one answer per turn: the other connections that are ready go first
        return answered

    def _sendall(self, data: bytes) -> None:
        # Before this write the client cannot have the whole answer: a next request already
        # in was sent ahead of it (after the last write, the client may already have asked anew).
        self.socket.settimeout(0)
        try:
            self.pipelined = bool(self.rfile.peek(1))
        except OSError:
            self.pipelined = False
        self.socket.settimeout(self.server.limits.transfer)
        super()._sendall(data)

    def get_environ(self) -> dict[str, Any]:
        self.head.close()  # the head is in; from here on the body and the answer may not stand still
        self.socket.settimeout(self.server.limits.transfer)
        environ: dict[str, Any] = super().get_environ()
        environ[CLIENT_GONE] = lambda: closed(self.socket)
        environ["wsgi.input"] = Body(environ["wsgi.input"], time.monotonic() + self.server.limits.body)
        return environ


class Server(WSGIServer):  # type: ignore[misc]
    def __init__(self, *args: Any, limits: Limits, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.limits, self.open, self.from_address = limits, 0, Counter[str]()

    def init_socket(self) -> None:
        super().init_socket()
        if hasattr(socket, "TCP_DEFER_ACCEPT"):  # Linux: a connection is handed over once its first bytes are in
            self.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_DEFER_ACCEPT, math.ceil(self.limits.idle))

    def do_handle(self, sock: Any, address: Any) -> None:
        here, per_address = address[0], self.limits.per_address
        if self.open >= self.limits.connections or (per_address and self.from_address[here] >= per_address):  # at once: no greenlet
            try:
                sock._sock.send(REFUSED, socket.MSG_DONTWAIT)
            except OSError:
                pass
            sock.close()
            return
        self.open += 1
        self.from_address[here] += 1
        super().do_handle(sock, address)

    def handle(self, sock: Any, address: Any) -> None:
        try:
            super().handle(sock, address)
        finally:
            self.open -= 1
            self.from_address[address[0]] -= 1
            if not self.from_address[address[0]]:
                del self.from_address[address[0]]


def closed(sock: Any) -> bool:
    """Whether the peer has closed: a peek that would block means the phone is still there."""
    real = getattr(sock, "_sock", sock)  # gevent's socket wraps the OS socket; peek without yielding
    try:
        return real.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def listen(app: Any, host: str, port: int, limits: Limits = Limits()) -> WSGIServer:
    """A bound server for `app` (it serves once `serve_forever` runs); raises OSError when
    the port is taken. Open files are raised to the system's limit (each phone holds one),
    and the connections are capped below it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        soft = hard
    if soft != resource.RLIM_INFINITY and limits.connections > soft - SPARE_FILES:
        limits = replace(limits, connections=max(1, soft - SPARE_FILES))
    server = Server((host, port), app, handler_class=Handler, log=None, backlog=2048, limits=limits)
    server.init_socket()
    return server
