"""A proxy in front of the real API that misbehaves on request: it answers a planned status without
forwarding, forwards a write and then drops the connection before answering (so the write happened
but the client never heard), or cuts an event stream after some events. Everything else passes
through, and every request it saw is kept, so a test can read the headers each try sent."""

from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx

_HOP = {
    "host",
    "content-length",
    "connection",
    "transfer-encoding",
    "accept-encoding",
    "keep-alive",
}


@dataclass(frozen=True)
class Fault:
    """What the proxy does to one request: ``answer`` a status, ``drop`` after forwarding, or
    ``cut`` an event stream after ``events`` events."""

    kind: str
    status: int = 503
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    events: int = 0


def answer(status: int, body: bytes = b"", **headers: str) -> Fault:
    return Fault(
        "answer",
        status=status,
        body=body,
        headers={k.replace("_", "-"): v for k, v in headers.items()},
    )


def drop_after_forwarding() -> Fault:
    return Fault("drop")


def cut_after(events: int) -> Fault:
    return Fault("cut", events=events)


@dataclass(frozen=True)
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    at: float
    #: The upstream's answer, when the proxy forwarded it (None for a planned answer).
    status: int | None
    #: The upstream's answer was a replay of an earlier one with the same Idempotency-Key.
    replayed: bool = False


class FaultyProxy:
    def __init__(self, upstream: str) -> None:
        self.upstream = upstream.rstrip("/")
        self.seen: list[Seen] = []
        self._plan: list[tuple[str, Fault]] = []
        self._lock = threading.Lock()
        #: The upstream event streams' sockets, shut with the proxy so no stream outlives a test
        #: (a socket closed under a blocked read stays open; a shut one wakes the read).
        self._streams: set[socket.socket] = set()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def plan(self, path_prefix: str, *faults: Fault) -> None:
        """The next requests whose path starts with ``path_prefix`` get these faults, in order."""
        with self._lock:
            self._plan.extend((path_prefix, fault) for fault in faults)

    def requests(self, path_prefix: str) -> list[Seen]:
        with self._lock:
            return [s for s in self.seen if s.path.startswith(path_prefix)]

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        with self._lock:
            streams, self._streams = self._streams, set()
        for sock in streams:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass  # Closed already.

    def _next_fault(self, path: str) -> Fault | None:
        with self._lock:
            for i, (prefix, fault) in enumerate(self._plan):
                if path.startswith(prefix):
                    del self._plan[i]
                    return fault
        return None

    def _record(self, seen: Seen) -> None:
        with self._lock:
            self.seen.append(seen)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                self._relay()

            do_POST = do_PUT = do_PATCH = do_DELETE = do_GET

            def _relay(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else None
                headers = {k.lower(): v for k, v in self.headers.items()}
                fault = proxy._next_fault(self.path)
                now = time.monotonic()
                if fault is not None and fault.kind == "answer":
                    proxy._record(Seen(self.command, self.path, headers, now, None))
                    self.send_response(fault.status)
                    for name, value in fault.headers.items():
                        self.send_header(name, value)
                    self.send_header("content-length", str(len(fault.body)))
                    self.end_headers()
                    self.wfile.write(fault.body)
                    return
                forward = {k: v for k, v in headers.items() if k not in _HOP}
                url = proxy.upstream + self.path
                if headers.get("accept") == "text/event-stream":
                    self._stream(url, forward, headers, now, fault)
                    return
                with httpx.Client(timeout=30) as client:
                    reply = client.request(self.command, url, headers=forward, content=body)
                replayed = reply.headers.get("idempotent-replayed") == "true"
                proxy._record(
                    Seen(self.command, self.path, headers, now, reply.status_code, replayed)
                )
                if fault is not None and fault.kind == "drop":
                    self.close_connection = True
                    return  # The write happened upstream; the client hears nothing.
                self.send_response(reply.status_code)
                for name, value in reply.headers.items():
                    if name.lower() not in _HOP and name.lower() != "content-encoding":
                        self.send_header(name, value)
                self.send_header("content-length", str(len(reply.content)))
                self.end_headers()
                self.wfile.write(reply.content)

            def _stream(
                self,
                url: str,
                forward: dict[str, str],
                headers: dict[str, str],
                now: float,
                fault: Fault | None,
            ) -> None:
                limit = fault.events if fault is not None and fault.kind == "cut" else None
                client = httpx.Client(timeout=httpx.Timeout(30, read=None))
                upstream: socket.socket | None = None
                try:
                    with client.stream("GET", url, headers=forward) as reply:
                        upstream = reply.extensions["network_stream"].get_extra_info("socket")
                        with proxy._lock:
                            proxy._streams.add(upstream)
                        proxy._record(Seen("GET", self.path, headers, now, reply.status_code))
                        self.send_response(reply.status_code)
                        self.send_header("content-type", reply.headers.get("content-type", ""))
                        self.end_headers()
                        self.close_connection = True
                        buffered, sent = "", 0
                        for chunk in reply.iter_text():
                            buffered += chunk
                            *frames, buffered = buffered.split("\n\n")
                            for frame in frames:
                                self.wfile.write((frame + "\n\n").encode())
                                self.wfile.flush()
                                if "\nid: " in "\n" + frame:
                                    sent += 1
                                    if limit is not None and sent >= limit:
                                        return  # Cut: the connection closes mid-stream.
                except (OSError, httpx.HTTPError, RuntimeError):
                    return  # The client went away, or the proxy closed.
                finally:
                    if upstream is not None:
                        with proxy._lock:
                            proxy._streams.discard(upstream)
                    client.close()

        return Handler
