"""A tar-pit HTTP receiver on loopback: it takes a request, then answers one byte every few
seconds and never finishes. Used by the webhook tests and by bench/webhooks.py."""

from __future__ import annotations

import socket
import threading
import time


class TarPit:
    """Listens on a free loopback port; each connection gets ``b"HTTP/1.1 200 OK..."`` one byte
    every ``every`` seconds, until the client hangs up. ``held`` records, per connection, the
    seconds from its accept to the client hanging up."""

    def __init__(self, every: float = 3.0) -> None:
        self.every = every
        self.held: list[float] = []
        self.open = 0
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self.listener = socket.create_server(("127.0.0.1", 0), backlog=128)
        self.port = self.listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/hooks"
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._closing.is_set():
            try:
                connection, _ = self.listener.accept()
            except OSError:  # closed
                return
            threading.Thread(target=self._trickle, args=(connection,), daemon=True).start()

    def _trickle(self, connection: socket.socket) -> None:
        accepted = time.monotonic()
        with self._lock:
            self.open += 1
        answer = b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n" + b"x" * 1000
        try:
            connection.recv(65536)  # the request (small: one read takes it)
            for byte in answer:
                connection.sendall(bytes([byte]))
                # the client hung up: a readable socket with nothing to read
                connection.settimeout(self.every)
                try:
                    if connection.recv(1) == b"":
                        break
                except TimeoutError:
                    pass
                if self._closing.is_set():
                    break
        except OSError:  # reset by the client
            pass
        finally:
            connection.close()
            with self._lock:
                self.open -= 1
                self.held.append(time.monotonic() - accepted)

    def close(self) -> None:
        self._closing.set()
        self.listener.close()
